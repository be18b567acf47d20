"""A PNG picture of a Territories view (matplotlib, extra ``plot``, imported only when drawing).

The grid of playing cards with the buildings on their corners, as the browser draws it: each
card with its rank, its suit (a four-colour deck, so suits differ by colour and symbol) and the
roll it yields on, the cards of the last roll's number lit; each building a disc in its owner's
colour with its kind's letter. Beside the grid: points, resources, hands (only what the viewer
may see: the view is already redacted), the bank, the dice, the open offer.

The layout is fixed in pixels for a given grid (:func:`picture_size`, :func:`cell_centre`,
:func:`corner_centre`), so a picture can be read back.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from boardlab.core.pictures import picture_title, pyplot

from .view import SUIT_SYMBOLS, card_code_words

CELL_W, CELL_H = 84, 112
MARGIN = 30  # room for the buildings on the outer corners and the coordinates
TOP = 44
PANEL = 330  # the column of words right of the grid
DPI = 100
SUITS = "HSCD"
SUIT_COLOUR = {"H": "#c62828", "S": "#222222", "C": "#2e7d32", "D": "#1f5fbf"}
RANK_NUMBER = {"T": 10, "J": 11, "Q": 12}
#: per seat: the building's face, outline and letter ink (the browser renderer's colours)
SEATS = (("#fbfaf4", "#4a4535", "#2a261c"), ("#2f2f2f", "#000000", "#ffffff"))
BUILDING_NAMES = {"P": "Town", "R": "Fort", "N": "Barracks", "B": "Temple", "Q": "Palace", "K": "Capital"}
LIT = "#fff2b3"  # a card whose number was just rolled



def _extent(board: Mapping[str, Any]) -> tuple[int, int, int, int]:
    columns = [c for c, _, _ in board["grid"]] or [0]
    rows = [r for _, r, _ in board["grid"]] or [0]
    return min(columns), min(rows), max(columns), max(rows)


def picture_size(board: Mapping[str, Any]) -> tuple[int, int]:
    """The picture's width and height in pixels for a view's board part (the grid can grow)."""
    min_c, min_r, max_c, max_r = _extent(board)
    grid_w = (max_c - min_c + 1) * CELL_W + 2 * MARGIN + 18
    grid_h = (max_r - min_r + 1) * CELL_H + 2 * MARGIN + 16
    return grid_w + PANEL, TOP + max(grid_h, 520)


def corner_centre(board: Mapping[str, Any], x: int, y: int) -> tuple[int, int]:
    """The pixel (x right, y down from the top-left corner) of grid corner ``x,y`` (rule R2:
    where column line x meets row line y), the centre of a building there."""
    min_c, min_r, _, _ = _extent(board)
    return MARGIN + 18 + (x - min_c) * CELL_W, TOP + MARGIN + (y - min_r) * CELL_H


def cell_centre(board: Mapping[str, Any], column: int, row: int) -> tuple[int, int]:
    """The pixel at the middle of the card in cell ``[column,row]``."""
    x, y = corner_centre(board, column, row)
    return x + CELL_W // 2, y + CELL_H // 2


def card_number(code: str) -> int:
    return RANK_NUMBER.get(code[0]) or int(code[0])


def render_png(envelope: Mapping[str, Any], path: str) -> None:
    """Draw a view envelope (``state.view(viewer)``) to a PNG file at ``path``."""
    plt = pyplot("territories")
    from matplotlib.patches import Circle, FancyBboxPatch

    board = envelope["board"]
    width, height = picture_size(board)
    fig = plt.figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))  # pixel units, y downwards
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    rolled = sum(board["last_roll"]) if board["last_roll"] and board["phase"] != "setup" else None
    min_c, min_r, max_c, max_r = _extent(board)
    for column in range(min_c, max_c + 2):
        x, _ = corner_centre(board, column, max_r + 1)
        ax.text(x, TOP + MARGIN + (max_r - min_r + 1) * CELL_H + 24, str(column), ha="center", va="center",
                fontsize=8, color="#6b6250")
    for row in range(min_r, max_r + 2):
        _, y = corner_centre(board, min_c, row)
        ax.text(12, y, str(row), ha="center", va="center", fontsize=8, color="#6b6250")
    for column, row, code in board["grid"]:
        x, y = corner_centre(board, column, row)
        _draw_card(ax, FancyBboxPatch, Circle, code, x, y, lit=rolled == card_number(code))
    for x, y, owner, kind in board["buildings"]:
        px, py = corner_centre(board, x, y)
        face, line, ink = SEATS[owner]
        ax.add_patch(Circle((px, py), 15, facecolor=face, edgecolor=line, linewidth=2, zorder=3))
        # the kind's letter below the middle, so the disc's middle shows its owner's colour
        ax.text(px, py + 6, kind, ha="center", va="center", fontsize=8, color=ink, weight="bold", zorder=4)
    ax.text(12, TOP / 2, picture_title("Territories", envelope), ha="left", va="center", fontsize=13, weight="bold")
    panel_x = width - PANEL + 10
    wrapped = [part for line in panel_lines(envelope)
               for part in (textwrap.wrap(line, 52, subsequent_indent="    ") or [""])]
    ax.text(panel_x, TOP + 10, "\n".join(wrapped), ha="left", va="top", fontsize=8.5,
            family="DejaVu Sans", linespacing=1.45)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _draw_card(ax: Any, FancyBboxPatch: Any, Circle: Any, code: str, x: float, y: float, lit: bool) -> None:
    suit = code[1]
    colour = SUIT_COLOUR[suit]
    ax.add_patch(FancyBboxPatch((x + 4, y + 4), CELL_W - 8, CELL_H - 8, boxstyle="round,pad=0,rounding_size=7",
                                facecolor=LIT if lit else "#ffffff", edgecolor="#d4a017" if lit else "#b9b2a2",
                                linewidth=2.5 if lit else 1.2))
    rank = "10" if code[0] == "T" else code[0]
    ax.text(x + 11, y + 18, rank, ha="left", va="center", fontsize=12, color=colour, weight="bold")
    ax.text(x + 11, y + 34, SUIT_SYMBOLS[suit], ha="left", va="center", fontsize=11, color=colour)
    ax.text(x + CELL_W / 2, y + CELL_H / 2 - 2, SUIT_SYMBOLS[suit], ha="center", va="center", fontsize=26, color=colour)
    number = card_number(code)
    ax.add_patch(Circle((x + CELL_W / 2, y + CELL_H - 24), 11, facecolor="#f5c518" if lit else "#f1ece0",
                        edgecolor="#8a7f66"))
    ax.text(x + CELL_W / 2, y + CELL_H - 24, str(number), ha="center", va="center", fontsize=9,
            color="#b3261e" if number in (6, 8) else "#2a261c", weight="bold")


def _cards(codes: Sequence[str]) -> str:
    return " ".join(card_code_words(code) for code in codes) or "none"


def _goods(counts: Mapping[str, int] | None) -> str:
    if counts is None:
        return "hidden"
    return " ".join(f"{counts[s]}{SUIT_SYMBOLS[s]}" for s in SUITS)


def panel_lines(envelope: Mapping[str, Any]) -> list[str]:
    """The words beside the grid: the decision, the dice, each seat, the bank and the offer."""
    board = envelope["board"]
    names = envelope["seat_names"]
    lines = [f"Turn {board['turn']} of {board['max_turns']}; {board['target_points']} points win",
             board["decision"]]
    if board["last_roll"]:
        first, second = board["last_roll"]
        lines.append(f"Last roll: {first} + {second} = {first + second}")
    lines.append("")
    for seat, info in enumerate(board["seats"]):
        label = f" ({info['label']})" if info["label"] else ""
        lines.append(f"{names[seat]}{label}: {info['points']} point{'' if info['points'] == 1 else 's'}")
        lines.append(f"  resources {info['resource_count']}: {_goods(info['resources'])}")
        if info["territories"] or info["territory_count"]:
            unseen = info["territory_count"] - len(info["territories"])
            shown = _cards(info["territories"])
            lines.append(f"  hand: {shown}" + (f" + {unseen} unseen" if unseen else ""))
        supply = ", ".join(f"{count} {BUILDING_NAMES[kind]}" for kind, count in info["supply"].items() if count)
        lines.append(f"  to build: {supply or 'nothing'}")
        lines.append("")
    lines.append(f"Bank: {_goods(board['bank'])}")
    lines.append(f"Pile: {board['pile_size']} cards; discards: {len(board['discard'])}")
    offer = board.get("offer")
    if offer:
        gives = " ".join(filter(None, [offer["gives"], _cards(offer["gives_cards"]) if offer["gives_cards"] else ""]))
        wants = " ".join(filter(None, [offer["wants"], _cards(offer["wants_cards"]) if offer["wants_cards"] else ""]))
        lines.append(f"Offer: {names[offer['from']]} gives {gives or 'nothing'}")
        lines.append(f"  for {wants or 'nothing'} from {names[offer['to']]}")
    lines.append("")
    lines.append("Buildings: " + ", ".join(f"{k} {v}" for k, v in BUILDING_NAMES.items()))
    return lines



__all__ = ["card_number", "cell_centre", "corner_centre", "panel_lines", "picture_size", "render_png"]
