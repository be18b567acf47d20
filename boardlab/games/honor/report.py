"""What a resolution did, in data and in words (rules 4.5, 5 and 6), for people.

A state keeps a short list of *reports*, one per resolution (a release or a
resignation): the intended release, the tremor and the executed pose, where the piece
came to rest, which towers collapsed and when, which pieces of the standing towers
slid or turned, and where the fallen pieces lay when they were taken off. The reports
are not part of the position string (rule 11.1): a state loaded from a position has
none, and the view then words the canonical ``last`` summary instead.

Pure functions on plain values; no physics engine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .catalogue import kind_of
from .moves import fixed
from .words import STEADY, cm, piece_name, release_words, tremor_words

#: a piece of a standing tower "moved" in a resolution if it slid or turned this much
MOVED_CM = 0.3
TURNED_DEGREES = 3.0
#: physics steps per second (rule 3.2): steps are reported with their time
STEPS_PER_SECOND = 240
#: the reports a state keeps (the view shows those of the last round)
KEPT = 8


def _degrees(aq: int) -> float:
    return math.degrees(aq * 1e-6)


def _turn(before_aq: int, after_aq: int) -> float:
    """The smallest rotation (degrees) between two canonical angles."""
    delta = (after_aq - before_aq) * 1e-6
    delta = (delta + math.pi) % (2 * math.pi) - math.pi
    return abs(math.degrees(delta))


def resolution_report(before: Sequence[Any], poses: Sequence[tuple[str, int, int, int]],
                      fallen: Sequence[tuple[str, int, int, int]], owners: Mapping[str, int],
                      last: Mapping[str, Any], tremor: bool,
                      zone: tuple[float, float] | None = None) -> dict[str, Any]:
    """The report of one resolution: ``before`` the table record before it (PieceOnTable),
    ``poses`` the canonical poses after it, ``fallen`` the poses of the pieces removed with
    collapsed towers (each with its ``foundation`` flag, so that a drawing can mark it), ``owners``
    every piece's owner, ``last`` the canonical summary (rule 10.3.1), ``tremor`` whether the
    game has tremor and ``zone`` the placer's zone (cm), for saying in words where the piece was
    let go (``aim_words``)."""
    previous = {piece.pid: piece for piece in before}
    after = {pid: (xq, yq, aq) for pid, xq, yq, aq in poses}
    moved = []
    for pid, (xq, yq, aq) in after.items():
        old = previous.get(pid)
        if old is None:
            continue
        distance = math.hypot(xq - old.xq, yq - old.yq) * 1e-4
        turned = _turn(old.aq, aq)
        if distance >= MOVED_CM or turned >= TURNED_DEGREES:
            moved.append({"pid": pid, "owner": old.owner, "cm": round(distance, 2), "degrees": round(turned, 1)})
    report: dict[str, Any] = {
        "index": last["index"], "placer": last["placer"], "pid": last["pid"], "resigned": last["resigned"],
        "intended": None, "tremor": None, "executed": None, "release_y": None, "rest": None,
        "collapses": [list(c) for c in last["collapses"]], "timed_out": bool(last["timed_out"]),
        "steps": last["steps"], "moved": moved,
        "fallen": [{"pid": pid, "owner": owners[pid], "x": round(xq * 1e-4, 4), "y": round(yq * 1e-4, 4),
                    "angle": round(aq * 1e-6, 6), "foundation": _was_foundation(before, pid, owners[pid])}
                   for pid, xq, yq, aq in fallen],
    }
    if last["placer"] is not None:
        _release_part(report, last, tremor)
        if zone is not None:
            xq, thetaq, _ = last["intended"]
            report["aim_words"] = release_words(before, zone, last["placer"], last["pid"], xq, thetaq)
        pose = after.get(last["pid"])
        if pose is not None:
            report["rest"] = {"x": round(pose[0] * 1e-4, 2), "y": round(pose[1] * 1e-4, 2),
                              "rotation": round(_degrees(pose[2]) % 360, 1) % 360}
    return report


def _was_foundation(before: Sequence[Any], pid: str, owner: int) -> bool:
    """A removed piece was its tower's foundation: so flagged on the table before, or the piece
    just placed by a player who had none (rule 6.3)."""
    for piece in before:
        if piece.pid == pid:
            return bool(piece.foundation)
    return not any(piece.owner == owner for piece in before)


def _release_part(report: dict[str, Any], last: Mapping[str, Any], tremor: bool) -> None:
    xq, thetaq, hq = last["intended"]
    exq, ethetaq = last["executed"]
    report["intended"] = f"rel {fixed(xq, 2)} {fixed(thetaq, 1)} {fixed(hq, 2)}"
    if tremor:
        dtheta = (ethetaq - thetaq + 1800) % 3600 - 1800
        report["tremor"] = [round((exq - xq) / 100, 2), round(dtheta / 10, 1)]
    report["executed"] = {"x": exq / 100, "rotation": ethetaq / 10}
    report["release_y"] = round(last["release_y"] * 1e-4, 2)


def report_from_last(last: Mapping[str, Any] | None, tremor: bool) -> dict[str, Any] | None:
    """A report from the canonical summary alone (a state loaded from a position): no
    moved or fallen pieces, no resting pose."""
    if last is None:
        return None
    report: dict[str, Any] = {
        "index": last["index"], "placer": last["placer"], "pid": last["pid"], "resigned": last["resigned"],
        "intended": None, "tremor": None, "executed": None, "release_y": None, "rest": None,
        "collapses": [list(c) for c in last["collapses"]], "timed_out": bool(last["timed_out"]),
        "steps": last["steps"], "moved": [], "fallen": [],
    }
    if last["placer"] is not None:
        _release_part(report, last, tremor)
    return report


def describe(report: Mapping[str, Any], names: Sequence[str]) -> str:
    """The report in words, for people: "Red let go of the log, near the right end of its tower;
    the hand shook and it went 0.1 cm to the right. Red's tower collapsed 0.2 seconds after
    the release (...): Red is out; its 4 pieces went back to the supply." No
    notation, piece codes or coordinates (the report's data keeps those)."""
    sentences: list[str] = []
    placer, pid = report["placer"], report["pid"]
    if report["resigned"] is not None:
        sentences.append(f"{names[report['resigned']]} resigned: their pieces left the table.")
    if placer is not None:
        aim = report.get("aim_words") or piece_name(pid)
        text = f"{names[placer]} let go of {aim}"
        if report["tremor"] is not None:
            dx, dtheta = report["tremor"]
            shook = tremor_words(round(dx * 100), round(dtheta * 10))
            text += "; the hand was steady" if shook == STEADY else f"; the hand shook and it {shook}"
        collapsed_self = any(player == placer for _, player in report["collapses"])
        if report["rest"] is not None and not collapsed_self:
            text += "; it came to rest"
        sentences.append(text + ".")
    out: set[int] = set()
    for step, player in report["collapses"]:
        out.add(player)
        count = sum(1 for piece in report["fallen"] if piece["owner"] == player)
        pieces = f"; its {count} piece{'' if count == 1 else 's'} went back to the supply" if count else ""
        seconds = step / STEPS_PER_SECOND
        when = "at once" if seconds < 0.1 else f"{seconds:.1f} seconds after the release"
        sentences.append(f"{names[player]}'s tower collapsed {when} (a piece other than its foundation touched "
                         f"the table): {names[player]} is out{pieces}.")
    shaken: dict[int, list[str]] = {}
    for move in report["moved"]:
        if move["owner"] in out:
            continue
        how = []
        if move["cm"] >= MOVED_CM:
            how.append(f"slid {cm(move['cm'])}")
        if move["degrees"] >= TURNED_DEGREES:
            how.append(f"turned {move['degrees']:.0f} degrees")
        shaken.setdefault(move["owner"], []).append(f"{kind_of(move['pid']).name} {' and '.join(how)}")
    for owner, named in sorted(shaken.items()):
        sentences.append(f"{names[owner]}'s {', '.join(named)}, but {names[owner]}'s tower stands.")
    if not report["collapses"] and not shaken and report["resigned"] is None:
        sentences.append("Every tower stands.")
    if report["timed_out"]:
        sentences.append("The table had not come to rest after 20 seconds and was stopped where it was.")
    return " ".join(sentences)


__all__ = ["KEPT", "describe", "report_from_last", "resolution_report"]
