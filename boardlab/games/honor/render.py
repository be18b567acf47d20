"""The terminal drawing of an Honor view envelope (rich markup): the whole table, a close-up
of the tower that matters now, then the players, the phase, how to aim the piece in hand,
what the last resolutions did in words, and the seed's commitment (its reveal at the end).

The close-up shows the tower of the player placing (else the viewer's own, else the last
placer's) at 0.5 cm per column with a centimetre ruler; the piece in hand is drawn ``░``
exactly where the hand would let it go (the default release, or the one a ``preview``
asked for) at its true drop height. The drawings are in :mod:`.drawing`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from .catalogue import kind_of, point_in_convex, world_parts
from .drawing import COLOURS, GHOST, WRECK, overview, zoom, zoom_scale, zoom_span
from .moves import Release, parse_move_text
from .rules import PHASE_WORDS


def escape(text: str) -> str:
    """Text shown as is inside rich markup (the game depends on the core alone, not on rich)."""
    return text.replace("[", "\\[")


ROTATION_HELP = ("θ is the turn in degrees counter-clockwise from the piece as drawn at 0° "
                 "(90 = a quarter turn to the left); h is the gap in cm above where it first touches "
                 "(default 0.05, 0.02 to 10)")


def piece_outline(pid: str, theta_degrees: float = 0.0, cm_per_col: float | None = None) -> list[str]:
    """A small outline drawing of one piece at a rotation: 0.5 cm per column and 1 cm per row
    (1 and 2 cm for pieces longer than 7 cm, unless ``cm_per_col`` is given)."""
    angle = math.radians(theta_degrees)
    parts = world_parts(pid, 0.0, 0.0, angle)
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    if cm_per_col is None:
        cm_per_col = 1.0 if max(max(xs) - min(xs), max(ys) - min(ys)) > 7 else 0.5
    cols = max(1, round((max(xs) - min(xs)) / cm_per_col))
    rows = max(1, round((max(ys) - min(ys)) / (2 * cm_per_col)))
    lines = []
    for row in range(rows - 1, -1, -1):
        cells = []
        for col in range(cols):
            px = min(xs) + (col + 0.5) * (max(xs) - min(xs)) / cols
            py = min(ys) + (row + 0.5) * (max(ys) - min(ys)) / rows
            cells.append("█" if any(point_in_convex(part, px, py) for part in parts) else " ")
        lines.append("".join(cells))
    return lines


def orientations(pid: str, rotations: Sequence[Mapping[str, Any]]) -> list[str]:
    """The piece drawn in each rest orientation, side by side, each labelled with its
    rotation and its legal x window."""
    blocks = []
    for entry in rotations:
        lo, hi = entry["window"]
        drawing = piece_outline(pid, entry["rotation"])
        label = f"{entry['rotation']:g}°: x {lo / 100:.2f}-{hi / 100:.2f}" if lo <= hi else \
            f"{entry['rotation']:g}°: no legal x"
        width = max(len(label), *(len(line) for line in drawing))
        blocks.append([line.ljust(width) for line in drawing] + [label.ljust(width)])
    height = max(len(block) for block in blocks)
    padded = [[" " * len(block[0])] * (height - len(block)) + block for block in blocks]
    return ["    " + "   ".join(parts).rstrip() for parts in zip(*padded)]


def _supply_text(supply: Sequence[str]) -> str:
    """The supply by kind, each kind's name before the ids a move names: "cube CU1 CU2; log LG1"."""
    kinds: dict[str, list[str]] = {}
    for pid in supply:
        kinds.setdefault(kind_of(pid).name, []).append(pid)
    return "; ".join(f"{name} {' '.join(pids)}" for name, pids in kinds.items()) or "(empty)"


def _choice_hint(view: Mapping[str, Any], names: Sequence[str]) -> str:
    """What the turn player may type in phase CHOOSE (rules 7.1, 7.2 and 7.7), in words."""
    player = view["turn_player"]
    return (f"{escape(names[player])} chooses a piece: [bold]build PIECE BID[/] auctions it, opening at BID tokens "
            f"(at most {view['pools'][player]}; only the auction's winner pays), or [bold]push PIECE[/] hands it to "
            "the next player, who places it or pays to pass it on.")


def focus_player(envelope: Mapping[str, Any]) -> int | None:
    """Whose tower the close-up shows: the placer's, the viewer's own, the last placer's,
    or the player to move's."""
    view = envelope["board"]
    if view.get("placing"):
        placer: int = view["placing"]["placer"]
        return placer
    viewer = envelope.get("viewer")
    owners = {piece["owner"] for piece in view["table"]}
    if isinstance(viewer, int) and viewer in owners:
        return viewer
    reports = view.get("reports") or []
    if reports and reports[-1].get("placer") is not None:
        last_placer: int = reports[-1]["placer"]
        return last_placer
    to_move = envelope.get("to_move")
    return to_move if isinstance(to_move, int) and to_move in owners else None


def _aim_text(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    placing = view["placing"]
    aim = placing.get("aim")
    if not aim:
        return []
    who = "your preview, not played" if aim["preview"] else "the default" if view["phase"] == "PLACE" else "released"
    lo, hi = aim["window"]
    text = f"aim [bold]{aim['release']}[/] ({who}): "
    if not aim["legal"]:
        text += (f"[red]not legal[/]: at {aim['rotation']:g}° x must lie in {lo / 100:.2f}..{hi / 100:.2f} "
                 "(rule 4.3), h in 0.02..10 (rule 4.2); ")
    if aim["y"] is None:
        return [text + "nothing below to land on."]
    text += f"let go at y {aim['y']:.2f} cm ({GHOST}); it first touches "
    owners = {piece["pid"]: piece["owner"] for piece in view["table"]}
    touched = []
    for what in aim["lands_on"]:
        if what == "table":
            touched.append("the table" + (" (a foundation may)" if placing["foundation"]
                                          else ": [red]a collapse[/] (rule 5.2)"))
        elif what in owners:
            touched.append(f"{names[owners[what]]}'s {kind_of(what).name} ({what})")
        else:
            touched.append(what)
    return [text + ", ".join(touched) + f" at y {aim['contact_y']:.2f} cm."]


def seed_lines(view: Mapping[str, Any]) -> list[str]:
    """The commitment (rule 11.5) and, once the game is over, the seed and its check."""
    commit = view.get("seed_commit")
    if not commit:
        return []
    lines = [f"seed commitment (SHA-256): {commit}"]
    seed = view.get("seed")
    if seed:
        try:
            matches = hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commit
        except ValueError:
            matches = False
        check = "[green]its SHA-256 matches the commitment ✓[/]" if matches \
            else "[red]its SHA-256 does NOT match the commitment ✗[/]"
        lines.append(f"seed revealed: {seed}; {check}")
    return lines


def render_view(envelope: Mapping[str, Any], release: str | None = None) -> str:
    """The whole table, a close-up, players, bank, supply, phase, aiming help, the last
    resolutions in words and the seed. ``release`` (``rel x θ h``) redraws the piece in hand
    there (at a drop height estimated from the pieces below; ``preview`` gives the true one)."""
    view = dict(envelope["board"])
    names = envelope["seat_names"]
    if release and view.get("placing"):
        view["placing"] = _estimated_aim(view, release)
    lines = overview(view, names)
    focus = focus_player({**envelope, "board": view})
    if focus is not None:
        close = zoom(view, focus)
        span = zoom_span(view, focus)
        if close and span is not None:
            scale = zoom_scale(view, focus, *span)[0]
            lines.append(f"[bold]{escape(names[focus])}'s tower, close up[/] ({scale:g} cm per column and per "
                         f"half row; {GHOST} the piece in hand, {WRECK} what just fell):")
            lines.extend(close)
    players = []
    for seat, name in enumerate(names):
        mark = "▶" if envelope["to_move"] == seat else " "
        out_at = view["out_at"][seat]
        status = "standing" if view["standing"][seat] else f"out at placement {out_at[0] + 1}"
        tokens = view["pools"][seat]
        players.append(f"{mark} [{COLOURS[seat]}]{escape(name)}[/]: {tokens} token{'' if tokens == 1 else 's'}, {status}")
    lines.append("   ".join(players) + f"   bank {view['bank']}")
    turn = (f"turn {view['turn']} ({escape(names[view['turn_player']])}), {PHASE_WORDS[view['phase']]}; "
            f"supply {len(view['supply'])}")
    if view["phase"] == "CHOOSE" and not envelope["result"]:  # the pieces by name, with the ids a move names
        lines.extend([f"{turn}: {_supply_text(view['supply'])}", _choice_hint(view, names)])
    else:
        lines.append(turn)
    if view["auction"]:
        a = view["auction"]
        passed = ", ".join(names[p] for p in a["passed"]) or "nobody"
        # with two players the order is plain; views saved before it existed have none
        order = a.get("order", ())
        lines.append(f"auction for {a['pid']} ({kind_of(a['pid']).name}): high bid {a['high']} by "
                     f"{names[a['bidder']]}; passed: {passed}; {names[a['to_act']]} to raise "
                     f"([bold]raise B[/], B above {a['high']}) or [bold]pass[/]"
                     + (f" (bidding order: {', '.join(names[p] for p in order)})" if len(order) > 2 else ""))
    if view["push"]:
        c = view["push"]
        lines.append(f"push of {c['pid']} ({kind_of(c['pid']).name}) by {names[c['pusher']]}: "
                     f"{names[c['holder']]} accepts it ([bold]acc[/]) or pays {c['fee']} to pass it on ([bold]passon[/])")
    if view["placing"]:
        lines.extend(_placing_lines(view, names))
    if view["pending_release"]:
        lines.append(f"released: {view['pending_release']} (tremor pending)")
    for report in view.get("reports") or []:
        lines.append(f"[bold]placement {report['index'] + 1}:[/] {escape(report['text'])}")
    lines.extend(seed_lines(view))
    result = envelope["result"]
    if result:
        winners = " and ".join(names[p] for p in result["winners"])
        lines.append(f"game over: {winners} ({escape(result['reason'])})")
    return "\n".join(lines)


def _placing_lines(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    p = view["placing"]
    kind = kind_of(p["pid"])
    role = "foundation (it may touch the table)" if p["foundation"] else "tower piece"
    lines = [f"{names[p['placer']]} places {p['pid']} ({kind.name}, {kind.mass:.1f} g) as {role}."]
    if view["phase"] == "PLACE":
        lines.append(f"Release: [bold]rel x θ h[/] (or just [bold]x θ h[/]; θ and h may be left out): x is the "
                     f"piece's centre of mass in cm; {ROTATION_HELP}. [bold]preview x θ[/] draws it where the "
                     "hand would let it go, without playing. Its resting orientations and legal x:")
        lines.extend(orientations(p["pid"], p.get("rotations") or [{"rotation": 0.0, "window": p["window"]}]))
    lines.extend(_aim_text(view, names))
    return lines


def _estimated_aim(view: Mapping[str, Any], release: str) -> dict[str, Any]:
    """The placing part with its aim moved to ``release`` (for callers that draw a proposed
    release without a state): the drop height is estimated from the pieces' tops below."""
    placing = dict(view["placing"])
    try:
        move = parse_move_text(release)
    except ValueError:
        return placing
    if not isinstance(move, Release):
        return placing
    parts = world_parts(placing["pid"], move.x, 0.0, math.radians(move.theta_degrees))
    left = min(x for part in parts for x, _ in part)
    right = max(x for part in parts for x, _ in part)
    bottom = min(y for part in parts for _, y in part)
    floor = 0.0
    for piece in view["table"]:
        for part in world_parts(piece["pid"], piece["x"], piece["y"], piece["angle"]):
            if max(x for x, _ in part) > left and min(x for x, _ in part) < right:
                floor = max(floor, max(y for _, y in part))
    windows = {entry["rotation"]: entry["window"] for entry in placing.get("rotations") or []}
    window: list[int] = windows.get(move.theta_degrees) or (placing["window"] if move.thetaq == 0 else [1, 0])
    placing["aim"] = {"release": str(move), "x": move.x, "rotation": move.theta_degrees, "clearance": move.clearance,
                      "window": window, "preview": True, "legal": window[0] <= move.xq <= window[1],
                      "contact_y": floor - bottom, "y": floor - bottom + move.clearance, "lands_on": []}
    return placing


__all__ = ["focus_player", "orientations", "piece_outline", "render_view", "seed_lines"]
