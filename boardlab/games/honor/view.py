"""What a player sees of Honor: everything but the seed until the game ends (rule 11.5).

:func:`state_view` is the game's part of the view envelope (``view["board"]``),
:func:`move_text` how a move reads, :func:`state_secrets` the hidden strings for the no-leak
checks and :func:`resample_state` what an agent is handed: the names every game with hidden
information gives these (docs/api.md). Honor hides the seed from every seat alike, so the
view is the same for every viewer.
"""

from __future__ import annotations

import copy
import math
import random
from typing import TYPE_CHECKING, Any

from boardlab.core import Move, Player

from . import physics
from .catalogue import OUTLINES, kind_of, rest_angles_decidegrees
from .moves import (
    FULL_TURN,
    MAX_CLEARANCE,
    MIN_CLEARANCE,
    Accept,
    Build,
    Pass,
    PassOn,
    Push,
    Raise,
    Release,
    Resign,
    Tremor,
    fixed,
)
from .placement import default_release, drop_point, release_height, release_window
from .report import describe, report_from_last
from .rules import SEED_BITS
from .tremor import seed_bytes
from .words import PIECE_NAMES, aim_words, piece_name, release_words, tremor_words

if TYPE_CHECKING:
    from .state import HonorState

def state_view(state: HonorState, viewer: Player | None) -> dict[str, Any]:
    """The public part of ``state`` (JSON-safe), the same for every ``viewer``: only the seed
    is hidden, from everyone. It shows the seed's SHA-256 commitment from
    the start and the seed itself only once the game is over (B-11.6). Poses are given both
    as the canonical integers and as floats (cm, radians). Who is to move, the seat names
    and the result are in the envelope around it."""
    rules = state.rules
    view: dict[str, Any] = {
        "ruleset": rules.ruleset,
        "phase": state.phase,
        "turn_player": state.turn_player,
        "turn": state.turn_no,
        "zones": [list(rules.layout.zone(p)) for p in range(rules.players)],
        "pools": list(state.pools),
        "bank": state.bank,
        "standing": list(state.standing),
        "out_at": [None if o is None else list(o) for o in state.out_at],
        "supply": list(state.supply),
        "table": [
            {
                "pid": piece.pid, "kind": kind_of(piece.pid).name, "owner": piece.owner,
                "foundation": piece.foundation, "order": piece.order,
                "xq": piece.xq, "yq": piece.yq, "aq": piece.aq,
                "x": piece.xq * 1e-4, "y": piece.yq * 1e-4, "angle": piece.aq * 1e-6,
            }
            for piece in state.table
        ],
        "auction": None,
        "push": None,
        "placing": None,
        "pending_release": None,
        "placement_index": state.placement_index,
        "last": copy.deepcopy(state.last),
        "tremor": rules.tremor,
        "timeouts": state.timeouts,
        # the commitment to the seed, shown from the start; the seed itself once the game is over
        "seed_commit": state.seed_commit,
        "seed": None,
    }
    if state.auction is not None:
        a = state.auction
        view["auction"] = {"pid": a.pid, "high": a.high, "bidder": a.bidder, "passed": list(a.passed),
                           "to_act": a.to_act, "order": list(state.bidding_order())}
    if state.push is not None:
        c = state.push
        view["push"] = {"pid": c.pid, "pusher": c.pusher, "holder": c.holder, "passes": c.passes, "fee": c.fee}
    if state.placing is not None:
        pl = state.placing
        default = default_release(state.table, rules.layout, pl.placer, pl.pid) if state.phase == "PLACE" else None
        lo, hi = release_window(state.table, rules.layout, pl.placer, pl.pid, 0)
        view["placing"] = {
            "pid": pl.pid, "placer": pl.placer, "how": pl.how,
            "foundation": not any(p.owner == pl.placer for p in state.table),
            "window": [lo, hi],
            "default": None if default is None else str(default),
            "rotations": [{"rotation": t / 10, "window": list(release_window(state.table, rules.layout, pl.placer,
                                                                            pl.pid, t))}
                          for t in rest_angles_decidegrees(pl.pid[:2])],
            "aim": None,
            # the piece in the hand in words, as the move list will say its release (words.py)
            "words": aim_words(state.table, rules.layout.zone(pl.placer), pl.placer, pl.pid),
        }
        if state.aim is not None:
            view["placing"]["aim"] = aim_view(state, state.aim, preview=True)
        elif state.pending is not None:
            view["placing"]["aim"] = aim_view(state, state.pending, preview=False)
        elif default is not None:
            view["placing"]["aim"] = aim_view(state, (default.xq, default.thetaq, default.hq), preview=False)
    if state.pending is not None:
        xq, tq, hq = state.pending
        view["pending_release"] = f"rel {fixed(xq, 2)} {fixed(tq, 1)} {fixed(hq, 2)}"
    if state.outcome is not None:
        view["seed"] = seed_bytes(state.seed).hex()
    view["reports"] = recent_reports(state)
    view["shapes"] = SHAPES
    view["piece_names"] = PIECE_NAMES
    view["frames"] = resolution_frames(state)
    return view


#: each kind's outline at rotation 0, centred on its centre of mass (cm), for clients that draw
SHAPES = {code: [[round(x, 3), round(y, 3)] for x, y in outline] for code, outline in OUTLINES.items()}
#: a frame every 8 physics steps (30 a second of simulated time), at most 5 seconds' worth
FRAME_STEPS = 8
MAX_FRAMES = 150
_frames_cache: dict[tuple[int, str], dict[str, Any]] = {}


def resolution_frames(state: HonorState) -> dict[str, Any] | None:
    """The placement just resolved, as poses every FRAME_STEPS steps for a client to animate
    (the view's ``frames``): ``ply`` of the resolving move, ``every`` (steps per frame),
    ``pids`` (the pieces that moved) and ``poses`` (per frame, per pid, [x, y, angle] in cm and
    radians). Only right after the resolving move (None otherwise, and for a resignation or a
    state with no history to go back to), so that only the message that brings the new table
    carries them. The first segment is replayed from the stored space before the move, so it
    moves exactly as the resolution did; later segments start from a rounded table and may
    differ by hundredths of a millimetre, so a client ends on the view's ``table``."""
    last = state.last
    if not state.resolutions or state.resolutions[-1][0] != state.ply - 1 or not last or last.get("placer") is None:
        return None
    key = (state.ply, state.resolutions[-1][1])
    if key in _frames_cache:
        return _frames_cache[key]
    before = state.copy()
    try:
        before.undo()
    except Exception:  # a rebased or loaded state has no move to go back to: nothing to replay
        return None
    foundation = not any(p.owner == last["placer"] for p in before.table)
    space = before.canonical_space()
    exq, ethetaq = last["executed"]
    physics.add_piece(space, physics.BodySpec(last["pid"], last["placer"], foundation, exq / 100,
                                              last["release_y"] * 1e-4, math.radians(ethetaq / 10)))
    bodies = list(space.bodies)
    track = [[(round(b.position.x, 2), round(b.position.y, 2), round(b.angle, 3)) for b in bodies]]
    for _ in range(min(MAX_FRAMES, math.ceil(last["steps"] / FRAME_STEPS))):
        for _ in range(FRAME_STEPS):
            space.step(physics.STEP)
        track.append([(round(b.position.x, 2), round(b.position.y, 2), round(b.angle, 3)) for b in bodies])
    moving = [i for i, body in enumerate(bodies) if body.honor_pid == last["pid"] or any(
        abs(frame[i][0] - track[0][i][0]) + abs(frame[i][1] - track[0][i][1]) > 0.02
        or abs(frame[i][2] - track[0][i][2]) > 0.005 for frame in track)]
    frames = {"ply": state.ply - 1, "every": FRAME_STEPS, "pids": [bodies[i].honor_pid for i in moving],
              "poses": [[list(frame[i]) for i in moving] for frame in track]}
    if len(_frames_cache) >= 8:
        _frames_cache.pop(next(iter(_frames_cache)))
    _frames_cache[key] = frames
    return frames


def aim_view(state: HonorState, release: tuple[int, int, int], preview: bool) -> dict[str, Any]:
    """Where a release would be let go (rules 4.2-4.4), without simulating what follows: its
    legal window at its rotation, the first-contact height, the release height and what the
    piece would first touch. ``preview``: a person asked for it (``preview rel ...``)."""
    placing = state.placing
    assert placing is not None
    xq, thetaq, hq = release
    lo, hi = release_window(state.table, state.rules.layout, placing.placer, placing.pid, thetaq % FULL_TURN)
    aim: dict[str, Any] = {
        "release": f"rel {fixed(xq, 2)} {fixed(thetaq, 1)} {fixed(hq, 2)}", "x": xq / 100, "rotation": thetaq / 10,
        "clearance": hq / 100, "window": [lo, hi], "preview": preview,
        "legal": lo <= xq <= hi and 0 <= thetaq < FULL_TURN and MIN_CLEARANCE <= hq <= MAX_CLEARANCE,
        "contact_y": None, "y": None, "lands_on": [],
    }
    landing = drop_point(state.rules.layout, state.table, placing.pid[:2], xq, thetaq % FULL_TURN)
    if landing is not None:
        y0, touched = landing
        aim.update(contact_y=round(y0, 4), y=round(release_height(y0, hq), 4), lands_on=touched)
    return aim


def recent_reports(state: HonorState) -> list[dict[str, Any]]:
    """The reports of the resolutions of the last round (at most one per player), oldest
    first, each with its words (``text``); from the canonical ``last`` when the state has no
    reports (loaded from a position)."""
    names = state.rules.names
    reports = [copy.deepcopy(r) for r in state.reports[-state.rules.players:]]
    if not reports:
        fallback = report_from_last(state.last, state.rules.tremor)
        reports = [fallback] if fallback is not None else []
    for report in reports:
        report["text"] = describe(report, names)
    return reports


def move_text(state: HonorState, move: Move, viewer: Player | None) -> str:
    """A move as people read it (rule 10.2.1), in words: the piece by its name, a release by
    where it was let go (its zone, its tower's ends and middle, rule 4.3) and how it was turned,
    the tremor by how the hand moved it (rule 4.5). No notation, piece codes or coordinates:
    records and the API's ``notation`` keep those."""
    if isinstance(move, Build):
        return f"build with {piece_name(move.pid)}, opening the auction at {tokens(move.bid)}"
    if isinstance(move, Push):
        return f"push {piece_name(move.pid)} to the next player"
    if isinstance(move, Raise):
        return f"raise the bid to {tokens(move.bid)}"
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Resign):
        return "resign"
    placing = state.placing
    if isinstance(move, Release) and placing is not None:
        zone = state.rules.layout.zone(placing.placer)
        return "release " + release_words(state.table, zone, placing.placer, placing.pid, move.xq, move.thetaq)
    if isinstance(move, Accept):
        return "accept"
    if isinstance(move, PassOn):
        return "pass it on"
    if isinstance(move, Tremor) and placing is not None:
        return f"the hand's tremor: {piece_name(placing.pid)} {tremor_words(move.dxq, move.dthetaq)}"
    if isinstance(move, Tremor):
        return "the hand's tremor"
    return str(move)


def tokens(count: int) -> str:
    return f"{count} token{'' if count == 1 else 's'}"


def state_secrets(state: HonorState, viewer: Player | None) -> set[str]:
    """The seed is hidden from every viewer (it decides future tremor) until the game is over:
    its 64 hex digits and, when long enough to be recognised, its decimal form."""
    if state.outcome is not None:
        return set()
    hidden = {seed_bytes(state.seed).hex()}
    if len(str(state.seed)) >= 12:
        hidden.add(str(state.seed))
    return hidden


def resample_state(state: HonorState, player: Player, rng: random.Random) -> HonorState:
    """A state every seat (``player`` among them) could be in: a copy with a fresh 256-bit seed that keeps the
    commitment to the real one, rebased so that no undo snapshot or history holds the
    real seed's tremor. Everything else of Honor is public."""
    # the frames of a resolution just made are public but replayed from the history, which the
    # rebase drops: computed now, the clone's view finds them in the cache and equals this one's
    resolution_frames(state)
    clone = state.copy()
    clone.commitment = state.seed_commit
    clone.seed = rng.getrandbits(SEED_BITS)
    clone.rebase()
    return clone


__all__ = [
    "SHAPES", "aim_view", "move_text", "recent_reports", "resample_state", "resolution_frames", "state_secrets", "state_view",
]
