"""One game of a simulation: its seed, its seating, the match, and what the lab measures.

:func:`play_one` is the unit of work every executor runs (in this process, in a
worker process, on a Ray node): game ``i`` of a plan always gets the same seed
(:func:`game_seed`) and the same seating (:func:`seat_agents`), so its outcome
does not depend on where or in which order it is played.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agents import make_agent
from ..core.agent import Agent
from ..core.collector import fewer_collections
from ..core.errors import BoardlabError, OptionError, RecordError
from ..core.game import Game
from ..core.match import FALLBACK_NOTE, Match
from ..core.records import Record
from ..core.registry import load
from ..core.seeds import derive_seed
from ..core.turns import Turn
from ..core.values import CHANCE, Result
from .stats import GameOutcome, moves_digest
from .trace import GameTrace, GameTracer, PlyTick, decisiveness, lead_changes

#: a decision that lasted this share of its time cap or more ended on the clock (a search checks
#: its deadline every few iterations, so it stops a little after it, never well before)
CAP_REACHED = 0.95


@dataclass(frozen=True)
class SimulationPlan:
    """Everything that decides a simulation's games (picklable, sent to workers).

    ``agents`` are spec strings; with fewer agents than seats they repeat
    around the table. ``rotate`` shifts the seating by one each game so every
    agent plays every seat equally often (when ``games`` is a multiple of the
    number of agents). ``variant`` names the plan within a study and
    ``study_id`` is written into each record's ``meta``. ``records_dir`` is
    where :func:`~boardlab.lab.simulate.simulate` keeps the study's files.
    """

    game_id: str
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    rotate: bool = False
    records_dir: str | None = None
    variant: str = ""
    study_id: str = ""
    #: measure each agent's CPU time per decision (``PlayedGame.decision_cpu``): the level
    #: ladder (bench/levels.py) reports it; off by default as nothing else reads it
    time_decisions: bool = False
    #: the most wall time one decision may take (told to every search; None: its own budget)
    decision_seconds: float | None = None

    def build_game(self) -> Game:
        return load(self.game_id, players=self.players, **self.options)

    def validate(self) -> Game:
        """Build the game and every agent once; raise BoardlabError on bad input."""
        game = self.build_game()
        if self.games < 1:
            raise OptionError(f"the number of games must be at least 1, not {self.games}")
        if not 1 <= len(self.agents) <= game.num_players:
            raise OptionError(
                f"{game.id} with {game.num_players} players takes 1 to {game.num_players} "
                f"agents, got {len(self.agents)}: {','.join(self.agents)}"
            )
        for spec in self.agents:
            make_agent(spec, seed=0, game=game)
        return game


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as a worker hands it back: the figures and the record to store."""

    outcome: GameOutcome
    record: Record
    #: per seat, the CPU seconds of each of its decisions (empty unless the plan's ``time_decisions``)
    decision_cpu: tuple[tuple[float, ...], ...] = ()
    #: per seat, how many of its decisions its own time cap (:meth:`~boardlab.core.agent.Agent.own_time_cap`:
    #: the spec's ``seconds``, or a level's cap the spec leaves unsaid) cut short: on a
    #: busy machine a budget of iterations ends on the clock instead, and the game measures the
    #: machine rather than the budget (empty unless ``time_decisions``)
    decisions_cut: tuple[int, ...] = ()


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index``: a hash of (base seed, index), stable across runs and machines."""
    return derive_seed(base_seed, index)


def seat_agents(plan: SimulationPlan, num_players: int, index: int) -> tuple[int, ...]:
    """Which agent (index into ``plan.agents``) sits in each seat of game ``index``."""
    shift = index if plan.rotate else 0
    count = len(plan.agents)
    return tuple((seat + shift) % count for seat in range(num_players))


_GAME_CACHE: dict[tuple[str, int | None, str], Game] = {}


def _plan_game(plan: SimulationPlan) -> Game:
    """The plan's game, built once per process (games are immutable)."""
    key = (plan.game_id, plan.players, repr(sorted(plan.options.items())))
    game = _GAME_CACHE.get(key)
    if game is None:
        game = _GAME_CACHE[key] = plan.build_game()
    return game


def play_one(plan: SimulationPlan, index: int, on_ply: PlyTick | None = None) -> PlayedGame:
    """Play game ``index`` of ``plan`` in this process, traced; ``on_ply`` gets progress ticks."""
    game = _plan_game(plan)
    seed = game_seed(plan.seed, index)
    seating = seat_agents(plan, game.num_players, index)
    # no seed of their own: the match seeds every decision from the game's seed (Match.pending)
    agents: list[Agent | None] = [make_agent(plan.agents[agent], game=game) for agent in seating]
    spent: list[list[float]] = [[] for _ in agents]
    cut = [0 for _ in agents]
    if plan.time_decisions:
        for seat, (agent, decision_seconds) in enumerate(zip(agents, spent)):
            if agent is not None:
                _time_choices(agent, decision_seconds, cut, seat)
    began = time.perf_counter()
    thinking = None if plan.decision_seconds is None else [plan.decision_seconds] * game.num_players
    match = Match(game, agents, seed=seed, think_seconds=thinking)
    tracer = GameTracer(on_ply)
    try:
        with fewer_collections():
            result = match.play_out(before_decision=tracer.observe)
    except Exception as exc:
        # name the game so it can be reproduced alone (a rules or agent bug, not bad input)
        raise RuntimeError(f"{game.id} game {index} (seed {seed}, agents {agents!r}) failed: {exc!r}") from exc
    seconds = time.perf_counter() - began
    meta: dict[str, Any] = {"simulation_seed": plan.seed, "game_index": index}
    if plan.study_id:
        meta.update(study=plan.study_id, variant=plan.variant)
    record = match.record(**meta)
    # the record's turns: a game may annotate its notation there, and the moves' digest is the record's
    outcome = game_outcome(index, seed, seating, result, tracer.trace(result.returns), record.turns, seconds, plan.variant)
    cpu = tuple(tuple(seconds) for seconds in spent) if plan.time_decisions else ()
    return PlayedGame(outcome, record, cpu, tuple(cut) if plan.time_decisions else ())


def game_outcome(
    index: int,
    seed: int,
    seating: tuple[int, ...],
    result: Result,
    trace: GameTrace,
    turns: Sequence[Turn],
    seconds: float,
    variant: str = "",
) -> GameOutcome:
    """What the lab measures of one finished game, from its result, its trace and its turns:
    the one way a :class:`GameOutcome` is made, for a game the lab plays (:func:`play_one`)
    and for a game people played, traced again from its record (:func:`record_outcome`)."""
    threshold: float | None = None
    decided_at: float | None = None
    if trace.evaluations is not None and len(result.winners) == 1:
        threshold, decided_at = decisiveness(trace.evaluations, result.winners[0])
    return GameOutcome(
        index=index,
        seed=seed,
        seat_agents=seating,
        winners=tuple(result.winners),
        returns=tuple(result.returns),
        code=result.code,
        reason=result.reason,
        moves=len(turns),
        decisions=sum(1 for turn in turns if turn.by != CHANCE),
        seconds=seconds,
        variant=variant,
        first_mover=trace.first_mover,
        branching=trace.branching,
        repeated=trace.repeated,
        lead_changes=None if trace.evaluations is None else lead_changes(trace.evaluations),
        decisiveness_threshold=threshold,
        decided_at=decided_at,
        fallback_moves=sum(1 for turn in turns if turn.note == FALLBACK_NOTE),
        moves_digest=moves_digest(turn.notation for turn in turns),
    )


def record_outcome(record: Record, index: int = 0, variant: str = "", seating: tuple[int, ...] | None = None) -> GameOutcome:
    """What the lab measures of a finished game from its record alone (a game people played):
    the record replayed move by move, the tracer shown the state before every decision as
    :func:`play_one` shows it, so a record of a lab game gives back the outcome the lab stored
    (but ``seconds``, here the game's length in time: its last move's time). RecordError for a
    record that does not replay, or of an unfinished game. ``seating`` defaults to one "agent"
    (0) in every seat: people."""
    state = record.initial_state()
    tracer = GameTracer()
    for number, turn in enumerate(record.turns, 1):
        deciding = state.current_player()
        if turn.by != deciding:
            raise RecordError(f"move {number} ({turn.notation!r}) is marked as seat {turn.by}'s, but {deciding} was to move")
        if deciding >= 0:
            tracer.observe(state)
        try:
            state.play(turn.notation)
        except BoardlabError as exc:
            raise RecordError(f"move {number} ({turn.notation!r}) is not legal: {exc}") from None
    result = state.result() if record.ending is None else record.ending.result(state.game)
    if result is None:
        raise RecordError(f"the game of {len(record.turns)} moves is not over: only finished games are measured")
    seats = seating if seating is not None else (0,) * record.players
    seconds = record.turns[-1].t if record.turns else 0.0
    return game_outcome(index, record.seed, seats, result, tracer.trace(result.returns), record.turns, seconds, variant)


def _time_choices(agent: Agent, spent: list[float], cut: list[int], seat: int) -> None:
    """Make ``agent`` append the CPU seconds of each ``choose`` to ``spent``, and count in
    ``cut[seat]`` the decisions that ran into its own time cap (:meth:`Agent.own_time_cap`).

    CPU time, not wall time, so a figure measured in a busy pool of workers still says what
    a decision costs on an idle core; the match's resampling of the state is left out, as
    that is the driver's work, not the agent's. The cap is a wall time: a decision that
    lasted it (to within :data:`CAP_REACHED`) ended on the clock, not on its budget."""
    choose = agent.choose
    cap = agent.own_time_cap()

    def timed(state: Any) -> Any:
        began, clock = time.process_time(), time.perf_counter()
        move = choose(state)
        spent.append(time.process_time() - began)
        if cap and time.perf_counter() - clock >= CAP_REACHED * cap:
            cut[seat] += 1
        return move

    agent.choose = timed  # type: ignore[method-assign]
