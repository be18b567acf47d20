"""Character drawings of the Honor table for the terminal (rich markup).

Two drawings of a view's board part:

* :func:`overview` - the whole table, every zone, one character per cell (about 1.6 cm
  per column with two players), foundations ``▓``, other pieces ``█``, the piece in hand
  ``░`` where the hand would let it go, the pieces that fell in the last resolution ``×``;
  an x ruler every 10 cm.
* :func:`zoom` - one tower close up: 0.5 cm per column (1 cm when the tower is wide; a
  tall tower is cut, its top drawn at that scale) and two pixels per character row
  (``▀ ▄ █``), so a 1.5 cm plank is three pixels thick and a log six across; neighbouring pieces
  of a tower alternate two shades of their owner's colour; a ruler with a tick every centimetre,
  a number every 5 cm, and the legal x window of the release shown with its x marked ``▲``.

Pure geometry on the view (no physics engine). A polygon is only tested against the
pixels of its own bounding box, so a drawing costs milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .catalogue import point_in_convex, world_parts

#: two shades per seat: pieces of a tower alternate, so that stacked pieces read apart
SHADES = (("red3", "indian_red1"), ("blue3", "dodger_blue1"), ("green4", "spring_green2"),
          ("gold3", "light_goldenrod1"))
COLOURS = ("red", "blue", "green", "yellow")
GHOST = "░"
WRECK = "×"
#: the widest drawing, in characters (fits an 80-column terminal panel)
MAX_COLUMNS = 74
#: the tallest close-up, in character rows, before it switches to a coarser scale
MAX_ZOOM_ROWS = 26
#: the tallest overview, in character rows: a taller table is drawn with taller cells
MAX_OVERVIEW_ROWS = 40
#: sample points per overview cell (fractions of its width and height)
CELL_SAMPLES = tuple((sx, sy) for sy in (0.125, 0.375, 0.625, 0.875) for sx in (0.2, 0.5, 0.8))
#: sample points per zoom pixel: a pixel is drawn when at least PIXEL_SHARE of them are inside
PIXEL_SAMPLES = tuple((sx, sy) for sy in (1 / 6, 0.5, 5 / 6) for sx in (1 / 6, 0.5, 5 / 6))
PIXEL_SHARE = 3

Parts = list[list[tuple[float, float]]]


def ghost_parts(view: Mapping[str, Any]) -> Parts | None:
    """The piece in hand at the aim's release pose (x, rotation, the true release height)."""
    placing = view.get("placing") or {}
    aim = placing.get("aim")
    if not aim or aim.get("y") is None:
        return None
    return world_parts(placing["pid"], aim["x"], aim["y"], math.radians(aim["rotation"]))


def fallen_parts(view: Mapping[str, Any]) -> list[Parts]:
    """Where the pieces of the towers that fell in the latest resolution lay when taken off."""
    reports = view.get("reports") or []
    if not reports:
        return []
    return [world_parts(p["pid"], p["x"], p["y"], p["angle"]) for p in reports[-1].get("fallen", [])]


def _bounds(parts: Parts) -> tuple[float, float, float, float]:
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    return min(xs), max(xs), min(ys), max(ys)


def _inside(parts: Parts, x: float, y: float) -> bool:
    return any(point_in_convex(part, x, y) for part in parts)


# --- the whole table ------------------------------------------------------------------

def overview(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The whole table at one character per cell, with zone borders, names and a ruler."""
    zones = view["zones"]
    fallen = fallen_parts(view)
    ghost = ghost_parts(view)
    xs = [zones[0][0], zones[-1][1]] + [p["x"] + d for p in view["table"] for d in (-8, 8)]
    xs += [x for parts in fallen for x in _bounds(parts)[:2]]
    left, right = min(xs), max(xs)
    cm_per_col = max(1.0, (right - left) / MAX_COLUMNS)
    cols = math.ceil((right - left) / cm_per_col)
    layers: list[tuple[Parts, str]] = [(parts, "grey39:" + WRECK) for parts in fallen]
    if ghost is not None:
        layers.append((ghost, "grey70:" + GHOST))
    for piece in view["table"]:
        parts = world_parts(piece["pid"], piece["x"], piece["y"], piece["angle"])
        layers.append((parts, COLOURS[piece["owner"] % 4] + ":" + ("▓" if piece["foundation"] else "█")))
    top = max([6.0] + [_bounds(parts)[3] for parts, _ in layers])
    # a very tall table is squeezed upwards, never cut
    cm_per_row = max(2.0 * cm_per_col, (top + 1.0) / MAX_OVERVIEW_ROWS)
    rows = math.ceil((top + 1.0) / cm_per_row)
    grid = [[" "] * cols for _ in range(rows)]
    for parts, symbol in layers:
        x0, x1, y0, y1 = _bounds(parts)
        c0, c1 = max(0, int((x0 - left) / cm_per_col)), min(cols - 1, int((x1 - left) / cm_per_col))
        r0, r1 = max(0, int(y0 / cm_per_row)), min(rows - 1, int(y1 / cm_per_row))
        for row in range(r0, r1 + 1):
            for col in range(c0, c1 + 1):
                if any(_inside(parts, left + (col + sx) * cm_per_col, (row + sy) * cm_per_row)
                       for sx, sy in CELL_SAMPLES):
                    grid[row][col] = symbol
        # a piece thinner than a cell still shows, in the cell of its middle
        middle_col = min(cols - 1, max(0, int(((x0 + x1) / 2 - left) / cm_per_col)))
        middle_row = min(rows - 1, max(0, int((y0 + y1) / 2 / cm_per_row)))
        if grid[middle_row][middle_col] == " ":
            grid[middle_row][middle_col] = symbol
    lines = [_runs([(cell.rpartition(":")[0], cell.rpartition(":")[2]) for cell in grid[row]])
             for row in range(rows - 1, -1, -1)]
    table = ["▔"] * cols
    labels = [" "] * cols
    for seat, (lo, hi) in enumerate(zones):
        for edge in (lo, hi):
            col = int((edge - left) / cm_per_col)
            if 0 <= col < cols:
                table[col] = "┃"
        _write(labels, int((lo - left) / cm_per_col) + 1, f"{names[seat]} {lo:g}-{hi:g}")
    lines.append("".join(table))
    ticks, numbers = _ruler(left, cm_per_col, cols, major=20 if cm_per_col > 1.5 else 10, minor=10)
    lines += [ticks.rstrip(), numbers.rstrip()]
    lines.append("".join(labels).rstrip())
    return lines


# --- one tower close up -----------------------------------------------------------------

def zoom_span(view: Mapping[str, Any], focus: int) -> tuple[float, float] | None:
    """The x range of a close-up of ``focus``'s tower: their pieces, the aim and its legal
    window when they place, the pieces of theirs that just fell; None if nothing to show."""
    xs: list[float] = []
    for piece in view["table"]:
        if piece["owner"] == focus:
            xs += list(_bounds(world_parts(piece["pid"], piece["x"], piece["y"], piece["angle"]))[:2])
    placing = view.get("placing")
    if placing and placing["placer"] == focus:
        ghost = ghost_parts(view)
        if ghost is not None:
            xs += list(_bounds(ghost)[:2])
        aim = placing.get("aim")
        if aim and xs:
            lo, hi = aim["window"]
            xs += [lo / 100, hi / 100]
    for piece in (view.get("reports") or [{}])[-1].get("fallen", []):
        if piece["owner"] == focus:
            xs += [piece["x"] - 3, piece["x"] + 3]
    if not xs:
        return None
    return min(xs) - 1.5, max(xs) + 1.5


def zoom_scale(view: Mapping[str, Any], focus: int, left: float, right: float,
               layers: Sequence[tuple[Parts, str]] | None = None) -> tuple[float, int, float]:
    """The close-up's scale (cm per column, half that per pixel row), its character rows and
    the height its bottom row starts at (cm). The scale is 0.5 cm (1 cm when the stretch is
    wide); a tower too tall for :data:`MAX_ZOOM_ROWS` rows at that scale is cut: the top of
    it (where the piece in hand goes) is drawn and the lower part left out, unless pieces
    that just fell lie below the cut, in which case the scale grows until all of it fits."""
    if layers is None:
        layers = [(parts, "wreck") for parts in fallen_parts(view)]
        layers += [(world_parts(piece["pid"], piece["x"], piece["y"], piece["angle"]), "")
                   for piece in view["table"]]
        ghost = ghost_parts(view)
        if ghost is not None:
            layers = [*layers, (ghost, "ghost")]
    near = [_bounds(parts) for parts, _ in layers if _bounds(parts)[1] > left and _bounds(parts)[0] < right]
    top = max([3.0] + [b[3] for b in near])
    scale = 0.5
    while (right - left) / scale > MAX_COLUMNS:
        scale *= 2
    bottom = 0.0
    if (top + 0.5) / (2 * scale) > MAX_ZOOM_ROWS:
        bottom = math.floor(top + 0.5 - MAX_ZOOM_ROWS * 2 * scale)
        if any(style == "wreck" and _bounds(parts)[2] < bottom for parts, style in layers):
            bottom = 0.0
            while (top + 0.5) / (2 * scale) > MAX_ZOOM_ROWS:
                scale *= 2
    rows = math.ceil((top + 0.5 - bottom) / (2 * scale))
    return scale, rows, bottom


def zoom(view: Mapping[str, Any], focus: int) -> list[str]:
    """A close-up of ``focus``'s tower (and whatever else is in that stretch of table)."""
    span = zoom_span(view, focus)
    if span is None:
        return []
    left, right = span
    ghost = ghost_parts(view)
    layers: list[tuple[Parts, str]] = [(parts, "wreck") for parts in fallen_parts(view)]
    if ghost is not None:
        layers.append((ghost, "ghost"))
    rank: dict[int, int] = {}
    for piece in sorted(view["table"], key=lambda p: p["order"]):
        rank[piece["owner"]] = rank.get(piece["owner"], -1) + 1
        shade = SHADES[piece["owner"] % 4][rank[piece["owner"]] % 2]
        layers.append((world_parts(piece["pid"], piece["x"], piece["y"], piece["angle"]), shade))
    scale, rows, bottom = zoom_scale(view, focus, left, right, layers)
    middle = (left + right) / 2
    cols = min(MAX_COLUMNS, math.ceil((right - left) / scale))
    left = middle - cols * scale / 2
    pixels: dict[tuple[int, int], str] = {}  # (col, pixel row from the bottom up) -> layer
    for parts, style in layers:
        x0, x1, y0, y1 = _bounds(parts)
        c0, c1 = max(0, int((x0 - left) / scale)), min(cols - 1, int((x1 - left) / scale))
        p0, p1 = max(0, int((y0 - bottom) / scale)), min(2 * rows - 1, int((y1 - bottom) / scale))
        for prow in range(p0, p1 + 1):
            for col in range(c0, c1 + 1):
                hits = sum(1 for sx, sy in PIXEL_SAMPLES
                           if _inside(parts, left + (col + sx) * scale, bottom + (prow + sy) * scale))
                if hits >= PIXEL_SHARE:
                    pixels[(col, prow)] = style
    lines: list[str] = []
    for row in range(rows - 1, -1, -1):
        cells = [_cell(pixels.get((col, 2 * row + 1)), pixels.get((col, 2 * row))) for col in range(cols)]
        line = _runs(cells)
        if line or lines:
            lines.append(line)
    if bottom > 0:
        # a tall tower: the top of it at the fine scale, its lower part left out
        lines.append(f"[grey50]{'╌' * cols}[/] cut at y {bottom:g} cm (the tower's lower part is not drawn)")
    else:
        zones = view["zones"]
        table = ["▀"] * cols
        for lo, hi in zones:
            for edge in (lo, hi):
                col = int((edge - left) / scale)
                if 0 <= col < cols:
                    table[col] = "█"
        lines.append(f"[orange4]{''.join(table)}[/]")
    ticks, numbers = _ruler(left, scale, cols, major=5 if scale <= 1 else 10, minor=1 if scale <= 1 else 5)
    lines += [ticks.rstrip(), numbers.rstrip()]
    placing = view.get("placing") or {}
    aim = placing.get("aim")
    if aim and placing["placer"] == focus:
        lines.append(_window_row(aim, left, scale, cols))
    return lines


def _cell(upper: str | None, lower: str | None) -> tuple[str, str]:
    """One character from its two pixels: pieces as half blocks in their shade; the ghost
    and fallen pieces as whole-cell marks where no piece is."""
    solid = {"ghost", "wreck"}
    top = None if upper in solid else upper
    bottom = None if lower in solid else lower
    if top is None and bottom is None:
        if "ghost" in (upper, lower):
            return "grey70", GHOST
        if "wreck" in (upper, lower):
            return "grey39", WRECK
        return "", " "
    if top is None:
        return str(bottom), "▄"
    if bottom is None or bottom == top:
        return top, "█" if bottom == top else "▀"
    return f"{top} on {bottom}", "▀"


def _window_row(aim: Mapping[str, Any], left: float, scale: float, cols: int) -> str:
    """The legal x window of the aim's rotation as ``├───┤`` with the aim's x as ``▲``."""
    row = [" "] * cols
    lo, hi = aim["window"][0] / 100, aim["window"][1] / 100
    c0, c1 = int((lo - left) / scale), int((hi - left) / scale)
    for col in range(max(0, c0), min(cols - 1, c1) + 1):
        row[col] = "─"
    if 0 <= c0 < cols:
        row[c0] = "├"
    if 0 <= c1 < cols:
        row[c1] = "┤"
    at = int((aim["x"] - left) / scale)
    if 0 <= at < cols:
        row[at] = "▲"
    return f"[green]{''.join(row).rstrip()}[/] legal x {lo:.2f}-{hi:.2f} at {aim['rotation']:g}°"


# --- shared helpers ----------------------------------------------------------------------

def _ruler(left: float, scale: float, cols: int, major: int, minor: int) -> tuple[str, str]:
    """A tick row (``┴`` every ``major`` cm, ``╵`` every ``minor`` cm) and the numbers under it."""
    ticks = [" "] * cols
    numbers = [" "] * cols
    first = math.ceil(left / minor) * minor
    mark = first
    while mark < left + cols * scale:
        col = int((mark - left) / scale)
        if 0 <= col < cols:
            if mark % major == 0:
                ticks[col] = "┴"
                label = f"{mark:g}"
                start = col - len(label) // 2
                if all(0 <= i < cols and numbers[i] == " " for i in range(start - 1, start + len(label) + 1)
                       if 0 <= i < cols) and start >= 0 and start + len(label) <= cols:
                    _write(numbers, start, label)
            elif ticks[col] == " ":
                ticks[col] = "╵"
        mark += minor
    return "".join(ticks), "".join(numbers)


def _write(cells: list[str], start: int, text: str) -> None:
    for i, ch in enumerate(text):
        if 0 <= start + i < len(cells):
            cells[start + i] = ch


def _runs(cells: Sequence[tuple[str, str]]) -> str:
    """(style, character) cells to one line of markup, one tag per run of a style."""
    out: list[str] = []
    run_style, run_text = "", ""
    for style, char in cells:
        if style != run_style:
            out.append(f"[{run_style}]{run_text}[/]" if run_style else run_text)
            run_style, run_text = style, ""
        run_text += char
    out.append(f"[{run_style}]{run_text}[/]" if run_style else run_text)
    return "".join(out).rstrip()


__all__ = ["COLOURS", "GHOST", "WRECK", "fallen_parts", "ghost_parts", "overview", "zoom", "zoom_scale",
           "zoom_span"]
