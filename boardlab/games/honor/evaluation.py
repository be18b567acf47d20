"""A static estimate of an Honor position for the generic agents (MCTS cut-offs, greedy) and the analysis.

By hand (:func:`evaluate` without fitted weights in force): the standing players share 1 in
proportion to their tokens and to how low their tower is.

**Fitted weights** (boardlab.core.fitted, docs/evaluation.md): where ``evaluation.json`` holds
weights for the game's player count and options and the caller judges by them, each standing
player's score is a weighted sum of its :data:`TERMS` (tokens, its first few tokens again,
tower height and pieces, the piece it is about to place, whose turn it is, a bid it owes or a
push it holds, and tokens and height again as the supply runs out), and the chances are their
softmax over the players still standing; a player who is out has 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from boardlab.core.fitted import evaluation_in_force, register_evaluation_terms

from .catalogue import ALL_PIECES
from .rules import START_POOL

if TYPE_CHECKING:
    from .state import HonorState

#: tower height (cm) at which a tower's weight is halved: taller towers fall more easily
HEIGHT_SCALE_CM = 20.0


def evaluate(state: HonorState) -> list[float]:
    """The result's returns at the end; before it, the standing players share 1 in proportion
    to their tokens (rule 7.7: tokens buy passes) and to how low their tower is."""
    result = state.result()
    if result is not None:
        return list(result.returns)
    model = evaluation_in_force(state.game)
    if model is not None:
        return list(model.chances(_terms(state)))
    weights = []
    for player, up in enumerate(state.standing):
        if not up:
            weights.append(0.0)
            continue
        height = max((piece.yq * 1e-4 for piece in state.table if piece.owner == player), default=0.0)
        weights.append((1.0 + state.pools[player] / START_POOL) / (1.0 + height / HEIGHT_SCALE_CM))
    total = sum(weights)
    return [w / total for w in weights]


#: the fitted evaluation's terms per seat
TERMS = (
    "tokens",  # its pool over the starting pool (rule 7.11: tokens buy passes)
    "height",  # its tower's height in units of HEIGHT_SCALE_CM: a taller tower falls more easily
    "pieces",  # its pieces on the table
    "no_foundation",  # 1 while it has placed nothing (rule 6.2)
    "placing",  # 1 when it holds a piece to place now (the risk of the next release is its own)
    "turn",  # 1 for the turn player (rule 7.1)
    "tokens_late",  # tokens times the share of the supply already placed: passes matter most at the end
    # a pool's first tokens count again: 1, 2 and 3 tokens pay the fees of a push chain's first
    # passes (rule 7.7) and an empty pool must accept (7.8); tokens are worth less past a handful
    "tokens_up_to_1",
    "tokens_up_to_2",
    "tokens_up_to_3",
    "tokens_up_to_5",
    "height_late",  # height times the share of the supply placed: height weighs differently late
    "owes_bid",  # the high bid it pays when the auction ends (rule 7.6), not yet out of its pool
    "holds_push",  # 1 when it holds a pushed piece: it places it or pays to pass it on (rule 7.7)
    "push_fee",  # the fee it would pay to pass that piece on (rule 7.7)
)


def _terms(state: HonorState) -> list[list[float] | None]:
    heights, pieces = _towers(state)
    auction = state.auction if state.phase == "AUCTION" else None
    push = state.push if state.phase == "PUSH" else None
    return _seat_rows(
        pools=state.pools, heights=heights, pieces=pieces, standing=state.standing,
        placed_share=1.0 - len(state.supply) / len(ALL_PIECES),
        placing=state.placing.placer if state.phase == "PLACE" and state.placing is not None else -1,
        turn_player=state.turn_player,
        bid=(auction.bidder, auction.high) if auction is not None else None,
        push=(push.holder, push.fee) if push is not None else None,
    )


def _towers(state: HonorState) -> tuple[list[float], list[int]]:
    """Each seat's tower: the height of its highest piece's middle (cm) and its pieces on the table."""
    heights = [0.0] * len(state.standing)
    pieces = [0] * len(state.standing)
    for piece in state.table:
        pieces[piece.owner] += 1
        heights[piece.owner] = max(heights[piece.owner], piece.yq * 1e-4)
    return heights, pieces


def _seat_rows(*, pools: Sequence[int], heights: Sequence[float], pieces: Sequence[int],
               standing: Sequence[Any], placed_share: float, placing: int, turn_player: int,
               bid: tuple[int, int] | None, push: tuple[int, int] | None) -> list[list[float] | None]:
    """The :data:`TERMS` of every seat from plain values: ``bid`` is (bidder, high bid) during an
    auction, ``push`` (holder, fee) during a push, ``placing`` the placer's seat or -1."""
    values: list[list[float] | None] = []
    for seat, up in enumerate(standing):
        if not up:
            values.append(None)
            continue
        pool = pools[seat]
        tokens = pool / START_POOL
        height = heights[seat] / HEIGHT_SCALE_CM
        holds = push is not None and push[0] == seat
        values.append([
            tokens,
            height,
            float(pieces[seat]),
            0.0 if pieces[seat] else 1.0,
            1.0 if seat == placing else 0.0,
            1.0 if seat == turn_player else 0.0,
            tokens * placed_share,
            min(pool, 1) / START_POOL,
            min(pool, 2) / START_POOL,
            min(pool, 3) / START_POOL,
            min(pool, 5) / START_POOL,
            height * placed_share,
            bid[1] / START_POOL if bid is not None and bid[0] == seat else 0.0,
            1.0 if holds else 0.0,
            push[1] / START_POOL if holds and push is not None else 0.0,
        ])
    return values


def terms_after_placement(state: HonorState, placer: int, pid: str, pools: Sequence[int], rise_cm: float,
                          stands: bool) -> list[list[float] | None]:
    """Each seat's :data:`TERMS` once ``placer`` has placed ``pid`` (from the supply, or the
    piece pushed or auctioned, which has left it already) and
    the next turn begins (rule 7.10: the turn passes to the seat after the turn player), the
    pools being ``pools``: what a player that looks one placement ahead judges by.

    ``stands``: the placer's tower stood, its top ``rise_cm`` higher; otherwise the placer is
    out (rule 6.1): its pieces back in the supply, its seat None."""
    heights, pieces = _towers(state)
    supply = len(state.supply) - (pid in state.supply)
    standing = list(state.standing)
    if stands:
        pieces[placer] += 1
        heights[placer] += rise_cm
    else:
        supply += pieces[placer] + 1
        standing[placer] = False
    return _seat_rows(
        pools=pools, heights=heights, pieces=pieces, standing=standing,
        placed_share=1.0 - supply / len(ALL_PIECES), placing=-1,
        turn_player=state.next_standing(state.turn_player), bid=None, push=None,
    )


def seat_terms(state: HonorState) -> list[list[float] | None] | None:
    """Each standing seat's :data:`TERMS` (None for a seat that is out); None once the game is over."""
    if state.result() is not None:
        return None
    return _terms(state)


register_evaluation_terms("honor", TERMS, seat_terms)  # type: ignore[arg-type]

__all__ = ["TERMS", "evaluate", "seat_terms", "terms_after_placement"]
