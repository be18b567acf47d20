"""The Sovereign position string, SPN (docs/rules/sovereign.md, rule 5.4): writing and strict reading.

``<rank7>/<rank6>/.../<rank1> <to move> <phase> <lower>/<top> <ply> [<ending>]``

Each rank is 7 tokens ``[0-3][SDCBsdcb]?``: a height, then the piece standing on top
(uppercase P1, lowercase P2). ``<to move>`` is ``1`` or ``2``; ``<phase>`` is ``p`` (play) or
``s<k>`` (setup, k placements made); then the supply of lower and top pieces and the plies of
play made. ``<ending>`` (our addition, rule 5.4.6) is the result code of a finished game; it is
written only once the game is over, since repetition cannot be seen from one position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardlab.core import PositionError

from .board import (
    BIT,
    CODE_KIND,
    CODE_LETTERS,
    CODE_SEAT,
    CONSULTANT,
    CONTRACTOR,
    DIPLOMAT,
    GOAL_RANKS,
    HOME_RANKS,
    KIND_NAMES,
    KING_MASK,
    NUM_SQUARES,
    PIECE_COUNTS,
    SEAT_NAMES,
    SETUP_LOWER_PER_PLAYER,
    SETUP_PLACEMENTS,
    SETUP_SEQUENCE,
    SETUP_TOP_PER_PLAYER,
    SETUP_TOWER,
    SIZE,
    SOVEREIGN,
    SQUARE_NAMES,
    THIRD_RANK,
)
from .kernel import seat_threatened
from .rules import RENAMED_RESULT_CODES, RESULT_CODES, SovereignRules

if TYPE_CHECKING:
    from .state import SovereignState

_RANK = re.compile(r"(?:[0-3][SDCBsdcb]?){7}")
_TOKEN = re.compile(r"[0-3][SDCBsdcb]?")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,5}")
_PHASE = re.compile(r"p|s(?:0|[1-9][0-9]?)")



@dataclass(frozen=True)
class SovereignPosition:
    """A checked position: 49 heights and piece codes, the seat to move, the placements made
    (14 once play has begun), the supply, the plies of play and the written ending if any."""

    heights: list[int]
    pieces: list[int]
    to_move: int
    placements: int
    pool_lower: int
    pool_top: int
    ply: int
    ending: str | None


def format_position(state: SovereignState) -> str:
    """The position string (SPN, rule 5.4) of ``state``, its ending written when it is over."""
    result = state.result()
    return write_position(
        state.heights, state.pieces, state.to_move, state.placements, state.pool_lower, state.pool_top,
        state.play_ply, None if result is None else result.code,
    )


def write_position(
    heights: list[int], pieces: list[int], to_move: int, placements: int,
    pool_lower: int, pool_top: int, ply: int, ending: str | None,
) -> str:
    """The position string of these fields (rule 5.4)."""
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        tokens = []
        for square in range(rank * SIZE, rank * SIZE + SIZE):
            code = pieces[square]
            tokens.append(f"{heights[square]}{CODE_LETTERS[code] if code else ''}")
        ranks.append("".join(tokens))
    phase = "p" if placements >= SETUP_PLACEMENTS else f"s{placements}"
    text = f"{'/'.join(ranks)} {to_move + 1} {phase} {pool_lower}/{pool_top} {ply}"
    return f"{text} {ending}" if ending else text


def winner_on_board(heights: list[int], pieces: list[int]) -> list[int]:
    """The seats whose Sovereign stands on a height-3 square of its goal ranks (rule 1.10)."""
    winners = []
    for square in range(NUM_SQUARES):
        code = pieces[square]
        if code and CODE_KIND[code] == SOVEREIGN and heights[square] == 3 and GOAL_RANKS[CODE_SEAT[code]] & BIT[square]:
            winners.append(CODE_SEAT[code])
    return winners


def parse_position(text: str, rules: SovereignRules) -> SovereignPosition:
    """Read and check an SPN string; :class:`PositionError` names the first fault found.

    Checks the shape, then the pieces (numbers of each kind, Consultants at height 2 at
    most), the supply against the towers on the board (invariant I1), a setup board against
    the placements made, the ply against the limit, that the player not to move is not
    threatened (I3) and that a written ending fits the position. Whether the player to move
    is stalemated is the state's to decide (it needs the legal moves).
    """
    prefix = f"sovereign position {text[:90]!r}"
    fields = text.split(" ")
    if len(fields) not in (5, 6):
        raise PositionError(
            f"{prefix}: expected 5 fields separated by single spaces (board, player to move, phase, "
            f"supply, ply) and an optional ending, got {len(fields)} (rule 5.4)"
        )
    board_text, mover_text, phase_text, pool_text, ply_text = fields[:5]
    heights, pieces = _parse_board(prefix, board_text)
    if mover_text not in ("1", "2"):
        raise PositionError(f"{prefix}: the player to move is {mover_text!r}, not 1 or 2 (rule 5.4)")
    to_move = int(mover_text) - 1
    if not _PHASE.fullmatch(phase_text):
        raise PositionError(
            f"{prefix}: the phase {phase_text!r} is neither 'p' (play) nor 's<k>', k = 0..13 (rule 5.4)"
        )
    placements = SETUP_PLACEMENTS if phase_text == "p" else int(phase_text[1:])
    if placements > SETUP_PLACEMENTS - 1 and phase_text != "p":
        raise PositionError(f"{prefix}: setup has 14 placements, so 's{placements}' cannot be (rule 1.2.3)")
    pool = pool_text.split("/")
    if len(pool) != 2 or not all(_NUMBER.fullmatch(part) for part in pool):
        raise PositionError(f"{prefix}: the supply {pool_text!r} is not '<lower>/<top>' (rule 5.4)")
    pool_lower, pool_top = int(pool[0]), int(pool[1])
    if not _NUMBER.fullmatch(ply_text):
        raise PositionError(f"{prefix}: the ply {ply_text!r} is not a whole number (rule 5.4)")
    ply = int(ply_text)
    ending = RENAMED_RESULT_CODES.get(fields[5], fields[5]) if len(fields) == 6 else None
    if ending is not None and ending not in RESULT_CODES:
        raise PositionError(f"{prefix}: the ending {ending!r} is not one of {', '.join(RESULT_CODES)} (rule 5.4.6)")
    if placements < SETUP_PLACEMENTS:
        _check_setup(prefix, heights, pieces, to_move, placements, ply, ending, rules)
        expected = (rules.supply_lower - 2 * SETUP_LOWER_PER_PLAYER, rules.supply_top - 2 * SETUP_TOP_PER_PLAYER)
        if (pool_lower, pool_top) != expected:
            raise PositionError(
                f"{prefix}: during setup the supply is {expected[0]}/{expected[1]} (the setup towers are "
                f"taken out first), not {pool_lower}/{pool_top} (rule 1.2.1)"
            )
    else:
        _check_play(prefix, heights, pieces, to_move, ply, ending, rules)
        lower_used = sum(min(h, 2) for h in heights)
        top_used = sum(1 for h in heights if h == 3)
        expected = (rules.supply_lower - lower_used, rules.supply_top - top_used)
        if expected[0] < 0 or expected[1] < 0:
            raise PositionError(
                f"{prefix}: the board holds {lower_used} lower and {top_used} top pieces, more than the "
                f"{rules.supply_lower}/{rules.supply_top} there are (rule 1.1.3)"
            )
        if (pool_lower, pool_top) != expected:
            raise PositionError(
                f"{prefix}: the supply must be {expected[0]}/{expected[1]} with these towers on the board, "
                f"not {pool_lower}/{pool_top} (rule 1.1.3, invariant I1)"
            )
    return SovereignPosition(heights, pieces, to_move, placements, pool_lower, pool_top, ply, ending)


def _parse_board(prefix: str, board_text: str) -> tuple[list[int], list[int]]:
    ranks = board_text.split("/")
    if len(ranks) != SIZE:
        raise PositionError(f"{prefix}: expected 7 ranks separated by '/', got {len(ranks)} (rule 5.4)")
    heights = [0] * NUM_SQUARES
    pieces = [0] * NUM_SQUARES
    for row, rank_text in enumerate(ranks):
        rank = SIZE - row
        if not _RANK.fullmatch(rank_text):
            raise PositionError(
                f"{prefix}: rank {rank} {rank_text!r} is not 7 squares, each a height 0-3 "
                "optionally followed by a piece letter S, D, C, B (P1) or s, d, c, b (P2) (rule 5.4)"
            )
        for file, token in enumerate(_TOKEN.findall(rank_text)):
            square = (rank - 1) * SIZE + file
            heights[square] = int(token[0])
            if len(token) == 2:
                pieces[square] = CODE_LETTERS.index(token[1])
    return heights, pieces


def _piece_counts(pieces: list[int]) -> list[list[int]]:
    counts = [[0] * 4, [0] * 4]
    for code in pieces:
        if code:
            counts[CODE_SEAT[code]][CODE_KIND[code]] += 1
    return counts


def _check_setup(
    prefix: str, heights: list[int], pieces: list[int], to_move: int, placements: int, ply: int,
    ending: str | None, rules: SovereignRules,
) -> None:
    if to_move != placements % 2:
        raise PositionError(
            f"{prefix}: after {placements} placements it is {SEAT_NAMES[placements % 2]}'s turn to place (rule 1.2.3)"
        )
    if ply or ending:
        raise PositionError(f"{prefix}: during setup the ply is 0 and the game has no ending (rule 5.4)")
    counts = _piece_counts(pieces)
    for seat in (0, 1):
        placed = (placements + 1 - seat) // 2
        expected = [SETUP_SEQUENCE[:placed].count(kind) for kind in range(4)]
        if counts[seat] != expected:
            raise PositionError(
                f"{prefix}: after {placements} placements {SEAT_NAMES[seat]} has placed "
                f"{_describe(expected)}, not {_describe(counts[seat])} (rule 1.2.3)"
            )
    single = [0, 0]
    for square in range(NUM_SQUARES):
        code = pieces[square]
        height = heights[square]
        name = SQUARE_NAMES[square]
        if code:
            seat, kind = CODE_SEAT[code], CODE_KIND[code]
            if not HOME_RANKS[seat] & BIT[square]:
                raise PositionError(
                    f"{prefix}: {name}: {SEAT_NAMES[seat]} places in its back two ranks only (rule 1.2.4)"
                )
            if height != SETUP_TOWER[kind]:
                raise PositionError(
                    f"{prefix}: {name}: a {KIND_NAMES[kind]} is placed at height {SETUP_TOWER[kind]} during setup, "
                    f"not {height} (rule 1.2.1)"
                )
        elif height:
            owners = [s for s in (0, 1) if (HOME_RANKS[s] | THIRD_RANK[s]) & BIT[square]]
            beside = [
                s for s in owners if any(
                    pieces[n] == s * 4 + CONTRACTOR + 1 for n in range(NUM_SQUARES) if KING_MASK[square] & BIT[n]
                )
            ]
            if height != 1 or not beside:
                raise PositionError(
                    f"{prefix}: {name} has an empty tower of height {height}; during setup the only empty "
                    "towers are the 1-level ones beside each third Contractor (rule 1.2.5)"
                )
            single[beside[0]] += 1
    for seat in (0, 1):
        placed = (placements + 1 - seat) // 2
        wanted = 1 if placed == len(SETUP_SEQUENCE) else 0
        if single[seat] != wanted:
            raise PositionError(
                f"{prefix}: {SEAT_NAMES[seat]} should have {wanted} 1-level tower(s) on the board after "
                f"{placements} placements, not {single[seat]} (rule 1.2.5)"
            )


def _describe(counts: list[int]) -> str:
    parts = [f"{n} {KIND_NAMES[kind]}{'s' if n != 1 else ''}" for kind, n in enumerate(counts) if n]
    return ", ".join(parts) or "nothing"


def _check_play(
    prefix: str, heights: list[int], pieces: list[int], to_move: int, ply: int, ending: str | None,
    rules: SovereignRules,
) -> None:
    counts = _piece_counts(pieces)
    for seat in (0, 1):
        if counts[seat][SOVEREIGN] != 1:
            raise PositionError(
                f"{prefix}: {SEAT_NAMES[seat]} has {counts[seat][SOVEREIGN]} Sovereigns; in play each player has "
                "exactly one, since a Sovereign is never captured (rule 1.9.5)"
            )
        for kind in (DIPLOMAT, CONSULTANT, CONTRACTOR):
            if counts[seat][kind] > PIECE_COUNTS[kind]:
                raise PositionError(
                    f"{prefix}: {SEAT_NAMES[seat]} has {counts[seat][kind]} {KIND_NAMES[kind]}s, "
                    f"at most {PIECE_COUNTS[kind]} (rule 1.1.2)"
                )
    for square in range(NUM_SQUARES):
        code = pieces[square]
        if code and CODE_KIND[code] == CONSULTANT and heights[square] > 2:
            raise PositionError(
                f"{prefix}: a Consultant on {SQUARE_NAMES[square]} at height 3; a Consultant always stands at "
                "height 2 or less, since it removes a level where it lands (rule 1.7.3)"
            )
    if ply > rules.ply_limit:
        raise PositionError(f"{prefix}: ply {ply} is past the limit of {rules.ply_limit} plies (rule 1.11.4)")
    winners = winner_on_board(heights, pieces)
    if len(winners) == 2:
        raise PositionError(
            f"{prefix}: both Sovereigns stand on winning squares; the first one ended the game (rule 1.10)"
        )
    if winners:
        if ending not in (None, "objective"):
            raise PositionError(
                f"{prefix}: {SEAT_NAMES[winners[0]]}'s Sovereign stands on a winning square, so the game ended "
                f"by 'objective', not {ending!r} (rule 1.10)"
            )
        return
    if ending == "objective":
        raise PositionError(f"{prefix}: ending 'objective', but no Sovereign stands on a winning square (rule 1.10)")
    if ending == "move_limit" and ply != rules.ply_limit:
        raise PositionError(f"{prefix}: ending 'move_limit' needs ply {rules.ply_limit}, not {ply} (rule 1.11.4)")
    if ending == "repetition" and not rules.repetition_count:
        raise PositionError(f"{prefix}: ending 'repetition', but this game has no repetition rule (rule 8)")
    low_squares = sum(BIT[s] for s in range(NUM_SQUARES) if heights[s] < 3)
    piece_sets = [0] * 9
    for square, code in enumerate(pieces):
        piece_sets[code] |= BIT[square]
    waiting = 1 - to_move
    if seat_threatened(waiting, heights, piece_sets, low_squares, rules.kernel_flags()):
        raise PositionError(
            f"{prefix}: {SEAT_NAMES[waiting]}'s Sovereign is threatened while {SEAT_NAMES[to_move]} is to move; "
            "a Sovereign never stays where it can be captured (rules 1.9.3, 1.9.5)"
        )


__all__ = ["SovereignPosition", "format_position", "parse_position", "winner_on_board", "write_position"]
