"""PNG pictures of the table (matplotlib, extra ``plot``), and of the piece set.

A table picture has two panels: the whole table (zones, owners, every piece, a cm axis)
and a close-up of the tower that matters now (the placer's, else the viewer's, else the
last placer's) with a 1 cm grid. Both show the piece in hand where the hand would let it
go (dashed, at its true drop height, with its legal x window shaded on the table), the piece released last outlined in black,
and the pieces that fell in the last resolution hatched where they lay; the close-up names what the piece in hand would
first touch. Under them: the
last resolutions in words, and the seed's commitment (its reveal and check at the end).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping
from typing import Any

from boardlab.core.pictures import pyplot

from .catalogue import KINDS, world_outline
from .drawing import zoom_span
from .render import focus_player, seed_lines
from .rules import PHASE_WORDS

FACE = ("#c0392b", "#2e6fd8", "#27ae60", "#d4a017")



def table_span(view: Mapping[str, Any]) -> tuple[float, float]:
    """The x range drawn of a view's board part: every zone and every piece on the table
    (one that rolled away too)."""
    zones = view["zones"]
    left = min([zones[0][0] - 5] + [p["x"] - 8 for p in view["table"]])
    right = max([zones[-1][1] + 5] + [p["x"] + 8 for p in view["table"]])
    return left, right


def _plain(text: str) -> str:
    """Rich markup tags out of a line (the seed lines are shared with the terminal)."""
    out, depth = [], 0
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def _draw_table(ax: Any, envelope: Mapping[str, Any], left: float, right: float, top: float, labels: bool) -> None:
    from matplotlib.patches import Polygon, Rectangle

    view = envelope["board"]
    names = envelope["seat_names"]
    ax.add_patch(Rectangle((left, -3), right - left, 3, color="#8d6e63"))
    for seat, (lo, hi) in enumerate(view["zones"]):
        ax.axvspan(lo, hi, ymin=0, ymax=1, color=FACE[seat], alpha=0.06)
        if labels:
            status = "" if view["standing"][seat] else " (out)"
            tokens = view["pools"][seat]
            ax.text((lo + hi) / 2, -1.5, f"{names[seat]}: {tokens} token{'' if tokens == 1 else 's'}{status}",
                    ha="center", va="center", fontsize=7, color="white", clip_on=True)
    reports = view.get("reports") or []
    latest = reports[-1] if reports else {}
    for piece in latest.get("fallen", []):
        ax.add_patch(Polygon(world_outline(piece["pid"], piece["x"], piece["y"], piece["angle"]), closed=True,
                             facecolor="none", edgecolor=FACE[piece["owner"] % 4], hatch="xxx", linewidth=0.6,
                             alpha=0.6))
    for piece in view["table"]:
        # one outline per piece: the arch's convex parts would show as stripes
        just_placed = piece["pid"] == latest.get("pid")
        ax.add_patch(Polygon(world_outline(piece["pid"], piece["x"], piece["y"], piece["angle"]), closed=True,
                             facecolor=FACE[piece["owner"] % 4], edgecolor="black",
                             linewidth=1.6 if just_placed else 0.6, alpha=1.0 if piece["foundation"] else 0.8))
        ax.text(piece["x"], piece["y"], piece["pid"], ha="center", va="center", fontsize=5, color="white",
                clip_on=True)
    placing = view.get("placing")
    aim = placing and placing.get("aim")
    if aim and aim.get("y") is not None:
        angle = math.radians(aim["rotation"])
        ax.add_patch(Polygon(world_outline(placing["pid"], aim["x"], aim["y"], angle), closed=True, fill=False,
                             linestyle="--", edgecolor="black"))
        ax.text(aim["x"], aim["y"], placing["pid"], ha="center", va="center", fontsize=5, clip_on=True)
        if not labels:  # the close-up says where it would land
            touched = ", ".join(aim["lands_on"]) or "nothing"
            ax.annotate(f"{aim['release']}: first touches {touched} at y {aim['contact_y']:.2f}",
                        (aim["x"], aim["y"]), xytext=(8, 14), textcoords="offset points", fontsize=6,
                        arrowprops={"arrowstyle": "-", "linewidth": 0.5})
        lo, hi = aim["window"]
        if lo <= hi:
            ax.add_patch(Rectangle((lo / 100, -0.6), (hi - lo) / 100, 0.6, color="#2ecc71", alpha=0.8))
    ax.set_xlim(left, right)
    ax.set_ylim(-3, top)
    ax.set_aspect("equal")


def render_png(envelope: Mapping[str, Any], path: str) -> None:
    """Draw a view envelope to a PNG file at ``path``: the whole table, a close-up of the
    tower that matters now, and the last resolutions and the seed in words."""
    view = envelope["board"]
    names = envelope["seat_names"]
    plt = pyplot("honor")

    left, right = table_span(view)
    tops = [p["y"] + 8 for p in view["table"]]
    aim = (view.get("placing") or {}).get("aim")
    if aim and aim.get("y") is not None:
        tops.append(aim["y"] + 8)
    top = max([*tops, 30.0])
    focus = focus_player(envelope)
    close = zoom_span(view, focus) if focus is not None else None
    words = [f"placement {r['index'] + 1}: {r['text']}" for r in view.get("reports") or []]
    words += [_plain(line) for line in seed_lines(view)]
    wrapped = [piece for line in words for piece in textwrap.wrap(line, 150)]
    width = max(7.0, (right - left) / 12)
    table_height = max(2.5, top / 12 + 1.0)
    close_height = 0.0
    if close is not None:
        c_left, c_right = close[0] - 3, close[1] + 3
        c_top = max([p["y"] + 6 for p in view["table"] if c_left < p["x"] < c_right] + [15.0]
                    + ([aim["y"] + 6] if aim and aim.get("y") is not None else []))
        close_height = min(8.0, max(3.0, width * c_top / (c_right - c_left)))
    text_height = 0.13 * len(wrapped) + 0.2
    fig = plt.figure(figsize=(width, table_height + close_height + text_height + 0.6), dpi=110)
    heights = [table_height] + ([close_height] if close is not None else []) + [text_height]
    grid = fig.add_gridspec(len(heights), 1, height_ratios=heights)
    ax = fig.add_subplot(grid[0])
    _draw_table(ax, envelope, left, right, top, labels=True)
    title = f"Honor, turn {view['turn']}, {PHASE_WORDS[view['phase']]}, bank {view['bank']}"
    if envelope.get("result"):
        title += " - winners: " + ", ".join(names[p] for p in envelope["result"]["winners"])
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("cm", fontsize=7)
    ax.tick_params(labelsize=6)
    if close is not None:
        assert focus is not None
        zoomed = fig.add_subplot(grid[1])
        _draw_table(zoomed, envelope, c_left, c_right, c_top, labels=False)
        zoomed.set_xticks(range(math.ceil(c_left), math.floor(c_right) + 1), minor=True)
        zoomed.set_yticks(range(math.floor(c_top) + 1), minor=True)
        zoomed.grid(which="minor", linewidth=0.2, alpha=0.4)
        zoomed.grid(which="major", linewidth=0.4, alpha=0.6)
        zoomed.tick_params(labelsize=6)
        zoomed.set_title(f"{names[focus]}'s tower, close up (cm)", fontsize=8)
    text_ax = fig.add_subplot(grid[-1])
    text_ax.axis("off")
    text_ax.text(0.0, 1.0, "\n".join(wrapped), ha="left", va="top", fontsize=6, family="monospace",
                 transform=text_ax.transAxes)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def render_piece_set(path: str) -> None:
    """The Honor-30 set, one of each kind in catalogue orientation with its code and mass."""
    plt = pyplot("honor")
    from matplotlib.patches import Polygon

    fig, axes = plt.subplots(2, 6, figsize=(12, 4.6), dpi=110)
    for ax, kind in zip(axes.flat, KINDS.values()):
        for part in kind.parts:  # the convex parts the physics uses (the arch's show)
            ax.add_patch(Polygon(part, closed=True, facecolor="#d7b98e", edgecolor="#5d4037", linewidth=0.8))
        ax.plot([0], [0], marker="+", color="black")
        ax.set_xlim(-8, 8)
        ax.set_ylim(-5.5, 5.5)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(f"{kind.code} {kind.name} x{kind.count}\n{kind.mass:.1f} g", fontsize=8)
    fig.suptitle("Honor-30: profiles in cm (grid 16 x 11 cm), + = centre of mass", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


__all__ = ["render_piece_set", "render_png", "table_span"]
