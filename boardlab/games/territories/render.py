"""Terminal drawing of a Territories view (rich console markup).

The grid is drawn with its intersections: ``·`` is empty, a chess letter is a
building (White's in yellow, Black's in cyan; the Capital is ``K``). Cards show
their code coloured by suit. Everything comes from the view envelope, so a
player never sees more than :func:`.view.state_view` gave them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SUIT_STYLE = {"H": "red", "D": "bright_red", "S": "blue", "C": "green"}
OWNER_STYLE = ("bold yellow", "bold cyan")
CELL_WIDTH = 6


def _card(code: str) -> str:
    return f"[{SUIT_STYLE[code[1]]}]{code}[/]"


def _resources(amounts: Mapping[str, int] | None, count: int) -> str:
    if amounts is None:
        return f"{count} resources"
    return " ".join(f"[{SUIT_STYLE[s]}]{s}[/]{amounts[s]}" for s in "HSCD") + f" ({count})"


def grid_lines(view: Mapping[str, Any]) -> list[str]:
    """The grid with intersection and cell coordinates, buildings at intersections."""
    cells = {(c, r): code for c, r, code in view["grid"]}
    if not cells:
        return ["(no cards dealt yet)"]
    buildings = {(x, y): (owner, kind) for x, y, owner, kind in view["buildings"]}
    cols = [c for c, _ in cells]
    rows = [r for _, r in cells]
    lo_c, hi_c, lo_r, hi_r = min(cols), max(cols), min(rows), max(rows)
    header = "      " + "".join(f"{x:<{CELL_WIDTH}}" for x in range(lo_c, hi_c + 2))
    lines = ["x:" + header[2:]]
    for y in range(lo_r, hi_r + 2):
        line = f"y{y:>3}  "
        for x in range(lo_c, hi_c + 2):
            touched = any((cx, cy) in cells for cx in (x - 1, x) for cy in (y - 1, y))
            here = buildings.get((x, y))
            if here is not None:
                owner, kind = here
                mark = f"[{OWNER_STYLE[owner]}]{kind if owner == 0 else kind.lower()}[/]"
            else:
                mark = "·" if touched else " "
            edge = "─" * (CELL_WIDTH - 1) if ((x, y - 1) in cells or (x, y) in cells) and x <= hi_c else " " * (CELL_WIDTH - 1)
            line += mark + (edge if x <= hi_c else "")
        lines.append(line)
        if y <= hi_r:
            line = "      "
            for x in range(lo_c, hi_c + 2):
                side = "│" if ((x - 1, y) in cells or (x, y) in cells) else " "
                code = cells.get((x, y))
                body = f" {_card(code)}  " if code else "     "
                line += side + (body if x <= hi_c else "")
            lines.append(line + f"  r{y}")
    return lines


def render_view(envelope: Mapping[str, Any]) -> str:
    """Rich-markup text of a view envelope: grid, both players as the viewer sees them, the
    decision pending."""
    view = envelope["board"]
    names = envelope["seat_names"]
    out: list[str] = []
    out.append(
        f"[bold]Territories[/]  turn {view['turn']}/{view['max_turns']}  "
        f"target {view['target_points']} points  pile {view['pile_size']}"
        + (f"  last roll {view['last_roll'][0]}+{view['last_roll'][1]}" if view["last_roll"] else "")
    )
    out.extend(grid_lines(view))
    out.append("[dim]intersections x,y on the lines; cell \\[c,r] lies right of x=c and below y=r[/]")
    out.append(
        "[dim]buildings: White upper case, Black lower case; P/p Town, R/r Fort, N/n Barracks, "
        "B/b Temple, Q/q Palace, K/k Capital[/]"
    )
    bank = view["bank"]
    out.append("bank: " + " ".join(f"[{SUIT_STYLE[s]}]{s}[/]{bank[s]}" for s in "HSCD"))
    if view["discard"]:
        out.append("discard pile: " + " ".join(_card(c) for c in view["discard"]))
    if view["pile_bottom"]:
        out.append("under the pile: " + " ".join(_card(c) for c in view["pile_bottom"]))
    for seat, entry in enumerate(view["seats"]):
        style = OWNER_STYLE[seat]
        you = " (you)" if envelope["viewer"] == seat else ""
        label = f" {entry['label']}" if entry["label"] else ""
        shown = entry["territories"]
        hidden = entry["territory_count"] - len(shown)
        hand = " ".join(_card(c) for c in shown) + (" ??" * hidden)
        supply = " ".join(f"{k}{n}" for k, n in entry["supply"].items())
        points = entry["points"]
        clock = f" | {entry['no_building_turns']} turn(s) without buildings" if entry["no_building_turns"] else ""
        out.append(
            f"[{style}]{names[seat]}{label}[/]{you}: {points} point{'s' if points != 1 else ''} | "
            f"supply {supply}{clock}"
        )
        out.append(
            f"    {_resources(entry['resources'], entry['resource_count'])} | territories: {hand.strip() or '-'}"
            f" | hand {entry['hand_size']}/{view['hand_limit']}"
        )
    offer = view["offer"]
    if offer is not None:
        gives = ",".join(x for x in [offer["gives"], *offer["gives_cards"]] if x)
        wants = ",".join(x for x in [offer["wants"], *offer["wants_cards"]] if x)
        out.append(f"open trade: {names[offer['from']]} gives {gives or '-'} for {wants or '-'}")
    if view["ability"]:
        die = f" (d6 = {view['die']})" if view["die"] else ""
        out.append(f"ability in progress: {view['ability']}{die}")
    out.append(f"[bold]{view['decision']}[/]")
    return "\n".join(out)
