"""A finished game's analysis worked out a slice at a time: each slice is one job in the
computer's pool that judges the next positions of the game for about :data:`SLICE_SECONDS`.

Why slices: an analysis takes up to minutes of a worker, on the workers that analyses share with
rooms of computers only (people's decisions keep one for themselves: :mod:`.computer`). Run
whole, one address's long analysis held that worker to its end, and another address's analysis
waited behind it for all that time, however fairly the queue was ordered. Cut into slices, each
charged to the address that asked, the pool's turns between owners interleave the analyses of
different addresses slice by slice, and a person's search on a one-worker server waits for one
slice at most.

Each position is judged on its own (its search is seeded by its ply), so the slices' judgements
together are those :func:`boardlab.agents.analysis.analyse` makes in one go, and the last slice
puts them together with its own :func:`~boardlab.agents.analysis.assemble`: the server's numbers
are ``boardlab analyse``'s for the downloaded record, however the work was cut.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import Any

from ..agents.analysis import (
    PositionJudgement,
    analysis_spec,
    assemble,
    default_iterations,
    judge_position,
)
from ..core.fitted import FITTED, judging_by
from ..core.records import Record
from ..core.state import State

#: how long one slice judges positions before its worker goes to the next owner's job (one
#: position at least): short enough that another address's analysis starts within about a
#: second, long enough that handing the work over costs nothing to speak of
SLICE_SECONDS = 0.5


@dataclasses.dataclass(frozen=True)
class AnalysisWork:
    """An analysis as far as it got: the game's ``record``, the positions judged so far (the
    start first), the worker seconds they took; a slice goes on from there."""

    record: Record
    judged: tuple[PositionJudgement, ...] = ()
    seconds: float = 0.0
    slice_seconds: float = SLICE_SECONDS

    @property
    def positions(self) -> int:
        """The positions of the game: the start, then one after each move."""
        return len(self.record.moves) + 1


@dataclasses.dataclass(frozen=True)
class AnalysisStep:
    """What one slice sends back: the work carried on, and the analysis (as JSON) once the
    last position is judged."""

    work: AnalysisWork
    finished: dict[str, Any] | None = None


def analyse_slice(work: AnalysisWork) -> AnalysisStep:
    """Run in a worker of the pool: judge the next positions of ``work`` for about its
    ``slice_seconds`` (one at least); after the last, the whole analysis, at the game's default
    budget and seed."""
    began = time.perf_counter()
    record = work.record
    game = record.game()
    continuous = game.continuous_moves
    spec = analysis_spec(game)
    judged = list(work.judged)
    texts = record.moves
    with judging_by(FITTED) as judge:
        evaluation = "fitted" if judge.for_game(game) is not None else "hand"
        for index, state in enumerate(_replayed(record)):
            if index < len(judged):
                continue  # judged by an earlier slice: replaying to here costs next to nothing
            if index > len(work.judged) and time.perf_counter() - began >= work.slice_seconds:
                break
            played = texts[index] if index < len(texts) else None
            judged.append(judge_position(state.copy(), played, spec, 0, continuous))
    carried = dataclasses.replace(work, judged=tuple(judged), seconds=work.seconds + time.perf_counter() - began)
    if len(judged) < work.positions:
        return AnalysisStep(carried)
    states = [record.initial_state()]
    states.extend(state.copy() for _number, _text, state in record.states())
    ending = None if record.ending is None else record.ending.result(states[-1].game)
    analysis = assemble(states, record.moves, judged, spec=spec, evaluation=evaluation, seed=0, ending=ending,
                        iterations=None if continuous else default_iterations(game))
    analysis.seconds = work.seconds + time.perf_counter() - began
    return AnalysisStep(dataclasses.replace(carried, seconds=analysis.seconds), analysis.to_json())


def _replayed(record: Record) -> Iterator[State]:
    """The record's states, the start first (the same object each time after the start: copy
    one to keep it)."""
    yield record.initial_state()
    for _number, _text, state in record.states():
        yield state


__all__ = ["SLICE_SECONDS", "AnalysisStep", "AnalysisWork", "analyse_slice"]
