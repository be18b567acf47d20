"""PNG pictures of the table (matplotlib, extra ``plot``), and of the piece set."""

from __future__ import annotations

import math
from typing import Any, Mapping

from boardlab.core import BoardlabError

from .catalogue import KINDS, world_outline

FACE = ("#c0392b", "#2e6fd8", "#27ae60", "#d4a017")


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise BoardlabError("honor pictures need matplotlib: pip install 'boardlab[plot]'") from None
    return plt


def table_span(view: Mapping[str, Any]) -> tuple[float, float]:
    """The x range drawn of a view's board part: every zone and every piece on the table
    (one that rolled away too)."""
    zones = view["zones"]
    left = min([zones[0][0] - 5] + [p["x"] - 8 for p in view["table"]])
    right = max([zones[-1][1] + 5] + [p["x"] + 8 for p in view["table"]])
    return left, right


def render_png(envelope: Mapping[str, Any], path: str) -> None:
    """Draw the whole table of a view envelope (zones, towers, the piece in hand at its
    default release or, while the tremor is pending, at the intended release; pools and
    phase) to a PNG file at ``path``. Pieces that left the zones widen the picture."""
    view = envelope["board"]
    names = envelope["seat_names"]
    plt = _pyplot()
    from matplotlib.patches import Polygon, Rectangle

    zones = view["zones"]
    left, right = table_span(view)
    top = max([p["y"] + 8 for p in view["table"]] + [30.0])
    fig, ax = plt.subplots(figsize=(max(6.0, (right - left) / 12), max(3.0, top / 12 + 1.5)), dpi=110)
    ax.add_patch(Rectangle((left, -3), right - left, 3, color="#8d6e63"))
    for seat, (lo, hi) in enumerate(zones):
        ax.axvspan(lo, hi, ymin=0, ymax=1, color=FACE[seat], alpha=0.06)
        status = "" if view["standing"][seat] else " (out)"
        tokens = view["pools"][seat]
        ax.text((lo + hi) / 2, -2.2, f"{names[seat]}: {tokens} token{'' if tokens == 1 else 's'}{status}",
                ha="center", va="center", fontsize=8, color="white")
    for piece in view["table"]:
        # one outline per piece: the arch's convex parts would show as stripes
        ax.add_patch(Polygon(world_outline(piece["pid"], piece["x"], piece["y"], piece["angle"]), closed=True,
                             facecolor=FACE[piece["owner"] % 4], edgecolor="black", linewidth=0.6,
                             alpha=1.0 if piece["foundation"] else 0.8))
        ax.text(piece["x"], piece["y"], piece["pid"], ha="center", va="center", fontsize=5, color="white")
    placing = view.get("placing")
    release = placing and (view.get("pending_release") or placing.get("default"))
    if release:
        words = release.split()
        x, theta = float(words[1]), float(words[2])
        floor = max((p["y"] + 6 for p in view["table"] if abs(p["x"] - x) < 12), default=4.0)
        ax.add_patch(Polygon(world_outline(placing["pid"], x, floor + 3, math.radians(theta)), closed=True,
                             fill=False, linestyle="--", edgecolor="black"))
        ax.text(x, floor + 3, placing["pid"], ha="center", va="center", fontsize=5)
    title = f"Honor, turn {view['turn']}, phase {view['phase']}, bank {view['bank']}"
    if envelope.get("result"):
        title += " - winners: " + ", ".join(names[p] for p in envelope["result"]["winners"])
    ax.set_title(title, fontsize=9)
    ax.set_xlim(left, right)
    ax.set_ylim(-3, top)
    ax.set_aspect("equal")
    ax.set_xlabel("cm")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def render_piece_set(path: str) -> None:
    """The Honor-30 set, one of each kind in catalogue orientation with its code and mass."""
    plt = _pyplot()
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
