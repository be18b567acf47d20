"""Honor's position string (rules section 11): the canonical integer record, its small
frozen value types, the canonical JSON, its hash, and the validated inverse.

The position string is the canonical JSON of the integer record on one line:
keys sorted, no spaces, integers and short strings only, no seed. Its SHA-256 is
the state hash. It does not hold the pickled physics space, so a state loaded
from a position starts *cold* (Chipmunk's cached contact impulses are rebuilt
from nothing); states reached by play keep the pickle and start warm.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardlab.core import PositionError

from .catalogue import ALL_PIECES
from .moves import FULL_TURN, MAX_CLEARANCE, MIN_CLEARANCE
from .physics import RULED_SETTLE, WALL_HEIGHT
from .placement import release_window
from .rules import START_POOL

if TYPE_CHECKING:
    from .rules import HonorRules
    from .state import HonorState

PHASES = ("CHOOSE", "AUCTION", "PUSH", "PLACE", "TREMOR", "OVER")
RECORD_VERSION = 1


@dataclass(frozen=True, slots=True)
class PieceOnTable:
    """A placed piece: id, owner, foundation flag, placement order and its canonical
    pose (x, y in 1e-4 cm; angle in 1e-6 rad, in [-pi, pi))."""

    pid: str
    owner: int
    foundation: bool
    order: int
    xq: int
    yq: int
    aq: int

    def to_json(self) -> list[Any]:
        return [self.pid, self.owner, int(self.foundation), self.order, self.xq, self.yq, self.aq]


@dataclass(frozen=True, slots=True)
class Auction:
    """A Build auction: the piece, the high bid and bidder, who passed, who acts next."""

    pid: str
    high: int
    bidder: int
    passed: tuple[int, ...]
    to_act: int

    def to_json(self) -> list[Any]:
        return [self.pid, self.high, self.bidder, list(self.passed), self.to_act]


@dataclass(frozen=True, slots=True)
class PushChain:
    """A Push: the piece, the pusher, who holds it now and how often it was passed."""

    pid: str
    pusher: int
    holder: int
    passes: int

    @property
    def fee(self) -> int:
        """What the holder pays to pass it on: 1, 2, 3 ... (rule 7.7)."""
        return self.passes + 1

    def to_json(self) -> list[Any]:
        return [self.pid, self.pusher, self.holder, self.passes]


@dataclass(frozen=True, slots=True)
class Placing:
    """The piece in a player's hand, and how they got it (``build`` or ``push``)."""

    pid: str
    placer: int
    how: str

    def to_json(self) -> list[Any]:
        return [self.pid, self.placer, self.how]


def canonical_record(state: HonorState) -> dict[str, Any]:
    """The canonical integer record of ``state`` (rule 11.1): JSON-safe, no seed, no pickle.

    The result is stored as [winners, reason] (its code follows from the standing flags,
    rule 8), so hashes of records saved before result codes existed still match."""
    return {
        "v": RECORD_VERSION, "ruleset": state.rules.ruleset,
        "pools": list(state.pools), "bank": state.bank, "standing": [int(s) for s in state.standing],
        "out_at": [None if o is None else list(o) for o in state.out_at], "supply": list(state.supply),
        "table": [p.to_json() for p in state.table], "turn_player": state.turn_player, "turn_no": state.turn_no,
        "phase": state.phase, "auction": None if state.auction is None else state.auction.to_json(),
        "push": None if state.push is None else state.push.to_json(),
        "placing": None if state.placing is None else state.placing.to_json(),
        "pending": None if state.pending is None else list(state.pending),
        "placement_index": state.placement_index,
        "result": None if state.outcome is None else [list(state.outcome[0]), state.outcome[1]],
        "last": state.last, "timeouts": state.timeouts,
    }


def canonical_json(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_hash(data: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the canonical JSON of a record."""
    return hashlib.sha256(canonical_json(data).encode("ascii")).hexdigest()


# --- validation of a position string ----------------------------------------------

_KEYS = {
    "v", "ruleset", "pools", "bank", "standing", "out_at", "supply", "table", "turn_player", "turn_no",
    "phase", "auction", "push", "placing", "pending", "placement_index", "result", "last", "timeouts",
}


def _fail(text: str) -> PositionError:
    return PositionError(f"honor position: {text}")


def _int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(f"{what} must be an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(f"{what}={value} is out of range [{low}, {high}]")
    return value


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "" if length is None else f" of {length}"
        raise _fail(f"{what} must be a list{size}, got {value!r}")
    return value


def _pid(value: Any, what: str) -> str:
    if value not in ALL_PIECES:
        raise _fail(f"{what} {value!r} is not a piece id")
    return str(value)


_LAST_KEYS = {"index", "placer", "pid", "intended", "executed", "release_y", "collapses", "timed_out", "steps",
              "resigned"}


@dataclass(frozen=True)
class _Bounds:
    """The ranges a position's numbers must lie in, from the table and rule 12's counts."""

    players: int
    x_low: int  # piece centroids lie over the table, between its end walls (1e-4 cm)
    x_high: int
    y_high: int  # and below the top of the walls
    placements: int  # rule 12: at most 30 placements per player
    steps: int  # rule 12: at most n + 2 segments of 4,800 steps per resolution
    lowest_bid: int  # rule 7.2: an auction's bids start at the option minimum_opening_bid
    auction_order: str  # rule 7.3: the option that orders an auction's bidders

    @classmethod
    def of(cls, rules: HonorRules) -> _Bounds:
        layout, n = rules.layout, rules.players
        return cls(n, round(layout.table_left * 1e4), round(layout.table_right * 1e4), round(WALL_HEIGHT * 1e4),
                   len(ALL_PIECES) * n, (n + 2) * RULED_SETTLE.max_steps, rules.minimum_opening_bid,
                   rules.auction_order)


def _check_release(values: Any, what: str, bounds: _Bounds) -> tuple[int, int, int]:
    """An intended release (x 0.01 cm, rotation 0.1°, clearance 0.01 cm), each in its range (rule 4.2)."""
    xq, thetaq, hq = _list(values, what, 3)
    return (_int(xq, f"{what} x", bounds.x_low // 100, bounds.x_high // 100),
            _int(thetaq, f"{what} rotation", 0, FULL_TURN - 1), _int(hq, f"{what} clearance", MIN_CLEARANCE, MAX_CLEARANCE))


def _check_last(last: Any, bounds: _Bounds, placement_index: int) -> dict[str, Any] | None:
    """The summary of the last resolution: None, or an object with exactly the known keys,
    each in range (rule 10.3.1)."""
    if last is None:
        return None
    if not isinstance(last, dict) or set(last) != _LAST_KEYS:
        raise _fail(f"last must be null or an object with keys {sorted(_LAST_KEYS)}")
    seat = (0, bounds.players - 1)
    _int(last["index"], "last index", 0, placement_index)
    _int(last["steps"], "last steps", 0, bounds.steps)
    _int(last["timed_out"], "last timed_out", 0, 1)
    collapses = _list(last["collapses"], "last collapses")
    if len(collapses) > bounds.players:
        raise _fail("last: more collapses than players")
    for step_player in collapses:
        _int(_list(step_player, "last collapse", 2)[0], "collapse step", 0, bounds.steps)
        _int(step_player[1], "collapse player", *seat)
    if last["resigned"] is not None:
        _int(last["resigned"], "last resigned", *seat)
    if last["placer"] is None:
        if last["resigned"] is None or any(last[k] is not None for k in ("pid", "intended", "executed", "release_y")):
            raise _fail("last: a summary without a placer must be a resignation")
    else:
        _int(last["placer"], "last placer", *seat)
        _pid(last["pid"], "last piece")
        _check_release(last["intended"], "last intended release", bounds)
        exq, ethetaq = _list(last["executed"], "last executed", 2)
        _int(exq, "last executed x", bounds.x_low // 100, bounds.x_high // 100)
        _int(ethetaq, "last executed rotation", 0, FULL_TURN - 1)
        _int(last["release_y"], "last release_y", 0, bounds.y_high)
    return last


def _check_winners(winners: tuple[int, ...], standing: tuple[bool, ...],
                   out_at: list[tuple[int, int] | None]) -> None:
    """The winners a finished game can have (rule 8): the one player standing (8.1), the
    players who fell last when all fell (8.2), or every player standing when the supply ran
    out (8.3)."""
    up = tuple(p for p, flag in enumerate(standing) if flag)
    if not winners or len(set(winners)) != len(winners) or list(winners) != sorted(winners):
        raise _fail(f"winners {list(winners)} must be distinct seats in order, at least one")
    if up and winners != up:
        raise _fail(f"winners {list(winners)} must be the players standing {list(up)} (rules 8.1, 8.3)")
    if not up:
        latest = max(when for when in out_at if when is not None)
        last_out = tuple(p for p, when in enumerate(out_at) if when == latest)
        if winners != last_out:
            raise _fail(f"winners {list(winners)} must be the players who fell last {list(last_out)} (rule 8.2)")


def _check_table(entries: Any, bounds: _Bounds, standing: tuple[bool, ...], placement_index: int) -> list[PieceOnTable]:
    """Pieces with owners who stand, poses over the table, distinct placement orders before
    ``placement_index``, and one foundation per tower: its owner's first piece (rule 6.3)."""
    seat = (0, bounds.players - 1)
    table: list[PieceOnTable] = []
    for entry in _list(entries, "table"):
        pid, owner, foundation, order, xq, yq, aq = _list(entry, "table entry", 7)
        table.append(PieceOnTable(
            _pid(pid, "table piece"), _int(owner, "owner", *seat), bool(_int(foundation, "foundation flag", 0, 1)),
            _int(order, "order", 0, max(0, placement_index - 1)), _int(xq, "xq", bounds.x_low, bounds.x_high),
            _int(yq, "yq", 0, bounds.y_high), _int(aq, "aq", -3141593, 3141593)))
    if len({piece.order for piece in table}) != len(table):
        raise _fail("two pieces on the table have the same placement order")
    for piece in table:
        if not standing[piece.owner]:
            raise _fail(f"{piece.pid} belongs to player {piece.owner}, who is out")
    for owner in {piece.owner for piece in table}:
        tower = sorted((piece for piece in table if piece.owner == owner), key=lambda piece: piece.order)
        if [piece.foundation for piece in tower] != [True] + [False] * (len(tower) - 1):
            raise _fail(f"player {owner}'s tower must have one foundation, their first piece (rule 6.3)")
    return table


def _check_auction(data: Any, bounds: _Bounds, pools: tuple[int, ...], standing: tuple[bool, ...],
                   order: tuple[int, ...]) -> Auction:
    """An auction as rule 7.3 leaves it: the bidder can pay, the one to act can raise and
    has not passed, the passes are standing players other than the bidder, and every player
    the auction's ``order`` asks between the high bidder and the one to act has passed."""
    seat = (0, bounds.players - 1)
    pid, high, bidder, passed, to_act = _list(data, "auction", 5)
    high_bid = _int(high, "high bid (at least the minimum opening bid, rule 7.2)", bounds.lowest_bid, START_POOL)
    auction = Auction(_pid(pid, "auction piece"), high_bid, _int(bidder, "bidder", *seat),
                      tuple(_int(p, "passed", *seat) for p in _list(passed, "passed")), _int(to_act, "to_act", *seat))
    if list(auction.passed) != sorted(set(auction.passed)) or auction.bidder in auction.passed:
        raise _fail("auction: the passes must be distinct seats in order, without the high bidder")
    if auction.to_act == auction.bidder or auction.to_act in auction.passed:
        raise _fail("auction: the player to act is neither the high bidder nor one who passed (rule 7.3)")
    if not all(standing[p] for p in (auction.bidder, auction.to_act, *auction.passed)):
        raise _fail("auction: every player in it stands")
    if auction.high > pools[auction.bidder] or pools[auction.to_act] <= auction.high:
        raise _fail("auction: the high bidder can pay the bid, and the player to act can raise it (rule 7.4)")
    # after the high bid the auction asked each player in its order, so those before the one to act passed
    at = order.index(auction.bidder)
    for skipped in (order[(at + k) % len(order)] for k in range(1, len(order))):
        if skipped == auction.to_act:
            break
        if skipped not in auction.passed:
            raise _fail(f"auction: player {skipped} is asked before player {auction.to_act} after the high bid "
                        f"(order {list(order)}, option auction_order={bounds.auction_order}), so they must have "
                        "passed (rule 7.3)")
    return auction


def _check_push(data: Any, bounds: _Bounds, pools: tuple[int, ...], standing: tuple[bool, ...],
                turn_player: int) -> PushChain:
    """A push as rule 7.7 leaves it: pushed by the turn player, held by a standing player who
    can pay the fee (else they would have accepted, rule 7.8)."""
    seat = (0, bounds.players - 1)
    pid, pusher, holder, passes = _list(data, "push", 4)
    push = PushChain(_pid(pid, "pushed piece"), _int(pusher, "pusher", *seat), _int(holder, "holder", *seat),
                     _int(passes, "passes", 0, 4 * START_POOL))
    holder = push.pusher
    for _ in range(push.passes + 1):
        holder = next((holder + k) % bounds.players for k in range(1, bounds.players + 1)
                      if standing[(holder + k) % bounds.players])
    if push.pusher != turn_player or push.holder != holder:
        raise _fail(f"push: the turn player pushes, and after {push.passes} pass(es) player {holder} holds "
                    "the piece (rule 7.7)")
    if pools[push.holder] < push.fee:
        raise _fail(f"push: the holder cannot pay the fee {push.fee}, so they would have accepted (rule 7.8)")
    return push


@dataclass(frozen=True)
class HonorPosition:
    """A checked position, before any state exists: the fields of the canonical record
    (rule 11.1) as the state holds them. The pickled space is not among them: a state made
    from a position starts cold (rule 11.3)."""

    pools: tuple[int, ...]
    bank: int
    standing: tuple[bool, ...]
    out_at: tuple[tuple[int, int] | None, ...]
    supply: tuple[str, ...]
    table: tuple[PieceOnTable, ...]
    turn_player: int
    turn_no: int
    phase: str
    auction: Auction | None
    push: PushChain | None
    placing: Placing | None
    pending: tuple[int, int, int] | None
    placement_index: int
    #: (winners, reason) once the game is over (rule 8)
    outcome: tuple[tuple[int, ...], str] | None
    last: dict[str, Any] | None
    timeouts: int


def format_position(state: HonorState) -> str:
    """The position string of ``state``: its canonical record as one line of canonical JSON
    (rules 11.1, 11.2)."""
    return canonical_json(canonical_record(state))


def parse_position(text: str, rules: HonorRules) -> HonorPosition:
    """Parse and check a position string; return the state's fields as Python values.

    Every field is checked, and its consistency with the others, before a state exists:
    types, ranges (seats, tokens, poses over the table, counts bounded by rule 12), pieces
    missing or doubled, tokens that do not add up, the phase and what it needs, and the
    pending release's legality. Raises PositionError naming the first problem.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = f" ({exc.msg} at character {exc.pos})" if isinstance(exc, json.JSONDecodeError) else ""
        raise _fail(f"not canonical JSON{where}") from None
    if not isinstance(data, dict) or set(data) != _KEYS:
        keys = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise _fail(f"expected an object with keys {sorted(_KEYS)}, got {keys}")
    if type(data["v"]) is not int or data["v"] != RECORD_VERSION:
        raise _fail(f"record version {data['v']!r} is not {RECORD_VERSION}")
    if data["ruleset"] != rules.ruleset:
        raise _fail(f"ruleset {data['ruleset']!r} differs from this game's {rules.ruleset!r}")
    bounds = _Bounds.of(rules)
    players = rules.players
    seat = (0, players - 1)
    placement_index = _int(data["placement_index"], "placement_index", 0, bounds.placements)
    pools = tuple(_int(v, "pool", 0, START_POOL) for v in _list(data["pools"], "pools", players))
    bank = _int(data["bank"], "bank", 0, START_POOL * players)
    if sum(pools) + bank != START_POOL * players:
        raise _fail(f"pools {list(pools)} + bank {bank} != {START_POOL * players} (rule 7.11)")
    standing = tuple(bool(_int(v, "standing flag", 0, 1)) for v in _list(data["standing"], "standing", players))
    out_at: list[tuple[int, int] | None] = []
    for entry in _list(data["out_at"], "out_at", players):
        out_at.append(None if entry is None else (
            _int(_list(entry, "out_at entry", 2)[0], "out_at index", 0, placement_index),
            _int(entry[1], "out_at step", 0, bounds.steps)))
    for seat_number, (up, when) in enumerate(zip(standing, out_at)):
        if up == (when is not None):
            status = "standing" if up else "out"
            raise _fail(f"player {seat_number} is {status} but out_at is {when!r}: exactly the players "
                        "who are out have it (rule 6.1)")
        if not up and pools[seat_number]:
            raise _fail(f"player {seat_number} is out but holds tokens: theirs went to the bank (rule 6.1)")
    supply = tuple(_pid(p, "supply piece") for p in _list(data["supply"], "supply"))
    if list(supply) != sorted(set(supply)):
        raise _fail("the supply must be sorted, without repeats")
    table = _check_table(data["table"], bounds, standing, placement_index)
    phase = data["phase"]
    if not isinstance(phase, str) or phase not in PHASES:
        raise _fail(f"phase {phase!r} is not one of {PHASES}")
    turn_player = _int(data["turn_player"], "turn_player", *seat)
    auction = None if data["auction"] is None else _check_auction(
        data["auction"], bounds, pools, standing, rules.bidding_order(turn_player, pools, standing))
    push = None if data["push"] is None else _check_push(data["push"], bounds, pools, standing, turn_player)
    placing = None
    if data["placing"] is not None:
        pid, placer, how = _list(data["placing"], "placing", 3)
        if not isinstance(how, str) or how not in ("build", "push"):
            raise _fail(f"placing how {how!r} is not build or push")
        placing = Placing(_pid(pid, "piece to place"), _int(placer, "placer", *seat), how)
    pending = None if data["pending"] is None else _check_release(data["pending"], "pending release", bounds)
    expected = {"CHOOSE": (None, None, None, None), "AUCTION": ("a", None, None, None),
                "PUSH": (None, "p", None, None), "PLACE": (None, None, "l", None), "TREMOR": (None, None, "l", "t"),
                "OVER": (None, None, None, None)}[phase]
    for value, marker, name in zip((auction, push, placing, pending), expected, ("auction", "push", "placing", "pending")):
        if (value is None) != (marker is None):
            raise _fail(f"phase {phase} {'needs' if marker else 'has no'} {name}")
    in_hand = [x.pid for x in (auction, push, placing) if x is not None]
    everything = sorted([*supply, *(p.pid for p in table), *in_hand])
    if everything != sorted(ALL_PIECES):
        raise _fail("every piece must be exactly once in the supply, on the table or in hand")
    if placing is not None and pending is not None:
        lo, hi = release_window(table, rules.layout, placing.placer, placing.pid, pending[1])
        if not lo <= pending[0] <= hi:
            raise _fail(f"the pending release's x {pending[0] / 100:.2f} is outside its legal window "
                        f"[{lo / 100:.2f}, {hi / 100:.2f}] (rule 4.3)")
    result = None
    if data["result"] is not None:
        winners, reason = _list(data["result"], "result", 2)
        if not isinstance(reason, str) or len(reason) > 200:
            raise _fail(f"the result's reason must be text of at most 200 characters, got {reason!r:.60}")
        result = (tuple(_int(p, "winner", *seat) for p in _list(winners, "winners")), reason)
        _check_winners(result[0], standing, out_at)
        if sum(standing) >= 2 and supply:
            raise _fail("a game over with two or more players standing has an empty supply (rule 8.3)")
    if (phase == "OVER") != (result is not None):
        raise _fail("a result is present exactly when the phase is OVER")
    last = _check_last(data["last"], bounds, placement_index)
    if phase != "OVER":
        if sum(standing) < 2:
            raise _fail(f"phase {phase} with fewer than two players standing")
        actor: Any = {"CHOOSE": turn_player, "AUCTION": auction and auction.to_act,
                 "PUSH": push and push.holder, "PLACE": placing and placing.placer,
                 "TREMOR": placing and placing.placer}[phase]
        if not standing[actor]:
            raise _fail(f"player {actor} is to act in phase {phase} but is out")
    resolutions = placement_index + players  # rule 12: each placement or resignation resolves once
    return HonorPosition(
        pools=pools, bank=bank, standing=standing, out_at=tuple(out_at), supply=supply,
        table=tuple(table), turn_player=turn_player,
        turn_no=_int(data["turn_no"], "turn_no", 1, resolutions + 1), phase=phase, auction=auction,
        push=push, placing=placing, pending=pending, placement_index=placement_index,
        outcome=result, last=last,
        timeouts=_int(data["timeouts"], "timeouts", 0, resolutions * (players + 2)),
    )


__all__ = [
    "PHASES",
    "Auction",
    "HonorPosition",
    "PieceOnTable",
    "Placing",
    "PushChain",
    "canonical_json",
    "canonical_record",
    "format_position",
    "parse_position",
    "state_hash",
]
