"""Integer action indices and numeric observations: what the OpenSpiel and PettingZoo adapters
need of a game, declared by the game itself (docs/api.md, "Action and observation encodings").

A game returns an :class:`ActionEncoding` from :meth:`Game.action_encoding` and an
:class:`ObservationEncoding` from :meth:`Game.observation_encoding`; the adapters use nothing
else, so a new game that provides both gets both adapters unchanged.

* Actions: a fixed number of indices ``0..num_actions-1`` for the players' decisions and
  ``0..num_chance_outcomes-1`` for chance outcomes (two separate spaces, as in OpenSpiel).
  In any one state, the legal moves get distinct indices and each index names at most one
  legal move: :meth:`ActionEncoding.action_map` checks both. An index may depend on the
  state (Honor numbers its candidate releases by orientation and column, not by x).
* Observations: a flat list of floats of a fixed length, computed from the view envelope
  ``state.view(viewer)`` alone, so an observation can hold no more than the seat may see.

Standard library only, like the rest of the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .errors import IllegalMoveError
from .values import CHANCE, Move, Player

if TYPE_CHECKING:
    from .game import Game
    from .state import State


class ActionError(IllegalMoveError):
    """An action index that is not legal here, or a move the encoding has no index for."""

    code = "illegal_action"


class ActionEncoding:
    """A game's two-way mapping between moves and integer actions.

    Subclasses set :attr:`num_actions` and :attr:`num_chance_outcomes` and implement
    :meth:`action_index` (and :meth:`chance_index` for games with chance). Decoding is
    done here, once for every game, by indexing the state's own legal list: an index
    means exactly the legal move the game lists for it, never a move the rules refuse.
    Cost of a decode: one :meth:`State.legal_moves` plus one index per move.
    """

    #: the distinct actions of the players' decisions
    num_actions: int = 0
    #: the distinct chance outcomes (0 for a game without chance)
    num_chance_outcomes: int = 0

    def __init__(self, game: Game) -> None:
        self.game = game

    # --- hooks ---------------------------------------------------------------------
    def action_index(self, state: State, move: Move) -> int:
        """Hook. The index of ``move``, a legal move of the player to move in ``state``.
        Raise :class:`ActionError` for a move outside the encoding (Honor: a release off
        the candidate set)."""
        raise NotImplementedError

    def chance_index(self, state: State, outcome: Move) -> int:
        """Hook. The index of ``outcome``, a chance outcome listed by ``state``."""
        raise ActionError(f"{self.game.id} has no chance outcomes to index ({outcome})")

    # --- derived, the same for every game -------------------------------------------
    def action_map(self, state: State) -> dict[int, Move]:
        """Index -> move for every legal move here (chance outcomes at a chance node).

        Raises :class:`ActionError` if two moves share an index or an index is out of
        range: the encoding would be ambiguous, which is a bug of the game's encoding.
        """
        index: Callable[[State, Move], int]
        if state.current_player() == CHANCE:
            moves = [move for move, _ in state.chance_outcomes()]
            index, size, what = self.chance_index, self.num_chance_outcomes, "chance outcome"
        else:
            moves = state.legal_moves()
            index, size, what = self.action_index, self.num_actions, "action"
        found: dict[int, Move] = {}
        for move in moves:
            number = index(state, move)
            if not 0 <= number < size:
                raise ActionError(f"{self.game.id}: {move} got {what} {number}, outside 0..{size - 1}")
            other = found.get(number)
            if other is not None and other != move:
                raise ActionError(f"{self.game.id}: {other} and {move} share {what} {number}")
            found[number] = move
        return found

    def legal_actions(self, state: State) -> list[int]:
        """The legal action indices here, ascending (chance outcome indices at a chance node)."""
        return sorted(self.action_map(state))

    def chance_actions(self, state: State) -> list[tuple[int, float]]:
        """``[(index, probability), ...]`` of a chance node, ascending by index."""
        return sorted((self.chance_index(state, move), p) for move, p in state.chance_outcomes())

    def move_for(self, state: State, action: int) -> Move:
        """The legal move (or chance outcome) that ``action`` names here; :class:`ActionError`
        naming the index and how many actions are legal otherwise."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise ActionError(f"{self.game.id}: an action is a whole number, not {action!r}")
        if state.is_over():
            raise ActionError(f"{self.game.id}: action {action}: the game is over")
        mapping = self.action_map(state)
        move = mapping.get(action)
        if move is None:
            kind = "chance outcome" if state.is_chance() else "action"
            raise ActionError(
                f"{self.game.id}: {kind} {action} is not legal at ply {state.ply} "
                f"({len(mapping)} legal, e.g. {sorted(mapping)[:8]})"
            )
        return move

    def index_of(self, state: State, move: Move) -> int:
        """The index of ``move`` here (a legal move or a chance outcome)."""
        if state.current_player() == CHANCE:
            return self.chance_index(state, move)
        return self.action_index(state, move)


class ObservationEncoding:
    """A fixed-size numeric observation of a seat's view envelope.

    Subclasses set :attr:`size` and implement :meth:`encode_view`; every value lies in
    ``[low, high]``. Since the input is ``state.view(viewer)``, hidden information the
    seat may not see cannot reach the observation.
    """

    size: int = 0
    low: float = 0.0
    high: float = 1.0

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.size,)

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        """Hook. The observation of one view envelope: ``size`` floats in ``[low, high]``."""
        raise NotImplementedError

    def encode(self, state: State, viewer: Player) -> list[float]:
        """The observation of ``state`` for seat ``viewer``."""
        values = self.encode_view(state.view(viewer))
        if len(values) != self.size:
            raise ValueError(f"{self.game.id}: observation has {len(values)} values, declared {self.size}")
        return values


def one_hot(index: int, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (all zeros when ``index`` is out of range)."""
    values = [0.0] * size
    if 0 <= index < size:
        values[index] = 1.0
    return values


def seats_from(viewer: Player | None, players: int) -> list[int]:
    """The seats in turn order starting at ``viewer``: observations put "me" first, so the
    same features mean the same thing whichever seat is looking."""
    first = viewer if viewer is not None and viewer >= 0 else 0
    return [(first + k) % players for k in range(players)]


def scaled(value: float, top: float) -> float:
    """``value / top`` clipped to [0, 1]."""
    return 0.0 if top <= 0 else min(1.0, max(0.0, value / top))


def envelope_features(view: Mapping[str, Any]) -> list[float]:
    """The envelope's own part: whether the viewer is to move, chance, over, and the viewer's
    return at the end (4 values). Every game's observation starts with these."""
    viewer = view["viewer"]
    result = view["result"]
    mine = 0.0
    if result is not None and viewer is not None:
        mine = float(result["returns"][viewer])
    return [
        1.0 if view["to_move"] is not None and view["to_move"] == viewer else 0.0,
        1.0 if view["chance"] else 0.0,
        1.0 if view["over"] else 0.0,
        mine,
    ]


ENVELOPE_FEATURES = 4


__all__ = [
    "ENVELOPE_FEATURES",
    "ActionEncoding",
    "ActionError",
    "ObservationEncoding",
    "envelope_features",
    "one_hot",
    "scaled",
    "seats_from",
]
