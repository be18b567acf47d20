"""The protocol's small value types: players, moves and results.

* Players are ints ``0..n-1``; :data:`CHANCE` and :data:`TERMINAL` are the two
  sentinels :meth:`State.current_player` may also return.
* A :class:`Move` is a frozen value object whose ``str()`` is the game's notation
  and whose :meth:`Move.to_json` shows its structure.
* A :class:`Result` says how a game ended: who shares it, the returns, a stable
  machine-readable ``code`` and a sentence for people.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeGuard

Player = int
CHANCE: Player = -1
TERMINAL: Player = -2

_CODE = re.compile(r"[a-z][a-z0-9_]*\Z")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")



def is_seat(value: object, players: int) -> TypeGuard[int]:
    """Whether ``value`` names a seat of a ``players``-player game: an int ``0..players-1``
    (not a bool, though Python counts True as 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


#: ending codes the match driver itself produces (games use their own for rule endings)
MATCH_ENDING_CODES = ("resign", "agreement", "timeout")


class Move:
    """Base class of every game's move value objects.

    Subclasses are frozen (hashable) dataclasses with ``__slots__``. ``str(move)``
    must be the documented notation, and ``state.parse_move(str(move)) == move``
    for every legal move. Chance outcomes are moves too.
    """

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    @classmethod
    def json_type(cls) -> str:
        """The move's type for clients, in snake case from the class name (``BankTrade`` -> ``bank_trade``)."""
        return _CAMEL_BOUNDARY.sub("_", cls.__name__).lower()

    def json_fields(self) -> dict[str, Any]:
        """Hook: the move's structure for clients, in the game's own terms (squares by name,
        cards by code), e.g. ``{"from": "b7", "to": "b6"}``. JSON-safe values only; the
        keys ``type`` and ``text`` are taken by :meth:`to_json`.

        The default lists the dataclass fields whose values are JSON scalars; games
        override it where raw fields are internal ints.
        """
        data: dict[str, Any] = {}
        for field in fields(self):  # type: ignore[arg-type]
            if not field.compare:
                continue
            value = getattr(self, field.name)
            if value is None or isinstance(value, (bool, int, float, str)):
                data[field.name] = value
        return data

    def to_json(self) -> dict[str, Any]:
        """``{"type": ..., "notation": ..., ...structure}``: what a client needs to show and
        highlight the move; ``notation`` is what it sends back to play it. (A log entry's
        ``text`` is how the move reads to one viewer, which may hide what it cannot know.)"""
        return {"type": self.json_type(), "notation": str(self), **self.json_fields()}


def check_code(code: str) -> str:
    """``code`` if it is a valid ending or error code (lower snake case), else ValueError."""
    if not isinstance(code, str) or not _CODE.match(code):
        raise ValueError(f"{code!r} is not a code: expected lower snake case such as 'move_limit'")
    return code


@dataclass(frozen=True)
class Result:
    """How a game ended.

    ``returns`` has one value per player in [0, 1] summing to 1: a sole winner gets
    1, a draw among k players gives each of them 1/k, everybody else 0.
    ``winners`` lists the players sharing the result (one for a win, several for
    a draw, all players for a full draw). ``code`` is the stable machine-readable
    kind of ending (``castles``, ``repetition``, ``move_limit``, ``resign`` ...),
    documented in each game's rules document; ``reason`` is the sentence for people.
    """

    winners: tuple[Player, ...]
    returns: tuple[float, ...]
    reason: str
    code: str

    def __post_init__(self) -> None:
        check_code(self.code)

    @property
    def is_draw(self) -> bool:
        return len(self.winners) != 1

    @property
    def winner(self) -> Player | None:
        return self.winners[0] if len(self.winners) == 1 else None

    @classmethod
    def win(cls, player: Player, num_players: int, reason: str, *, code: str) -> Result:
        returns = tuple(1.0 if p == player else 0.0 for p in range(num_players))
        return cls((player,), returns, reason, code)

    @classmethod
    def draw(cls, players: Iterable[Player], num_players: int, reason: str, *, code: str) -> Result:
        shared = tuple(sorted(set(players)))
        if not shared:
            raise ValueError("a draw needs at least one player sharing it")
        share = 1.0 / len(shared)
        returns = tuple(share if p in shared else 0.0 for p in range(num_players))
        return cls(shared, returns, reason, code)

    @classmethod
    def shared(cls, players: Iterable[Player], num_players: int, reason: str, *, code: str) -> Result:
        """A win when ``players`` is one player, else a draw among them."""
        group = tuple(sorted(set(players)))
        if len(group) == 1:
            return cls.win(group[0], num_players, reason, code=code)
        return cls.draw(group, num_players, reason, code=code)

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
        return {
            "winners": list(self.winners),
            "returns": list(self.returns),
            "code": self.code,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """The inverse of :meth:`to_json`; KeyError, TypeError or ValueError when malformed."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a result must be an object, not {type(data).__name__}")
        winners = data["winners"]
        returns = data["returns"]
        if not isinstance(winners, list) or not all(isinstance(w, int) and not isinstance(w, bool) for w in winners):
            raise ValueError("'winners' must be a list of seat numbers")
        if not isinstance(returns, list) or not all(
            isinstance(r, (int, float)) and not isinstance(r, bool) for r in returns
        ):
            raise ValueError("'returns' must be a list of numbers")
        reason = data["reason"]
        if not isinstance(reason, str):
            raise ValueError("'reason' must be text")
        return cls(tuple(winners), tuple(float(r) for r in returns), reason, check_code(data["code"]))


__all__ = ["CHANCE", "MATCH_ENDING_CODES", "TERMINAL", "Move", "Player", "Result", "check_code"]
