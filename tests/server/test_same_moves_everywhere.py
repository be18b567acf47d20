"""One loop, in Match: the same match seed gives the same computer moves whichever driver
thinks them (the lab inline, the terminal in a thread a keypress can interrupt, the server in
its pool), because the seed of every decision and the seat's resampled state come from the
match (``Match.pending``), never from the driver."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

import boardlab
from boardlab.agents import seat_agents
from boardlab.cli.play import PlaySession
from boardlab.core.decisions import decision_seed
from boardlab.lab.play import SimulationPlan, game_seed, play_one
from boardlab.server.levels import level_spec
from tests.server.harness import make_harness


def lab_moves(plan: SimulationPlan) -> list[str]:
    return play_one(plan, 0).record.moves


def terminal_moves(game: boardlab.Game, specs: list[str], seed: int) -> list[str]:
    """All-computer play in the terminal, each search in the thread that Enter would interrupt
    (a pipe nobody writes to stands in for the keyboard)."""
    keyboard, _keys = os.pipe()
    try:
        match = boardlab.Match(game, seat_agents(game, specs), seed=seed)
        with os.fdopen(keyboard, closefd=False) as source:
            session = PlaySession(match, Console(file=io.StringIO()), lambda prompt: "", move_now_input=source)
            assert session.run() == 0
        return match.record().moves
    finally:
        os.close(keyboard)
        os.close(_keys)


@pytest.mark.parametrize("game_id", ["towers", "territories"])
def test_the_lab_the_terminal_and_the_server_play_the_same_computer_moves(
    game_id: str, database_url: str, tmp_path: Path
) -> None:
    game = boardlab.load(game_id)
    # the beginner level draws its moves from its generator (a softmax over one-ply scores): a
    # driver that seeded it its own way would play other moves within a few decisions
    spec = level_spec(game, "beginner")
    plan = SimulationPlan(game_id, (spec, spec), games=1, seed=17)
    seed = game_seed(plan.seed, 0)
    lab = lab_moves(plan)
    assert len(lab) > 10
    assert terminal_moves(game, [spec, spec], seed) == lab
    with make_harness(database_url, tmp_path, seed_source=lambda: seed) as server:
        room = server.create(game_id, ["computer:beginner", "computer:beginner"])
        server.wait(room.room, None, lambda message: message["status"] == "finished", timeout=120)
        assert [move.text for move in server.stored(room.room).moves] == lab


def test_a_decision_seed_depends_on_the_match_seed_the_seat_and_the_ply() -> None:
    seeds = {decision_seed(match, seat, ply) for match in (1, 2) for seat in (0, 1) for ply in (0, 1)}
    assert len(seeds) == 8
    assert decision_seed(5, 1, 9) == decision_seed(5, 1, 9)
