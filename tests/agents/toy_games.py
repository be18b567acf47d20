"""Test-only games for the agent tests (not registered).

* :func:`tree_game` turns an explicit game tree (decisions by any player,
  chance nodes, results, optional evaluations) into a protocol game, so a test
  can state exactly what the right move is.
* :class:`SecretGuess` is the smallest game where hidden information matters:
  a card dealt face down to player 1, and player 0 who may bet on guessing it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from boardlab.core import CHANCE, TERMINAL, Game, Move, NotationError, PositionError, Result, State


@dataclass(frozen=True, slots=True)
class Pick(Move):
    """A labelled edge of a tree game: a decision or a chance outcome."""

    label: str

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class End:
    """A leaf: the game is over with these returns (winners are those with the top return)."""

    returns: tuple[float, ...]


@dataclass(frozen=True)
class Decide:
    """``player`` picks one of ``options``; ``estimate`` is what evaluate() says here."""

    player: int
    options: dict[str, TreeNode]
    estimate: tuple[float, ...] | None = field(default=None)


@dataclass(frozen=True)
class Chance:
    """Nature picks a label with the given probability."""

    outcomes: tuple[tuple[str, float, TreeNode], ...]


TreeNode = End | Decide | Chance


def tree_game(tree: TreeNode, players: int = 2) -> Game:
    """A game whose whole tree is ``tree``; its position string is the path of labels."""
    return _game_of(tree, players, TreeState, _depth(tree))


def graph_game(start: TreeNode, max_moves: int, players: int = 2) -> Game:
    """A tree game whose node objects are its positions (``position_key()`` is the node's
    identity): a node listed under two parents is one position reached by two paths (a
    transposition), and an option that leads back to a node on the way to it makes a
    cycle. ``max_moves`` bounds its games (a cycle has no depth)."""
    return _game_of(start, players, GraphState, max_moves)


def _game_of(tree: TreeNode, players: int, state_type: type[TreeState], moves_bound: int) -> Game:
    class TreeGame(Game):
        id = "tree"
        name = "Tree game (test)"
        min_players = max_players = players
        has_chance = True
        state_class = state_type
        root = tree

        @property
        def max_moves(self) -> int:
            return moves_bound

        def _new_state(self, seed: int) -> TreeState:
            return state_type(self, seed, tree)

        def _state_from_position(self, text: str) -> TreeState:
            state = state_type(self, 0, tree)
            for label in filter(None, text.split("/")):
                move = Pick(label)
                if move not in state.legal_moves() and all(move != m for m, _ in state.chance_outcomes()):
                    raise PositionError(f"tree position {text!r}: no edge {label!r}")
                state.apply(move)
            return state

    return TreeGame()


def _depth(node: TreeNode) -> int:
    if isinstance(node, End):
        return 0
    if isinstance(node, Decide):
        return 1 + max(_depth(child) for child in node.options.values())
    return 1 + max(_depth(child) for _, _, child in node.outcomes)


class TreeState(State):
    def __init__(self, game: Game, seed: int, node: TreeNode) -> None:
        super().__init__(game, seed)
        self.node = node
        self.path: list[str] = []

    def current_player(self) -> int:
        if isinstance(self.node, End):
            return TERMINAL
        if isinstance(self.node, Chance):
            return CHANCE
        return self.node.player

    def _legal_moves(self) -> list[Move]:
        assert isinstance(self.node, Decide)
        return [Pick(label) for label in self.node.options]

    def _chance_outcomes(self) -> list[tuple[Move, float]]:
        assert isinstance(self.node, Chance)
        return [(Pick(label), probability) for label, probability, _ in self.node.outcomes]

    def _apply(self, move: Move) -> None:
        assert isinstance(move, Pick)
        node = self.node
        if isinstance(node, Decide):
            self.node = node.options[move.label]
        else:
            assert isinstance(node, Chance)
            self.node = next(child for label, _, child in node.outcomes if label == move.label)
        self.path.append(move.label)

    def _snapshot(self) -> Any:
        return self.node

    def _restore(self, snapshot: Any) -> None:
        self.node = snapshot
        self.path.pop()

    def _copy(self) -> TreeState:
        clone = TreeState.__new__(TreeState)
        clone.node = self.node
        clone.path = list(self.path)
        return clone

    def _parse_move(self, text: str) -> Move:
        if not text:
            raise NotationError("empty label")
        return Pick(text)

    def result(self) -> Result | None:
        if not isinstance(self.node, End):
            return None
        returns = self.node.returns
        top = max(returns)
        winners = tuple(p for p, value in enumerate(returns) if value == top)
        return Result(winners, returns, "leaf reached", "leaf")

    def evaluate(self) -> tuple[float, ...] | None:
        return self.node.estimate if isinstance(self.node, Decide) else None

    def _view(self, player: int | None) -> dict[str, Any]:
        return {"path": list(self.path)}

    def position(self) -> str:
        return "/".join(self.path)


class GraphState(TreeState):
    """A position of :func:`graph_game`: the node reached, whichever path reached it."""

    def position_key(self) -> int:
        return id(self.node)

    def _copy(self) -> GraphState:
        clone = type(self).__new__(type(self))
        clone.node = self.node
        clone.path = list(self.path)
        return clone


@dataclass(frozen=True, slots=True)
class Word(Move):
    text: str

    def __str__(self) -> str:
        return self.text


DEAL = [(Word("card0"), 0.5), (Word("card1"), 0.5)]
SAFE, BET = Word("safe"), Word("bet")
GUESSES = [Word("guess0"), Word("guess1")]
COIN = [(Word("heads"), 0.6), (Word("tails"), 0.4)]


class SecretGuess(Game):
    """Player 1 is dealt card 0 or 1 face down. Player 0 then plays ``safe`` (a public
    coin: player 0 wins with probability 0.6) or ``bet`` and then guesses the card
    (right: player 0 wins; wrong: player 1 wins).

    Knowing the card, ``bet`` wins for sure; not knowing it, it is worth 0.5 < 0.6.
    """

    id = "secretguess"
    name = "Secret guess (test)"
    has_chance = True
    has_hidden_information = True

    @property
    def max_moves(self) -> int:
        return 3

    def _new_state(self, seed: int) -> SecretGuessState:
        return SecretGuessState(self, seed)


class SecretGuessState(State):
    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(game, seed)
        self.card = -1
        self.choice: str | None = None
        self.winner = -1

    def current_player(self) -> int:
        if self.winner >= 0:
            return TERMINAL
        if self.card < 0 or self.choice == "safe":
            return CHANCE
        return 0

    def _legal_moves(self) -> list[Move]:
        return [SAFE, BET] if self.choice is None else list(GUESSES)

    def _chance_outcomes(self) -> list[tuple[Move, float]]:
        return list(DEAL) if self.card < 0 else list(COIN)

    def _apply(self, move: Move) -> None:
        assert isinstance(move, Word)
        if move.text.startswith("card"):
            self.card = int(move.text[-1])
        elif move in (SAFE, BET):
            self.choice = move.text
        elif move.text.startswith("guess"):
            self.winner = 0 if int(move.text[-1]) == self.card else 1
        else:
            self.winner = 0 if move.text == "heads" else 1

    def _snapshot(self) -> Any:
        return (self.card, self.choice, self.winner)

    def _restore(self, snapshot: Any) -> None:
        self.card, self.choice, self.winner = snapshot

    def _copy(self) -> SecretGuessState:
        clone = SecretGuessState.__new__(SecretGuessState)
        clone.card, clone.choice, clone.winner = self.card, self.choice, self.winner
        return clone

    def _parse_move(self, text: str) -> Move:
        return Word(text)

    def result(self) -> Result | None:
        return None if self.winner < 0 else Result.win(self.winner, 2, "guess or coin", code="decided")

    def _view(self, player: int | None) -> dict[str, Any]:
        return {"card": self.card if player == 1 else None, "choice": self.choice, "winner": self.winner}

    def secrets(self, player: int | None) -> set[str]:
        return set() if player == 1 or self.card < 0 else {f"card{self.card}"}

    def position(self) -> str:
        return f"{self.card} {self.choice or '-'} {self.winner}"

    def _resample(self, player: int, rng: random.Random) -> SecretGuessState:
        clone = self.copy()
        assert isinstance(clone, SecretGuessState)
        clone.seed = rng.getrandbits(64)
        if player != 1 and clone.card >= 0:
            clone.card = rng.randrange(2)
            clone.rebase()
        return clone


def secret_guess_at(card: int, choice: str | None = None, seed: int = 0) -> SecretGuessState:
    """The real state after the deal of ``card`` (and player 0's ``choice``, if given)."""
    state = SecretGuess().new_state(seed)
    state.play(f"card{card}")
    if choice is not None:
        state.play(choice)
    assert isinstance(state, SecretGuessState)
    return state


def dicenim_at(pile: int, to_move: int = 0, secrets: tuple[int, int] = (1, 2), seed: int = 0) -> State:
    """A Dice Nim state (tests/support/dicenim.py) with ``pile`` counters and ``to_move`` to decide.

    Built by playing legal moves, since that test game has no position strings:
    the secrets are dealt, and for player 1 to move player 0 first takes one
    counter and the die shows 1.
    """
    from tests.support.dicenim import DiceNim

    state = DiceNim(pile=pile + to_move).new_state(seed)
    state.play(f"secret0={secrets[0]}")
    state.play(f"secret1={secrets[1]}")
    if to_move == 1:
        state.play("take1")
        state.play("d1")
    assert state.current_player() == to_move
    return state
