"""Honor's moves and releases in words, for people (rule 10.2.1): the piece by its name, where it
was let go in the rules' own terms (its zone, its tower, the tower's ends and middle, rule 4.3),
how it was turned (rule 4.2: counter-clockwise is "to the left"), and never notation, piece codes
or coordinates. Records, the API's ``notation`` and the report's data keep the numbers.

Pure functions on plain values; no physics engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .catalogue import kind_of
from .placement import tower_extent

if TYPE_CHECKING:
    from .position import PieceOnTable

#: closer than this to a middle (cm) is "in the middle"
MIDDLE_CM = 0.5
#: the tremor's words when the hand moved the piece by less than can be seen
STEADY = "went where it was aimed"
#: this share of the half-width from the middle and beyond is "near the end"
NEAR_END = 0.7


def piece_name(pid: str) -> str:
    """``LG2`` -> "the log" (the kind's name of rule 2.1)."""
    return f"the {kind_of(pid).name}"


def cm(value: float) -> str:
    """A distance people read: "3 cm", "2.5 cm", "0.3 cm"."""
    text = f"{abs(value):.1f}".rstrip("0").rstrip(".")
    return f"{text} cm"


def _degrees(value: float) -> str:
    """"1 degree", "0.5 degrees", "30 degrees" (whole degrees from 1.5 on)."""
    number = abs(value)
    text = f"{number:.0f}" if number >= 1.5 else f"{number:.1f}".rstrip("0").rstrip(".")
    return f"{text} degree{'' if text == '1' else 's'}"


def turn_words(decidegrees: int) -> str:
    """The release's rotation in words ("" for the piece as drawn in rule 2.1)."""
    theta = (decidegrees % 3600) / 10
    if theta == 0:
        return ""
    if theta == 90:
        return "turned a quarter turn to the left"
    if theta == 180:
        return "turned upside down"
    if theta == 270:
        return "turned a quarter turn to the right"
    if theta < 180:
        return f"turned {_degrees(theta)} to the left"
    return f"turned {_degrees(360 - theta)} to the right"


def where_words(table: Sequence[PieceOnTable], zone: tuple[float, float], player: int, x: float) -> str:
    """Where x (cm) lies for ``player``: in its zone for a foundation, else over its tower
    (rule 4.3's [L, R], the union of the x-extents of its pieces)."""
    extent = tower_extent(table, player)
    if extent is None:
        middle = (zone[0] + zone[1]) / 2
        off = x - middle
        if abs(off) < MIDDLE_CM:
            return "in the middle of its zone"
        return f"{cm(off)} {'left' if off < 0 else 'right'} of the middle of its zone"
    left, right = extent
    if x < left:
        return f"{cm(left - x)} past the left end of its tower"
    if x > right:
        return f"{cm(x - right)} past the right end of its tower"
    middle = (left + right) / 2
    off = x - middle
    if abs(off) < MIDDLE_CM:
        return "over the middle of its tower"
    side = "left" if off < 0 else "right"
    if abs(off) >= NEAR_END * (right - left) / 2:
        return f"near the {side} end of its tower"
    return f"{cm(off)} {side} of the middle of its tower"


def release_words(table: Sequence[PieceOnTable], zone: tuple[float, float], player: int, pid: str,
                  xq: int, thetaq: int) -> str:
    """"the log, near the right end of its tower" (with the turn when the piece was turned)."""
    turn = turn_words(thetaq)
    return f"{piece_name(pid)}{', ' + turn if turn else ''}, {where_words(table, zone, player, xq / 100)}"


def tremor_words(dxq: int, dthetaq: int) -> str:
    """The hand's tremor (rule 4.5) in words: "went 0.1 cm to the left and turned 1 degree to
    the right", or "went where it was aimed"."""
    dtheta = ((dthetaq + 1800) % 3600 - 1800) / 10
    parts = []
    if abs(dxq) >= 5:
        parts.append(f"went {cm(dxq / 100)} to the {'left' if dxq < 0 else 'right'}")
    if abs(dtheta) >= 0.5:
        parts.append(f"turned {_degrees(dtheta)} to the {'left' if dtheta > 0 else 'right'}")
    return " and ".join(parts) if parts else STEADY


__all__ = ["STEADY", "cm", "piece_name", "release_words", "tremor_words", "turn_words", "where_words"]
