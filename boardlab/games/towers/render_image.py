"""A PNG picture of a Towers view (matplotlib, extra ``plot``, imported only when drawing).

The 7x7 board from above, as the browser draws it: each stack a disc in its top piece's
colour (the colour that controls the square) with its height in the corner and a strip of its
pieces, bottom to top, along the square's left edge; castle squares green with a turret mark,
crowned castles ringed in gold. Under the board: each seat's castles, crowns and reserve.

The layout is fixed in pixels (:data:`PICTURE_SIZE`, :func:`square_centre`), so a picture can
be read back: the pixel at a square's centre is its top piece's colour.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardlab.core.pictures import picture_title, pyplot

FILES = "abcdefg"
SIZE = 7
CELL = 80  # pixels per square
LEFT, TOP = 34, 44  # room for the rank numbers and the title
DPI = 100
#: the picture's width and height in pixels
PICTURE_SIZE = (LEFT + SIZE * CELL + 16, TOP + SIZE * CELL + 110)

#: per piece letter: the disc's face and its outline (the browser renderer's colours)
PIECE_COLOURS = {
    "W": ("#fbfaf4", "#5f5a4d"),
    "B": ("#3b3b3b", "#000000"),
    "U": ("#4a86e8", "#173b75"),
    "R": ("#e0483e", "#6d1712"),
    "C": ("#3fa35b", "#15502a"),
}
SQUARE_LIGHT, SQUARE_DARK = "#efe6d2", "#e3d5b8"
CASTLE_LIGHT, CASTLE_DARK = "#dcefdf", "#cfe6d2"
CROWN = "#d4a017"



def square_centre(name: str) -> tuple[int, int]:
    """The pixel (x right, y down from the top-left corner) at the centre of square ``name``."""
    file, rank = FILES.index(name[0]), int(name[1:])
    return LEFT + file * CELL + CELL // 2, TOP + (SIZE - rank) * CELL + CELL // 2


def render_png(envelope: Mapping[str, Any], path: str) -> None:
    """Draw a view envelope (``state.view(viewer)``) to a PNG file at ``path``."""
    plt = pyplot("towers")
    from matplotlib.patches import Circle, Polygon, Rectangle

    view = envelope["board"]
    names = envelope["seat_names"]
    width, height = PICTURE_SIZE
    fig = plt.figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    # one axes over the whole figure in pixel units, y downwards: every coordinate below is a pixel
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    castles, crowned = set(view["castles"]), view["crowned"]
    for row, cells in enumerate(view["stacks"]):
        rank = SIZE - row
        ax.text(LEFT / 2, TOP + row * CELL + CELL / 2, str(rank), ha="center", va="center", fontsize=11)
        for file, stack in enumerate(cells):
            name = f"{FILES[file]}{rank}"
            x, y = LEFT + file * CELL, TOP + row * CELL
            dark = (file + rank) % 2 == 0
            if name in castles:
                fill = CASTLE_DARK if dark else CASTLE_LIGHT
            else:
                fill = SQUARE_DARK if dark else SQUARE_LIGHT
            ax.add_patch(Rectangle((x, y), CELL, CELL, facecolor=fill, edgecolor="#c4b48f", linewidth=1))
            if name in castles:
                ax.add_patch(Polygon([(x + 4, y + 20), (x + 4, y + 6), (x + 8, y + 6), (x + 8, y + 10),
                                      (x + 12, y + 10), (x + 12, y + 6), (x + 16, y + 6), (x + 16, y + 20)],
                                     closed=True, facecolor="#2f8f4e", edgecolor="#15502a", linewidth=1))
            if name in crowned:
                ax.add_patch(Rectangle((x + 3, y + 3), CELL - 6, CELL - 6, fill=False, edgecolor=CROWN, linewidth=4))
            if stack:
                _draw_stack(ax, Circle, Rectangle, stack, x, y)
    for file, letter in enumerate(FILES):
        ax.text(LEFT + file * CELL + CELL / 2, TOP + SIZE * CELL + 14, letter, ha="center", va="center", fontsize=11)
    ax.text(LEFT, TOP / 2, picture_title("Towers", envelope), ha="left", va="center", fontsize=13, weight="bold")
    for seat, name in enumerate(names):
        letter = view["letters"][seat]
        y = TOP + SIZE * CELL + 42 + seat * 18
        face, line = PIECE_COLOURS[letter]
        ax.add_patch(Circle((LEFT + 8, y), 7, facecolor=face, edgecolor=line))
        ax.text(LEFT + 22, y, f"{name} ({letter}): castles {view['castle_counts'][seat]}/{view['castles_to_win']}, "
                f"crowns {view['crown_counts'][seat]}/{view['crowns_to_win']}, {view['reserves'][seat]} in reserve",
                ha="left", va="center", fontsize=10)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _draw_stack(ax: Any, Circle: Any, Rectangle: Any, stack: str, x: float, y: float) -> None:
    """A stack on the square at (x, y): its pieces as a strip at the left edge, bottom at the
    bottom, and a disc in the top piece's colour with the height on it."""
    band = min(10, (CELL - 12) // len(stack))
    for level, letter in enumerate(stack):
        face, line = PIECE_COLOURS[letter]
        ax.add_patch(Rectangle((x + 4, y + CELL - 6 - (level + 1) * band), 9, band, facecolor=face,
                               edgecolor=line, linewidth=0.6))
    top = stack[-1]
    face, line = PIECE_COLOURS[top]
    ax.add_patch(Circle((x + CELL / 2, y + CELL / 2), 24, facecolor=face, edgecolor=line, linewidth=1.5))
    # the height in the corner, as in the browser, so the disc's centre shows only its colour
    ax.text(x + CELL - 8, y + 13, str(len(stack)), ha="right", va="center", fontsize=12, color="#222222",
            weight="bold")



__all__ = ["PICTURE_SIZE", "render_png", "square_centre"]
