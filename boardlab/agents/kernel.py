"""The search's own inner loops, compiled when a compiler is at hand: the tree nodes, UCT
selection and expansion, progressive widening, the loss proofs, the random rollouts and
backpropagation of :mod:`.mcts` and :mod:`.ismcts`.

Once a game's rules are compiled, the search's bookkeeping is a large share of an
iteration, so it is compiled too (mypyc). The agents (:class:`.mcts.MctsAgent`,
:class:`.ismcts.IsmctsAgent`) keep their settings and call these functions; the games are
reached only through the :class:`~boardlab.core.state.State` protocol.

Compiled and run as plain Python the searches must be the same bit for bit, since seeded
games depend on them: random numbers are drawn in the same order, floats are computed in
the same order (``value / visits + scale / sqrt(visits)``), and ties go to the first child
in creation order. Every type below is concrete for that reason and for the compiler.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol, TypeVar

from ..core import values
from ..core.state import State
from ..core.values import Move, Player

_Class = TypeVar("_Class")

try:
    from mypy_extensions import i64, mypyc_attr
except ImportError:  # the compiler's hints; without mypy the module runs as Python, where i64 is int

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_Class], _Class]:
        return lambda cls: cls

    i64 = int  # type: ignore[misc]

#: the protocol's sentinels as compile-time constants (a plain module global is looked up on every use)
CHANCE: Final[Player] = values.CHANCE
TERMINAL: Final[Player] = values.TERMINAL

#: how often (in iterations) a search checks whether its decision is settled
SETTLE_CHECK_EVERY: Final = 128


class Budget(Protocol):
    """What the search loops ask of their budget (:class:`.search.SearchBudget`)."""

    def exhausted(self, done: int) -> bool: ...

    def remaining(self, done: int) -> float: ...


@mypyc_attr(acyclic=True)
class Vertex:
    """One position of an MCTS tree, as the search keeps it: statistics and the range of the
    tree's edge arrays that holds its moves.

    ``mover`` is the player whose move (or CHANCE, whose outcome) led here, and ``value`` sums
    that player's returns over the ``visits`` through this vertex; ``mean`` (``value / visits``)
    and ``visits_root`` (``sqrt(visits)``) are kept by :func:`backpropagate` for UCB1, which reads
    them for every child at every step. A decision vertex's moves take ``edge_count`` slots of the
    tree's edge arrays from ``edge_start`` (-1 until the first visit generates them): the untried
    moves first, in the order the search draws them from, then the children from the last slot
    backwards in the order they were made (the k-th child at ``edge_start + edge_count - 1 - k``),
    so that trying a move turns its slot into the child's. A chance vertex keeps ``outcomes``.
    ``parent`` (the vertex it was made from), ``winning`` (a child whose move wins on the spot for
    the player to move here) and ``index`` are positions in the tree's list of vertices.

    Vertices refer to vertices by index, never by reference, so they form no cycles: the collector
    need not follow them (``acyclic``), which spares a search most of its collections.
    """

    __slots__ = ("edge_count", "edge_start", "expanded", "index", "lost", "mean", "move", "mover", "outcomes",
                 "parent", "to_move", "value", "visits", "visits_root", "winning")

    def __init__(self, index: i64, parent: i64, move: Move | None, mover: Player, to_move: Player) -> None:
        self.index = index
        self.parent = parent
        self.move = move
        self.mover = mover
        self.to_move = to_move
        self.edge_start: i64 = -1
        self.edge_count: i64 = 0
        self.expanded: i64 = 0
        self.outcomes: dict[Move, Vertex] | None = {} if to_move == CHANCE else None
        self.winning: i64 = -1
        #: proven: the move into this vertex loses for its mover (two-player games, see prove_loss)
        self.lost = False
        self.visits: i64 = 0
        self.value = 0.0
        self.mean = 0.0
        self.visits_root = 0.0

    def untried(self) -> i64:
        """How many of its moves are not tried yet (0 before they are generated)."""
        return self.edge_count - self.expanded


class Tree:
    """An MCTS tree (a graph with transpositions) held in arrays: ``vertices`` by index (the root
    is 0), and per edge slot the move (``edge_moves``) and the child it leads to, once tried
    (``edge_children``). :class:`Vertex` says how a vertex's slots are laid out.
    """

    __slots__ = ("edge_children", "edge_moves", "vertices", "views")

    def __init__(self, to_move: Player) -> None:
        self.vertices: list[Vertex] = [Vertex(0, -1, None, CHANCE, to_move)]
        self.edge_moves: list[Move] = []
        self.edge_children: list[Vertex | None] = []
        #: the Node view of each vertex asked for (one per vertex, so views compare by identity)
        self.views: dict[int, Node] = {}

    def add(self, parent: Vertex, move: Move, mover: Player, to_move: Player) -> Vertex:
        """A new vertex reached from ``parent`` by ``move``."""
        vertex = Vertex(len(self.vertices), parent.index, move, mover, to_move)
        self.vertices.append(vertex)
        return vertex

    def open(self, vertex: Vertex, moves: list[Move]) -> None:
        """Give ``vertex`` its untried ``moves`` (in the order the search draws them from)."""
        vertex.edge_start = len(self.edge_moves)
        vertex.edge_count = len(moves)
        self.edge_moves.extend(moves)
        for _ in range(len(moves)):
            self.edge_children.append(None)

    def child(self, vertex: Vertex, k: i64) -> Vertex:
        """The ``k``-th child ``vertex`` made (0 = the first)."""
        found = self.edge_children[vertex.edge_start + vertex.edge_count - 1 - k]
        assert found is not None
        return found

    def child_move(self, vertex: Vertex, k: i64) -> Move:
        """The move from ``vertex`` to its ``k``-th child."""
        return self.edge_moves[vertex.edge_start + vertex.edge_count - 1 - k]

    def link(self, vertex: Vertex, slot: i64, move: Move, child: Vertex) -> None:
        """The untried ``move`` in ``slot`` was tried and leads to ``child``: the last untried slot
        becomes the new child's (the move that was there takes ``slot``)."""
        last = vertex.edge_start + vertex.untried() - 1
        moves = self.edge_moves
        moves[slot] = moves[last]
        moves[last] = move
        self.edge_children[last] = child
        vertex.expanded += 1

    def root(self) -> Node:
        return self.view(0)

    def view(self, index: int) -> Node:
        """The :class:`Node` of the vertex ``index`` (the same object every time)."""
        known = self.views.get(index)
        if known is None:
            known = Node(self, index)
            self.views[index] = known
        return known


class Node:
    """A vertex of a searched :class:`Tree` as the rest of the code reads it (the agents' choice,
    the analysis, tests): its statistics, its children in the order they were made with the move
    to each (``children``, ``child_moves``), its chance outcomes (``outcome_children``) and
    ``winning``. Read only; the search itself works on the arrays."""

    __slots__ = ("index", "tree")

    def __init__(self, tree: Tree, index: int) -> None:
        self.tree = tree
        self.index = index

    @property
    def vertex(self) -> Vertex:
        return self.tree.vertices[self.index]

    @property
    def visits(self) -> int:
        return self.vertex.visits

    @property
    def value(self) -> float:
        return self.vertex.value

    @property
    def mean(self) -> float:
        return self.vertex.mean

    @property
    def visits_root(self) -> float:
        return self.vertex.visits_root

    @property
    def mover(self) -> Player:
        return self.vertex.mover

    @property
    def to_move(self) -> Player:
        return self.vertex.to_move

    @property
    def lost(self) -> bool:
        return self.vertex.lost

    @property
    def move(self) -> Move | None:
        """The move this vertex was first reached by (another path may reach it by another)."""
        return self.vertex.move

    @property
    def parent(self) -> Node | None:
        parent = self.vertex.parent
        return None if parent < 0 else self.tree.view(parent)

    @property
    def winning(self) -> Node | None:
        winning = self.vertex.winning
        return None if winning < 0 else self.tree.view(winning)

    @property
    def children(self) -> list[Node]:
        """Its children in the order they were made (a transposition's shared vertex included)."""
        tree = self.tree
        vertex = self.vertex
        return [tree.view(tree.child(vertex, k).index) for k in range(vertex.expanded)]

    @property
    def child_moves(self) -> list[Move]:
        """The move to each of :attr:`children`, in the same order."""
        tree = self.tree
        vertex = self.vertex
        return [tree.child_move(vertex, k) for k in range(vertex.expanded)]

    @property
    def untried(self) -> list[Move] | None:
        """The moves not tried yet, in the order the search draws them from; None before the first visit."""
        vertex = self.vertex
        if vertex.edge_start < 0:
            return None
        return self.tree.edge_moves[vertex.edge_start:vertex.edge_start + vertex.untried()]

    @property
    def outcome_children(self) -> dict[Move, Node] | None:
        outcomes = self.vertex.outcomes
        if outcomes is None:
            return None
        return {outcome: self.tree.view(child.index) for outcome, child in outcomes.items()}


class InfoNode:
    """A sequence of moves from the ISMCTS root, shared by every determinization that allows it.

    ``mover`` is the player who made the last move (CHANCE for an outcome);
    ``value`` sums that player's returns over ``visits``; ``availability`` counts
    the selections at the parent in which this move was legal (a whole number kept as a
    float, which is what UCB1's logarithm takes).
    """

    __slots__ = ("availability", "children", "move", "mover", "parent", "value", "visits")

    def __init__(self, parent: InfoNode | None, move: Move | None, mover: Player) -> None:
        self.parent = parent
        self.move = move
        self.mover = mover
        self.children: dict[Move, InfoNode] = {}
        self.visits = 0
        self.availability = 1.0
        self.value = 0.0


def settled(visit_counts: Sequence[int], budget: Budget, done: int) -> bool:
    """Whether the most visited move can no longer be overtaken in the budget left: then more
    search cannot change the decision (so stopping keeps a seeded search's choice)."""
    if len(visit_counts) < 2:
        return len(visit_counts) == 1
    first = 0
    second = 0
    for visits in visit_counts:
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > budget.remaining(done)


def uniform_returns(num_players: int) -> tuple[float, ...]:
    """The returns of a full draw: what an unfinished, unscorable game is worth."""
    share = 1.0 / num_players
    return (share,) * num_players


def rollout(state: State, rng: random.Random, depth_limit: int, decisive: bool = False) -> Sequence[float]:
    """Play random moves from ``state`` (mutating it) and return per-player returns.

    Stops at the end of the game, or after ``depth_limit`` moves (chance outcomes
    included; 0 = no limit) when the game's ``evaluate()`` scores the position.
    A game without an evaluation is played out; one that passes its own
    ``max_moves`` bound (a broken rule set) scores as a full draw.
    ``decisive``: a move the game names by ``State.winning_move()`` is played instead
    of a random one (games that implement the hook; see :func:`.search.names_winning_moves`).
    Cost: one ``legal_moves()`` and one ``apply()`` per move.
    """
    uniform_random = rng.random
    # every apply below adds one ply: the game's bound is this many moves away
    moves_left = state.game.max_moves - state.ply
    can_evaluate = depth_limit > 0
    depth = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state.returns()
        if can_evaluate and depth >= depth_limit:
            estimate = state.evaluate()
            if estimate is not None:
                return estimate
            can_evaluate = False  # no evaluation here: play on to the end
        if depth >= moves_left:
            return uniform_returns(state.game.num_players)
        if player == CHANCE:
            move = state.sample_chance(rng)
        else:
            win = state.winning_move() if decisive else None
            if win is None:
                moves = state.legal_moves()
                move = moves[int(uniform_random() * len(moves))]
            else:
                move = win
        state.apply(move)
        depth += 1


def backpropagate(path: list[Vertex], returns: Sequence[float]) -> None:
    """Add one visit and the returns of each vertex's mover to every vertex of ``path`` (the
    root first; the root and chance outcomes, whose mover is negative, keep no value).
    The path, not the ``parent`` links: a vertex shared by transpositions has several parents."""
    for vertex in path:
        visits = vertex.visits + 1
        vertex.visits = visits
        # float(): compiled, math.sqrt is then C's on a double (Python converts the int the same way)
        vertex.visits_root = math.sqrt(float(visits))
        mover = vertex.mover
        if mover >= 0:
            value = vertex.value + returns[mover]
            vertex.value = value
            vertex.mean = value / float(visits)  # float(): i64 and float do not mix, and Python converts alike


def backpropagate_info(node: InfoNode | None, returns: Sequence[float]) -> None:
    """:func:`backpropagate` for the ISMCTS tree."""
    while node is not None:
        node.visits += 1
        mover = node.mover
        if mover >= 0:
            node.value += returns[mover]
        node = node.parent


def prove_loss(tree: Tree, vertex: Vertex) -> None:
    """The solver step, for two players taking turns: ``vertex`` was just proven lost for its
    mover. When every move at its parent is proven lost, the parent is won for whoever moved
    into it, which makes the grandparent's move into it a win there, and so on up the tree.
    A chance vertex, or a move that does not pass the turn, ends the proof."""
    vertices = tree.vertices
    while True:
        if vertex.parent < 0:
            return
        parent = vertices[vertex.parent]
        if parent.to_move < 0 or parent.edge_start < 0 or parent.untried():
            return
        for k in range(parent.expanded):
            if not tree.child(parent, k).lost:
                return
        if parent.parent < 0 or parent.mover < 0 or parent.mover == parent.to_move:
            return
        grandparent = vertices[parent.parent]
        if grandparent.winning < 0:
            grandparent.winning = parent.index
        if grandparent.mover < 0 or grandparent.mover == grandparent.to_move or grandparent.lost:
            return
        grandparent.lost = True
        vertex = grandparent


def one_ply(state: State, move: Move, mover: Player) -> float:
    """``mover``'s return after ``move`` by the result or ``evaluate()`` (a draw's share when
    the game cannot say); ``state`` is left as it was."""
    state.apply(move)
    if state.current_player() == TERMINAL:
        value = state.returns()[mover]
    else:
        estimate = state.evaluate()
        value = estimate[mover] if estimate is not None else 1.0 / state.num_players
    state.undo()
    return value


def order_by_one_ply(
    state: State, moves: list[Move], mover: Player, jitter: float, uniform_random: Callable[[], float]
) -> None:
    """Sort ``moves`` in place by their one-ply score for ``mover``, best last; with ``jitter``,
    a random amount up to it is drawn for each move in list order and added to its score.
    (Kept apart from the search loop: a closure would turn the loop's locals into cells.)"""
    if jitter:
        moves.sort(key=lambda move: one_ply(state, move, mover) + jitter * uniform_random())
    else:
        moves.sort(key=lambda move: one_ply(state, move, mover))


def uct_index(tree: Tree, vertex: Vertex, exploration: float) -> i64:
    """Which child of ``vertex`` (0 = the first made) has the highest UCB1 score, ``value / visits
    + c * sqrt(log(parent's visits) / visits)`` computed as ``mean + c * sqrt(log(parent's
    visits)) / sqrt(visits)``; the first made wins a tie."""
    scale = exploration * math.sqrt(math.log(float(vertex.visits)))  # float(): C's log, as in backpropagate
    best_index: i64 = 0
    best_score = -1.0
    children = tree.edge_children
    # the k-th child is in slot last - k
    last = vertex.edge_start + vertex.edge_count - 1
    for k in range(vertex.expanded):
        child = children[last - k]
        assert child is not None
        score = child.mean + scale / child.visits_root
        if score > best_score:
            best_score = score
            best_index = k
    return best_index


def run_mcts(
    root_state: State,
    tree: Tree,
    rng: random.Random,
    budget: Budget,
    exploration: float,
    depth_limit: int,
    decisive: bool,
    leaf_eval: bool,
    widen: float,
    jitter: float,
    solver: bool,
    transpositions: bool = False,
) -> int:
    """Search from ``root_state`` (left unchanged) into ``tree`` until the budget is used up, the
    decision is settled or a win on the spot is found; the iterations run.

    One iteration: copy the root state, descend by UCB1 to the first new vertex (trying a
    random untried move, or with ``widen`` the best by one ply), score it by ``evaluate()``
    (``leaf_eval``) or a rollout, and add the returns along the path. ``solver`` (two players
    taking turns) proves losses up the tree; :mod:`.mcts` explains each rule.

    ``transpositions``: a move that reaches a decision position already in the tree (the same
    ``position_key()``, reached by the same mover) links to that vertex instead of making a new
    one, so its statistics are shared by every path to it (the tree becomes a graph); the
    descent goes on through it. A path that comes back to a vertex already on it stops there
    and scores the position it reached.
    """
    uniform_random = rng.random
    table: dict[tuple[int, object], Vertex] | None = {} if transpositions else None
    vertices = tree.vertices
    edge_moves = tree.edge_moves
    root = vertices[0]
    done = 0
    while not budget.exhausted(done) and root.winning < 0:  # a win on the spot ends the thinking
        state = root_state.copy()
        vertex = root
        path = [root]
        # selection and expansion: stop at the first new vertex (or the end of the game)
        while True:
            to_move = vertex.to_move
            if to_move == TERMINAL:
                break
            if to_move == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply(outcome)
                outcomes = vertex.outcomes
                assert outcomes is not None
                known = outcomes.get(outcome)
                if known is None:
                    new_outcome = tree.add(vertex, outcome, CHANCE, state.current_player())
                    outcomes[outcome] = new_outcome
                    path.append(new_outcome)
                    break
                vertex = known
                path.append(vertex)
                continue
            if vertex.winning >= 0:
                # a player who can win on the spot does: no need to search the alternatives
                winning = vertices[vertex.winning]
                state.apply(winning.move)  # type: ignore[arg-type]
                if table is not None and winning in path:
                    break
                vertex = winning
                path.append(vertex)
                continue
            if vertex.edge_start < 0:
                win = state.winning_move() if decisive else None
                # a win the game names is the only move worth searching here
                if win is not None:
                    tree.open(vertex, [win])
                else:
                    moves = list(state.legal_moves())
                    if widen:
                        order_by_one_ply(state, moves, to_move, jitter, uniform_random)
                    tree.open(vertex, moves)
            untried = vertex.untried()
            if untried and (not widen or float(vertex.expanded) < 1 + widen * vertex.visits_root):
                if widen:
                    slot = vertex.edge_start + untried - 1  # the best untried move by one ply
                else:
                    # a random untried move (the last untried one takes its slot)
                    slot = vertex.edge_start + int(uniform_random() * float(untried))
                move = edge_moves[slot]
                state.apply(move)
                reached = state.current_player()
                if table is not None and reached >= 0:
                    key = (to_move, state.position_key())
                    known = table.get(key)
                    # (a key that leaves out who is to move must not join different turns)
                    if known is not None and known.to_move == reached:
                        # a transposition: the position is searched already, by another path
                        tree.link(vertex, slot, move, known)
                        if known in path:
                            break
                        vertex = known
                        path.append(vertex)
                        continue
                    child = tree.add(vertex, move, to_move, reached)
                    table[key] = child
                else:
                    child = tree.add(vertex, move, to_move, reached)
                tree.link(vertex, slot, move, child)
                if reached == TERMINAL:
                    result = state.returns()[to_move]
                    if result == 1.0:
                        vertex.winning = child.index
                        if solver and vertex.mover >= 0 and vertex.mover != to_move and not vertex.lost:
                            vertex.lost = True  # whoever moved here let the player to move win
                            prove_loss(tree, vertex)
                    elif result == 0.0 and solver:
                        child.lost = True
                        prove_loss(tree, child)
                path.append(child)
                break
            index = uct_index(tree, vertex, exploration)
            state.apply(tree.child_move(vertex, index))
            chosen = tree.child(vertex, index)
            if table is not None and chosen in path:
                break
            vertex = chosen
            path.append(vertex)
        estimate = state.evaluate() if leaf_eval and state.current_player() >= 0 else None
        backpropagate(path, estimate if estimate is not None else rollout(state, rng, depth_limit, decisive))
        done += 1
        if done % SETTLE_CHECK_EVERY == 0 and not root.untried() and settled(
            [tree.child(root, k).visits for k in range(root.expanded)], budget, done
        ):
            break
    return done


def run_ismcts(
    state: State,
    observer: Player,
    pool: list[State],
    root: InfoNode,
    root_moves: list[Move],
    rng: random.Random,
    budget: Budget,
    exploration: float,
    depth_limit: int,
) -> int:
    """Search for ``observer`` into the tree at ``root`` until the budget is used up or the
    decision is settled; the iterations run. Each iteration copies the next determinization of
    ``pool`` in turn (an empty pool: a fresh ``state.resample()`` every time), descends by UCB1
    with availability counts to the first new node, rolls out and adds the returns along the path.
    """
    uniform_random = rng.random
    pool_size = len(pool)
    done = 0
    while not budget.exhausted(done):
        if pool_size:
            world = pool[done % pool_size].copy()
        else:
            world = state.resample(observer, rng)
        node = root
        while True:
            player = world.current_player()
            if player == TERMINAL:
                break
            children = node.children
            if player == CHANCE:
                outcome = world.sample_chance(rng)
                world.apply(outcome)
                known = children.get(outcome)
                if known is None:
                    new_outcome = InfoNode(node, outcome, CHANCE)
                    children[outcome] = new_outcome
                    node = new_outcome
                    break
                node = known
                continue
            moves = world.legal_moves()
            unexplored = [move for move in moves if move not in children]
            if unexplored:
                for move in moves:
                    existing = children.get(move)
                    if existing is not None:
                        existing.availability += 1
                move = unexplored[int(uniform_random() * len(unexplored))]
                world.apply(move)
                new_child = InfoNode(node, move, player)
                children[move] = new_child
                node = new_child
                break
            best_child = node
            best_score = -1.0
            for move in moves:
                child = children[move]
                child.availability += 1
                visits = child.visits
                score = child.value / visits + exploration * math.sqrt(math.log(child.availability) / visits)
                if score > best_score:
                    best_score = score
                    best_child = child
            node = best_child
            world.apply(node.move)  # type: ignore[arg-type]
        backpropagate_info(node, rollout(world, rng, depth_limit))
        done += 1
        if done % SETTLE_CHECK_EVERY == 0 and len(root.children) >= len(root_moves):
            counts = [root.children[move].visits for move in root_moves if move in root.children]
            if settled(counts, budget, done):
                break
    return done
