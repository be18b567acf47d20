"""Honor's moves and their notation (rules section 10).

One token line per protocol move::

    build CU1 0      choose a piece to Build, with the opening bid
    push LG1         choose a piece to Push
    raise 3          outbid in an auction          pass     pass in an auction (final)
    acc              accept a pushed piece         passon   pay to pass it on
    rel 30.00 0.0 0.05   release: x cm (0.01), rotation deg (0.1), clearance cm (0.01)
    tremor 0.07 -0.4     the hand's tremor (a chance outcome): dx cm, d-rotation deg
    resign

A resolving move (``rel`` without tremor, ``tremor`` with it, ``resign``) may carry
``#`` and 16 hex digits: the expected canonical-state hash after its resolution.
Replaying such a record re-simulates and rejects the move on a mismatch. The hash
is not part of the move's identity: ``str(move)`` is the canonical text without
it, and :meth:`HonorState.history_notation` adds it to every resolving move of a record.
Short forms for people: ``rel 31.5`` (rotation 0, clearance 0.05), ``rel 31.5 90``,
``build CU1`` (bid 0), ``bid 3``, ``accept``; piece ids in any case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import Any

from boardlab.core import Move, NotationError

from .catalogue import ALL_PIECES

#: release units: x and h in 0.01 cm, rotation in 0.1 degree
X_UNITS_PER_CM = 100
THETA_UNITS_PER_DEGREE = 10
FULL_TURN = 360 * THETA_UNITS_PER_DEGREE
DEFAULT_CLEARANCE = 5  # 0.05 cm
MIN_CLEARANCE = 2  # 0.02 cm
MAX_CLEARANCE = 1000  # 10.00 cm

_HASH = re.compile(r"^#([0-9a-f]{16})$")
#: the largest decimal exponent a number of a release or tremor may have (below 10^8) before it is
#: scaled to units: far off any table, and no huge integer is ever built from text like 1e99999
_MAX_EXPONENT = 7


def fixed(value: int, decimals: int) -> str:
    """An integer count of 10^-decimals units as exact decimal text: fixed(-7, 2) == '-0.07'."""
    sign = "-" if value < 0 else ""
    whole, frac = divmod(abs(value), 10**decimals)
    return f"{sign}{whole}.{frac:0{decimals}d}"


@dataclass(frozen=True, slots=True)
class Build(Move):
    """Choose ``pid`` to Build and open its auction at ``bid`` tokens (rule 7.2)."""

    pid: str
    bid: int

    def __str__(self) -> str:
        return f"build {self.pid} {self.bid}"

    def json_fields(self) -> dict[str, Any]:
        return {"piece": self.pid, "bid": self.bid}


@dataclass(frozen=True, slots=True)
class Push(Move):
    """Choose ``pid`` to Push to the next standing player (rule 7.7)."""

    pid: str

    def __str__(self) -> str:
        return f"push {self.pid}"

    def json_fields(self) -> dict[str, Any]:
        return {"piece": self.pid}


@dataclass(frozen=True, slots=True)
class Raise(Move):
    """Bid ``bid`` tokens in the current auction (strictly above the high bid)."""

    bid: int

    def __str__(self) -> str:
        return f"raise {self.bid}"


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """Pass in the current auction: final for this piece."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Accept(Move):
    """Accept the pushed piece and place it."""

    def __str__(self) -> str:
        return "acc"


@dataclass(frozen=True, slots=True)
class PassOn(Move):
    """Pay the pass fee and send the pushed piece to the next standing player."""

    def __str__(self) -> str:
        return "passon"


@dataclass(frozen=True, slots=True)
class Release(Move):
    """Let go of the piece: centroid x (0.01 cm), rotation (0.1°, [0, 360)),
    clearance above the first-contact height (0.01 cm). ``expect`` (not part of
    equality) is a recorded state-hash prefix to verify."""

    xq: int
    thetaq: int
    hq: int = DEFAULT_CLEARANCE
    expect: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"rel {fixed(self.xq, 2)} {fixed(self.thetaq, 1)} {fixed(self.hq, 2)}"

    def json_fields(self) -> dict[str, Any]:
        """x and clearance in cm, rotation in degrees (the recorded hash is no part of the move)."""
        return {"x": self.x, "rotation": self.theta_degrees, "clearance": self.clearance}

    @property
    def x(self) -> float:
        return self.xq / X_UNITS_PER_CM

    @property
    def theta_degrees(self) -> float:
        return self.thetaq / THETA_UNITS_PER_DEGREE

    @property
    def clearance(self) -> float:
        return self.hq / X_UNITS_PER_CM


@dataclass(frozen=True, slots=True)
class Tremor(Move):
    """The chance outcome of a placement: dx (0.01 cm) and d-rotation (0.1°) added to
    the intended release. ``expect`` as for :class:`Release`."""

    dxq: int
    dthetaq: int
    expect: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"tremor {fixed(self.dxq, 2)} {fixed(self.dthetaq, 1)}"

    def json_fields(self) -> dict[str, Any]:
        """The hand's error: dx in cm, d-rotation in degrees."""
        return {"dx": self.dxq / X_UNITS_PER_CM, "rotation": self.dthetaq / THETA_UNITS_PER_DEGREE}


@dataclass(frozen=True, slots=True)
class Resign(Move):
    """Concede (H-22): eliminated now; pieces back to the supply, tokens to the bank.
    Its pieces leave the table and the table re-settles, so like a release it is a
    resolution and may carry ``expect``, a recorded state-hash prefix to verify."""

    expect: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return "resign"

    def json_fields(self) -> dict[str, Any]:
        return {}


HonorMove = Build | Push | Raise | Pass | Accept | PassOn | Release | Tremor | Resign


#: a number as the notation writes it: ASCII digits with an optional point and exponent (Decimal
#: alone would also take other scripts' digits and Python's underscores, "1_5")
_DECIMAL_TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf(inity)?|nan)", re.ASCII | re.IGNORECASE)


def _units(text: str, per_unit: int, what: str, original: str) -> int:
    if not _DECIMAL_TEXT.fullmatch(text):
        raise NotationError(f"{original!r}: {what} {text!r} is not a number")
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise NotationError(f"{original!r}: {what} {text!r} is not a number") from None
    if not value.is_finite():
        raise NotationError(f"{original!r}: {what} {text!r} is not a finite number")
    if value.adjusted() > _MAX_EXPONENT:  # exact: no context, so no decimal.Overflow
        raise NotationError(f"{original!r}: {what} {text!r} is out of range")
    return int((value * per_unit).to_integral_value(rounding=ROUND_HALF_EVEN))


def _integer(text: str, what: str, original: str) -> int:
    if not re.fullmatch(r"[+-]?\d{1,6}", text, re.ASCII):
        raise NotationError(f"{original!r}: {what} {text!r} is not a whole number")
    return int(text)


def _piece(text: str, original: str) -> str:
    pid = text.upper()
    if pid not in ALL_PIECES:
        raise NotationError(f"{original!r}: {text!r} is not a piece of the Honor-30 set (CU1..LG2)")
    return pid


def _split_hash(words: list[str], original: str) -> str | None:
    if words and words[-1].startswith("#"):
        match = _HASH.match(words.pop().lower())
        if match is None:
            raise NotationError(f"{original!r}: a state hash is '#' and 16 hex digits")
        return match.group(1)
    return None


def parse_move_text(text: str) -> HonorMove:
    """Notation to a move object (legality is checked by the state afterwards).

    Raises NotationError naming the malformed part."""
    words = text.split()
    if not words:
        raise NotationError("empty move: expected build, push, raise, pass, acc, passon, rel, tremor or resign")
    verb, args = words[0].lower(), words[1:]
    expect = _split_hash(args, text) if verb in ("rel", "release", "tremor", "resign") else None

    def need(low: int, high: int) -> None:
        if not low <= len(args) <= high:
            count = str(low) if low == high else f"{low}-{high}"
            raise NotationError(f"{text!r}: '{verb}' takes {count} argument(s), got {len(args)}")

    if verb == "build":
        need(1, 2)
        return Build(_piece(args[0], text), _integer(args[1], "bid", text) if len(args) == 2 else 0)
    if verb == "push":
        need(1, 1)
        return Push(_piece(args[0], text))
    if verb in ("raise", "bid"):
        need(1, 1)
        return Raise(_integer(args[0], "bid", text))
    if verb in ("pass", "-"):
        need(0, 0)
        return Pass()
    if verb in ("acc", "accept"):
        need(0, 0)
        return Accept()
    if verb in ("passon", "pass-on"):
        need(0, 0)
        return PassOn()
    if verb in ("rel", "release"):
        need(1, 3)
        xq = _units(args[0], X_UNITS_PER_CM, "x", text)
        thetaq = _units(args[1], THETA_UNITS_PER_DEGREE, "rotation", text) % FULL_TURN if len(args) > 1 else 0
        hq = _units(args[2], X_UNITS_PER_CM, "clearance", text) if len(args) > 2 else DEFAULT_CLEARANCE
        if abs(xq) > 10**7:
            raise NotationError(f"{text!r}: x {args[0]} is off any table")
        return Release(xq, thetaq, hq, expect)
    if verb == "tremor":
        need(2, 2)
        return Tremor(_units(args[0], X_UNITS_PER_CM, "dx", text),
                      _units(args[1], THETA_UNITS_PER_DEGREE, "d-rotation", text), expect)
    if verb == "resign":
        need(0, 0)
        return Resign(expect)
    raise NotationError(
        f"{text!r}: unknown move {verb!r}; expected build, push, raise, pass, acc, passon, rel, tremor or resign"
    )


__all__ = [
    "DEFAULT_CLEARANCE",
    "FULL_TURN",
    "MAX_CLEARANCE",
    "MIN_CLEARANCE",
    "THETA_UNITS_PER_DEGREE",
    "X_UNITS_PER_CM",
    "Accept",
    "Build",
    "HonorMove",
    "Pass",
    "PassOn",
    "Push",
    "Raise",
    "Release",
    "Resign",
    "Tremor",
    "fixed",
    "parse_move_text",
]
