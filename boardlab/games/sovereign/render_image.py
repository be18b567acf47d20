"""A PNG picture of a Sovereign view (matplotlib, extra ``plot``, imported only when drawing).

The 7x7 board from above, as the browser draws it: each tower as stacked stone levels (1 to 3,
each smaller and darker, its height in the corner), the pieces standing on top as discs with
their letter (P1 light, P2 dark), each side's goal ranks marked in a band at the right, a red
ring round an attacked Sovereign. Under the board: the phase, the supply and the pieces lost.

The layout is fixed in pixels (:data:`PICTURE_SIZE`, :func:`square_centre`), so a picture can
be read back: the pixel at a square's centre is its piece's colour, else its top level's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardlab.core.pictures import picture_title, pyplot

FILES = "abcdefg"
SIZE = 7
CELL = 80
LEFT, TOP = 34, 44
GOAL_BAR = 24
DPI = 100
#: the picture's width and height in pixels
PICTURE_SIZE = (LEFT + SIZE * CELL + GOAL_BAR + 16, TOP + SIZE * CELL + 110)

#: per seat: the piece's face, its outline and its letter's ink (the browser renderer's colours)
SIDES = (("#fdf8ea", "#5a4a2a", "#2a2113"), ("#26385e", "#0b1430", "#ffffff"))
#: a tower's levels, bottom up: inset from the square's edge and the stone's colour
LEVELS = ((6, "#d8ccb0"), (14, "#bba57a"), (22, "#8d7148"))
GROUND = "#ece6d3"
KIND_NAMES = {"S": "Sovereign", "D": "Diplomat", "C": "Consultant", "B": "Contractor"}



def square_centre(name: str) -> tuple[int, int]:
    """The pixel (x right, y down from the top-left corner) at the centre of square ``name``."""
    file, rank = FILES.index(name[0]), int(name[1:])
    return LEFT + file * CELL + CELL // 2, TOP + (SIZE - rank) * CELL + CELL // 2


def render_png(envelope: Mapping[str, Any], path: str) -> None:
    """Draw a view envelope (``state.view(viewer)``) to a PNG file at ``path``."""
    plt = pyplot("sovereign")
    from matplotlib.patches import Circle, Rectangle

    view = envelope["board"]
    names = view["seat_names"]
    width, height = PICTURE_SIZE
    fig = plt.figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))  # pixel units, y downwards
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    for row in range(SIZE):
        rank = SIZE - row
        ax.text(LEFT / 2, TOP + row * CELL + CELL / 2, str(rank), ha="center", va="center", fontsize=11)
        for file in range(SIZE):
            x, y = LEFT + file * CELL, TOP + row * CELL
            ax.add_patch(Rectangle((x, y), CELL, CELL, facecolor=GROUND, edgecolor="#c9bd9c", linewidth=1))
            levels = view["heights"][row][file]
            for inset, stone in LEVELS[:levels]:
                ax.add_patch(Rectangle((x + inset, y + inset), CELL - 2 * inset, CELL - 2 * inset,
                                       facecolor=stone, edgecolor="#54401f", linewidth=0.8))
            if levels:
                ax.text(x + CELL - 5, y + 11, str(levels), ha="right", va="center", fontsize=9, color="#3a2c14")
            letter = view["pieces"][row][file]
            if letter:
                seat = 0 if letter.isupper() else 1
                face, line, ink = SIDES[seat]
                ax.add_patch(Circle((x + CELL / 2, y + CELL / 2), 17, facecolor=face, edgecolor=line, linewidth=1.5))
                # the letter sits low in the disc so that the disc's centre shows its colour
                ax.text(x + CELL / 2, y + CELL / 2 + 9, letter.upper(), ha="center", va="center", fontsize=10,
                        color=ink, weight="bold")
                if letter.upper() == "S" and view["threatened"][seat]:
                    ax.add_patch(Circle((x + CELL / 2, y + CELL / 2), 22, fill=False, edgecolor="#d32f2f", linewidth=3))
    for file, letter in enumerate(FILES):
        ax.text(LEFT + file * CELL + CELL / 2, TOP + SIZE * CELL + 14, letter, ha="center", va="center", fontsize=11)
    for seat, ranks in enumerate(view["goal_ranks"]):
        face, line, ink = SIDES[seat]
        top = TOP + (SIZE - max(ranks)) * CELL
        bar_x = LEFT + SIZE * CELL + 4
        ax.add_patch(Rectangle((bar_x, top + 2), GOAL_BAR - 4, len(ranks) * CELL - 4, facecolor=face, edgecolor=line))
        ax.text(bar_x + (GOAL_BAR - 4) / 2, top + len(ranks) * CELL / 2, f"{names[seat]}'s goal", rotation=90,
                ha="center", va="center", fontsize=8, color=ink)
    ax.text(LEFT, TOP / 2, picture_title("Sovereign", envelope), ha="left", va="center", fontsize=13, weight="bold")
    if view["phase"] == "setup":
        status = f"setup: placement {view['setup']['placements'] + 1} of 14"
    else:
        status = (f"limit: {view['play_ply']} of {view['ply_limit']} moves played; supply {view['supply']['lower']} lower, "
                  f"{view['supply']['top']} top pieces")
    ax.text(LEFT, TOP + SIZE * CELL + 40, status, ha="left", va="center", fontsize=10)
    for seat, name in enumerate(names):
        lost = ", ".join(KIND_NAMES[k] for k in view["captured"][seat]) or "nothing"
        face, line, _ = SIDES[seat]
        y = TOP + SIZE * CELL + 62 + seat * 18
        ax.add_patch(Circle((LEFT + 8, y), 7, facecolor=face, edgecolor=line))
        ax.text(LEFT + 22, y, f"{name}: goal ranks {'-'.join(map(str, view['goal_ranks'][seat]))}; lost {lost}",
                ha="left", va="center", fontsize=10)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)



__all__ = ["PICTURE_SIZE", "render_png", "square_centre"]
