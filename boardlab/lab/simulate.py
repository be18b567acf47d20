"""Many computer-vs-computer games: seeds, seat rotation, a process pool, records.

``simulate(plan)`` plays ``plan.games`` games and returns one
:class:`~boardlab.lab.stats.GameOutcome` per game, in game order whatever the
number of worker processes: game ``i`` always gets the same seed
(:func:`game_seed`) and seat assignment, so the results do not depend on
``jobs``.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator

from ..agents import agent_seed, make_agent
from ..core.agent import Agent
from ..core.errors import OptionError
from ..core.game import Game
from ..core.match import Match
from ..core.registry import load
from ..core.seeds import derive_seed
from .stats import GameOutcome


@dataclass(frozen=True)
class SimulationPlan:
    """Everything that decides a simulation's games (picklable, sent to workers).

    ``agents`` are spec strings; with fewer agents than seats they repeat
    around the table. ``rotate`` shifts the seating by one each game so every
    agent plays every seat equally often (when ``games`` is a multiple of the
    number of agents).
    """

    game_id: str
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    rotate: bool = False
    records_dir: str | None = None

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


def play_one(plan: SimulationPlan, index: int) -> GameOutcome:
    """Play game ``index`` of ``plan`` (in this process); save its record if asked."""
    game = _plan_game(plan)
    seed = game_seed(plan.seed, index)
    seating = seat_agents(plan, game.num_players, index)
    agents: list[Agent | None] = [
        make_agent(plan.agents[agent], seed=agent_seed(seed, seat), game=game) for seat, agent in enumerate(seating)
    ]
    began = time.perf_counter()
    match = Match(game, agents, seed=seed)
    try:
        result = match.play_out()
    except Exception as exc:
        # name the game so it can be reproduced alone (a rules or agent bug, not bad input)
        raise RuntimeError(f"{game.id} game {index} (seed {seed}, agents {agents!r}) failed: {exc!r}") from exc
    seconds = time.perf_counter() - began
    path: str | None = None
    if plan.records_dir is not None:
        record = match.record(simulation_seed=plan.seed, game_index=index)
        target = Path(plan.records_dir) / f"{game.id}-{index:05d}.json"
        record.save(target)
        path = str(target)
    return GameOutcome(
        index=index,
        seed=seed,
        seat_agents=seating,
        winners=tuple(result.winners),
        returns=tuple(result.returns),
        code=result.code,
        reason=result.reason,
        moves=match.ply,
        decisions=match.decisions,
        seconds=seconds,
        record_path=path,
    )


def simulate(
    plan: SimulationPlan,
    jobs: int = 1,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> list[GameOutcome]:
    """Play every game of ``plan`` with ``jobs`` processes; outcomes in game order.

    ``on_outcome`` is called in this process as each game finishes (in
    completion order), e.g. to advance a progress bar. Bad input raises
    BoardlabError before any game starts. Cost: ``games`` full games, spread
    over ``jobs`` processes.
    """
    plan.validate()
    if jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {jobs}")
    if plan.records_dir is not None:
        Path(plan.records_dir).mkdir(parents=True, exist_ok=True)
    outcomes: list[GameOutcome] = []
    for outcome in _run(plan, jobs):
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    outcomes.sort(key=lambda o: o.index)
    return outcomes


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool; otherwise every
    worker prints its own traceback on top of the parent's clean message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(plan: SimulationPlan, jobs: int) -> Iterator[GameOutcome]:
    indices = range(plan.games)
    if jobs == 1 or plan.games == 1:
        for index in indices:
            yield play_one(plan, index)
        return
    # Callers must not run threads while the pool forks its workers (the CLI's
    # progress bar refreshes by hand for that reason).
    with multiprocessing.get_context().Pool(
        processes=min(jobs, plan.games), initializer=_ignore_interrupts
    ) as pool:
        yield from pool.imap_unordered(partial(play_one, plan), indices, chunksize=1)
