"""What a player sees of Honor: everything but the seed until the game ends (rule 11.5).

:func:`board_view` is the game's part of the view envelope (``view["board"]``);
:func:`seed_secrets` names the hidden strings for the no-leak checks; :func:`resampled`
is what an agent is handed. Honor hides the seed from every seat alike, so the view is
the same for every viewer.
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any

from .catalogue import kind_of
from .moves import fixed
from .placement import default_release, release_window
from .rules import SEED_BITS
from .tremor import seed_bytes

if TYPE_CHECKING:
    from .state import HonorState

def board_view(state: "HonorState") -> dict[str, Any]:
    """The public part of ``state`` (JSON-safe). It shows the seed's SHA-256 commitment from
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
                           "to_act": a.to_act}
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
        }
    if state.pending is not None:
        xq, tq, hq = state.pending
        view["pending_release"] = f"rel {fixed(xq, 2)} {fixed(tq, 1)} {fixed(hq, 2)}"
    if state.outcome is not None:
        view["seed"] = seed_bytes(state.seed).hex()
    return view


def seed_secrets(state: "HonorState") -> set[str]:
    """The seed is hidden from everyone (it decides future tremor) until the game is over:
    its 64 hex digits and, when long enough to be recognised, its decimal form."""
    if state.outcome is not None:
        return set()
    hidden = {seed_bytes(state.seed).hex()}
    if len(str(state.seed)) >= 12:
        hidden.add(str(state.seed))
    return hidden


def resampled(state: "HonorState", rng: random.Random) -> "HonorState":
    """A state every seat could be in: a copy with a fresh 256-bit seed that keeps the
    commitment to the real one, rebased so that no undo snapshot or history holds the
    real seed's tremor. Everything else of Honor is public."""
    clone = state.copy()
    clone.commitment = state.seed_commit
    clone.seed = rng.getrandbits(SEED_BITS)
    clone.rebase()
    return clone


__all__ = ["board_view", "resampled", "seed_secrets"]
