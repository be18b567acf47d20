"""The terminal drawing of an Honor view envelope: a character side view of the table
(rich markup colours by owner), then the players, the supply and the phase.

Every cell is sampled at twelve points; a cell is drawn if any point lies inside a
piece. Foundations are drawn ``▓``, other pieces ``█``, the piece in hand as a
ghost outline ``·`` at the proposed release (the default one unless given).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from boardlab.core import NotationError

from .catalogue import kind_of, point_in_convex, world_parts
from .moves import Release, parse_move_text

COLOURS = ("red", "blue", "green", "yellow")
GHOST = "·"
#: sample points per cell (fractions of its width and height): closer than a plank is thick
SAMPLES = tuple((sx, sy) for sy in (0.125, 0.375, 0.625, 0.875) for sx in (0.2, 0.5, 0.8))
#: the widest drawing, in characters (fits an 80-column terminal panel)
MAX_COLUMNS = 74


def _release_numbers(text: str | None) -> tuple[float, float] | None:
    """(x cm, rotation degrees) of a release text in notation, or None if it is not one."""
    if not text:
        return None
    try:
        move = parse_move_text(text)
    except NotationError:
        return None
    if not isinstance(move, Release):
        return None
    return move.x, move.theta_degrees


def _canvas(view: Mapping[str, Any], names: Sequence[str],
            ghost: tuple[str, float, float, float] | None) -> list[str]:
    zones = view["zones"]
    left = min(zones[0][0], *(p["x"] - 8 for p in view["table"])) if view["table"] else zones[0][0]
    right = max(zones[-1][1], *(p["x"] + 8 for p in view["table"])) if view["table"] else zones[-1][1]
    span = right - left
    cm_per_col = max(1.0, span / MAX_COLUMNS)
    cm_per_row = 2.0 * cm_per_col
    cols = int(math.ceil(span / cm_per_col))
    polygons: list[tuple[list[list[tuple[float, float]]], str]] = []
    top = 6.0
    for piece in view["table"]:
        parts = world_parts(piece["pid"], piece["x"], piece["y"], piece["angle"])
        mark = "▓" if piece["foundation"] else "█"
        polygons.append((parts, COLOURS[piece["owner"] % 4] + ":" + mark))
        top = max(top, max(y for part in parts for _, y in part))
    if ghost is not None:
        pid, gx, gy, angle = ghost
        parts = world_parts(pid, gx, gy, angle)
        polygons.append((parts, "dim:" + GHOST))
        top = max(top, max(y for part in parts for _, y in part))
    rows = int(math.ceil((top + 1.0) / cm_per_row))
    lines = []
    for row in range(rows - 1, -1, -1):
        cells = []
        for col in range(cols):
            mark = " "
            for parts, symbol in polygons:
                if any(point_in_convex(part, left + (col + sx) * cm_per_col, (row + sy) * cm_per_row)
                       for part in parts for sx, sy in SAMPLES):
                    mark = symbol
                    break
            cells.append(mark)
        lines.append(_markup_runs(cells))
    ruler = ["▔"] * cols
    labels = [" "] * cols
    for seat, (lo, hi) in enumerate(zones):
        for edge in (lo, hi):
            col = min(cols - 1, int((edge - left) / cm_per_col))
            if 0 <= col:
                ruler[col] = "┃"
        name = f"{names[seat]} {lo:g}-{hi:g}cm"
        start = max(0, int((lo - left) / cm_per_col) + 1)
        for i, ch in enumerate(name):
            if start + i < cols:
                labels[start + i] = ch
    lines.append("".join(ruler))
    lines.append("".join(labels))
    return lines


def _markup_runs(cells: list[str]) -> str:
    """Cells ``"colour:char"`` or ``" "`` to one line, one markup tag per run of a colour."""
    out: list[str] = []
    run_style, run_text = "", ""
    for cell in cells:
        style, _, char = cell.rpartition(":")
        if style != run_style:
            out.append(f"[{run_style}]{run_text}[/]" if run_style else run_text)
            run_style, run_text = style, ""
        run_text += char
    out.append(f"[{run_style}]{run_text}[/]" if run_style else run_text)
    return "".join(out).rstrip()


def _ghost(view: Mapping[str, Any], release: str | None) -> tuple[str, float, float, float] | None:
    placing = view.get("placing")
    if not placing:
        return None
    numbers = _release_numbers(release or placing.get("default"))
    if numbers is None:
        return None
    x, theta = numbers
    angle = math.radians(theta)
    parts = world_parts(placing["pid"], 0.0, 0.0, angle)
    bottom = min(y for part in parts for _, y in part)
    below = [p for p in view["table"] if abs(p["x"] - x) < 12]
    floor = max((p["y"] + 5 for p in below), default=0.0)
    return placing["pid"], x, floor + 2.0 - bottom, angle


def piece_outline(pid: str, theta_degrees: float = 0.0, cm_per_col: float = 0.5) -> list[str]:
    """A small outline drawing of one piece (for the hand preview)."""
    angle = math.radians(theta_degrees)
    parts = world_parts(pid, 0.0, 0.0, angle)
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    cols = max(1, round((max(xs) - min(xs)) / cm_per_col))
    rows = max(1, round((max(ys) - min(ys)) / (2 * cm_per_col)))
    lines = []
    for row in range(rows - 1, -1, -1):
        cells = []
        for col in range(cols):
            px = min(xs) + (col + 0.5) * (max(xs) - min(xs)) / cols
            py = min(ys) + (row + 0.5) * (max(ys) - min(ys)) / rows
            cells.append("█" if any(point_in_convex(part, px, py) for part in parts) else " ")
        lines.append("".join(cells).rstrip())
    return lines


def _supply_text(supply: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for pid in supply:
        counts[pid[:2]] = counts.get(pid[:2], 0) + 1
    return " ".join(f"{code}×{count}" for code, count in counts.items()) or "(empty)"


def render_view(envelope: Mapping[str, Any], release: str | None = None) -> str:
    """The whole table, players, bank, supply and phase of a view envelope; ``release``
    (``rel x θ h``) overrides where the ghost of the piece in hand is drawn."""
    view = envelope["board"]
    names = envelope["seat_names"]
    lines = _canvas(view, names, _ghost(view, release))
    players = []
    for seat, name in enumerate(names):
        mark = "▶" if envelope["to_move"] == seat else " "
        state = "standing" if view["standing"][seat] else f"out at placement {view['out_at'][seat][0] + 1}"
        tokens = view["pools"][seat]
        players.append(f"{mark} [{COLOURS[seat]}]{name}[/]: {tokens} token{'' if tokens == 1 else 's'}, {state}")
    lines.append("   ".join(players) + f"   bank {view['bank']}")
    lines.append(f"turn {view['turn']} ({names[view['turn_player']]}), phase {view['phase']}; "
                 f"supply {len(view['supply'])}: {_supply_text(view['supply'])}")
    if view["auction"]:
        a = view["auction"]
        passed = ", ".join(names[p] for p in a["passed"]) or "nobody"
        lines.append(f"auction for {a['pid']} ({kind_of(a['pid']).name}): high bid {a['high']} by "
                     f"{names[a['bidder']]}; passed: {passed}; {names[a['to_act']]} to raise or pass")
    if view["push"]:
        c = view["push"]
        lines.append(f"push of {c['pid']} ({kind_of(c['pid']).name}) by {names[c['pusher']]}: "
                     f"{names[c['holder']]} accepts or pays {c['fee']} to pass it on")
    if view["placing"]:
        p = view["placing"]
        kind = kind_of(p["pid"])
        role = "foundation" if p["foundation"] else "tower piece"
        lo, hi = p["window"]
        default = f"; default '{p['default']}'" if p["default"] else ""
        lines.append(f"{names[p['placer']]} places {p['pid']} ({kind.name}, {kind.mass:.1f} g) as {role}: "
                     f"x {lo / 100:.2f}..{hi / 100:.2f} at rotation 0{default}; ghost ·")
        lines.extend("    " + row for row in piece_outline(p["pid"]))
    if view["pending_release"]:
        lines.append(f"released: {view['pending_release']} (tremor pending)")
    last = view.get("last")
    if last:
        falls = ", ".join(f"{names[p]} at step {s}" for s, p in last["collapses"]) or "no collapse"
        what = f"{names[last['resigned']]} resigned" if last.get("resigned") is not None \
            else f"{names[last['placer']]} placed {last['pid']}"
        lines.append(f"last: {what}; {falls}" + ("; timed out" if last["timed_out"] else ""))
    result = envelope["result"]
    if result:
        winners = " and ".join(names[p] for p in result["winners"])
        lines.append(f"game over: {winners} ({result['reason']})")
    return "\n".join(lines)


__all__ = ["piece_outline", "render_view"]
