"""The Territories state: fields, whose decision it is, and the turn's flow.

Rule numbers refer to docs/rules/territories.md. The rules of each part live in
sibling modules that operate on this state: :mod:`.production` (the roll),
:mod:`.actions` (building, discards, wildcards, validation), :mod:`.trades`
(bank and player trades), :mod:`.abilities` (the four abilities),
:mod:`.timeouts` (default moves), :mod:`.view` (hidden information),
:mod:`.position` (the position string). This module keeps the fields, the
phase machine and the protocol hooks.

Chance model (R1.4, an interpretation): the 20 grid cards are dealt one chance
node at a time, and every draw from the face-down pile is a chance node uniform
over the pile's unseen cards (:attr:`pool`). That is the same distribution as a
pre-shuffled pile, and there is no hidden pile order to leak or determinize.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from boardlab.core import CHANCE, TERMINAL, Move, Player, Result, State
from boardlab.core.state import StateFields

from . import abilities, actions, kernel, production, timeouts, trades
from .cards import (
    ALL_CARDS,
    GRID_COLUMNS,
    GRID_SIZE,
    PER_SUIT,
    SEAT_NAMES,
    START_SUPPLY,
    Card,
)
from .evaluation import evaluate
from .geometry import READING_ORDER, Cell, Point, cell_corners, intersections
from .legality import illegal_reason
from .moves import (
    DICE,
    DUELS,
    ROLLS,
    Accept,
    Announce,
    BankTrade,
    Build,
    ConvertTo,
    Counter,
    Deal,
    Destroy,
    Die,
    Discard,
    Draw,
    Duel,
    EndTurn,
    FirstPlayer,
    Offer,
    Pay,
    PlaceCard,
    ProposeCounter,
    ProposeTrade,
    Reject,
    Roll,
    SwapCard,
    Wild,
    parse_move_text,
)
from .phases import (
    ABILITY_DIE,
    CHANCE_PHASES,
    COUNTER_PROPOSE,
    COUNTER_RESPOND,
    DEAL,
    DUEL,
    FIRST,
    MAIN,
    PROPOSE,
    RESPOND,
    ROLL,
    SETUP,
    SETUP_ORDER,
)
from .position import TerritoriesPosition, format_position
from .rules import TerritoriesRules
from .transfers import add_known_territory, replaced, without
from .view import move_text, resample_state, state_secrets, state_view

if TYPE_CHECKING:
    from .game import TerritoriesGame

_ROLL_OUTCOMES: list[tuple[Move, float]] = [(move, 1 / 36) for move in ROLLS]
_DIE_OUTCOMES: list[tuple[Move, float]] = [(move, 1 / 6) for move in DICE]
_DUEL_OUTCOMES: list[tuple[Move, float]] = [(move, 1 / 36) for move in DUELS]
_FIRST_OUTCOMES: list[tuple[Move, float]] = [(FirstPlayer(0), 0.5), (FirstPlayer(1), 0.5)]
_DEALS = tuple(Deal(card) for card in ALL_CARDS)
_DRAWS = tuple(Draw(card) for card in ALL_CARDS)


class TerritoriesState(State):
    """A Territories position. Seats are 0 (White) and 1 (Black); ``first`` is P1's seat.

    Every apply takes a snapshot, so the fields are ``shared`` with it: tuples and frozensets,
    or containers a move replaces and never changes in place (the grid, the buildings, the bank,
    and the hands, known cards, resources and supplies per seat: :func:`.transfers.replaced`).
    A snapshot or a copy is then one tuple, or one object, of references.
    """

    state_fields = StateFields(
        shared=(
            "first", "phase", "setup_step", "active", "turn", "offer", "ability", "die", "proposals",
            "last_roll", "outcome", "_points_cache", "_touching_cache", "reshuffled", "grid", "buildings", "discard", "bottom",
            "pool", "discards_owed", "wild_owed", "draws_owed", "used", "no_build", "hands", "known", "supply",
            "res", "bank",
        ),
        fixed=("rules",),
    )
    __slots__ = state_fields.names

    def __init__(self, game: TerritoriesGame, seed: int, position: TerritoriesPosition | None = None) -> None:
        """The start of a game (the grid still to deal), or a checked position."""
        super().__init__(game, seed)
        self.rules: TerritoriesRules = game.rules
        self.grid: dict[Cell, Card] = {}
        self.buildings: dict[Point, tuple[int, int]] = {}
        self.hands: list[list[Card]] = [[], []]
        #: cards in each hand that the opponent knows (they entered face up)
        self.known: list[frozenset[Card]] = [frozenset(), frozenset()]
        self.res: list[list[int]] = [[0, 0, 0, 0], [0, 0, 0, 0]]
        self.bank: list[int] = [PER_SUIT] * 4
        self.supply: list[list[int]] = [list(START_SUPPLY), list(START_SUPPLY)]
        self.discard: tuple[Card, ...] = ()
        #: public cards put under the pile, drawn (first one first) once the pool is empty
        self.bottom: tuple[Card, ...] = ()
        #: the cards the last reshuffle (option reshuffle_discards) made the pile: a public set.
        #: The pile held nothing else then, so an opponent's card drawn before it is none of them.
        self.reshuffled: frozenset[Card] = frozenset()
        #: the pile's unseen cards; a draw is uniform over them (R1.4)
        self.pool: frozenset[Card] = frozenset(ALL_CARDS)
        self.first: int = -1
        self.phase: int = DEAL
        self.setup_step: int = 0
        self.active: int = 0
        self.turn: int = 0
        self.discards_owed: tuple[tuple[int, int], ...] = ()
        self.wild_owed: tuple[tuple[int, int], ...] = ()
        self.draws_owed: tuple[int, ...] = ()
        #: open proposal: (giver, give, give_cards, taker, get, get_cards); the taker answers
        self.offer: tuple[Any, ...] | None = None
        self.ability: int = -1
        self.die: int = 0
        self.used: tuple[int, ...] = (0, 0, 0, 0)
        self.proposals: int = 0
        self.no_build: tuple[int, ...] = (0, 0)
        self.last_roll: tuple[int, int] | None = None
        self.outcome: Result | None = None
        self._points_cache: list[Point] | None = None
        self._touching_cache: dict[Point, list[Card]] | None = None
        if position is not None:
            self.state_fields.assign(self, vars(position))
            self.grid_changed()

    # --- derived quantities ---------------------------------------------------
    def label(self, seat: int) -> int:
        """1 if ``seat`` is P1 (plays first), 2 if P2; 0 before the first player is known."""
        if self.first < 0:
            return 0
        return 1 if seat == self.first else 2

    def grid_changed(self, cell: Cell | None = None) -> None:
        """Work out again what is kept of the grid (a card was added or exchanged). Done at once,
        not when next asked, so that the copies a search makes of a state share it.

        With ``cell``, the one cell whose card changed: only its four corners are worked out
        again (the kept lists are shared with copies, so they are replaced, never changed), in
        the order a full rebuild would give. A search meets an Expand or a Swap every twenty
        moves or so, and the full rebuild sorted every intersection each time."""
        points, touching = self._points_cache, self._touching_cache
        if cell is None or points is None or touching is None:
            self._points_cache = intersections(self.grid)
            self._touching_cache = kernel.touching_table(self.grid, self._points_cache)
            return
        grid = self.grid
        changed = {corner: kernel.touching_cards(corner[0], corner[1], grid) for corner in cell_corners(cell)}
        if all(corner in touching for corner in changed):  # the same intersections (a Swap, R7.2)
            touching = dict(touching)
            touching.update(changed)
            self._touching_cache = touching
            return
        # the grid grew (an Expand, R7.5): its new corners join the intersections, in their place
        self._points_cache = points = sorted({*points, *changed}, key=READING_ORDER)
        self._touching_cache = {point: changed[point] if point in changed else touching[point] for point in points}

    def intersection_points(self) -> list[Point]:
        """Every intersection of the current grid (kept until the grid changes)."""
        if self._points_cache is None:
            self.grid_changed()
            assert self._points_cache is not None
        return self._points_cache

    def touching_cards(self) -> dict[Point, list[Card]]:
        """The cards touching each intersection (kept until the grid changes)."""
        if self._touching_cache is None:
            self.grid_changed()
            assert self._touching_cache is not None
        return self._touching_cache

    def points(self, seat: int) -> int:
        return kernel.points(self.supply[seat])

    def building_count(self, seat: int) -> int:
        return sum(START_SUPPLY) - sum(self.supply[seat])

    def hand_size(self, seat: int) -> int:
        """Cards that count toward the hand limit (R5.1)."""
        size = sum(self.res[seat])
        if self.rules.limit_counts_territories:
            size += len(self.hands[seat])
        return size

    def pile_size(self) -> int:
        return len(self.pool) + len(self.bottom)

    def can_draw(self) -> bool:
        """Whether a territory card can be drawn: the pile, or the discards to reshuffle (R1.5)."""
        return bool(self.pool or self.bottom or (self.rules.reshuffle_discards and self.discard))

    # --- the protocol hooks ---------------------------------------------------
    def current_player(self) -> Player:
        if self.outcome is not None:
            return TERMINAL
        phase = self.phase
        if phase in (MAIN, RESPOND, COUNTER_RESPOND):
            if self.discards_owed:
                return self.discards_owed[0][0]
            if self.wild_owed:
                return self.wild_owed[0][0]
            if self.draws_owed:
                return CHANCE
            if phase == RESPOND:
                return 1 - self.active
            return self.active
        if phase == PROPOSE:
            return self.active
        if phase == COUNTER_PROPOSE:
            return 1 - self.active
        if phase == SETUP:
            if self.wild_owed:  # P2's starting resources (R3.4)
                return self.wild_owed[0][0]
            step_label = SETUP_ORDER[self.setup_step]
            return self.first if step_label == 0 else 1 - self.first
        if phase in CHANCE_PHASES:
            return CHANCE
        return self.active

    def _chance_outcomes(self) -> list[tuple[Move, float]]:
        phase = self.phase
        if phase == ROLL:
            return _ROLL_OUTCOMES
        if phase == ABILITY_DIE:
            return _DIE_OUTCOMES
        if phase == DUEL:
            return _DUEL_OUTCOMES
        if phase == FIRST:
            return _FIRST_OUTCOMES
        if phase == DEAL:
            share = 1.0 / len(self.pool)
            return [(_DEALS[card], share) for card in sorted(self.pool)]
        # a draw owed in MAIN
        if self.pool:
            share = 1.0 / len(self.pool)
            return [(_DRAWS[card], share) for card in sorted(self.pool)]
        return [(_DRAWS[self.bottom[0]], 1.0)]

    def _illegal_chance_reason(self, move: Move) -> str | None:
        phase = self.phase
        if phase == DEAL:
            if not isinstance(move, Deal):
                return "the grid is being dealt: expected deal(CARD)"
            return None if move.card in self.pool else "that card is not in the undealt deck"
        if phase == FIRST:
            return None if isinstance(move, FirstPlayer) else "expected P1=seat0 or P1=seat1"
        if phase == ROLL:
            return None if isinstance(move, Roll) else "the turn starts with a roll: expected rA+B"
        if phase == ABILITY_DIE:
            return None if isinstance(move, Die) else "the ability's d6 is rolled now: expected d1..d6"
        if phase == DUEL:
            return None if isinstance(move, Duel) else "the duel is rolled now: expected AvD"
        if not isinstance(move, Draw):
            return "a territory card is drawn now: expected draw(CARD)"
        if self.pool:
            return None if move.card in self.pool else "that card is not in the face-down pile"
        return None if move.card == self.bottom[0] else "the next card of the pile is a known one"

    def _legal_moves(self) -> list[Move]:
        if self.discards_owed and self.phase >= MAIN:
            return actions.discard_moves(self)
        if self.wild_owed and self.phase >= SETUP:  # Temple wildcards (R4.4) or P2's start (R3.4)
            return actions.wild_moves(self)
        phase = self.phase
        if phase == MAIN:
            return actions.main_moves(self)
        if phase == SETUP:
            return actions.setup_moves(self)
        if phase in (RESPOND, COUNTER_RESPOND):
            return trades.response_moves(self)
        if phase == PROPOSE:
            return list(trades.proposal_moves(self, self.active, Offer))
        if phase == COUNTER_PROPOSE:
            return list(trades.proposal_moves(self, 1 - self.active, Counter))
        return abilities.resolution_moves(self)

    def _illegal_reason(self, move: Move) -> str | None:
        return illegal_reason(self, move)

    def _apply(self, move: Move) -> None:
        _APPLY[type(move)](self, move)
        self._settle()

    def _parse_move(self, text: str) -> Move:
        return parse_move_text(text)

    def result(self) -> Result | None:
        return self.outcome

    # --- flow -------------------------------------------------------------------
    def _settle(self) -> None:
        """After every move: drop wildcards from an empty bank; when a draw is next, reshuffle or
        drop it on an empty pile; check the win.

        The pile is looked at only when the draw is due: a 7's discards come first (R5.3) and
        may refill it (under the pile, or through a reshuffle of the discard pile).
        """
        while self.wild_owed and sum(self.bank) == 0:
            self.wild_owed = self.wild_owed[1:]  # R4.5: a wildcard is lost when the bank is empty
        while self.draws_owed and not self.discards_owed and not self.wild_owed and not self.pool and not self.bottom:
            if self.rules.reshuffle_discards and self.discard:
                self.reshuffled = frozenset(self.discard)
                self.pool = self.reshuffled
                self.discard = ()
            else:
                self.draws_owed = ()  # R1.5: no card, no reshuffle
        if self.outcome is None and self.phase >= ROLL:
            # R9.1: a player with the target points wins at once (the actor is checked first)
            seat = kernel.target_reached(self.supply, self.active, self.rules.target_points)
            if seat >= 0:
                self.outcome = Result.win(
                    seat, 2, f"{SEAT_NAMES[seat]} reached {self.points(seat)} points", code="points"
                )

    def end_turn(self) -> None:
        """R9.2 no-building clock, R9.3 turn cap, then the opponent's turn begins."""
        rules = self.rules
        me = self.active
        clocked = (0, 1) if rules.clock_game_turns else (me,)
        no_build = list(self.no_build)
        for seat in clocked:
            no_build[seat] = 0 if self.building_count(seat) else no_build[seat] + 1
        self.no_build = tuple(no_build)
        losers = [s for s in clocked if self.no_build[s] >= rules.no_building_turns]
        if len(losers) == 2:
            self.outcome = Result.draw(
                (0, 1), 2, "both players were without buildings too long", code="no_buildings"
            )
            return
        if losers:
            loser = losers[0]
            self.outcome = Result.win(
                1 - loser, 2, f"{SEAT_NAMES[loser]} had no buildings for {rules.no_building_turns} turns",
                code="no_buildings",
            )
            return
        if self.turn >= rules.max_turns:
            a, b = self.points(0), self.points(1)
            if a == b:
                self.outcome = Result.draw(
                    (0, 1), 2, f"turn cap {rules.max_turns}: equal points {a}", code="move_limit"
                )
            else:
                winner = 0 if a > b else 1
                self.outcome = Result.win(
                    winner, 2, f"turn cap {rules.max_turns}: {SEAT_NAMES[winner]} leads {max(a, b)}-{min(a, b)}",
                    code="move_limit",
                )
            return
        self.turn += 1
        self.active = 1 - me
        self.phase = ROLL
        self.used = (0, 0, 0, 0)
        self.proposals = 0

    # --- chance application -------------------------------------------------------
    def _apply_deal(self, move: Deal) -> None:
        index = len(self.grid)
        self.grid = {**self.grid, (index % GRID_COLUMNS, index // GRID_COLUMNS): move.card}
        self.pool = self.pool - {move.card}
        if len(self.grid) == GRID_SIZE:
            self.grid_changed()
            self.phase = FIRST
        else:  # nothing asks while the grid is dealt: worked out when asked
            self._points_cache = self._touching_cache = None

    def _apply_first(self, move: FirstPlayer) -> None:
        self.first = move.seat
        self.active = move.seat
        self.phase = SETUP
        self.setup_step = 0

    def _apply_roll(self, move: Roll) -> None:
        self.last_roll = (move.first, move.second)
        self.phase = MAIN
        total = move.first + move.second
        if total == 7:
            production.resolve_seven(self)
        else:
            production.resolve_production(self, total)

    def _apply_draw(self, move: Draw) -> None:
        seat = self.draws_owed[0]
        self.draws_owed = self.draws_owed[1:]
        card = move.card
        if card in self.pool:
            self.pool = self.pool - {card}
            self.hands = replaced(self.hands, seat, sorted((*self.hands[seat], card)))
        else:
            self.bottom = without(self.bottom, card)
            add_known_territory(self, seat, card)  # a card from the public bottom is known to all

    # --- the rest of the protocol lives in sibling modules -----------------------------
    def _view(self, viewer: Player | None) -> dict[str, Any]:
        return state_view(self, viewer)

    def _move_text(self, move: Move, viewer: Player | None) -> str:
        return move_text(self, move, viewer)

    def secrets(self, player: Player | None) -> set[str]:
        return state_secrets(self, player)

    def _resample(self, player: Player, rng: random.Random) -> TerritoriesState:
        return resample_state(self, player, rng)

    def default_move(self) -> Move | None:
        return timeouts.default_move(self)

    def position(self) -> str:
        return format_position(self)

    def evaluate(self) -> list[float]:
        return evaluate(self)


_APPLY: dict[type, Callable[[TerritoriesState, Any], None]] = {
    Deal: TerritoriesState._apply_deal,
    FirstPlayer: TerritoriesState._apply_first,
    Roll: TerritoriesState._apply_roll,
    Draw: TerritoriesState._apply_draw,
    Build: actions.apply_build,
    BankTrade: trades.apply_bank_trade,
    ProposeTrade: trades.apply_propose,
    ProposeCounter: trades.apply_propose_counter,
    Offer: trades.apply_offer,
    Counter: trades.apply_counter,
    Accept: trades.apply_accept,
    Reject: trades.apply_reject,
    Discard: actions.apply_discard,
    Wild: actions.apply_wild,
    EndTurn: lambda state, move: state.end_turn(),
    Announce: abilities.apply_announce,
    Die: abilities.apply_die,
    Duel: abilities.apply_duel,
    Pay: abilities.apply_pay,
    SwapCard: abilities.apply_swap_card,
    PlaceCard: abilities.apply_place_card,
    Destroy: abilities.apply_destroy,
    ConvertTo: abilities.apply_convert,
}
