"""Honor's state: the procedures of a turn (rules section 7) on the canonical record.

Cost: every move but a resolving one takes microseconds; a resolving move (``rel``
without tremor, ``tremor`` with it, ``resign``) runs the physics, typically 10-60 ms.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from typing import TYPE_CHECKING, Any

from boardlab.core import CHANCE, TERMINAL, IllegalMoveError, Move, NotationError, Result, State
from boardlab.core.state import StateFields

from . import physics
from .catalogue import ALL_PIECES, KINDS
from .evaluation import evaluate
from .legality import illegal_reason
from .moves import (
    FULL_TURN,
    Accept,
    Build,
    Pass,
    PassOn,
    Push,
    Raise,
    Release,
    Resign,
    Tremor,
    parse_move_text,
)
from .placement import candidate_releases, default_release, release_height, release_window, tower_extent
from .position import (
    Auction,
    HonorPosition,
    PieceOnTable,
    Placing,
    PushChain,
    canonical_record,
    format_position,
    state_hash,
)
from .report import KEPT, resolution_report
from .rules import ALL_PLACED, LAST_STANDING, LAST_TO_FALL, PHASE_WORDS, START_POOL, HonorRules
from .tremor import MAX_DTHETA_UNITS, MAX_DX_UNITS, TREMOR_GRID, random_tremor, seed_bytes, seeded_tremor
from .view import move_text, resample_state, state_secrets, state_view

if TYPE_CHECKING:
    from .game import HonorGame

#: the order in which a timed-out turn player's default Build picks from the supply (rule 7.14):
#: the catalogue's order, easy pieces first
_CATALOGUE_ORDER = {code: rank for rank, code in enumerate(KINDS)}

#: a line that starts with a number (not the pass alias "-"): a release without its word (rule 10.2)
_NUMBER_FIRST = re.compile(r"[+-]?[0-9.]")



class HonorState(State):
    """A position of Honor. Every field is immutable (tuples, frozen records, bytes), so
    snapshots and copies share them; ``blob`` is the pickled canonical space (None: cold).
    The live pymunk space is never a field: each resolution loads its own from ``blob``
    (:meth:`canonical_space`), so nothing mutable is shared between a state, its copies
    and its snapshots."""

    state_fields = StateFields(
        shared=(
            "pools", "bank", "standing", "out_at", "supply", "table", "turn_player", "turn_no", "phase",
            "auction", "push", "placing", "pending", "placement_index", "outcome", "last", "timeouts",
            "blob", "resolutions", "reports",
        ),
        # the commitment is replaced only by resample, on a fresh copy, never by a move
        fixed=("rules", "commitment"),
        # the memo of a simulated resolving move is valid for one position; ``aim`` marks a preview
        transient=("_trial", "aim"),
    )
    __slots__ = state_fields.names

    game: HonorGame

    def __init__(self, game: HonorGame, seed: int, position: HonorPosition | None = None) -> None:
        """The start of a game, or a checked position, which starts cold (no pickled space,
        rule 11.3)."""
        super().__init__(game, seed)
        self.rules: HonorRules = game.rules
        n = game.num_players
        self.pools: tuple[int, ...] = (START_POOL,) * n
        self.bank = 0
        self.standing: tuple[bool, ...] = (True,) * n
        self.out_at: tuple[tuple[int, int] | None, ...] = (None,) * n
        self.supply: tuple[str, ...] = ALL_PIECES
        self.table: tuple[PieceOnTable, ...] = ()
        self.turn_player = 0
        self.turn_no = 1
        self.phase = "CHOOSE"
        self.auction: Auction | None = None
        self.push: PushChain | None = None
        self.placing: Placing | None = None
        self.pending: tuple[int, int, int] | None = None
        self.placement_index = 0
        self.outcome: tuple[tuple[int, ...], str] | None = None
        self.last: dict[str, Any] | None = None
        self.timeouts = 0
        self.blob: bytes | None = None
        #: (absolute ply of the resolving move, first 16 hex digits of the state hash after it);
        #: keyed by ply, not by history index, so it survives a rebase (the ply counts on)
        self.resolutions: tuple[tuple[int, str], ...] = ()
        self._trial: tuple[tuple[int, str, str], tuple[Any, ...]] | None = None
        #: the seed commitment to show instead of the one computed from the seed: set by
        #: resample, whose fresh seed must not change what players were shown (rule 11.5)
        self.commitment: str | None = None
        #: what each resolution did, for people (report.py; not part of the position, rule 11.1)
        self.reports: tuple[dict[str, Any], ...] = ()
        #: a preview's release (xq, thetaq, hq), shown at its true drop height; None: not a preview
        self.aim: tuple[int, int, int] | None = None
        if position is not None:
            self.state_fields.assign(self, vars(position))

    @property
    def seed_commit(self) -> str:
        """SHA-256 (hex) of the game seed's 32 bytes (rule 11.5, B-11.6): shown from the start,
        so that the seed revealed at the end can be checked against it."""
        if self.commitment is None:
            return hashlib.sha256(seed_bytes(self.seed)).hexdigest()
        return self.commitment

    # === who moves ==================================================================
    def current_player(self) -> int:
        phase = self.phase
        if phase == "CHOOSE":
            return self.turn_player
        if phase == "AUCTION":
            return self.auction.to_act  # type: ignore[union-attr]
        if phase == "PUSH":
            return self.push.holder  # type: ignore[union-attr]
        if phase == "PLACE":
            return self.placing.placer  # type: ignore[union-attr]
        if phase == "TREMOR":
            return CHANCE
        return TERMINAL

    def result(self) -> Result | None:
        """The end of rule 8; its code follows from how many stand (the position stores the
        winners and the reason only, so its hash is that of rules version 1's records)."""
        if self.outcome is None:
            return None
        winners, reason = self.outcome
        standing = sum(self.standing)
        code = LAST_TO_FALL if standing == 0 else LAST_STANDING if standing == 1 else ALL_PLACED
        return Result.shared(winners, self.game.num_players, reason, code=code)

    def next_standing(self, seat: int) -> int:
        """The next standing seat clockwise after ``seat`` (seat k -> k+1 mod n); ``seat`` itself if alone."""
        n = self.game.num_players
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.standing[candidate]:
                return candidate
        return seat

    def standing_players(self) -> list[int]:
        return [p for p, up in enumerate(self.standing) if up]

    # === legal moves =================================================================
    def _legal_moves(self) -> list[Move]:
        phase = self.phase
        moves: list[Move] = []
        if phase == "CHOOSE":
            pool = self.pools[self.turn_player]
            lowest = self.rules.minimum_opening_bid  # a pool below it builds nothing (rule 7.2)
            for pid in self.supply:
                moves.extend(Build(pid, bid) for bid in range(lowest, pool + 1))
            moves.extend(Push(pid) for pid in self.supply)
        elif phase == "AUCTION":
            auction = self.auction
            assert auction is not None
            moves.extend(Raise(b) for b in range(auction.high + 1, self.pools[auction.to_act] + 1))
            moves.append(Pass())
        elif phase == "PUSH":
            moves.extend((Accept(), PassOn()))
        elif phase == "PLACE":
            placing = self.placing
            assert placing is not None
            moves.extend(candidate_releases(self.table, self.rules.layout, placing.placer, placing.pid))
        if self.rules.resign:
            moves.append(Resign())
        return moves

    def tower_extent(self, player: int) -> tuple[float, float] | None:
        """[L, R]: the union of the x-extents of ``player``'s pieces, or None (rule 4.3)."""
        return tower_extent(self.table, player)

    def release_window(self, player: int, pid: str, thetaq: int) -> tuple[int, int]:
        """The legal x range (0.01 cm, inclusive) of ``player``'s release of ``pid`` at rotation
        ``thetaq`` (rule 4.3)."""
        return release_window(self.table, self.rules.layout, player, pid, thetaq)

    def default_release(self) -> Release:
        """The release offered to the placer, and made when their time runs out (rule 7.14)."""
        placing = self.placing
        assert placing is not None
        return default_release(self.table, self.rules.layout, placing.placer, placing.pid)

    # === the match's hooks: timeouts and resignation =====================================
    def default_move(self) -> Move | None:
        """What the rules make the player to move do when their time runs out (rule 7.14):
        Build the supply's first piece in catalogue order at the lowest opening bid (0 as
        ruled; Push it when the pool is below the option's minimum), pass in an auction, accept
        a pushed piece, and make the default release of the piece in hand."""
        phase = self.phase
        if phase == "CHOOSE":
            pid = min(self.supply, key=lambda p: (_CATALOGUE_ORDER[p[:2]], p))
            lowest = self.rules.minimum_opening_bid
            return Build(pid, lowest) if self.pools[self.turn_player] >= lowest else Push(pid)
        if phase == "AUCTION":
            return Pass()
        if phase == "PUSH":
            return Accept()
        if phase == "PLACE":
            return self.default_release()
        return None

    def resign_move(self, player: int) -> Move | None:
        """Honor's own resignation (rule 7.13): with the option on, at ``player``'s own decision;
        the match plays it and the others go on."""
        if self.rules.resign and player >= 0 and self.current_player() == player:
            return Resign()
        return None

    # === legality (legality.py) =====================================================
    def _illegal_reason(self, move: Move) -> str | None:
        problem = illegal_reason(self, move)
        if problem is None and isinstance(move, Resign | Release):
            return self._hash_problem(move)
        return problem

    def _illegal_chance_reason(self, move: Move) -> str | None:
        if not isinstance(move, Tremor):
            return "the chance node here is the hand's tremor (rule 4.5)"
        if abs(move.dxq) > MAX_DX_UNITS or abs(move.dthetaq) > MAX_DTHETA_UNITS:
            return "rule 4.5: a tremor is at most 1.00 cm and 5.0 degrees"
        return self._hash_problem(move)

    def _hash_problem(self, move: Release | Tremor | Resign) -> str | None:
        """A resolving move carrying a recorded hash: simulate now and compare (rule 11.4)."""
        if move.expect is None or (isinstance(move, Release) and self.rules.tremor):
            return None
        trial = self.copy()
        trial._apply(move)
        got = trial.resolutions[-1][1]
        if got != move.expect:
            return f"rule 11.4: physics divergence: the record says #{move.expect}, this replay gives #{got}"
        self._trial = ((self.ply, str(move), self.state_hash()), trial._snapshot())
        return None

    # === chance ======================================================================
    def _chance_outcomes(self) -> list[tuple[Move, float]]:
        return [(Tremor(dx, dt), p) for (dx, dt), p in TREMOR_GRID]

    def sample_chance(self, rng: random.Random | None = None) -> Move:
        """The tremor of this placement: with no ``rng`` the ruled SHA-256 formula of the
        seed and placement index (B-14 item 12); with one, Gaussian noise from it."""
        if self.current_player() != CHANCE:
            raise IllegalMoveError("not a chance node: nothing to sample")
        if rng is None:
            return Tremor(*seeded_tremor(self.seed, self.placement_index))
        return Tremor(*random_tremor(rng))

    # === applying moves ==============================================================
    def _apply(self, move: Move) -> None:
        self._trial, trial = None, self._trial
        if isinstance(move, Build):
            self.supply = tuple(p for p in self.supply if p != move.pid)
            self.auction = Auction(move.pid, move.bid, self.turn_player, (), self.turn_player)
            self._advance_auction()
        elif isinstance(move, Raise):
            auction = self.auction
            assert auction is not None
            self.auction = Auction(auction.pid, move.bid, auction.to_act, auction.passed, auction.to_act)
            self._advance_auction()
        elif isinstance(move, Pass):
            auction = self.auction
            assert auction is not None
            passed = tuple(sorted((*auction.passed, auction.to_act)))
            self.auction = Auction(auction.pid, auction.high, auction.bidder, passed, auction.to_act)
            self._advance_auction()
        elif isinstance(move, Push):
            self.supply = tuple(p for p in self.supply if p != move.pid)
            self.push = PushChain(move.pid, self.turn_player, self.next_standing(self.turn_player), 0)
            self._offer_push()
        elif isinstance(move, Accept):
            chain = self.push
            assert chain is not None
            self._hand_over(chain.pid, chain.holder, "push")
        elif isinstance(move, PassOn):
            chain = self.push
            assert chain is not None
            self._pay(chain.holder, chain.fee)
            self.push = PushChain(chain.pid, chain.pusher, self.next_standing(chain.holder), chain.passes + 1)
            self._offer_push()
        elif isinstance(move, Release):
            if self.rules.tremor:
                self.pending = (move.xq, move.thetaq, move.hq)
                self.phase = "TREMOR"
            else:
                self._resolve_release(move.xq, move.thetaq, move.hq, move.xq, move.thetaq, trial, str(move))
        elif isinstance(move, Tremor):
            assert self.pending is not None
            xq, thetaq, hq = self.pending
            self._resolve_release(xq, thetaq, hq, xq + move.dxq, (thetaq + move.dthetaq) % FULL_TURN, trial, str(move))
        elif isinstance(move, Resign):
            self._resign(self.current_player())
            self.resolutions = (*self.resolutions, (self.ply, self.state_hash()[:16]))
        else:  # pragma: no cover - check_move rejects foreign moves
            raise IllegalMoveError(f"{move!r} is not an Honor move")

    def _pay(self, player: int, tokens: int) -> None:
        pools = list(self.pools)
        pools[player] -= tokens
        self.pools = tuple(pools)
        self.bank += tokens

    def bidding_order(self) -> tuple[int, ...]:
        """The order in which the turn player's auction asks the standing players, round and
        round (rule 7.3, option ``auction_order``)."""
        return self.rules.bidding_order(self.turn_player, self.pools, self.standing)

    def _advance_auction(self) -> None:
        """Find the next bidder in the auction's order (rule 7.3), passing automatically for
        anyone who cannot raise; close the auction when every other standing player has passed."""
        auction = self.auction
        assert auction is not None
        passed = set(auction.passed)
        order = self.bidding_order()
        seat = auction.to_act
        while True:
            if all(p in passed for p in self.standing_players() if p != auction.bidder):
                self.auction = None
                self._pay(auction.bidder, auction.high)
                self._hand_over(auction.pid, auction.bidder, "build")
                return
            seat = order[(order.index(seat) + 1) % len(order)]
            if seat == auction.bidder or seat in passed:
                continue
            if self.pools[seat] <= auction.high:
                passed.add(seat)  # cannot raise: an automatic pass, not a move (rule 7.4)
                continue
            self.auction = Auction(auction.pid, auction.high, auction.bidder, tuple(sorted(passed)), seat)
            self.phase = "AUCTION"
            return

    def _offer_push(self) -> None:
        """The holder decides, unless they cannot pay the fee: then they must accept (rule 7.8)."""
        chain = self.push
        assert chain is not None
        if self.pools[chain.holder] < chain.fee:
            self._hand_over(chain.pid, chain.holder, "push")
        else:
            self.phase = "PUSH"

    def _hand_over(self, pid: str, placer: int, how: str) -> None:
        self.auction = None
        self.push = None
        self.placing = Placing(pid, placer, how)
        self.phase = "PLACE"

    # --- resolutions ------------------------------------------------------------------
    def canonical_space(self) -> Any:
        """The canonical space: loaded from the stored pickle (warm) or built from the record (cold)."""
        if self.blob is not None:
            return physics.load_space(self.blob)
        specs = [physics.BodySpec(p.pid, p.owner, p.foundation, p.xq * 1e-4, p.yq * 1e-4, p.aq * 1e-6)
                 for p in sorted(self.table, key=lambda piece: piece.order)]
        return physics.build_space(self.rules.layout, specs)

    def _resolve_release(self, xq: int, thetaq: int, hq: int, exq: int, ethetaq: int,
                         trial: tuple[tuple[int, str, str], tuple[Any, ...]] | None, text: str) -> None:
        if trial is not None and trial[0] == (self.ply, text, self.state_hash()):
            # already simulated when the recorded hash was checked: take on the trial's fields
            self._restore(trial[1])
            return
        placing = self.placing
        assert placing is not None
        space = self.canonical_space()
        angle = math.radians(ethetaq / 10)
        y0 = physics.first_contact_height(space, placing.pid[:2], exq / 100, angle)
        if y0 is None:  # pragma: no cover - legality keeps releases above the table
            raise IllegalMoveError(f"x {exq / 100:.2f}: nothing below to land on")
        y_release = release_height(y0, hq)
        foundation = not any(p.owner == placing.placer for p in self.table)
        spec = physics.BodySpec(placing.pid, placing.placer, foundation, exq / 100, y_release, angle)
        owners = {p.pid: p.owner for p in self.table}
        owners[placing.pid] = placing.placer
        outcome = physics.resolve(space, owners, self.standing, spec, rule=self.rules.settle)
        flags = {p.pid: p for p in self.table}
        flags[placing.pid] = PieceOnTable(placing.pid, placing.placer, foundation, self.placement_index, 0, 0, 0)
        self.last = {
            "index": self.placement_index, "placer": placing.placer, "pid": placing.pid,
            "intended": [xq, thetaq, hq], "executed": [exq, ethetaq], "release_y": round(y_release * 1e4),
            "collapses": [[step, p] for step, p in outcome.collapses], "timed_out": int(outcome.timed_out),
            "steps": outcome.steps, "resigned": None,
        }
        self.pending = None
        self.placing = None
        self._add_report(outcome, owners)
        self._finish_resolution(outcome, flags, {p: step for step, p in outcome.collapses}, placing)
        self.placement_index += 1
        self.resolutions = (*self.resolutions, (self.ply, self.state_hash()[:16]))

    def _resign(self, player: int) -> None:
        """H-22 / B-14 item 17: the player is out now; an interrupted auction or push returns
        its piece to the supply (fees stay in the bank); then the table re-settles."""
        in_hand = [x.pid for x in (self.auction, self.push, self.placing) if x is not None]
        self.auction = self.push = self.placing = None
        self.supply = tuple(sorted((*self.supply, *in_hand)))
        flags = {p.pid: p for p in self.table}
        if any(p.owner == player for p in self.table):
            owners = {p.pid: p.owner for p in self.table}
            outcome = physics.resolve(self.canonical_space(), owners, self.standing, None, frozenset({player}),
                                      rule=self.rules.settle)
        else:
            outcome = physics.Resolution(poses=[(p.pid, p.xq, p.yq, p.aq) for p in self.table], blob=self.blob or b"")
        self.last = {
            "index": self.placement_index, "placer": None, "pid": None, "intended": None, "executed": None,
            "release_y": None, "collapses": [[step, p] for step, p in outcome.collapses],
            "timed_out": int(outcome.timed_out), "steps": outcome.steps, "resigned": player,
        }
        self._add_report(outcome, {p.pid: p.owner for p in self.table})
        eliminated = {p: step for step, p in outcome.collapses}
        eliminated[player] = -1  # earlier than any collapse in this resolution
        self._finish_resolution(outcome, flags, eliminated, None)

    def _add_report(self, outcome: physics.Resolution, owners: dict[str, int]) -> None:
        """Keep what this resolution did for people (before the table record is replaced)."""
        assert self.last is not None
        placer = self.last["placer"]
        zone = None if placer is None else self.rules.layout.zone(placer)
        report = resolution_report(self.table, outcome.poses, outcome.fallen, owners, self.last, self.rules.tremor, zone)
        self.reports = (*self.reports[-(KEPT - 1):], report)

    def _finish_resolution(self, outcome: physics.Resolution, flags: dict[str, PieceOnTable],
                           eliminated: dict[int, int], placing: Placing | None) -> None:
        """Remove eliminated players (pieces to the supply, tokens to the bank), run the end
        checks (rule 8), then continue the turn (rule 7.10)."""
        before = self.standing_players()
        self.blob = outcome.blob or None
        self.timeouts += int(outcome.timed_out)
        table = []
        for pid, xq, yq, aq in outcome.poses:
            f = flags[pid]
            table.append(PieceOnTable(pid, f.owner, f.foundation, f.order, xq, yq, aq))
        self.table = tuple(table)
        on_table = {p.pid for p in table}
        returned = [pid for pid, f in flags.items() if pid not in on_table]
        self.supply = tuple(sorted((*self.supply, *returned)))
        standing, pools, out_at = list(self.standing), list(self.pools), list(self.out_at)
        for player, step in eliminated.items():
            standing[player] = False
            out_at[player] = (self.placement_index, max(step, 0))
            self.bank += pools[player]
            pools[player] = 0
        self.standing, self.pools, self.out_at = tuple(standing), tuple(pools), tuple(out_at)
        remaining = [p for p in before if p not in eliminated]
        if len(remaining) == 1:
            self._finish((remaining[0],), "last tower standing (rule 8.1)")
        elif not remaining:
            latest = max(eliminated[p] for p in before)
            last_out = tuple(sorted(p for p in before if eliminated[p] == latest))
            reason = "last to be standing: collapsed last (rule 8.2)" if len(last_out) == 1 \
                else "collapsed last at the same step (rule 8.2)"
            self._finish(last_out, reason)
        elif not self.supply:
            self._finish(tuple(remaining), "every piece placed with two or more towers standing (rule 8.3)")
        else:
            self._continue_turn(placing)

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.outcome = (winners, reason)
        self.phase = "OVER"
        self.auction = self.push = self.placing = None
        self.pending = None

    def _continue_turn(self, placing: Placing | None) -> None:
        """An outbid turn player still standing chooses again (H-14, H-18), and so does one
        whose choice a resignation interrupted (``placing`` None); otherwise the turn passes
        to the next standing seat after the turn player (H-16)."""
        turn_player = self.turn_player
        if (placing is not None and placing.how == "build" and placing.placer != turn_player
                and self.standing[turn_player]) or (placing is None and self.standing[turn_player]):
            self.phase = "CHOOSE"
            return
        self.turn_player = self.next_standing(turn_player)
        self.turn_no += 1
        self.phase = "CHOOSE"

    # === notation and position ======================================================
    def _parse_move(self, text: str) -> Move:
        """The notation (rule 10.1); while a piece is to be placed, a line that starts with a
        number is a release without its word, so ``31.5 90`` reads as ``rel 31.5 90`` (10.2)."""
        if _NUMBER_FIRST.match(text):
            if self.phase != "PLACE":
                raise NotationError(f"{text!r}: a number alone is a release (rel x θ h), and nothing is to be "
                                    f"placed now: it is {PHASE_WORDS[self.phase]}; a raise is 'raise N' (rule 10.2)")
            return parse_move_text("rel " + text)
        return parse_move_text(text)

    def _move_text(self, move: Move, viewer: int | None) -> str:
        """The notation, with what people need to read it: the piece's kind for a Build or
        Push, and for the tremor the executed release it makes (rule 4.5)."""
        return move_text(self, move, viewer)

    def _preview(self, move: Move) -> HonorState:
        """A release previews the piece at its release pose, at the true drop height, without
        simulating what follows (B-4: aiming, not an outcome); with the option ``preview``
        set to ``outcome``, the table after the release settles without tremor. Other moves
        preview as played."""
        if not isinstance(move, Release) or self.phase != "PLACE":
            return super()._preview(move)  # type: ignore[return-value]
        clone = self.copy()
        if self.rules.preview == "outcome":
            clone.apply(move)
            if clone.phase == "TREMOR":
                clone.apply(Tremor(0, 0))
            return clone
        clone.aim = (move.xq, move.thetaq, move.hq)
        return clone

    def position(self) -> str:
        """The canonical record as one line of canonical JSON (rules 11.1, 11.2)."""
        return format_position(self)

    def state_hash(self) -> str:
        """SHA-256 (hex) of the canonical record (rule 11.2)."""
        return state_hash(canonical_record(self))

    def history_notation(self) -> list[str]:
        """The history as records store it: each resolving move followed by ``#`` and the first
        16 hex digits of the state hash after it (rules 10.3, 11.4), so a replay verifies
        every resolution."""
        history = self.history
        first_ply = self.ply - len(history)
        hashes = dict(self.resolutions)
        notation = []
        for index, move in enumerate(history):
            expected = hashes.get(first_ply + index)
            notation.append(str(move) if expected is None else f"{move} #{expected}")
        return notation

    # === views (view.py) =============================================================
    def _view(self, viewer: int | None) -> dict[str, Any]:
        return state_view(self, viewer)

    def secrets(self, player: int | None) -> set[str]:
        return state_secrets(self, player)

    def _resample(self, player: int, rng: random.Random) -> HonorState:
        return resample_state(self, player, rng)

    def evaluate(self) -> list[float]:
        return evaluate(self)


__all__ = ["HonorState"]
