"""Where a piece may be released (rules 4.2, 4.3) and the candidate releases (rule 10.4).

Pure geometry on the integer table record (no physics engine): legality checks, the
candidate list, the default release and the views all use it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from . import physics
from .catalogue import rest_angles_decidegrees, x_extent
from .moves import DEFAULT_CLEARANCE, Release
from .physics import TableLayout
from .rules import CANDIDATE_COLUMNS, REACH_CM

if TYPE_CHECKING:
    from .position import PieceOnTable


def tower_extent(table: Sequence[PieceOnTable], player: int) -> tuple[float, float] | None:
    """[L, R]: the union of the x-extents of the player's pieces (B-14 item 15), or None
    when the player has no piece on the table yet."""
    left = right = None
    for piece in table:
        if piece.owner == player:
            lo, hi = x_extent(piece.pid, piece.xq * 1e-4, piece.aq * 1e-6)
            left = lo if left is None else min(left, lo)
            right = hi if right is None else max(right, hi)
    return None if left is None or right is None else (left, right)


def release_window(table: Sequence[PieceOnTable], layout: TableLayout, player: int, pid: str,
                   thetaq: int) -> tuple[int, int]:
    """The legal x range (0.01 cm units, inclusive) of a release at rotation ``thetaq``
    (rule 4.3): the zone for a foundation (its bounding box inside), else the tower's
    extent widened by 3 cm each side."""
    extent = tower_extent(table, player)
    if extent is None:
        zone_lo, zone_hi = layout.zone(player)
        lo, hi = x_extent(pid, 0.0, math.radians(thetaq / 10))
        return math.ceil(round((zone_lo - lo) * 100, 6)), math.floor(round((zone_hi - hi) * 100, 6))
    left, right = extent
    return math.ceil(round((left - REACH_CM) * 100, 6)), math.floor(round((right + REACH_CM) * 100, 6))


def candidate_releases(table: Sequence[PieceOnTable], layout: TableLayout, player: int, pid: str) -> list[Release]:
    """The documented candidate set (rule 10.4): each rest orientation of the piece times
    five evenly spaced x over the zone (foundation) or over the tower's extent; h = 0.05."""
    return [release for _, _, release in candidate_columns(table, layout, player, pid)]


def candidate_columns(
    table: Sequence[PieceOnTable], layout: TableLayout, player: int, pid: str
) -> list[tuple[int, int, Release]]:
    """The candidate set as ``(orientation number, column, release)``: the orientation's place
    in :func:`rest_angles_decidegrees` and the column 0..4 that first gave the release's x
    (columns that land on the same x as an earlier one are dropped). The action encoding
    numbers releases by these two, which do not depend on where the window lies."""
    extent = tower_extent(table, player)
    found: list[tuple[int, int, Release]] = []
    for orientation, thetaq in enumerate(rest_angles_decidegrees(pid[:2])):
        lo, hi = release_window(table, layout, player, pid, thetaq)
        if extent is not None:
            lo = max(lo, math.ceil(extent[0] * 100))
            hi = min(hi, math.floor(extent[1] * 100))
        if lo > hi:
            continue
        seen: set[int] = set()
        for k in range(CANDIDATE_COLUMNS):
            xq = lo + round((hi - lo) * k / (CANDIDATE_COLUMNS - 1))
            if xq not in seen:
                seen.add(xq)
                found.append((orientation, k, Release(xq, thetaq, DEFAULT_CLEARANCE)))
    return found


def default_release(table: Sequence[PieceOnTable], layout: TableLayout, player: int, pid: str) -> Release:
    """The release offered to a person and made on a timeout (rule 7.14): rotation 0 over the
    middle of the legal window, which is the middle of the zone for a foundation and the
    middle of the tower's extent otherwise; clearance 0.05. Always legal: every piece is
    narrower than a zone at rotation 0, and a tower's window is never empty."""
    lo, hi = release_window(table, layout, player, pid, 0)
    return Release((lo + hi) // 2, 0, DEFAULT_CLEARANCE)


@lru_cache(maxsize=64)
def drop_point(layout: TableLayout, table: tuple[PieceOnTable, ...], code: str, xq: int,
               thetaq: int) -> tuple[float, list[str]] | None:
    """Where a release at (x, rotation) first touches (rule 4.4): the first-contact height
    y0 (cm) and what it touches (piece ids, ``"table"``), or None if nothing is below. The
    sweep runs on a space built from the record: the same poses as the stored one, so the
    same heights. Cached: views ask for it at every drawing of the same table."""
    space = physics.build_space(layout, [
        physics.BodySpec(p.pid, p.owner, p.foundation, p.xq * 1e-4, p.yq * 1e-4, p.aq * 1e-6)
        for p in sorted(table, key=lambda piece: piece.order)])
    angle = math.radians(thetaq / 10)
    y0 = physics.first_contact_height(space, code, xq / 100, angle)
    if y0 is None:
        return None
    return y0, physics.touched_below(space, code, xq / 100, y0, angle)


def release_height(y0: float, hq: int) -> float:
    """The centroid height a release is let go at (rule 4.4): the first-contact height
    rounded up to 1e-4 cm, plus the clearance."""
    return (math.ceil(y0 * 1e4) + hq * 100) * 1e-4


__all__ = ["candidate_columns", "candidate_releases", "default_release", "drop_point", "release_height", "release_window",
           "tower_extent"]
