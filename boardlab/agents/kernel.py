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
from typing import Final, Protocol

from ..core import values
from ..core.state import State
from ..core.values import Move, Player

#: the protocol's sentinels as compile-time constants (a plain module global is looked up on every use)
CHANCE: Final[Player] = values.CHANCE
TERMINAL: Final[Player] = values.TERMINAL

#: how often (in iterations) a search checks whether its decision is settled
SETTLE_CHECK_EVERY: Final = 128


class Budget(Protocol):
    """What the search loops ask of their budget (:class:`.search.SearchBudget`)."""

    def exhausted(self, done: int) -> bool: ...

    def remaining(self, done: int) -> float: ...


class Node:
    """A position of the MCTS tree, reached by a sequence of moves from the root.

    ``mover`` is the player whose move (or CHANCE, whose outcome) led here, and
    ``value`` sums that player's returns over the ``visits`` through this node.
    Decision nodes keep ``children`` with the move to each in ``child_moves`` (the same
    order), and the ``untried`` moves (generated on the first visit, once); chance nodes
    keep ``outcome_children`` by outcome. ``parent`` and ``move`` are where the node was
    created from; with transpositions shared (:func:`run_mcts`) other nodes may list it
    as a child too, by another move, so the move from a parent is the parent's
    ``child_moves`` entry, not ``move``.
    ``winning`` is a child whose move ends the game with a win for the player to
    move here: once one is found, that player is assumed to play it.
    ``mean`` (``value / visits``) and ``visits_root`` (``sqrt(visits)``) are kept by
    :func:`backpropagate` for UCB1, which reads them for every child at every step: the
    same floats as computing them there, once per visit instead of once per look.
    """

    __slots__ = (
        "child_moves",
        "children",
        "lost",
        "mean",
        "move",
        "mover",
        "outcome_children",
        "parent",
        "to_move",
        "untried",
        "value",
        "visits",
        "visits_root",
        "winning",
    )

    def __init__(self, parent: Node | None, move: Move | None, mover: Player, to_move: Player) -> None:
        self.parent = parent
        self.move = move
        self.mover = mover
        self.to_move = to_move
        self.children: list[Node] = []
        self.child_moves: list[Move] = []
        self.untried: list[Move] | None = None
        self.outcome_children: dict[Move, Node] | None = {} if to_move == CHANCE else None
        self.winning: Node | None = None
        #: proven: the move into this node loses for its mover (two-player games, see prove_loss)
        self.lost = False
        self.visits = 0
        self.value = 0.0
        self.mean = 0.0
        self.visits_root = 0.0


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


def backpropagate(path: list[Node], returns: Sequence[float]) -> None:
    """Add one visit and the returns of each node's mover to every node of ``path`` (the
    root first; the root and chance outcomes, whose mover is negative, keep no value).
    The path, not the ``parent`` links: a node shared by transpositions has several parents."""
    for node in path:
        visits = node.visits + 1
        node.visits = visits
        # float(): compiled, math.sqrt is then C's on a double (Python converts the int the same way)
        node.visits_root = math.sqrt(float(visits))
        mover = node.mover
        if mover >= 0:
            value = node.value + returns[mover]
            node.value = value
            node.mean = value / visits


def backpropagate_info(node: InfoNode | None, returns: Sequence[float]) -> None:
    """:func:`backpropagate` for the ISMCTS tree."""
    while node is not None:
        node.visits += 1
        mover = node.mover
        if mover >= 0:
            node.value += returns[mover]
        node = node.parent


def prove_loss(node: Node) -> None:
    """The solver step, for two players taking turns: ``node`` was just proven lost for its
    mover. When every move at its parent is proven lost, the parent is won for whoever moved
    into it, which makes the grandparent's move into it a win there, and so on up the tree.
    A chance node, or a move that does not pass the turn, ends the proof."""
    while True:
        parent = node.parent
        if parent is None or parent.to_move < 0 or parent.untried is None or parent.untried:
            return
        for child in parent.children:
            if not child.lost:
                return
        grandparent = parent.parent
        if grandparent is None or parent.mover < 0 or parent.mover == parent.to_move:
            return
        if grandparent.winning is None:
            grandparent.winning = parent
        if grandparent.mover < 0 or grandparent.mover == grandparent.to_move or grandparent.lost:
            return
        grandparent.lost = True
        node = grandparent


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


def uct_index(node: Node, exploration: float) -> int:
    """The index in ``node.children`` of the child with the highest UCB1 score, ``value / visits
    + c * sqrt(log(parent's visits) / visits)`` computed as ``mean + c * sqrt(log(parent's
    visits)) / sqrt(visits)``; the first created wins a tie."""
    scale = exploration * math.sqrt(math.log(float(node.visits)))  # float(): C's log, as in backpropagate
    best_index = 0
    best_score = -1.0
    index = 0
    for child in node.children:
        score = child.mean + scale / child.visits_root
        if score > best_score:
            best_score = score
            best_index = index
        index += 1
    return best_index


def run_mcts(
    root_state: State,
    root: Node,
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
    """Search from ``root_state`` (left unchanged) into the tree at ``root`` until the budget
    is used up, the decision is settled or a win on the spot is found; the iterations run.

    One iteration: copy the root state, descend by UCB1 to the first new node (trying a
    random untried move, or with ``widen`` the best by one ply), score it by ``evaluate()``
    (``leaf_eval``) or a rollout, and add the returns along the path. ``solver`` (two players
    taking turns) proves losses up the tree; :mod:`.mcts` explains each rule.

    ``transpositions``: a move that reaches a decision position already in the tree (the same
    ``position_key()``, reached by the same mover) links to that node instead of making a new
    one, so its statistics are shared by every path to it (the tree becomes a graph); the
    descent goes on through it. A path that comes back to a node already on it stops there
    and scores the position it reached.
    """
    uniform_random = rng.random
    table: dict[tuple[int, object], Node] | None = {} if transpositions else None
    done = 0
    while not budget.exhausted(done) and root.winning is None:  # a win on the spot ends the thinking
        state = root_state.copy()
        node = root
        path = [root]
        # selection and expansion: stop at the first new node (or the end of the game)
        while True:
            to_move = node.to_move
            if to_move == TERMINAL:
                break
            if to_move == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply(outcome)
                outcome_children = node.outcome_children
                assert outcome_children is not None
                known = outcome_children.get(outcome)
                if known is None:
                    new_outcome = Node(node, outcome, CHANCE, state.current_player())
                    outcome_children[outcome] = new_outcome
                    path.append(new_outcome)
                    break
                node = known
                path.append(node)
                continue
            winning = node.winning
            if winning is not None:
                # a player who can win on the spot does: no need to search the alternatives
                state.apply(winning.move)  # type: ignore[arg-type]
                if table is not None and winning in path:
                    break
                node = winning
                path.append(node)
                continue
            untried = node.untried
            if untried is None:
                win = state.winning_move() if decisive else None
                # a win the game names is the only move worth searching here
                if win is not None:
                    untried = [win]
                else:
                    untried = list(state.legal_moves())
                    if widen:
                        order_by_one_ply(state, untried, to_move, jitter, uniform_random)
                node.untried = untried
            if untried and (not widen or len(node.children) < 1 + widen * node.visits_root):
                if widen:
                    move = untried.pop()  # the best untried move by one ply
                else:
                    # a random untried move: swap it to the end and pop it
                    index = int(uniform_random() * len(untried))
                    move = untried[index]
                    untried[index] = untried[-1]
                    untried.pop()
                state.apply(move)
                reached = state.current_player()
                if table is not None and reached >= 0:
                    key = (to_move, state.position_key())
                    known = table.get(key)
                    # (a key that leaves out who is to move must not join different turns)
                    if known is not None and known.to_move == reached:
                        # a transposition: the position is searched already, by another path
                        node.children.append(known)
                        node.child_moves.append(move)
                        if known in path:
                            break
                        node = known
                        path.append(node)
                        continue
                    child = Node(node, move, to_move, reached)
                    table[key] = child
                else:
                    child = Node(node, move, to_move, reached)
                node.children.append(child)
                node.child_moves.append(move)
                if reached == TERMINAL:
                    result = state.returns()[to_move]
                    if result == 1.0:
                        node.winning = child
                        if solver and node.mover >= 0 and node.mover != to_move and not node.lost:
                            node.lost = True  # whoever moved here let the player to move win
                            prove_loss(node)
                    elif result == 0.0 and solver:
                        child.lost = True
                        prove_loss(child)
                path.append(child)
                break
            index = uct_index(node, exploration)
            state.apply(node.child_moves[index])
            chosen = node.children[index]
            if table is not None and chosen in path:
                break
            node = chosen
            path.append(node)
        estimate = state.evaluate() if leaf_eval and state.current_player() >= 0 else None
        backpropagate(path, estimate if estimate is not None else rollout(state, rng, depth_limit, decisive))
        done += 1
        if done % SETTLE_CHECK_EVERY == 0 and not root.untried and settled(
            [child.visits for child in root.children], budget, done
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
