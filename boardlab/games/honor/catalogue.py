"""The Honor-30 piece set: shapes, sizes and masses (rules section 2).

Pure Python, no physics engine: legality checks, rendering and the agent's static
proxies use these tables without pymunk.

Every piece is a right prism of depth 3 cm; the side view is its 2D profile, a
union of convex polygons given in centimetres in the piece's catalogue
orientation (angle 0). Vertices are centred on the area centroid, so a body's
position is its centre of mass (ruling B-14 item 13). Mass = 1.8 g per cm² of
profile (wood 0.6 g/cm³ x 3 cm depth).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Polygon = tuple[Point, ...]

#: grams per cm² of profile: 0.6 g/cm³ x 3 cm depth
AREA_DENSITY = 1.8


@dataclass(frozen=True)
class PieceKind:
    """One kind of piece: a code (``CU``), a name, how many the set holds, and its profile."""

    code: str
    name: str
    count: int
    parts: tuple[Polygon, ...]
    role: str

    @property
    def area(self) -> float:
        return sum(polygon_area(part) for part in self.parts)

    @property
    def mass(self) -> float:
        return AREA_DENSITY * self.area

    @property
    def vertices(self) -> tuple[Point, ...]:
        return tuple(v for part in self.parts for v in part)

    def width_height(self, angle: float = 0.0) -> tuple[float, float]:
        """Bounding-box width and height when rotated by ``angle`` radians."""
        xs, ys = zip(*rotate(self.vertices, angle))
        return max(xs) - min(xs), max(ys) - min(ys)


# --- plane geometry helpers (pure Python) ------------------------------------------

def polygon_area(poly: Sequence[Point]) -> float:
    """Signed area (positive for counter-clockwise vertices)."""
    total = 0.0
    for (x1, y1), (x2, y2) in zip(poly, (*poly[1:], poly[0])):
        total += x1 * y2 - x2 * y1
    return total / 2.0


def polygon_centroid(poly: Sequence[Point]) -> Point:
    area = polygon_area(poly)
    cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(poly, (*poly[1:], poly[0])):
        cross = x1 * y2 - x2 * y1
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    return cx / (6.0 * area), cy / (6.0 * area)


def rotate(points: Sequence[Point], angle: float) -> list[Point]:
    c, s = math.cos(angle), math.sin(angle)
    return [(x * c - y * s, x * s + y * c) for x, y in points]


def place(points: Sequence[Point], x: float, y: float, angle: float) -> list[Point]:
    """``points`` rotated by ``angle`` radians about the origin, then moved to (x, y)."""
    return [(px + x, py + y) for px, py in rotate(points, angle)]


def convex_hull(points: Sequence[Point]) -> list[Point]:
    """Counter-clockwise convex hull (monotone chain), collinear points dropped."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-12:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-12:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def point_in_convex(poly: Sequence[Point], px: float, py: float) -> bool:
    """True if (px, py) lies inside or on the counter-clockwise convex polygon."""
    return all((x2 - x1) * (py - y1) - (y2 - y1) * (px - x1) >= -1e-09 for (x1, y1), (x2, y2) in zip(poly, (*poly[1:], poly[0])))


# --- the profiles, in catalogue orientation (B-14 item 14) -------------------------

def _box(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _arc(cx: float, cy: float, r: float, start: float, stop: float, segments: int) -> list[Point]:
    return [
        (cx + r * math.cos(start + (stop - start) * k / segments),
         cy + r * math.sin(start + (stop - start) * k / segments))
        for k in range(segments + 1)
    ]


def _arch_parts() -> tuple[Polygon, ...]:
    """9 x 4.5 block with a semicircular cut-out r 2.25 at the bottom (B-14 item 21).

    Concave, so it is one top bar, two legs and eight spandrel slices between the
    arc's chords and the bar: eleven convex parts on one body, top face one edge.
    """
    r, cx = 2.25, 4.5
    parts: list[Polygon] = [_box(0, 2.25, 9, 4.5), _box(0, 0, 2.25, 2.25), _box(6.75, 0, 9, 2.25)]
    arc = _arc(cx, 0.0, r, math.pi, 0.0, 8)
    for (x1, y1), (x2, y2) in itertools.pairwise(arc):
        quad = [(x1, y1), (x2, y2), (x2, 2.25), (x1, 2.25)]
        unique: list[Point] = []
        for p in quad:
            if all(math.dist(p, q) > 1e-9 for q in unique):
                unique.append(p)
        parts.append(tuple(unique))
    return tuple(parts)


_RAW_KINDS: tuple[tuple[str, str, int, tuple[Polygon, ...], str], ...] = (
    ("CU", "cube", 4, (_box(0, 0, 3, 3),), "easy filler"),
    ("BR", "brick", 4, (_box(0, 0, 6, 3),), "easy, builds height"),
    ("CO", "column", 2, (_box(0, 0, 3, 9),), "tall, tippy if upright"),
    ("PS", "short plank", 3, (_box(0, 0, 9, 1.5),), "platform"),
    ("PL", "long plank", 3, (_box(0, 0, 12, 1.5),), "platform or lever"),
    ("SL", "slab", 1, (_box(0, 0, 15, 3),), "best foundation"),
    ("WE", "wedge", 3, (((0, 0), (6, 0), (0, 3)),), "sloped top, awkward"),
    ("RF", "roof", 2, (((0, 0), (6, 0), (3, 3 * math.sqrt(3))),), "apex up: tower killer"),
    ("TR", "trapezoid", 2, (((0, 0), (6, 0), (4.5, 3), (1.5, 3)),), "medium"),
    ("HD", "half-disc", 2, (tuple(_arc(0, 0, 3, 0, math.pi, 16)),), "rocks on its arc"),
    ("AR", "arch", 2, _arch_parts(), "bridges two supports"),
    # A regular 16-gon, flat face down: a true circle never stops rolling (B-14 item 4).
    ("LG", "log", 2, (tuple(_arc(0, 0, 1.5, math.pi / 16 - math.pi / 2,
                                 math.pi / 16 - math.pi / 2 + 2 * math.pi, 16)[:-1]),),
     "rolls: the hot potato"),
)


def _area_centroid(parts: tuple[Polygon, ...]) -> Point:
    total = sum(polygon_area(p) for p in parts)
    cx = sum(polygon_area(p) * polygon_centroid(p)[0] for p in parts) / total
    cy = sum(polygon_area(p) * polygon_centroid(p)[1] for p in parts) / total
    return cx, cy


def _centred(parts: tuple[Polygon, ...]) -> tuple[Polygon, ...]:
    cx, cy = _area_centroid(parts)
    return tuple(tuple((round(x - cx, 6), round(y - cy, 6)) for x, y in part) for part in parts)


def _arch_outline() -> Polygon:
    """The arch's concave outline (counter-clockwise), centred like its parts: for drawing."""
    cx, cy = _area_centroid(_arch_parts())
    outline = [(0.0, 0.0), *_arc(4.5, 0.0, 2.25, math.pi, 0.0, 8), (9.0, 0.0), (9.0, 4.5), (0.0, 4.5)]
    return tuple((round(x - cx, 6), round(y - cy, 6)) for x, y in outline)


KINDS: dict[str, PieceKind] = {
    code: PieceKind(code, name, count, _centred(parts), role)
    for code, name, count, parts, role in _RAW_KINDS
}

#: every piece id of the set, sorted as Python strings (the supply's order)
ALL_PIECES: tuple[str, ...] = tuple(
    sorted(f"{code}{i}" for code, kind in KINDS.items() for i in range(1, kind.count + 1))
)


#: each kind's outline as one (possibly concave) polygon, for drawing only: the physics and
#: the catalogue hash use the convex parts
OUTLINES: dict[str, Polygon] = {
    code: (_arch_outline() if len(kind.parts) > 1 else kind.parts[0]) for code, kind in KINDS.items()
}


def kind_of(pid: str) -> PieceKind:
    """The kind of a piece id (``"PL2"`` -> long plank)."""
    return KINDS[pid[:2]]


def world_parts(pid: str, x: float, y: float, angle: float) -> list[list[Point]]:
    """The piece's convex parts placed at centroid (x, y), rotated ``angle`` radians."""
    return [place(part, x, y, angle) for part in kind_of(pid).parts]


def world_outline(pid: str, x: float, y: float, angle: float) -> list[Point]:
    """The piece's outline (one polygon, possibly concave) at centroid (x, y), rotated ``angle``."""
    return place(OUTLINES[pid[:2]], x, y, angle)


def x_extent(pid: str, x: float, angle: float) -> tuple[float, float]:
    """Left and right x of the piece's bounding box at centroid x, rotated ``angle`` radians."""
    xs = [px for px, _ in rotate(kind_of(pid).vertices, angle)]
    return x + min(xs), x + max(xs)


def catalogue_json() -> str:
    """The catalogue as canonical JSON; its SHA-256 is part of the ruleset id."""
    data = [[k.code, k.name, k.count, [[list(v) for v in part] for part in k.parts]] for k in KINDS.values()]
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


CATALOGUE_SHA256: str = hashlib.sha256(catalogue_json().encode()).hexdigest()


def rest_angles_decidegrees(code: str, min_edge: float = 1.0) -> tuple[int, ...]:
    """Orientations (0.1° units) that put one convex-hull edge at least ``min_edge`` cm
    long face down, mirror-identical ones dropped; (0,) if none qualifies."""
    kind = KINDS[code]
    hull = convex_hull(kind.vertices)
    found: list[int] = []
    seen: list[list[Point]] = []
    for (x1, y1), (x2, y2) in zip(hull, (*hull[1:], hull[0])):
        if math.dist((x1, y1), (x2, y2)) < min_edge:
            continue
        # A counter-clockwise edge (dx, dy) has the outward normal (dy, -dx); turn it down.
        normal = math.atan2(-(x2 - x1), y2 - y1)
        turn = (-math.pi / 2 - normal) % (2 * math.pi)
        tenths = round(math.degrees(turn) * 10) % 3600
        shape = sorted((round(x, 3), round(y, 3)) for x, y in rotate(hull, math.radians(tenths / 10)))
        if shape in seen:
            continue
        seen.append(shape)
        found.append(tenths)
    return tuple(sorted(found)) or (0,)


__all__ = [
    "ALL_PIECES",
    "AREA_DENSITY",
    "CATALOGUE_SHA256",
    "KINDS",
    "OUTLINES",
    "PieceKind",
    "catalogue_json",
    "convex_hull",
    "kind_of",
    "place",
    "point_in_convex",
    "polygon_area",
    "rest_angles_decidegrees",
    "rotate",
    "world_outline",
    "world_parts",
    "x_extent",
]
