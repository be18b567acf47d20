"""What a Sovereign state shows: the board part of its view (docs/rules/sovereign.md, rule 7.2).
Sovereign hides nothing, so every seat sees the same."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.core import Player

from .board import (
    ALL_SQUARES,
    CODE_LETTERS,
    CONSULTANT,
    DIPLOMAT,
    GOAL_RANKS,
    KIND_LETTERS,
    PIECE_COUNTS,
    SEAT_NAMES,
    SIZE,
    SOVEREIGN,
    SQUARE_NAMES,
    setup_item,
    squares_of,
)
from .kernel import consultant_reach, protected_squares

if TYPE_CHECKING:
    from .state import SovereignState


def state_view(state: SovereignState, viewer: Player | None) -> dict[str, Any]:
    """A JSON-safe description of the whole position, the same for every ``viewer`` (nothing
    is hidden). Cost: one board scan."""
    rules = state.rules
    heights = state.heights
    pieces = state.pieces
    rows_heights = []
    rows_pieces = []
    for rank in range(SIZE - 1, -1, -1):
        squares = range(rank * SIZE, rank * SIZE + SIZE)
        rows_heights.append([heights[sq] for sq in squares])
        rows_pieces.append([CODE_LETTERS[pieces[sq]] if pieces[sq] else "" for sq in squares])
    setup = None
    threatened: list[bool] = [False, False]
    protected: list[list[str]] = [[], []]
    captured: list[list[str]] = [[], []]
    low = ALL_SQUARES ^ state.level_sets[3]
    if state.in_setup:
        seat, kind, with_tower = setup_item(state.placements)
        setup = {"seat": seat, "piece": KIND_LETTERS[kind], "with_tower": with_tower, "placements": state.placements}
    else:
        for seat in (0, 1):
            sovereign = state.square_set(seat, SOVEREIGN)
            shield = protected_squares(state.square_set(seat, DIPLOMAT), heights, rules.diplomat_self_protect)
            reach = consultant_reach(state.square_set(1 - seat, CONSULTANT), heights, low)
            threatened[seat] = bool(reach & sovereign) and not shield & sovereign
            protected[seat] = [SQUARE_NAMES[sq] for sq in squares_of(shield & state.occupied)
                               if pieces[sq] and (pieces[sq] - 1) // 4 == seat]
            for kind in range(4):
                missing = PIECE_COUNTS[kind] - bin(state.square_set(seat, kind)).count("1")
                captured[seat] += [KIND_LETTERS[kind]] * missing
    return {
        "seat_names": list(SEAT_NAMES),
        "letters": ["SDCB", "sdcb"],
        #: ranks 7 down to 1, files a to g
        "heights": rows_heights,
        "pieces": rows_pieces,
        "phase": "setup" if state.in_setup else "play",
        "setup": setup,
        "supply": {"lower": state.pool_lower, "top": state.pool_top},
        "goal_ranks": [[6, 7], [1, 2]],
        "goal_squares": [[SQUARE_NAMES[sq] for sq in squares_of(GOAL_RANKS[seat] & state.level_sets[3])]
                         for seat in (0, 1)],
        "threatened": threatened,
        "protected": protected,
        "captured": captured,
        "play_ply": state.play_ply,
        "ply_limit": rules.ply_limit,
        "position": state.position(),
    }
