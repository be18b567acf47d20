"""The position string (R10.4): one line holding the full state, and its strict parser.

Fields are ``key=value`` separated by single spaces, in this order (``-`` = empty)::

    territories grid=0,0:9H;1,0:4C;... bld=2,2:0P;3,1:1R hand0=QS*,9H hand1=-
    res0=1,0,2,0 res1=0,0,0,0 bank=12,13,11,13 supply0=7,2,2,2,1,1 supply1=8,2,2,2,1,1
    discard=- bottom=- reshuffled=- first=0 phase=main step=4 active=0 turn=3 disc=- wild=- draws=-
    offer=- ability=- die=0 used=0,0,0,0 proposals=0 nobuild=0,0 roll=5+3 result=-

* ``grid``: cells ``c,r:CARD``; ``bld``: points ``x,y:SEAT KIND`` (``0P`` = seat 0's Town).
* ``hand0``/``hand1``: territory cards of seats 0 and 1; ``*`` marks a card the opponent knows.
* resources, bank and supplies are counts in H,S,C,D and P,R,N,B,Q,K order.
* ``disc``/``wild``: owed ``seat:count`` entries in order; ``draws``: seats owed a card.
* ``reshuffled``: the cards the last reshuffle of the discards made the pile (option).
* ``offer``: ``giver>taker:GIVE:GET`` with goods as in the notation (``HH,QS``).
* ``result``: ``-``, ``draw:CODE:REASON`` or ``SEAT:CODE:REASON`` (CODE one of
  :data:`RESULT_CODES`), spaces in the reason written as ``_``.

The unseen pile is every card not named anywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardlab.core import NotationError, PositionError, Result

from .abilities import resolution_moves
from .cards import (
    ABILITY_NAMES,
    ALL_CARDS,
    CARD_CODE,
    CONVERT,
    EXPAND,
    GRID_COLUMNS,
    GRID_SIZE,
    KIND_CHARS,
    KIND_POINTS,
    PER_SUIT,
    RAID,
    START_SUPPLY,
    SWAP,
    Card,
    parse_card,
)
from .geometry import Cell, Point, touching
from .moves import goods_text, parse_goods
from .phases import (
    ABILITY_DIE,
    ABILITY_PAY,
    ABILITY_PLACE,
    CONVERT_TARGET,
    COUNTER_PROPOSE,
    COUNTER_RESPOND,
    DEAL,
    DUEL,
    FIRST,
    MAIN,
    PHASE_NAMES,
    PROPOSE,
    RAID_TARGET,
    RESPOND,
    ROLL,
    SETUP,
    SETUP_STEPS,
)
from .rules import RESULT_CODES, TerritoriesRules
from .trades import can_propose

if TYPE_CHECKING:
    from .state import TerritoriesState

FIELDS = (
    "grid", "bld", "hand0", "hand1", "res0", "res1", "bank", "supply0", "supply1", "discard",
    "bottom", "reshuffled", "first", "phase", "step", "active", "turn", "disc", "wild", "draws", "offer",
    "ability", "die", "used", "proposals", "nobuild", "roll", "result",
)
HEADER = "territories"


@dataclass(frozen=True)
class TerritoriesPosition:
    """A checked position, before any state exists: the state's positional fields as the
    position string gives them (the unseen pile ``pool`` is every card named nowhere)."""

    grid: dict[Cell, Card]
    buildings: dict[Point, tuple[int, int]]
    hands: list[list[Card]]
    known: list[frozenset[Card]]
    res: list[list[int]]
    bank: list[int]
    supply: list[list[int]]
    discard: tuple[Card, ...]
    bottom: tuple[Card, ...]
    reshuffled: frozenset[Card]
    pool: frozenset[Card]
    first: int
    phase: int
    setup_step: int
    active: int
    turn: int
    discards_owed: tuple[tuple[int, int], ...]
    wild_owed: tuple[tuple[int, int], ...]
    draws_owed: tuple[int, ...]
    offer: tuple[Any, ...] | None
    ability: int
    die: int
    used: tuple[int, ...]
    proposals: int
    no_build: tuple[int, ...]
    last_roll: tuple[int, int] | None
    outcome: Result | None


class _Draft:
    """The fields being read, in the order the string gives them (becomes the position)."""

    def __init__(self) -> None:
        self.grid: dict[Cell, Card] = {}
        self.buildings: dict[Point, tuple[int, int]] = {}
        self.hands: list[list[Card]] = [[], []]
        self.known: list[set[Card]] = [set(), set()]
        self.res: list[list[int]] = [[0] * 4, [0] * 4]
        self.bank: list[int] = []
        self.supply: list[list[int]] = [[], []]
        self.discard: list[Card] = []
        self.bottom: list[Card] = []
        self.reshuffled: frozenset[Card] = frozenset()
        self.pool: set[Card] = set()
        self.first = -1
        self.phase = DEAL
        self.setup_step = 0
        self.active = 0
        self.turn = 0
        self.discards_owed: list[tuple[int, int]] = []
        self.wild_owed: list[tuple[int, int]] = []
        self.draws_owed: list[int] = []
        self.offer: tuple[Any, ...] | None = None
        self.ability = -1
        self.die = 0
        self.used: list[int] = []
        self.proposals = 0
        self.no_build: list[int] = []
        self.last_roll: tuple[int, int] | None = None
        self.outcome: Result | None = None


def _hand_size(state: _Draft, rules: TerritoriesRules, seat: int) -> int:
    """Cards that count toward the hand limit (R5.1), as ``TerritoriesState.hand_size``."""
    return sum(state.res[seat]) + (len(state.hands[seat]) if rules.limit_counts_territories else 0)


def _cards_text(cards: Sequence[int]) -> str:
    return ",".join(CARD_CODE[c] for c in cards) or "-"


def _counts(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def format_position(state: TerritoriesState) -> str:
    """The one-line position of ``state`` (cost: O(cards + buildings))."""
    grid = ";".join(
        f"{c},{r}:{CARD_CODE[card]}" for (c, r), card in sorted(state.grid.items(), key=lambda i: (i[0][1], i[0][0]))
    ) or "-"
    bld = ";".join(
        f"{x},{y}:{owner}{KIND_CHARS[kind]}"
        for (x, y), (owner, kind) in sorted(state.buildings.items(), key=lambda i: (i[0][1], i[0][0]))
    ) or "-"
    hands = [
        ",".join(CARD_CODE[c] + ("*" if c in state.known[seat] else "") for c in state.hands[seat]) or "-"
        for seat in (0, 1)
    ]
    if state.offer is None:
        offer = "-"
    else:
        giver, give, give_cards, taker, get, get_cards = state.offer
        offer = f"{giver}>{taker}:{goods_text(give, give_cards)}:{goods_text(get, get_cards)}"
    if state.outcome is None:
        result = "-"
    else:
        who = "draw" if state.outcome.is_draw else str(state.outcome.winner)
        result = f"{who}:{state.outcome.code}:{state.outcome.reason.replace(' ', '_')}"
    values = {
        "grid": grid,
        "bld": bld,
        "hand0": hands[0],
        "hand1": hands[1],
        "res0": _counts(state.res[0]),
        "res1": _counts(state.res[1]),
        "bank": _counts(state.bank),
        "supply0": _counts(state.supply[0]),
        "supply1": _counts(state.supply[1]),
        "discard": _cards_text(state.discard),
        "bottom": _cards_text(state.bottom),
        "reshuffled": _cards_text(sorted(state.reshuffled)),
        "first": "-" if state.first < 0 else str(state.first),
        "phase": PHASE_NAMES[state.phase],
        "step": str(state.setup_step),
        "active": str(state.active),
        "turn": str(state.turn),
        "disc": ";".join(f"{s}:{n}" for s, n in state.discards_owed) or "-",
        "wild": ";".join(f"{s}:{n}" for s, n in state.wild_owed) or "-",
        "draws": ",".join(str(s) for s in state.draws_owed) or "-",
        "offer": offer,
        "ability": ABILITY_NAMES[state.ability] if state.ability >= 0 else "-",
        "die": str(state.die),
        "used": _counts(state.used),
        "proposals": str(state.proposals),
        "nobuild": _counts(state.no_build),
        "roll": "-" if state.last_roll is None else f"{state.last_roll[0]}+{state.last_roll[1]}",
        "result": result,
    }
    return HEADER + " " + " ".join(f"{key}={values[key]}" for key in FIELDS)


class _Reader:
    """Field parsing helpers that raise PositionError naming the field."""

    def __init__(self, text: str) -> None:
        parts = text.split(" ")
        if not parts or parts[0] != HEADER:
            raise PositionError(f"territories position must start with {HEADER!r}: {text[:40]!r}")
        parts = parts[1:]
        if len(parts) != len(FIELDS):
            raise PositionError(
                f"territories position: expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(parts)}"
            )
        self.values: dict[str, str] = {}
        for key, part in zip(FIELDS, parts):
            name, sep, value = part.partition("=")
            if name != key or not sep:
                raise PositionError(f"territories position: expected field {key}=..., got {part[:30]!r}")
            self.values[key] = value

    def fail(self, key: str, why: str) -> PositionError:
        return PositionError(f"territories position field {key}={self.values[key][:60]!r}: {why}")

    def integer(self, key: str, low: int, high: int, text: str | None = None) -> int:
        raw = self.values[key] if text is None else text
        try:
            value = int(raw)
        except ValueError:
            raise self.fail(key, f"{raw!r} is not a whole number") from None
        if not low <= value <= high:
            raise self.fail(key, f"{value} is outside {low}..{high}")
        return value

    def counts(self, key: str, size: int, high: int) -> list[int]:
        items = self.values[key].split(",")
        if len(items) != size:
            raise self.fail(key, f"expected {size} comma-separated counts")
        return [self.integer(key, 0, high, item) for item in items]

    def card(self, key: str, text: str) -> int:
        try:
            return parse_card(text)
        except NotationError as exc:
            raise self.fail(key, str(exc)) from None

    def cards(self, key: str) -> list[int]:
        raw = self.values[key]
        return [] if raw == "-" else [self.card(key, item) for item in raw.split(",")]

    def point(self, key: str, text: str) -> tuple[int, int]:
        xy = text.split(",")
        if len(xy) != 2:
            raise self.fail(key, f"{text!r} is not x,y")
        return (self.integer(key, -99, 99, xy[0]), self.integer(key, -99, 99, xy[1]))


def parse_position(text: str, rules: TerritoriesRules) -> TerritoriesPosition:
    """Read and check a position string of a game with ``rules``, before any state exists:
    PositionError names the bad field. What needs the rules' move logic (an ability that can
    finish, a proposal that can be named) :func:`check_moves_exist` checks on the state made
    from it. Cost: O(cards + buildings)."""
    read = _Reader(text)
    values = read.values
    state = _Draft()
    seen: dict[int, str] = {}

    def claim(card: int, key: str) -> None:
        if card in seen:
            raise read.fail(key, f"card {CARD_CODE[card]} is also in {seen[card]}")
        seen[card] = key

    if values["grid"] != "-":
        for item in values["grid"].split(";"):
            where, _, code = item.partition(":")
            cell = read.point("grid", where)
            if cell in state.grid:
                raise read.fail("grid", f"cell [{cell[0]},{cell[1]}] appears twice")
            card = read.card("grid", code)
            claim(card, "grid")
            state.grid[cell] = card
    if values["bld"] != "-":
        for item in values["bld"].split(";"):
            where, _, what = item.partition(":")
            point = read.point("bld", where)
            if len(what) != 2 or what[0] not in "01" or what[1] not in KIND_CHARS:
                raise read.fail("bld", f"{item!r}: expected x,y:SEAT KIND such as 2,2:0P")
            if point in state.buildings:
                raise read.fail("bld", f"two buildings at {where}")
            if not touching(point, state.grid):
                raise read.fail("bld", f"{where} is not an intersection of the grid")
            state.buildings[point] = (int(what[0]), KIND_CHARS.index(what[1]))
    for seat in (0, 1):
        key = f"hand{seat}"
        if values[key] != "-":
            for item in values[key].split(","):
                known = item.endswith("*")
                card = read.card(key, item.rstrip("*"))
                claim(card, key)
                state.hands[seat].append(card)
                if known:
                    state.known[seat].add(card)
        state.hands[seat].sort()
        state.res[seat] = read.counts(f"res{seat}", 4, PER_SUIT)
        state.supply[seat] = read.counts(f"supply{seat}", 6, 8)
        on_board = [0] * 6
        for owner, kind in state.buildings.values():
            if owner == seat:
                on_board[kind] += 1
        for kind in range(6):
            if state.supply[seat][kind] + on_board[kind] != START_SUPPLY[kind]:
                raise read.fail(
                    f"supply{seat}",
                    f"{KIND_CHARS[kind]}: {state.supply[seat][kind]} in supply + {on_board[kind]} built "
                    f"!= {START_SUPPLY[kind]} pieces",
                )
    state.bank = read.counts("bank", 4, PER_SUIT)
    for suit in range(4):
        if state.bank[suit] + state.res[0][suit] + state.res[1][suit] != PER_SUIT:
            raise read.fail("bank", f"bank + both players' {'HSCD'[suit]} must be {PER_SUIT}")
    state.discard = read.cards("discard")
    for card in state.discard:
        claim(card, "discard")
    state.bottom = read.cards("bottom")
    for card in state.bottom:
        claim(card, "bottom")
    state.pool = set(ALL_CARDS) - set(seen)
    reshuffled = read.cards("reshuffled")
    if len(set(reshuffled)) != len(reshuffled):
        raise read.fail("reshuffled", "a card is named twice")
    if reshuffled and not rules.reshuffle_discards:
        raise read.fail("reshuffled", "only with option reshuffle_discards")
    if reshuffled and not state.pool <= set(reshuffled):
        raise read.fail("reshuffled", "after a reshuffle every unseen card of the pile comes from it")
    state.reshuffled = frozenset(reshuffled)
    if values["phase"] not in PHASE_NAMES:
        raise read.fail("phase", f"unknown phase; one of {', '.join(PHASE_NAMES)}")
    state.phase = PHASE_NAMES.index(values["phase"])
    dealing = state.phase == DEAL
    expected_cells = {(i % GRID_COLUMNS, i // GRID_COLUMNS) for i in range(len(state.grid))}
    if dealing and (set(state.grid) != expected_cells or state.buildings or seen.keys() - set(state.grid.values())):
        raise read.fail("grid", "while dealing, the grid is filled row by row from [0,0] and nothing else is out")
    if not dealing and len(state.grid) < GRID_SIZE:
        raise read.fail("grid", f"after the deal the grid has at least {GRID_SIZE} cards")
    if values["first"] == "-":
        if state.phase not in (DEAL, FIRST):
            raise read.fail("first", "the first player is known after the deal")
    else:
        state.first = read.integer("first", 0, 1)
    state.setup_step = read.integer("step", 0, 4)
    granting = state.phase == SETUP and state.setup_step == SETUP_STEPS
    if granting and not rules.second_player_resources:
        raise read.fail("step", "setup steps are 0..3 (step 4 is P2's starting resources, R3.4)")
    state.active = read.integer("active", 0, 1)
    state.turn = read.integer("turn", 0, rules.max_turns)
    state.discards_owed = _owed(read, "disc")
    state.wild_owed = _owed(read, "wild")
    state.draws_owed = [] if values["draws"] == "-" else [
        read.integer("draws", 0, 1, s) for s in values["draws"].split(",")
    ]
    if granting:
        _check_grant(read, state, rules)
    elif (state.discards_owed or state.wild_owed or state.draws_owed) and state.phase != MAIN:
        raise read.fail("phase", "discards, wildcards or draws are owed only in phase main, after a roll")
    for seat, owed in state.discards_owed:
        if owed > _hand_size(state, rules, seat):
            raise read.fail("disc", f"seat {seat} owes {owed} cards but holds {_hand_size(state, rules, seat)}")
    due = state.draws_owed and not state.discards_owed and not state.wild_owed
    if due and not (len(state.pool) + len(state.bottom)):  # a reshuffle happens before a draw is due
        raise read.fail("draws", "a draw is owed but the pile is empty")
    if state.phase == SETUP and len(state.buildings) != state.setup_step:
        raise read.fail("step", f"setup step {state.setup_step} needs {state.setup_step} Towns on the board")
    state.offer = _offer(read, state)
    ability = values["ability"]
    if ability != "-" and ability not in ABILITY_NAMES:
        raise read.fail("ability", f"one of {', '.join(ABILITY_NAMES)} or -")
    state.ability = ABILITY_NAMES.index(ability) if ability != "-" else -1
    ability_phase = state.phase >= ABILITY_DIE
    if ability_phase != (state.ability >= 0):
        raise read.fail("ability", f"an ability is named exactly when the phase is an ability's (phase {values['phase']})")
    state.die = read.integer("die", 0, 6)
    _check_ability(read, state)
    state.used = read.counts("used", 4, 99)
    state.proposals = read.integer("proposals", 0, 99)
    _check_proposal(read, state)
    state.no_build = read.counts("nobuild", 2, 99)
    state.last_roll = _roll(read)
    state.outcome = _result(read)
    _check_not_over(read, state, rules)
    fields = vars(state)
    # the state shares these with its undo snapshots, so they are values (tuples, frozensets)
    for name in ("discard", "bottom", "discards_owed", "wild_owed", "draws_owed", "used", "no_build"):
        fields[name] = tuple(fields[name])
    fields["pool"] = frozenset(state.pool)
    fields["known"] = [frozenset(cards) for cards in state.known]
    return TerritoriesPosition(**fields)


def _check_grant(read: _Reader, state: _Draft, rules: TerritoriesRules) -> None:
    """Setup step 4 (R3.4): P2, alone, is owed exactly its starting resources, and nothing else."""
    second = 1 - state.first
    expected = [(second, rules.second_player_resources)]
    if state.wild_owed != expected:
        raise read.fail(
            "wild", f"after the setup Towns, P2 (seat {second}) is owed its {rules.second_player_resources} "
            f"starting resources (R3.4): wild={second}:{rules.second_player_resources}",
        )
    if state.discards_owed or state.draws_owed:
        raise read.fail("phase", "discards or draws are owed only in phase main, after a roll")


def _check_not_over(read: _Reader, state: _Draft, rules: TerritoriesRules) -> None:
    """A game still going on must not already be won (R9.1) or lost on the clock (R9.2)."""
    if state.outcome is not None or state.phase < ROLL:
        return
    for seat in (0, 1):
        points = sum((START_SUPPLY[k] - state.supply[seat][k]) * KIND_POINTS[k] for k in range(6))
        if points >= rules.target_points:
            raise read.fail("result", f"seat {seat} has {points} points: the game is over (R9.1)")
        if state.no_build[seat] >= rules.no_building_turns:
            raise read.fail("nobuild", f"seat {seat} has lost on the no-building clock: the game is over (R9.2)")


def _check_ability(read: _Reader, state: _Draft) -> None:
    """The ability in progress belongs to the phase, and a payment has a die to pay."""
    allowed = {
        ABILITY_DIE: (SWAP, EXPAND), ABILITY_PAY: (SWAP, EXPAND), ABILITY_PLACE: (SWAP, EXPAND),
        DUEL: (RAID, CONVERT), RAID_TARGET: (RAID,), CONVERT_TARGET: (CONVERT,),
    }.get(state.phase)
    if allowed is not None and state.ability not in allowed:
        raise read.fail("ability", f"{ABILITY_NAMES[state.ability]} does not belong to this phase")
    if state.phase == ABILITY_PAY and not 1 <= state.die <= sum(state.res[state.active]):
        raise read.fail("die", "paying for an ability needs a die of 1..6 within the mover's resources")


def _check_proposal(read: _Reader, state: _Draft) -> None:
    """A proposal being named was counted when announced (R8.2)."""
    if state.phase in (PROPOSE, COUNTER_PROPOSE) and state.proposals < 1:
        raise read.fail("proposals", "a proposal being named counts toward the limit when announced (R8.2)")


def check_moves_exist(state: TerritoriesState, text: str) -> None:
    """The checks of a position that need the rules' move logic, on the state made from it
    (``text``, already parsed): the ability in progress can finish (its decision has a move)
    and a proposal being named can be named. PositionError names the field."""
    read = _Reader(text)
    if state.phase in (ABILITY_PLACE, RAID_TARGET, CONVERT_TARGET) and (state.first < 0 or not resolution_moves(state)):
        raise read.fail("ability", f"nothing can resolve {ABILITY_NAMES[state.ability]} in this position")
    if state.phase in (PROPOSE, COUNTER_PROPOSE):
        giver = state.active if state.phase == PROPOSE else 1 - state.active
        if not can_propose(state, giver):
            raise read.fail("phase", f"{read.values['phase']}: no trade can be proposed in this position")


def _owed(read: _Reader, key: str) -> list[tuple[int, int]]:
    raw = read.values[key]
    if raw == "-":
        return []
    owed = []
    for item in raw.split(";"):
        seat, _, count = item.partition(":")
        owed.append((read.integer(key, 0, 1, seat), read.integer(key, 1, 99, count)))
    return owed


def _offer(read: _Reader, state: _Draft) -> tuple[Any, ...] | None:
    raw = read.values["offer"]
    responding = state.phase in (RESPOND, COUNTER_RESPOND)
    if raw == "-":
        if responding:
            raise read.fail("offer", "a trade is being answered, so an offer must be given")
        return None
    if not responding:
        raise read.fail("offer", "an open offer needs phase respond or counter_respond")
    parts = raw.split(":")
    if len(parts) != 3 or len(parts[0]) != 3 or parts[0][1] != ">":
        raise read.fail("offer", "expected giver>taker:GIVE:GET")
    giver, taker = read.integer("offer", 0, 1, parts[0][0]), read.integer("offer", 0, 1, parts[0][2])
    try:
        give, give_cards = parse_goods(parts[1], "offer")
        get, get_cards = parse_goods(parts[2], "offer")
    except NotationError as exc:
        raise read.fail("offer", str(exc)) from None
    if giver == taker:
        raise read.fail("offer", "giver and taker must differ")
    for seat, amounts, cards in ((giver, give, give_cards), (taker, get, get_cards)):
        if any(state.res[seat][s] < amounts[s] for s in range(4)) or not set(cards) <= set(state.hands[seat]):
            raise read.fail("offer", f"seat {seat} does not hold what the offer names")
    return (giver, give, give_cards, taker, get, get_cards)


def _roll(read: _Reader) -> tuple[int, int] | None:
    raw = read.values["roll"]
    if raw == "-":
        return None
    a, sep, b = raw.partition("+")
    if not sep:
        raise read.fail("roll", "expected A+B or -")
    return (read.integer("roll", 1, 6, a), read.integer("roll", 1, 6, b))


def _result(read: _Reader) -> Result | None:
    raw = read.values["result"]
    if raw == "-":
        return None
    parts = raw.split(":", 2)
    if len(parts) != 3 or not parts[2]:
        raise read.fail("result", "expected SEAT:CODE:REASON, draw:CODE:REASON or -")
    who, code, reason = parts
    if code not in RESULT_CODES:
        raise read.fail("result", f"unknown ending code {code!r}; one of {', '.join(RESULT_CODES)}")
    reason = reason.replace("_", " ")
    if who == "draw":
        return Result.draw((0, 1), 2, reason, code=code)
    return Result.win(read.integer("result", 0, 1, who), 2, reason, code=code)


__all__ = ["TerritoriesPosition", "check_moves_exist", "format_position", "parse_position"]
