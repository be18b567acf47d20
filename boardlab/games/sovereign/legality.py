"""Why a move is refused, in a player's words, citing the rules (docs/rules/sovereign.md).

Only called for moves that are not among the legal ones, so it may be slow: it re-runs
parts of move generation with rules relaxed one at a time to find the one that fails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.core import Move

from .board import (
    ALL_SQUARES,
    BIT,
    CODE_KIND,
    CODE_SEAT,
    CONSULTANT,
    CONTRACTOR,
    DIPLOMAT,
    HOME_RANKS,
    KIND_LETTERS,
    KIND_NAMES,
    KING_MASK,
    KNIGHT_MASK,
    SEAT_NAMES,
    SETUP_SEQUENCE,
    SOVEREIGN,
    SQUARE_NAMES,
    THIRD_RANK,
    setup_item,
    squares_of,
)
from .kernel import consultant_reach, protected_squares, slider_targets
from .moves import ConsultantJump, ContractorMove, Placement, Slide
from .rules import BUILD_ONE_LEVEL, BUILD_WHOLE_TOWER

if TYPE_CHECKING:
    from .state import SovereignState


def illegal_reason(state: SovereignState, move: Move) -> str:
    """A sentence saying why ``move`` (not among the legal moves) is refused here."""
    if not isinstance(move, (Placement, Slide, ContractorMove, ConsultantJump)):
        return "not a Sovereign move"
    if state.in_setup:
        if not isinstance(move, Placement):
            seat, kind, _ = setup_item(state.placements)
            return (
                f"the game is still in setup: {SEAT_NAMES[seat]} places their {KIND_NAMES[kind]} now, "
                f"e.g. {KIND_LETTERS[kind]}@{_example_square(seat)} (rule 1.2.3)"
            )
        return _placement_reason(state, move)
    if isinstance(move, Placement):
        return "the setup is over: pieces are placed only before play begins (rule 1.2.6)"
    return _play_reason(state, move) or "not a legal move here"


def _example_square(seat: int) -> str:
    return "d1" if seat == 0 else "d7"


def _placement_reason(state: SovereignState, move: Placement) -> str:
    seat, kind, with_tower = setup_item(state.placements)
    if move.kind != kind:
        order = ", ".join(KIND_LETTERS[k] for k in SETUP_SEQUENCE)
        return (
            f"it is time to place {SEAT_NAMES[seat]}'s {KIND_NAMES[kind]}, not a {KIND_NAMES[move.kind]} "
            f"(each player places {order} in that order; rule 1.2.3)"
        )
    name = SQUARE_NAMES[move.square]
    ranks = "1-2" if seat == 0 else "6-7"
    if not HOME_RANKS[seat] & BIT[move.square]:
        return f"{name} is not in {SEAT_NAMES[seat]}'s back two ranks ({ranks}) (rule 1.2.4)"
    if state.pieces[move.square]:
        return f"{name} is already taken (rule 1.2.4)"
    if state.heights[move.square]:
        return f"{name} has a tower; pieces are placed on open ground (rule 1.2.4)"
    if with_tower and move.tower < 0:
        return (
            f"the third Contractor comes with the 1-level tower: write B@{name}^<square> with a free "
            "square next to it (rule 1.2.5)"
        )
    if not with_tower and move.tower >= 0:
        return "only the third Contractor is placed with a tower (rule 1.2.5)"
    tower = SQUARE_NAMES[move.tower]
    if not KING_MASK[move.square] & BIT[move.tower]:
        return f"the 1-level tower goes next to the Contractor, and {tower} is not next to {name} (rule 1.2.5)"
    if not (HOME_RANKS[seat] | THIRD_RANK[seat]) & BIT[move.tower]:
        return f"the 1-level tower goes in ranks {'1-3' if seat == 0 else '5-7'}, and {tower} is not (rule 1.2.5)"
    return f"{tower} is not an empty open-ground square (rule 1.2.5)"


def _play_reason(state: SovereignState, move: Slide | ContractorMove | ConsultantJump) -> str | None:
    seat = state.to_move
    kind = move.kind if isinstance(move, Slide) else CONTRACTOR if isinstance(move, ContractorMove) else CONSULTANT
    origin, target = move.origin, move.target
    name, to = SQUARE_NAMES[origin], SQUARE_NAMES[target]
    code = state.pieces[origin]
    if not code:
        return f"{name} is empty"
    if CODE_SEAT[code] != seat:
        return f"{name} holds {SEAT_NAMES[1 - seat]}'s {KIND_NAMES[CODE_KIND[code]]}, not one of your pieces"
    if CODE_KIND[code] != kind:
        return f"{name} holds your {KIND_NAMES[CODE_KIND[code]]}, not a {KIND_NAMES[kind]}"
    if origin == target:
        return "a move must leave its square (rule 1.3.1)"
    rules = state.rules
    if state.threatened and kind != SOVEREIGN and not rules.any_resolving_move:
        return "your Sovereign is threatened, so you must move it (rule 1.9.2)"
    if isinstance(move, Slide):
        return _slide_reason(state, move, kind, to)
    if isinstance(move, ContractorMove):
        return _contractor_reason(state, move, to)
    return _consultant_reason(state, move, to)


def _attackers(state: SovereignState, seat: int, square: int) -> list[str]:
    """The squares of the enemy Consultants that reach ``square`` by geometry and height."""
    low = ALL_SQUARES ^ state.level_sets[3]
    return [
        SQUARE_NAMES[c] for c in squares_of(state.square_set(1 - seat, CONSULTANT))
        if consultant_reach(BIT[c], state.heights, low) & BIT[square]
    ]


def _slide_reason(state: SovereignState, move: Slide, kind: int, to: str) -> str | None:
    rules = state.rules
    seat = state.to_move
    heights = state.heights
    origin, target = move.origin, move.target
    piece = KIND_NAMES[kind]
    sovereign = state.square_set(seat, SOVEREIGN)
    if kind == DIPLOMAT and rules.strict_pin and sovereign & _reach(state, seat):
        protection = protected_squares(state.square_set(seat, DIPLOMAT), heights, rules.diplomat_self_protect)
        if protection & sovereign:
            pinners = " and ".join(_attackers(state, seat, sovereign.bit_length() - 1))
            return (
                f"your Diplomat is pinned: it shields your Sovereign from the Consultant on {pinners}, "
                "so it may not move (rule 1.8.2)"
            )
    if state.pieces[target]:
        return f"{to} is occupied; a {piece} ends its move on an empty square (rule 1.3.2)"
    empty = state.free_squares()
    towers = ALL_SQUARES ^ state.level_sets[0]
    # heights as if every square were open ground: no climb limit applies
    anywhere = [ALL_SQUARES, 0, 0, 0]
    flags = state.flags
    reach = _reach(state, seat)
    banned = reach if kind == SOVEREIGN or rules.path_ban_applies_to_diplomat else 0
    level = heights[origin]
    if not slider_targets(origin, level, 0, empty, towers, anywhere, flags) & BIT[target]:
        return (
            f"{to} cannot be reached: a {piece} slides in a straight line over empty open ground, or walks "
            "through the empty squares of connected towers (rule 1.5)"
        )
    level_sets = state.level_sets
    if not slider_targets(origin, level, 0, empty, towers, level_sets, flags) & BIT[target]:
        return (
            f"{to} is {heights[target]} levels high: a {piece} climbs one level at most, counted from the ground "
            f"after crossing open ground or from its own level ({level}) inside its castle (rule 1.4)"
        )
    if banned and not slider_targets(origin, level, banned, empty, towers, level_sets, flags) & BIT[target]:
        blockers = slider_targets(origin, level, banned, empty, towers, anywhere, flags) & banned
        names = " or ".join(SQUARE_NAMES[s] for s in squares_of(blockers)) or "a square"
        return (
            f"every way to {to} passes {names}, which an enemy Consultant can reach; the {piece} "
            "may stop there but not pass through (rule 1.9.4)"
        )
    if kind == SOVEREIGN:
        attackers = _attackers(state, seat, target)
        if attackers:
            return (
                f"the enemy Consultant on {' and '.join(attackers)} could capture your Sovereign on {to}; "
                "a Sovereign may not move into threat (rule 1.9.3)"
            )
    if kind == DIPLOMAT and sovereign & reach:
        return (
            f"moving the Diplomat to {to} would leave your Sovereign open to the enemy Consultant on "
            f"{' and '.join(_attackers(state, seat, sovereign.bit_length() - 1))} (rule 1.8.2)"
        )
    if state.threatened:
        return "your Sovereign is threatened and this move does not end the threat (rule 1.9.2)"
    return None


def _reach(state: SovereignState, seat: int) -> int:
    return consultant_reach(state.square_set(1 - seat, CONSULTANT), state.heights, ALL_SQUARES ^ state.level_sets[3])


def _contractor_reason(state: SovereignState, move: ContractorMove, to: str) -> str | None:
    rules = state.rules
    heights = state.heights
    origin, target, build = move.origin, move.target, move.build
    level = heights[origin]
    if not KING_MASK[origin] & BIT[target] and not rules.contractor_transit:
        return "a Contractor steps to one of the eight squares around it (rule 1.6.1)"
    if state.pieces[target]:
        return f"{to} is occupied; a Contractor steps onto an empty square (rule 1.6.1)"
    if heights[target] > level + 1:
        return (
            f"{to} is {heights[target]} levels high; a Contractor at level {level} climbs to {level + 1} "
            "at most (rule 1.6.1)"
        )
    where = SQUARE_NAMES[build]
    if not KING_MASK[target] & BIT[build]:
        return f"{where} is not next to {to}; the Contractor builds on a square around its new square (rule 1.6.2)"
    if state.pieces[build] and build != origin:
        return f"{where} is occupied; a Contractor builds on an empty square (rule 1.6.2)"
    height = heights[build]
    if height + move.levels > 3:
        return f"{where} is {height} levels high and a tower has 3 levels at most (rule 1.1.3)"
    if move.levels > 1 and rules.build_mode == BUILD_ONE_LEVEL:
        return "a Contractor adds exactly one level per build (rule 1.6.2)"
    if rules.build_mode == BUILD_WHOLE_TOWER and height:
        return f"{where} already has a tower; with whole-tower builds a new tower goes on open ground (rule 8)"
    top = height + move.levels
    if min(top, 2) - min(height, 2) > state.pool_lower:
        return "the supply has no lower tower pieces left for a 1st or 2nd level (rules 1.6.2, 1.6.3)"
    if top == 3 and not state.pool_top:
        return "the supply has no top pieces left for a 3rd level (rules 1.6.2, 1.6.3)"
    return None


def _consultant_reason(state: SovereignState, move: ConsultantJump, to: str) -> str | None:
    rules = state.rules
    seat = state.to_move
    heights = state.heights
    origin, target = move.origin, move.target
    level = heights[origin]
    if not KNIGHT_MASK[origin] & BIT[target]:
        return "a Consultant jumps like a chess knight: two squares one way, then one square across (rule 1.7.1)"
    if heights[target] > level + 2:
        return (
            f"{to} is {heights[target]} levels high; a Consultant at level {level} reaches height {level + 2} "
            "at most, counted before it removes a level (rule 1.7.2)"
        )
    code = state.pieces[target]
    if code and CODE_SEAT[code] == seat:
        return f"{to} holds your own {KIND_NAMES[CODE_KIND[code]]} (rule 1.7.2)"
    if code:
        diplomat = state.square_set(1 - seat, DIPLOMAT)
        if protected_squares(diplomat, heights, rules.diplomat_self_protect) & BIT[target]:
            return (
                f"the {KIND_NAMES[CODE_KIND[code]]} on {to} is protected by {SEAT_NAMES[1 - seat]}'s Diplomat on "
                f"{SQUARE_NAMES[diplomat.bit_length() - 1]} (rule 1.8.1)"
            )
        if not move.capture:
            return f"{to} holds {SEAT_NAMES[1 - seat]}'s {KIND_NAMES[CODE_KIND[code]]}: write the capture as " \
                f"C{SQUARE_NAMES[origin]}x{to} (rule 5.2)"
    elif move.capture:
        return f"{to} is empty, so nothing is captured: write C{SQUARE_NAMES[origin]}-{to} (rule 5.2)"
    if state.threatened:
        return "your Sovereign is threatened and this move does not end the threat (rule 1.9.2)"
    return None


__all__ = ["illegal_reason"]
