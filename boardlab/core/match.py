"""The match driver: one game being played, by people and computer players.

A :class:`Match` is the only holder of a game's real state. The terminal
(``boardlab play``), the lab (``boardlab simulate``) and the web server all drive
games through it, so the rules of play around the rules of the game live here
once:

* **Seats.** Each seat is a person (``None``) or an :class:`~boardlab.core.agent.Agent`.
* **Computer decisions** (:mod:`.decisions`): :meth:`pending` says what a computer seat is to
  decide (its agent, the seed, ``state.resample(seat, rng)`` and never the real state, the
  deadline); a driver's thinker thinks it where the driver likes (inline, in a thread, in a
  pool) and :meth:`decide` plays the answer or, when the thinker failed, overran or chose an
  illegal move, the match's fallback policy's move. :meth:`play_computer` and
  :meth:`run_computers` (and their async twins) do both with the thinker they are given
  (:mod:`.computer_play`, a base class of the match).
* **Chance** is resolved from the game's seed as soon as it comes up, so a match
  always waits for a seat (or is over) and a seed reproduces a game.
* **The log.** Every move is logged with who made it, when, and how it reads to
  each viewer (:meth:`State.move_text`): a hidden draw reads "drew a card" to the
  others. :meth:`log` gives one viewer's log; nothing else leaves with secrets.
* **Undo** follows a policy (:data:`UNDO_POLICIES`); **resignation** and **draw
  agreement** are match actions; an optional **clock** per decision applies the
  game's :meth:`State.default_move` on a timeout, or the seat loses.
* **The record** (:meth:`record`) is the one save format, and :meth:`from_record`
  resumes a saved match exactly (who made each move included).

Bad input raises :class:`~boardlab.core.errors.BoardlabError` subclasses with
stable codes and changes nothing.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from .agent import Agent
from .computer_play import ComputerPlay
from .decisions import ONE_PLY_FALLBACK, Decision, FallbackPolicy, decision_seed, view_generator
from .errors import (
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    OptionError,
    RecordError,
    RefusedError,
    StaleMoveError,
)
from .game import Game
from .records import Ending, Record, Seat
from .state import State
from .turns import Turn, next_move_number
from .values import CHANCE, TERMINAL, Move, Player, Result, is_seat

#: ``never``: no take-backs. ``own``: a person takes back their own last decision and the
#: computer and chance moves after it, but never another person's move (online play).
#: ``same_screen``: any person takes back the last decision of any person (people sharing a screen).
UNDO_POLICIES = ("never", "own", "same_screen")
#: the log's note on a decision the thinker did not make (it failed, overran or chose an
#: illegal move) and the match played the fallback move instead
FALLBACK_NOTE = "fallback"

Clock = Callable[[], float]
log = logging.getLogger("boardlab.match")


class Match(ComputerPlay):
    """A game in progress between seats, each a person (None) or an agent.

    ``seed`` fixes the game's chance (and the computer players' view sampling);
    ``start`` is an optional position string to start from. ``names`` label the
    seats (default: the agent's spec, or the game's seat name for a person).
    ``undo`` is one of :data:`UNDO_POLICIES`; ``move_seconds`` an optional time
    limit per decision of a person; ``think_seconds`` per seat the wall time its computer
    player may take for a decision (None: no limit); ``clock`` the time source (tests inject one);
    ``fallback`` what a computer seat plays when its thinker gives no good answer.
    """

    def __init__(
        self,
        game: Game,
        agents: Sequence[Agent | None] | None = None,
        *,
        seed: int | None = None,
        start: str | None = None,
        names: Sequence[str] | None = None,
        undo: str = "own",
        move_seconds: float | None = None,
        think_seconds: Sequence[float | None] | None = None,
        clock: Clock = time.monotonic,
        fallback: FallbackPolicy = ONE_PLY_FALLBACK,
    ) -> None:
        n = game.num_players
        agents = list(agents) if agents is not None else [None] * n
        if len(agents) != n:
            raise RefusedError(f"{game.id} with {n} players needs {n} seats, got {len(agents)}", code="bad_seats")
        for agent in agents:
            if agent is not None:
                agent.check_supports(game.id)
        if undo not in UNDO_POLICIES:
            raise OptionError(f"undo policy {undo!r}: expected one of {', '.join(UNDO_POLICIES)}")
        if move_seconds is not None and not (move_seconds > 0 and move_seconds < float("inf")):
            raise RefusedError(f"move_seconds={move_seconds!r}: a time limit is a positive number of seconds")
        if names is not None and len(names) != n:
            raise RefusedError(f"{len(names)} names for {n} seats", code="bad_seats")
        if think_seconds is not None and len(think_seconds) != n:
            raise RefusedError(f"{len(think_seconds)} thinking times for {n} seats", code="bad_seats")
        for seconds in think_seconds or ():
            if seconds is not None and not (seconds > 0 and seconds < float("inf")):
                raise RefusedError(f"think_seconds {seconds!r}: a thinking time is a positive number of seconds")
        self.game = game
        self.agents: list[Agent | None] = agents
        self.fallback = fallback
        #: why the last fallback move was played (the thinker's failure), for a driver to show
        self.last_failure = ""
        self.seats: list[Seat] = [
            Seat(
                names[seat] if names is not None else (game.player_name(seat) if agent is None else agent.spec()),
                "human" if agent is None else agent.spec(),
            )
            for seat, agent in enumerate(agents)
        ]
        self.undo_policy = undo
        self.move_seconds = move_seconds
        self.think_seconds: list[float | None] = list(think_seconds) if think_seconds is not None else [None] * n
        self._clock = clock
        state = game.new_state(seed) if start is None else game.state_from_position(start, seed)
        self._state: State = state
        self.seed: int = state.seed
        self._view_rng = random.Random(f"views/{self.seed}")
        self._log: list[Turn] = []
        #: how many leading turns a store (the server's) holds as they are now (:meth:`unstored`)
        self._stored = 0
        self._ending: Ending | None = None
        self._draw_agreed: set[Player] = set()
        #: seats that resigned while another seat decided, in a game with a resignation move
        self._resigning: set[Player] = set()
        self._began = clock()
        self._decision_began = self._began
        for agent in agents:
            if agent is not None:
                agent.reset()
        self._resolve_chance()

    # --- resuming ---------------------------------------------------------------
    @classmethod
    def from_record(
        cls,
        record: Record,
        agents: Sequence[Agent | None] | None = None,
        **settings: Any,
    ) -> Match:
        """Resume a saved match: every move replayed and checked (who made it included),
        the times kept, the ending (if any) restored. ``agents`` default to people in every
        seat; ``settings`` are the constructor's keywords (``undo``, ``move_seconds``, ``clock``)."""
        game = record.game()
        names = settings.pop("names", None) or ([seat.name for seat in record.seats] or None)
        match = cls(game, agents, seed=record.seed, start=record.start, names=names, **settings)
        try:
            match._replay(record)
        except IllegalMoveError as exc:
            raise RecordError(f"the record cannot be resumed: {exc}") from None
        return match

    # --- reading -------------------------------------------------------------------
    @property
    def ply(self) -> int:
        """Moves played so far (chance outcomes included): a client names it with a move so
        that two moves racing for one position cannot both land."""
        return self._state.ply

    def to_move(self) -> Player:
        """The seat that decides now, or TERMINAL (a match never waits at a chance node)."""
        if self._ending is not None:
            return TERMINAL
        return self._state.current_player()

    def is_over(self) -> bool:
        return self.to_move() == TERMINAL

    def result(self) -> Result | None:
        """How the match ended: the game's result, or the ending's (resignation, agreement, timeout)."""
        if self._ending is not None:
            return self._ending.result(self.game)
        return self._state.result()

    @property
    def ending(self) -> Ending | None:
        return self._ending

    @property
    def draw_offer(self) -> frozenset[Player]:
        """The seats that agreed to the draw on offer (empty: no offer)."""
        return frozenset(self._draw_agreed)

    @property
    def resignations_pending(self) -> frozenset[Player]:
        """Seats that resigned in a game with a resignation move, to be played at their decision."""
        return frozenset(self._resigning)

    def restore_pending(self, draw_offer: Iterable[Player] = (), resignations: Iterable[Player] = ()) -> None:
        """Put back a draw offer and queued resignations that a store kept beside the record
        (a server after a restart), without asking anybody again."""
        draw, resigning = set(draw_offer), set(resignations)
        for seat in draw | resigning:
            self._check_seat(seat)
        self._draw_agreed = draw
        self._resigning = resigning
        self._play_resignations()

    def rename(self, seat: Player, name: str) -> None:
        """Give ``seat`` a new name (an invited person who joined under their own)."""
        self._check_seat(seat)
        self.seats[seat] = Seat(name, self.seats[seat].agent)

    def restart_clock(self) -> None:
        """Start the current decision's time limit now (a room whose last guest just joined, a
        server that restarted: the time before is not the deciding person's)."""
        self._decision_began = self._clock()

    def is_human(self, seat: Player) -> bool:
        return 0 <= seat < len(self.agents) and self.agents[seat] is None

    @property
    def humans(self) -> list[Player]:
        return [seat for seat, agent in enumerate(self.agents) if agent is None]

    def computer_to_move(self) -> bool:
        """Whether a computer seat decides now."""
        seat = self.to_move()
        return seat >= 0 and self.agents[seat] is not None

    def legal_moves(self, seat: Player) -> list[Move]:
        """``seat``'s legal moves now; empty when another seat decides or the match is over."""
        if self.to_move() != seat:
            return []
        return self._state.legal_moves()

    def view(self, viewer: Player | None = None) -> dict[str, Any]:
        """The game's view envelope for ``viewer`` with the match around it: seats, the
        pending draw offer, the clock, and the match's own ending if it has one."""
        view = self._state.view(viewer)
        if self._ending is not None:
            result = self.result()
            assert result is not None
            view.update(to_move=None, chance=False, over=True, result=result.to_json())
        remaining = self.seconds_left()
        view["match"] = {
            "seats": [seat.to_json() for seat in self.seats],
            "ending": None if self._ending is None else self._ending.to_json(),
            "draw_offer": sorted(self._draw_agreed) or None,
            "resigning": sorted(self._resigning) or None,
            "draw_by_agreement": self.game.draw_by_agreement,
            "undo": self.undo_policy,
            "move_seconds": self.move_seconds,
            "seconds_left": None if remaining is None else round(remaining, 3),
        }
        return view

    def log(self) -> list[Turn]:
        """Every move so far; ``entry.text_for(viewer)`` is how it reads to a viewer."""
        return list(self._log)

    def log_json(self, viewer: Player | None = None, since: int = 0) -> list[dict[str, Any]]:
        """The log entries after move ``since`` as JSON for ``viewer``."""
        return [entry.to_json(viewer) for entry in self._log[since:]]

    def unstored(self) -> tuple[int, list[Turn]]:
        """What a store must write to catch up since :meth:`mark_stored`: how many leading turns
        it keeps, and the turns after them (an undo takes turns back, so it may keep fewer
        than it has), with their notation as records store it. Cost: the new turns only (a
        game that annotates its record notation, such as Honor, reads its history once)."""
        kept = min(self._stored, len(self._log))
        fresh = self._log[kept:]
        if type(self._state).history_notation is State.history_notation:
            return kept, fresh  # the record's notation is the move's own
        recorded = self._state.history_notation()[kept:]
        return kept, [turn if turn.notation == text else replace(turn, notation=text) for turn, text in zip(fresh, recorded)]

    def mark_stored(self) -> None:
        """The store holds every turn as it is now (its write of :meth:`unstored` succeeded)."""
        self._stored = len(self._log)

    @property
    def decisions(self) -> int:
        """Moves made by seats (the log also holds chance outcomes)."""
        return sum(1 for entry in self._log if entry.by >= 0)

    def secrets(self, viewer: Player | None) -> set[str]:
        """What ``viewer`` may not be shown now (for no-leak checks by callers)."""
        return self._state.secrets(viewer)

    def record(self, **meta: Any) -> Record:
        """The match as a record (the one save format); ``meta`` is stored with it."""
        return Record.for_state(self._state, self.seats, turns=self._log, ending=self._ending, **meta)

    def elapsed(self) -> float:
        """Seconds since the match started (a resumed match counts on from its record)."""
        return self._clock() - self._began

    # --- acting ------------------------------------------------------------------------
    def play(self, seat: Player, move: Move | str, *, ply: int | None = None, note: str = "") -> Move:
        """``seat`` makes ``move`` (a Move or notation text), then chance is resolved.

        ``ply`` is the ply the client saw: if another move landed first the move is
        refused (:class:`StaleMoveError`). Raises :class:`NotYourTurnError` when another
        seat decides, :class:`GameOverError` after the end, :class:`IllegalMoveError`
        with the rule's reason otherwise. A refused move changes nothing.
        """
        if self.is_over():
            raise GameOverError(f"{_text(move)}: the game is over")
        if ply is not None and ply != self._state.ply:
            why = "another move came first" if ply < self._state.ply else "a move not yet reached"
            raise StaleMoveError(
                f"{_text(move)}: made for move {ply + 1}, but the game is at move {self._state.ply + 1} ({why})"
            )
        to_move = self._state.current_player()
        if seat != to_move:
            if not is_seat(seat, self.game.num_players):
                raise NotYourTurnError(f"{_text(move)}: {seat!r} is not a seat of this game")
            raise NotYourTurnError(
                f"{_text(move)}: it is {self.game.player_name(to_move)}'s decision, "
                f"not {self.game.player_name(seat)}'s"
            )
        if isinstance(move, str):
            move = self._state.parse_move(move)
        elif isinstance(move, Move):
            self._state.check_move(move)
        else:
            raise IllegalMoveError(f"{_text(move)}: not a move")
        self._apply(move, seat, note)
        if self._draw_agreed and seat not in self._draw_agreed:
            self._draw_agreed.clear()  # moving on instead of agreeing declines the offer
        self._resolve_chance()
        self._play_resignations()
        return move

    def preview(self, seat: Player, move: Move | str) -> dict[str, Any]:
        """``seat``'s view after ``move`` (notation or Move), without playing it: what a person
        sees before committing. Worked out on a state resampled for ``seat``, so it shows nothing
        the seat may not know. Errors as :meth:`play`; nothing changes."""
        to_move = self.to_move()
        if to_move != seat:
            if to_move == TERMINAL:
                raise GameOverError(f"{_text(move)}: the game is over")
            raise NotYourTurnError(f"{_text(move)}: only the seat to decide can preview its moves")
        # its own generator: a person's previews never change what the computer players are handed
        hidden = random.Random(f"preview/{self.seed}/{self.ply}")
        return self._state.resample(seat, hidden).preview(move).view(seat)

    def agent_input(self, seat: Player) -> State:
        """What a computer player in ``seat`` is handed: a state resampled for that seat."""
        return self._state.resample(seat, self._view_rng)

    def pending(self) -> Decision | None:
        """The decision a computer seat is to make now, or None (a person decides, or the match
        is over). The seed is :func:`~.decisions.decision_seed` (match seed, seat, ply) and the
        seat's state is resampled from it, so the same match thinks the same way in every
        driver, and again after a restart. Hand the answer to :meth:`decide`."""
        seat = self.to_move()
        if seat < 0:
            return None
        agent = self.agents[seat]
        if agent is None:
            return None
        seed = decision_seed(self.seed, seat, self.ply)
        state = self._state.resample(seat, view_generator(seed))
        return Decision(seat, agent, seed, state, self.ply, self.think_seconds[seat])

    def decide(self, decision: Decision, move: Move | str | None, *, failure: str = "") -> Move:
        """Play the answer to ``decision`` (from :meth:`pending`); returns the move played.

        ``move`` None means the thinker gave no answer (it failed or overran: ``failure`` says
        how, for the log); then, as for an illegal answer, the seat plays
        its :attr:`fallback` policy's move (noted ``fallback`` in the match log, the reason kept
        in :attr:`last_failure`). A thinker in another process hands back what the agent
        learned with :meth:`Agent.carry_over` before answering. :class:`StaleMoveError` when the
        match moved on since the decision was made (an undo, a resignation): nothing is played."""
        if self.to_move() != decision.seat or self.ply != decision.ply or self.agents[decision.seat] is not decision.agent:
            raise StaleMoveError(
                f"the computer's decision for move {decision.ply + 1} came after the match moved on"
            )
        chosen: Move | None = None
        if move is not None:
            try:
                chosen = self._state.parse_move(move) if isinstance(move, str) else self._checked(move)
            except IllegalMoveError as exc:
                failure = f"it chose an illegal move: {exc}"
        if chosen is None:
            # drawn again: a thinker that failed inline may have left its state half searched
            knowledge = self._state.resample(decision.seat, view_generator(decision.seed))
            chosen = self.fallback.move(knowledge)
            self.last_failure = failure or "no answer came back"
            log.warning("%s %s (seat %d, move %d): %s; playing the fallback move %s", self.game.id,
                        decision.spec, decision.seat, decision.ply + 1, failure or "no answer came back", chosen)
            self.play(decision.seat, chosen, note=FALLBACK_NOTE)
        else:
            self.play(decision.seat, chosen)
        return chosen

    def _checked(self, move: Move) -> Move:
        if not isinstance(move, Move):
            raise IllegalMoveError(f"{_text(move)}: not a move")
        self._state.check_move(move)
        return move

    # --- undo, resignation, draws -------------------------------------------------------
    def undo(self, seat: Player) -> list[Move]:
        """Take back moves for the person in ``seat``, as the undo policy allows; returns the
        moves taken back, last first. Chance outcomes are taken back too; played again they
        come out the same (chance is drawn from the seed and the ply)."""
        if self.undo_policy == "never":
            raise RefusedError("take-backs are off in this match", code="undo_refused")
        if not self.is_human(seat):
            raise RefusedError(f"seat {seat!r} is not a person's seat", code="undo_refused")
        if self._ending is not None:
            raise RefusedError(f"the match has ended ({self._ending.code}); nothing can be taken back", code="undo_refused")
        target = self._undo_target(seat)
        taken: list[Move] = []
        while len(self._log) > target:
            self._log.pop()
            taken.append(self._state.undo())
        self._stored = min(self._stored, target)
        self._draw_agreed.clear()
        for agent in self.agents:
            if agent is not None:
                agent.reset()
        self._decision_began = self._clock()
        return taken

    def _undo_target(self, seat: Player) -> int:
        """The log length to go back to: just before the decision to take back."""
        for index in range(len(self._log) - 1, -1, -1):
            by = self._log[index].by
            if by < 0 or self.agents[by] is not None:
                continue
            if by == seat or self.undo_policy == "same_screen":
                return index
            replies = " and the computer's replies to it" if any(agent is not None for agent in self.agents) else ""
            raise RefusedError(
                f"{self.game.player_name(by)} has moved since your last move; only your own move{replies} can be "
                "taken back",
                code="undo_refused",
            )
        raise RefusedError("nothing to take back: no move of yours has been played", code="undo_refused")

    def resign(self, seat: Player) -> None:
        """``seat`` gives up. Where the rules have a resignation move of their own (Honor) it is
        played, at once or at the seat's next decision, and the others go on; otherwise the match
        ends (:meth:`Ending.result`)."""
        self._check_seat(seat)
        if self.is_over():
            raise GameOverError("the game is over: there is nothing to resign")
        if not self.game.resigns_by_move:
            self._end(Ending("resign", seat))
            return
        self._resigning.add(seat)
        self._play_resignations()

    def _play_resignations(self) -> None:
        """Play the rules' resignation of each seat that asked for it, once it decides."""
        while not self.is_over() and self.to_move() in self._resigning:
            seat = self.to_move()
            self._resigning.discard(seat)
            move = self._state.resign_move(seat)
            if move is None:
                self._end(Ending("resign", seat))
                return
            self.play(seat, move)

    def offer_draw(self, seat: Player) -> bool:
        """``seat`` offers (or agrees to) a draw; computer seats answer at once. Returns
        whether the match ended drawn."""
        self._check_seat(seat)
        if not self.game.draw_by_agreement:
            raise RefusedError(f"{self.game.name} has no draw by agreement", code="no_draws")
        if self.is_over():
            raise GameOverError("the game is over: no draw can be agreed")
        self._draw_agreed.add(seat)
        for other, agent in enumerate(self.agents):
            if agent is not None and other not in self._draw_agreed:
                if agent.accepts_draw(self._state.resample(other, self._view_rng), other):
                    self._draw_agreed.add(other)
                else:
                    self._draw_agreed.clear()
                    return False
        if len(self._draw_agreed) == self.game.num_players:
            self._end(Ending("agreement"))
            return True
        return False

    def accept_draw(self, seat: Player) -> bool:
        """``seat`` agrees to the pending draw offer; returns whether the match ended drawn."""
        if not self._draw_agreed:
            raise RefusedError("there is no draw offer to accept", code="no_draw_offer")
        return self.offer_draw(seat)

    def decline_draw(self, seat: Player) -> None:
        """``seat`` declines the pending draw offer."""
        self._check_seat(seat)
        if not self._draw_agreed:
            raise RefusedError("there is no draw offer to decline", code="no_draw_offer")
        self._draw_agreed.clear()

    # --- the clock ----------------------------------------------------------------------
    def seconds_left(self) -> float | None:
        """Time left for the person deciding now, or None without a clock (or for a computer)."""
        if self.move_seconds is None or not self.is_human(self.to_move()):
            return None
        return max(0.0, self._decision_began + self.move_seconds - self._clock())

    def expire(self) -> bool:
        """Apply the clock: when the person deciding now is out of time, play the game's
        default move for them (noted ``timeout``) or, where the rules have none, end the match
        with them losing. Returns whether anything happened. Call it from a timer."""
        left = self.seconds_left()
        if left is None or left > 0:
            return False
        seat = self.to_move()
        move = self._state.default_move()
        if move is None:
            self._end(Ending("timeout", seat))
        else:
            self.play(seat, move, note="timeout")
        return True

    # --- inside ---------------------------------------------------------------------------
    def _check_seat(self, seat: Player) -> None:
        if not is_seat(seat, self.game.num_players):
            raise RefusedError(f"{seat!r} is not a seat of this {self.game.num_players}-player game", code="bad_seats")

    def _end(self, ending: Ending) -> None:
        self._ending = ending
        self._draw_agreed.clear()

    def _apply(self, move: Move, by: Player, note: str, t: float | None = None) -> None:
        state = self._state
        texts: tuple[str, ...] | None = None
        if self.game.has_hidden_information:
            texts = tuple(state.move_text(move, viewer) for viewer in (None, *range(self.game.num_players)))
        notation = str(move)
        state.apply(move)
        stamp = self.elapsed() if t is None else t
        number = next_move_number(self._log, by)
        self._log.append(Turn(state.ply, by, stamp, texts, notation, note, move.json_type(), move, number))
        self._decision_began = self._clock()

    def _resolve_chance(self) -> None:
        state = self._state
        while state.current_player() == CHANCE:
            self._apply(state.sample_chance(), CHANCE, "")

    def extend(self, turns: Sequence[Turn], ending: Ending | None = None) -> None:
        """Play ``turns``, moves made elsewhere after this match's last one (another process
        of a server stored them), each checked as :meth:`from_record` checks a record's, with
        their times; then ``ending``, if the match ended there. Cost: the new moves only, where
        resuming the whole record again replays every move. On an IllegalMoveError the match
        holds the moves before the bad one: resume the record instead."""
        if self._ending is not None:
            raise IllegalMoveError(f"the match is over ({self._ending.code}): no move can follow")
        state = self._state
        for turn in turns:
            by = state.current_player()
            if turn.by != by:
                raise IllegalMoveError(f"move {turn.number} ({turn.notation!r}) was not made by the seat to move")
            self._apply(state.parse_move(turn.notation), by, turn.note, turn.t)
        self._began = self._clock() - (self._log[-1].t if self._log else 0.0)
        self._decision_began = self._clock()
        if ending is not None:
            self._end(ending)
        else:
            self._resolve_chance()

    def _replay(self, record: Record) -> None:
        """Play ``record``'s moves as they were made (each one checked), keeping their times."""
        state = self._state
        self._log.clear()
        self._stored = 0
        # the constructor resolved opening chance already; start again from the record's start
        while state.last_move is not None:
            state.undo()
        self.extend(record.turns, record.ending)


def _text(move: Any) -> str:
    text = str(move) if isinstance(move, (str, Move)) else repr(move)
    return text if len(text) <= 60 else text[:59] + "…"


__all__ = ["FALLBACK_NOTE", "UNDO_POLICIES", "Match", "Turn"]
