"""Board geometry (rule R2): cells, intersections, touching cards, adjacency.

Cells are ``(c, r)`` (column, row) and intersections ``(x, y)`` lattice points;
cell ``(c, r)`` has the corners ``(c, r) (c+1, r) (c, r+1) (c+1, r+1)``.
Coordinates are absolute and may become negative when Expand adds a card above
or left of the grid. An intersection exists iff a grid card touches it, so
every function takes the set (or dict) of occupied cells.
"""

from __future__ import annotations

from typing import Collection, Iterable

Cell = tuple[int, int]
Point = tuple[int, int]

EDGE_STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


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
    points = set()
    for c, r in grid:
        points.update(((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)))
    return sorted(points, key=lambda p: (p[1], p[0]))


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


def expansion_cells(grid: Collection[Cell], max_extent: tuple[int, int] | None) -> list[Cell]:
    """Empty cells sharing a side with a grid card (R7.5), sorted by (r, c).

    With ``max_extent = (width, height)`` a cell is allowed only if the grid's
    bounding box stays within that size once the card is added.
    """
    found = set()
    for c, r in grid:
        for dc, dr in EDGE_STEPS:
            cell = (c + dc, r + dr)
            if cell not in grid:
                found.add(cell)
    if max_extent is not None and found:
        cols = [c for c, _ in grid]
        rows = [r for _, r in grid]
        lo_c, hi_c, lo_r, hi_r = min(cols), max(cols), min(rows), max(rows)
        width, height = max_extent
        found = {
            (c, r)
            for c, r in found
            if max(hi_c, c) - min(lo_c, c) + 1 <= width and max(hi_r, r) - min(lo_r, r) + 1 <= height
        }
    return sorted(found, key=lambda cell: (cell[1], cell[0]))
