"""A PNG picture of an Overseer view (matplotlib, extra ``plot``, imported only when drawing).

The board as the disc it is, as the browser draws it: 12 sectors A-L clockwise from 12
o'clock and 8 rings, index 1 at the centre, the seam between L and A marked; pieces as discs
(Barricades square) with their kind's letter, White light and Black dark, the Overseer ringed
in gold and in red when it is attacked; the last move as an arrow. Under the disc: the
material and the no-capture count.

The layout is fixed in pixels (:data:`PICTURE_SIZE`, :func:`square_centre`), so a picture can
be read back: the pixels round a square's centre are its piece's colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from boardlab.core.pictures import picture_title, pyplot

SECTORS = "ABCDEFGHIJKL"
SECTOR_DEGREES = 30
HOLE = 62  # nothing crosses the centre (rule 1.3): the hole is left empty
RING = 36
RINGS = 8
PIECE = 14
DPI = 100
TOP = 44
CENTRE = (380, TOP + 380)
#: the picture's width and height in pixels
PICTURE_SIZE = (760, TOP + 760 + 76)

#: per seat: the piece's face, outline and letter ink (the browser renderer's colours)
SIDES = (("#fbf8ef", "#3b3b3b", "#1b1b1b"), ("#2a2a2a", "#000000", "#ffffff"))
LIGHT, DARK = "#efe6d1", "#c9b48c"



def _polar(radius: float, degrees: float) -> tuple[float, float]:
    radians = math.radians(degrees)
    return CENTRE[0] + radius * math.cos(radians), CENTRE[1] + radius * math.sin(radians)


def square_centre(name: str) -> tuple[int, int]:
    """The pixel (x right, y down from the top-left corner) at the middle of square ``name``
    (``A1`` .. ``L8``)."""
    sector, index = SECTORS.index(name[0]), int(name[1:])
    x, y = _polar(HOLE + (index - 0.5) * RING, -90 + (sector + 0.5) * SECTOR_DEGREES)
    return round(x), round(y)


def render_png(envelope: Mapping[str, Any], path: str) -> None:
    """Draw a view envelope (``state.view(viewer)``) to a PNG file at ``path``."""
    plt = pyplot("overseer")
    from matplotlib.patches import Circle, FancyArrowPatch, Rectangle, Wedge

    view = envelope["board"]
    names = view["seat_names"]
    width, height = PICTURE_SIZE
    fig = plt.figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))  # pixel units, y downwards: angles grow clockwise on screen
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    rim = HOLE + RINGS * RING
    ax.add_patch(Circle(CENTRE, rim + 4, facecolor="#6b5a3e"))
    dark = set(view["dark_squares"])
    last = view.get("last_move") or {}
    touched = {last.get("from"), last.get("to")} - {None}
    for sector, letter in enumerate(view["sectors"]):
        start = -90 + sector * SECTOR_DEGREES
        for index in range(1, view["indices"] + 1):
            name = f"{letter}{index}"
            outer = HOLE + index * RING
            fill = "#9cc9f5" if name in touched else DARK if name in dark else LIGHT
            ax.add_patch(Wedge(CENTRE, outer, start, start + SECTOR_DEGREES, width=RING, facecolor=fill,
                               edgecolor="#8a7652", linewidth=1))
        lx, ly = _polar(rim + 16, start + SECTOR_DEGREES / 2)
        ax.text(lx, ly, letter, ha="center", va="center", fontsize=11, weight="bold")
    ax.add_patch(Circle(CENTRE, HOLE, facecolor="#e9e3d3", edgecolor="#6b5a3e", linewidth=2))
    for index in range(1, RINGS + 1):
        x, y = _polar(HOLE + (index - 0.5) * RING, -90)
        ax.text(x + 2, y, str(index), ha="left", va="center", fontsize=7, color="#5a4a2a")
    # the seam between L and A: the rings go on across it
    sx, sy = _polar(HOLE, -90)
    ex, ey = _polar(rim + 4, -90)
    ax.plot([sx, ex], [sy, ey], color="#b3261e", linewidth=2.5, linestyle="--")
    for name, piece in view["pieces"].items():
        _draw_piece(ax, Circle, Rectangle, name, piece, view)
    if last.get("from") and last.get("to"):
        ax.add_patch(FancyArrowPatch(square_centre(last["from"]), square_centre(last["to"]), arrowstyle="-|>",
                                     mutation_scale=18, color="#1f78d1", linewidth=3, alpha=0.8,
                                     shrinkA=PIECE + 2, shrinkB=PIECE + 2))
    ax.text(12, TOP / 2, picture_title("Overseer", envelope), ha="left", va="center", fontsize=13, weight="bold")
    for seat, name in enumerate(names):
        pieces = sum(view["material"][seat].values())
        face, line, _ = SIDES[seat]
        y = TOP + 760 + 14 + seat * 18
        ax.add_patch(Circle((20, y), 7, facecolor=face, edgecolor=line))
        danger = "; its Overseer is attacked" if view["overseer_in_danger"][seat] else ""
        ax.text(34, y, f"{name}: {pieces} pieces{danger}", ha="left", va="center", fontsize=10)
    ax.text(12, TOP + 760 + 58, f"{view['plies_since_capture']} of {view['no_capture_limit']} moves since a capture",
            ha="left", va="center", fontsize=10)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _draw_piece(ax: Any, Circle: Any, Rectangle: Any, name: str, piece: Mapping[str, Any],
                view: Mapping[str, Any]) -> None:
    x, y = square_centre(name)
    seat, letter = piece["seat"], piece["letter"].upper()
    face, line, ink = SIDES[seat]
    if letter == "B":  # Barricades are square: they read apart from the rest without the letter
        ax.add_patch(Rectangle((x - PIECE + 1, y - PIECE + 1), 2 * PIECE - 2, 2 * PIECE - 2, facecolor=face,
                               edgecolor=line, linewidth=2))
    else:
        ax.add_patch(Circle((x, y), PIECE, facecolor=face, edgecolor=line, linewidth=1.6))
    if letter == "O":
        ax.add_patch(Circle((x, y), PIECE - 3.5, fill=False, edgecolor="#d4a017", linewidth=2.2))
        if view["overseer_in_danger"][seat]:
            ax.add_patch(Circle((x, y), PIECE + 5, fill=False, edgecolor="#d32f2f", linewidth=3.5))
    ax.text(x, y, letter, ha="center", va="center", fontsize=9, color=ink, weight="bold")



__all__ = ["PICTURE_SIZE", "render_png", "square_centre"]
