"""The game protocol: an immutable :class:`Game` and a mutable :class:`State`.

Modelled on OpenSpiel's game API with python-chess ergonomics (see docs/api.md).

* A :class:`Game` is a rules object: id, player count, validated options and what
  kind of game it is. It makes states.
* A :class:`State` is a position plus its history. Games fill in the private hooks
  (``_legal_moves``, ``_apply``, ``_snapshot`` ...); history, undo, validation,
  chance sampling, copying and JSON live here, once for every game.
* Players are ints ``0..n-1``. :data:`CHANCE` and :data:`TERMINAL` are the two
  sentinels :meth:`State.current_player` may also return.
* Moves are small frozen value objects (subclasses of :class:`Move`) whose
  ``str()`` is the game's notation; :meth:`State.parse_move` is its inverse.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Mapping, Sequence

from .errors import GameOverError, IllegalMoveError, OptionError, PositionError
from .options import Option, resolve_options

Player = int
CHANCE: Player = -1
TERMINAL: Player = -2

STATE_JSON_FORMAT = 1


class Move:
    """Base class of every game's move value objects.

    Subclasses are frozen (hashable) dataclasses with ``__slots__``. ``str(move)``
    must be the documented notation, and ``state.parse_move(str(move)) == move``
    for every legal move. Chance outcomes are moves too.
    """

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every game overrides it
        raise NotImplementedError


@dataclass(frozen=True)
class Result:
    """How a game ended.

    ``returns`` has one value per player in [0, 1] summing to 1: a sole winner gets
    1, a draw among k players gives each of them 1/k, everybody else 0.
    ``winners`` lists the players sharing the result (one for a win, several for
    a draw, all players for a full draw).
    """

    winners: tuple[Player, ...]
    returns: tuple[float, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return len(self.winners) != 1

    @property
    def winner(self) -> Player | None:
        return self.winners[0] if len(self.winners) == 1 else None

    @classmethod
    def win(cls, player: Player, num_players: int, reason: str) -> "Result":
        returns = tuple(1.0 if p == player else 0.0 for p in range(num_players))
        return cls((player,), returns, reason)

    @classmethod
    def draw(cls, players: Iterable[Player], num_players: int, reason: str) -> "Result":
        shared = tuple(sorted(set(players)))
        if not shared:
            raise ValueError("a draw needs at least one player sharing it")
        share = 1.0 / len(shared)
        returns = tuple(share if p in shared else 0.0 for p in range(num_players))
        return cls(shared, returns, reason)

    def score_text(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` for two players; winners otherwise."""
        if len(self.returns) == 2:
            def fmt(x: float) -> str:
                return "1/2" if x == 0.5 else str(int(x))
            return f"{fmt(self.returns[0])}-{fmt(self.returns[1])}"
        if self.is_draw:
            return "draw " + ",".join(str(p) for p in self.winners)
        return f"win {self.winners[0]}"

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "returns": list(self.returns), "reason": self.reason}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Result":
        return cls(tuple(data["winners"]), tuple(float(x) for x in data["returns"]), str(data["reason"]))


class Game:
    """An immutable rules object. Subclasses declare the class attributes below.

    Construct through :func:`boardlab.load` (or the subclass directly):
    ``Game(players=2, layout="pinwheel")``. Unknown options and bad values raise
    :class:`OptionError` listing what is valid.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int | None] = None
    #: the allowed player counts when not every count in min..max is (Towers: 2 or 4)
    player_counts: ClassVar[tuple[int, ...] | None] = None
    options_spec: ClassVar[tuple[Option, ...]] = ()
    #: chance nodes occur (dice, shuffles, tremor)
    has_chance: ClassVar[bool] = False
    #: some state is hidden from some player (cards, seeds)
    has_hidden_information: ClassVar[bool] = False
    #: some decisions are continuous; legal_moves() then lists candidates (docs/api.md)
    continuous_moves: ClassVar[bool] = False
    #: bumped whenever the rules' behaviour changes
    rules_version: ClassVar[str] = "1"
    #: the State subclass this game makes
    state_class: ClassVar[type["State"]]

    def __init__(self, players: int | None = None, **options: Any) -> None:
        if players is None:
            players = self.default_players or self.min_players
        if isinstance(players, str):
            try:
                players = int(players)
            except ValueError:
                raise OptionError(f"{self.id}: players={players!r} is not a number") from None
        if players not in self.allowed_player_counts():
            raise OptionError(
                f"{self.id}: players={players} not allowed; "
                f"{self.player_counts_text()} players"
            )
        self.num_players: int = players
        self.options: Mapping[str, Any] = resolve_options(self.id, self.options_spec, options)
        self._check_options()

    # --- hooks for subclasses --------------------------------------------------
    def _check_options(self) -> None:
        """Cross-option validation (raise OptionError); default: nothing to check."""

    def _new_state(self, seed: int) -> "State":
        raise NotImplementedError

    def _state_from_position(self, text: str) -> "State":
        raise NotImplementedError

    # --- public API ------------------------------------------------------------
    @property
    def max_moves(self) -> int:
        """A proven bound on the history length (all moves, chance included)."""
        raise NotImplementedError

    def new_state(self, seed: int | None = None) -> "State":
        """The start of a new game. ``seed`` drives every chance node the state samples itself."""
        if seed is None:
            seed = secrets.randbits(64)
        state = self._new_state(int(seed))
        state._start_position = None
        return state

    def state_from_position(self, text: str, seed: int | None = None) -> "State":
        """A state from the game's one-line position string; :class:`PositionError` if malformed."""
        if not isinstance(text, str):
            raise PositionError(f"{self.id}: a position must be a string, not {type(text).__name__}")
        state = self._state_from_position(text.strip())
        state.seed = secrets.randbits(64) if seed is None else int(seed)
        state._start_position = state.position()
        return state

    def state_from_json(self, data: Mapping[str, Any] | str) -> "State":
        """Rebuild a state saved by :meth:`State.to_json` by replaying its moves.

        Every move is re-validated; the first bad one is reported by number.
        """
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise PositionError(f"{self.id}: state JSON does not parse: {exc}") from None
        if not isinstance(data, Mapping):
            raise PositionError(f"{self.id}: state JSON must be an object")
        try:
            if data.get("game") != self.id:
                raise PositionError(f"state JSON is for game {data.get('game')!r}, not {self.id!r}")
            if int(data.get("players", -1)) != self.num_players:
                raise PositionError(
                    f"{self.id}: state JSON has {data.get('players')} players, game has {self.num_players}"
                )
            if dict(data.get("options", {})) != dict(self.options):
                raise PositionError(f"{self.id}: state JSON options differ from the game's options")
            seed = int(data["seed"])
            start = data.get("start")
            moves = data["moves"]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, PositionError):
                raise
            raise PositionError(f"{self.id}: state JSON is missing or has a bad field: {exc}") from None
        state = self.new_state(seed) if start is None else self.state_from_position(start, seed)
        for number, text in enumerate(moves, 1):
            try:
                state.play(str(text))
            except IllegalMoveError as exc:
                raise PositionError(f"{self.id}: move {number} ({text!r}) of the state JSON: {exc}") from None
        expected = data.get("position")
        if expected is not None and expected != state.position():
            raise PositionError(
                f"{self.id}: replaying the moves gives {state.position()!r}, JSON says {expected!r}"
            )
        return state

    def render_view(self, view: Mapping[str, Any]) -> str:
        """Text (with rich console markup) drawing a view, for terminals. Default: JSON."""
        return json.dumps(view, indent=1)

    #: True when the game can draw a state as a picture (:meth:`render_image`)
    has_image_renderer: ClassVar[bool] = False

    def render_image(self, view: Mapping[str, Any], path: str) -> None:
        """Optional: write a PNG picture of a view to ``path`` (needs the game's extras)."""
        raise NotImplementedError(f"{self.id} has no picture renderer")

    def player_name(self, player: Player) -> str:
        """A short name for a seat (a colour, "P1" ...)."""
        return f"P{player + 1}"

    @classmethod
    def allowed_player_counts(cls) -> tuple[int, ...]:
        if cls.player_counts is not None:
            return cls.player_counts
        return tuple(range(cls.min_players, cls.max_players + 1))

    @classmethod
    def player_counts_text(cls) -> str:
        counts = cls.allowed_player_counts()
        if len(counts) == 1:
            return str(counts[0])
        if counts == tuple(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]}-{counts[-1]}"
        return " or ".join(str(c) for c in counts)

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """The catalog entry: id, name, player counts, nature and options."""
        return {
            "id": cls.id,
            "name": cls.name,
            "summary": cls.summary,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "player_counts": list(cls.allowed_player_counts()),
            "chance": cls.has_chance,
            "hidden_information": cls.has_hidden_information,
            "continuous_moves": cls.continuous_moves,
            "rules_version": cls.rules_version,
            "options": [opt.describe() for opt in cls.options_spec],
        }

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        sep = ", " if opts else ""
        return f"{type(self).__name__}(players={self.num_players}{sep}{opts})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other.num_players == self.num_players  # type: ignore[attr-defined]
            and dict(other.options) == dict(self.options)  # type: ignore[attr-defined]
        )

    def __hash__(self) -> int:
        return hash((self.id, self.num_players, tuple(sorted(self.options.items(), key=str))))


class State:
    """A position with its history. Mutable; :meth:`copy` for an independent one.

    Subclasses implement the hooks marked "hook". The public methods validate
    input and keep history; the hooks may assume valid input.
    """

    #: Slots of the base class; subclasses may declare their own ``__slots__``.
    __slots__ = ("game", "seed", "_history", "_snapshots", "_start_position", "__weakref__")

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self._history: list[Move] = []
        self._snapshots: list[Any] = []
        self._start_position: str | None = None

    # === hooks: every game implements these ======================================
    def current_player(self) -> Player:
        """Hook. Whose decision it is: a player, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def _legal_moves(self) -> list[Move]:
        """Hook. The legal moves of the player to move (never called at chance or terminal nodes)."""
        raise NotImplementedError

    def _chance_outcomes(self) -> list[tuple[Move, float]]:
        """Hook. The outcomes of this chance node with their exact probabilities."""
        raise NotImplementedError

    def _apply(self, move: Move) -> None:
        """Hook. Apply a move known to be legal (a chance outcome at chance nodes)."""
        raise NotImplementedError

    def _snapshot(self) -> Any:
        """Hook. Whatever :meth:`_restore` needs to undo the next ``_apply``."""
        raise NotImplementedError

    def _restore(self, snapshot: Any) -> None:
        """Hook. Return to the state captured by :meth:`_snapshot`."""
        raise NotImplementedError

    def _copy(self) -> "State":
        """Hook. An independent copy of the game-specific fields (history is copied here)."""
        raise NotImplementedError

    def _parse_move(self, text: str) -> Move:
        """Hook. Text to a move *object*; raise NotationError for malformed text.

        Need not check legality: :meth:`parse_move` does that afterwards.
        """
        raise NotImplementedError

    def result(self) -> Result | None:
        """Hook. How the game ended, or None while it goes on."""
        raise NotImplementedError

    def view(self, player: Player | None = None) -> dict[str, Any]:
        """Hook. A JSON-safe description of exactly what ``player`` may see.

        ``None`` is the spectators' (public) view.
        """
        raise NotImplementedError

    def position(self) -> str:
        """Hook. The documented one-line position string (the full state, hidden parts included)."""
        raise NotImplementedError

    # === optional hooks =========================================================
    def _illegal_reason(self, move: Move) -> str | None:
        """Optional hook: why ``move`` is illegal, or None if it is legal.

        The default compares with :meth:`legal_moves`; games with continuous
        moves (or a cheaper test) override it.
        """
        if move in self.legal_moves():
            return None
        return "not a legal move here"

    def _illegal_chance_reason(self, move: Move) -> str | None:
        """Optional hook: why ``move`` is not a possible outcome of this chance node.

        The default looks it up in :meth:`_chance_outcomes`; games whose chance
        is continuous (a listed discretisation for search, any value in play)
        override it.
        """
        if any(outcome == move for outcome, _ in self._chance_outcomes()):
            return None
        return "not a possible chance outcome here"

    def evaluate(self) -> Sequence[float] | None:
        """Optional hook: estimated returns per player (in [0, 1], summing to 1) or None."""
        return None

    def secrets(self, player: Player | None) -> set[str]:
        """Optional hook: strings of hidden state that must never appear in ``view(player)``.

        The conformance suite checks every leaf of the view against them.
        """
        return set()

    def resample(self, player: Player, rng: random.Random) -> "State":
        """A full state consistent with ``view(player)``; hidden parts drawn with ``rng``.

        Games with hidden information override this (re-deal unseen cards ...),
        and must relabel the history and snapshots too: the real chance outcomes
        that dealt the hidden parts may not survive in ``history`` or behind
        ``undo()``. The seed is always replaced, so future chance is unknown to
        the caller. This is what agents receive: they never see the real hidden state.
        """
        state = self.copy()
        state.seed = rng.getrandbits(64)
        return state

    # === the public protocol =====================================================
    def is_over(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move; empty at chance and terminal nodes.

        For games with ``continuous_moves`` the list is complete for discrete
        decisions and a documented candidate set for continuous ones.
        """
        player = self.current_player()
        if player < 0:
            return []
        return self._legal_moves()

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node: every outcome with its exact probability; otherwise empty."""
        if self.current_player() != CHANCE:
            return []
        return self._chance_outcomes()

    def sample_chance(self, rng: random.Random | None = None) -> Move:
        """Draw a chance outcome. Without ``rng``, the state's seed decides.

        The seeded draw depends only on (seed, number of moves played), so a seed
        reproduces a game. Agents always pass their own ``rng``.
        """
        if self.current_player() != CHANCE:
            raise IllegalMoveError("not a chance node: nothing to sample")
        if rng is None:
            rng = random.Random(f"{self.seed}/{len(self._history)}")
        outcomes = self._chance_outcomes()
        r = rng.random()
        acc = 0.0
        for move, prob in outcomes:
            acc += prob
            if r < acc:
                return move
        return outcomes[-1][0]

    def parse_move(self, text: str) -> Move:
        """Text in the game's notation to a legal move.

        Raises :class:`NotationError` for malformed text and
        :class:`IllegalMoveError` (with the reason) for a well-formed illegal move.
        """
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text, not {type(text).__name__}")
        if self.current_player() == TERMINAL:
            raise GameOverError(f"{text.strip()}: the game is over")
        move = self._parse_move(text.strip())
        self.check_move(move)
        return move

    def check_move(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` is illegal here."""
        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError(f"{move}: the game is over")
        if player == CHANCE:
            reason = self._illegal_chance_reason(move)
        else:
            reason = self._illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"{move}: {reason}")

    def play(self, move: Move | str) -> Move:
        """Validate and apply a move (object or notation text); return the move object.

        An illegal move raises and leaves the state unchanged.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        elif isinstance(move, Move):
            self.check_move(move)
        else:
            raise IllegalMoveError(f"{move!r}: not a move")
        self.apply(move)
        return move

    def apply(self, move: Move) -> None:
        """Apply a move taken from :meth:`legal_moves` or :meth:`chance_outcomes`.

        No validation: this is the fast path for agents. Use :meth:`play` for input.
        """
        self._snapshots.append(self._snapshot())
        self._apply(move)
        self._history.append(move)

    def undo(self) -> Move:
        """Take back the last move (chance outcomes included) and return it."""
        if not self._history:
            raise IllegalMoveError("nothing to undo: no move has been played")
        self._restore(self._snapshots.pop())
        return self._history.pop()

    def copy(self) -> "State":
        """An independent copy (history included, so it can undo too)."""
        clone = self._copy()
        clone.game = self.game
        clone.seed = self.seed
        clone._history = self._history.copy()
        clone._snapshots = self._snapshots.copy()
        clone._start_position = self._start_position
        return clone

    @property
    def history(self) -> tuple[Move, ...]:
        """Every move played so far, chance outcomes included."""
        return tuple(self._history)

    @property
    def ply(self) -> int:
        """Number of moves played (chance outcomes included)."""
        return len(self._history)

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def returns(self) -> tuple[float, ...]:
        """Per-player returns: the result's at the end, all zero before it."""
        result = self.result()
        if result is None:
            return (0.0,) * self.game.num_players
        return result.returns

    def winners(self) -> tuple[Player, ...]:
        """The players sharing the result; empty while the game goes on."""
        result = self.result()
        return () if result is None else result.winners

    def render(self, player: Player | None = None) -> str:
        """Terminal drawing (rich markup) of what ``player`` sees."""
        return self.game.render_view(self.view(player))

    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-safe data: start, seed and every move in notation.

        :meth:`Game.state_from_json` replays it, so history and undo survive.
        The result holds hidden state (the seed): it is for saving, not for players.
        """
        return {
            "format": STATE_JSON_FORMAT,
            "game": self.game.id,
            "players": self.game.num_players,
            "options": dict(self.game.options),
            "seed": self.seed,
            "start": self._start_position,
            "moves": [str(m) for m in self._history],
            "position": self.position(),
        }

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"


def check_position_fields(game_id: str, text: str, count: int, sep: str = " ") -> list[str]:
    """Split a position string into exactly ``count`` fields or raise PositionError."""
    fields = text.split(sep)
    if len(fields) != count:
        raise PositionError(
            f"{game_id} position {text!r}: expected {count} fields separated by {sep!r}, got {len(fields)}"
        )
    return fields


__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "Move",
    "Player",
    "Result",
    "State",
    "check_position_fields",
]
