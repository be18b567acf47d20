"""Board geometry (rule R2): cells, intersections, touching cards, adjacency.

Cells are ``(c, r)`` (column, row) and intersections ``(x, y)`` lattice points;
cell ``(c, r)`` has the corners ``(c, r) (c+1, r) (c, r+1) (c+1, r+1)``.
Coordinates are absolute and may become negative when Expand adds a card above
or left of the grid. An intersection exists iff a grid card touches it, so
every function takes the set (or dict) of occupied cells. The cells an Expand
may fill, and the geometry move generation asks most, are :mod:`.kernel`'s.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from operator import itemgetter

Cell = tuple[int, int]
Point = tuple[int, int]

#: the sort key of intersections: by row, then by column (y, then x)
READING_ORDER = itemgetter(1, 0)


def cell_corners(cell: Cell) -> tuple[Point, Point, Point, Point]:
    c, r = cell
    return ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1))


def cells_around(point: Point) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells that would have ``point`` as a corner (occupied or not)."""
    x, y = point
    return ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y))


def touching(point: Point, grid: Collection[Cell]) -> list[Cell]:
    """The grid cells having ``point`` as a corner (R2.2): 0 to 4 of them."""
    return [cell for cell in cells_around(point) if cell in grid]


def intersections(grid: Iterable[Cell]) -> list[Point]:
    """Every corner of every grid cell, sorted by (y, x) (R2.2). Cost: O(cells)."""
    points: set[Point] = set()
    for c, r in grid:
        points.update(((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)))
    return sorted(points, key=READING_ORDER)


def shares_card(a: Point, b: Point, grid: Collection[Cell]) -> bool:
    """Whether some grid cell has both ``a`` and ``b`` as corners (R2.3)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if a == b or abs(dx) > 1 or abs(dy) > 1:
        return False
    x, y = min(a[0], b[0]), min(a[1], b[1])
    if dx and dy:
        return (x, y) in grid
    if dy == 0:
        return (x, a[1] - 1) in grid or (x, a[1]) in grid
    return (a[0] - 1, y) in grid or (a[0], y) in grid


def side_neighbours(point: Point, grid: Collection[Cell]) -> list[Point]:
    """Intersections joined to ``point`` by the side of a grid card (the distance rule, R6.1)."""
    x, y = point
    return [
        other
        for other in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
        if shares_card(point, other, grid)
    ]

