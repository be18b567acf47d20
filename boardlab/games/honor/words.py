"""Honor's moves and releases in words, for people (rule 10.2.1): the piece by its name, where it
was let go in the rules' own terms (its zone, its tower, the tower's ends and middle, rule 4.3),
how it was turned (rule 4.2: counter-clockwise is "to the left"), and never notation, piece codes
or coordinates. Records, the API's ``notation`` and the report's data keep the numbers.

Pure functions on plain values; no physics engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .catalogue import ALL_PIECES, kind_of
from .placement import tower_extent

if TYPE_CHECKING:
    from .position import PieceOnTable

#: closer than this to a middle (cm) is "in the middle"
MIDDLE_CM = 0.5
#: the tremor's words when the hand moved the piece by less than can be seen
STEADY = "went where it was aimed"
#: this share of the half-width from the middle and beyond is "near the end"
NEAR_END = 0.7
#: the words of where a release lies (rule 4.3) and how it is turned (rule 4.2), ``{cm}`` and
#: ``{degrees}`` filled in by :func:`cm` and :func:`_degrees`: :func:`where_words` and
#: :func:`turn_words` say them, and the view hands them to the play page with
#: :func:`aim_words`, which says the piece in the hand with them as it moves
PHRASES = {
    "zone_middle": "in the middle of its zone",
    "zone_left": "{cm} left of the middle of its zone",
    "zone_right": "{cm} right of the middle of its zone",
    "past_left": "{cm} past the left end of its tower",
    "past_right": "{cm} past the right end of its tower",
    "middle": "over the middle of its tower",
    "near_left": "near the left end of its tower",
    "near_right": "near the right end of its tower",
    "left": "{cm} left of the middle of its tower",
    "right": "{cm} right of the middle of its tower",
    "turn_90": "turned a quarter turn to the left",
    "turn_180": "turned upside down",
    "turn_270": "turned a quarter turn to the right",
    "turn_left": "turned {degrees} to the left",
    "turn_right": "turned {degrees} to the right",
}


def piece_name(pid: str) -> str:
    """``LG2`` -> "the log" (the kind's name of rule 2.1)."""
    return f"the {kind_of(pid).name}"


def piece_label(pid: str) -> str:
    """A piece of the supply as people name it: ``SL1`` -> "slab", ``LG2`` -> "log 2" (its
    number only where the set holds more than one of its kind, rule 2.1)."""
    kind = kind_of(pid)
    return kind.name if kind.count == 1 else f"{kind.name} {int(pid[2:])}"


#: every piece of the set by its name ("the log") and its label in the supply ("log 2"): the
#: view's ``piece_names``, so that the play page says them as these functions do
PIECE_NAMES = {pid: {"name": piece_name(pid), "label": piece_label(pid)} for pid in ALL_PIECES}


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
    if theta in (90, 180, 270):
        return PHRASES[f"turn_{theta:.0f}"]
    if theta < 180:
        return PHRASES["turn_left"].format(degrees=_degrees(theta))
    return PHRASES["turn_right"].format(degrees=_degrees(360 - theta))


def where_words(table: Sequence[PieceOnTable], zone: tuple[float, float], player: int, x: float) -> str:
    """Where x (cm) lies for ``player``: in its zone for a foundation, else over its tower
    (rule 4.3's [L, R], the union of the x-extents of its pieces)."""
    extent = tower_extent(table, player)
    if extent is None:
        middle = (zone[0] + zone[1]) / 2
        off = x - middle
        if abs(off) < MIDDLE_CM:
            return PHRASES["zone_middle"]
        return PHRASES["zone_left" if off < 0 else "zone_right"].format(cm=cm(off))
    left, right = extent
    if x < left:
        return PHRASES["past_left"].format(cm=cm(left - x))
    if x > right:
        return PHRASES["past_right"].format(cm=cm(x - right))
    middle = (left + right) / 2
    off = x - middle
    if abs(off) < MIDDLE_CM:
        return PHRASES["middle"]
    side = "left" if off < 0 else "right"
    if abs(off) >= NEAR_END * (right - left) / 2:
        return PHRASES[f"near_{side}"]
    return PHRASES[side].format(cm=cm(off))


def aim_words(table: Sequence[PieceOnTable], zone: tuple[float, float], player: int, pid: str) -> dict[str, object]:
    """What the play page needs to say the piece in the hand as :func:`where_words` and
    :func:`turn_words` would while it is dragged (the view's ``placing.words``): its ``name``,
    the placer's ``zone`` and tower ``extent`` (null for a foundation), the thresholds
    ``middle_cm`` and ``near_end`` and the ``phrases``."""
    extent = tower_extent(table, player)
    return {"name": piece_name(pid), "zone": list(zone), "extent": None if extent is None else list(extent),
            "middle_cm": MIDDLE_CM, "near_end": NEAR_END, "phrases": PHRASES}


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


__all__ = ["MIDDLE_CM", "NEAR_END", "PHRASES", "PIECE_NAMES", "STEADY", "aim_words", "cm", "piece_label", "piece_name",
           "release_words", "tremor_words", "turn_words", "where_words"]
