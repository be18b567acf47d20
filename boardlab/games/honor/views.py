"""What a player sees (everything but the seed until the game ends): a JSON-safe dict for renderers and clients."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .catalogue import kind_of
from .moves import fixed
from .tremor import seed_bytes

if TYPE_CHECKING:
    from .state import HonorState


def build_view(state: "HonorState", player: int | None) -> dict[str, Any]:
    """The public view of ``state``. Honor's only hidden part is the seed: the view shows its
    SHA-256 commitment from the start and the seed itself only once the game is over (B-11.6).

    Poses are given both as the canonical integers and as floats (cm, degrees)."""
    game = state.game
    n = game.num_players
    view: dict[str, Any] = {
        "game": game.id,
        "ruleset": game.ruleset,
        "viewer": player,
        "players": n,
        "names": [game.player_name(p) for p in range(n)],
        "phase": state.phase,
        "to_move": state.current_player(),
        "turn_player": state.turn_player,
        "turn": state.turn_no,
        "zones": [list(game.layout.zone(p)) for p in range(n)],
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
        "tremor": bool(game.options["tremor"]),
        "timeouts": state.timeouts,
        "result": None,
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
        default = state.default_release() if state.phase == "PLACE" else None
        lo, hi = state.release_window(pl.placer, pl.pid, 0)
        view["placing"] = {
            "pid": pl.pid, "placer": pl.placer, "how": pl.how,
            "foundation": not any(p.owner == pl.placer for p in state.table),
            "window": [lo, hi],
            "default": None if default is None else str(default),
        }
    if state.pending is not None:
        xq, tq, hq = state.pending
        view["pending_release"] = f"rel {fixed(xq, 2)} {fixed(tq, 1)} {fixed(hq, 2)}"
    result = state.result()
    if result is not None:
        view["result"] = {"winners": list(result.winners), "reason": result.reason}
        view["seed"] = f"{seed_bytes(state.seed).hex()}"
    return view


__all__ = ["build_view"]
