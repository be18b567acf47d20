"""The tracer: what it samples is what the protocol says at each decision, and watching changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

import boardlab
from boardlab.agents import agent_seed, make_agent
from boardlab.lab.play import SimulationPlan, game_seed, play_one
from boardlab.lab.trace import decisiveness, lead_changes

PLAN = SimulationPlan("towers", agents=("greedy", "mcts:iterations=30"), games=2, seed=4, rotate=True)


def test_tracing_does_not_change_the_game() -> None:
    played = play_one(PLAN, 1)
    game = PLAN.build_game()
    seed = game_seed(PLAN.seed, 1)
    agents = [make_agent(PLAN.agents[agent], seed=agent_seed(seed, seat), game=game) for seat, agent in enumerate((1, 0))]
    untraced = boardlab.Match(game, agents, seed=seed)
    untraced.play_out()
    assert untraced.record().moves == played.record.moves


def test_samples_match_a_replay_of_the_record() -> None:
    played = play_one(PLAN, 0)
    outcome, record = played.outcome, played.record
    state = record.initial_state()
    branching, evaluations = [], []
    for text in record.moves:
        if state.current_player() >= 0:
            branching.append(len(state.legal_moves()))
            evaluations.append(tuple(state.evaluate()))
        state.play(text)
    evaluations.append(tuple(state.returns()))
    assert outcome.branching == tuple(branching)
    keys = [replay.position_key() for replay in [record.state_at(n) for n in range(len(record.moves))]
            if replay.current_player() >= 0]
    assert outcome.repeated == len(keys) - len(set(keys))
    assert outcome.decisions == len(branching) and outcome.first_mover == 0
    assert outcome.lead_changes == lead_changes(evaluations)
    winner = outcome.winners[0]
    assert (outcome.decisiveness_threshold, outcome.decided_at) == decisiveness(evaluations, winner)


def test_a_game_without_evaluation_has_no_lead_figures() -> None:
    outcome = play_one(SimulationPlan("dicenim", agents=("random",), games=1), 0).outcome
    assert outcome.lead_changes is None and outcome.decided_at is None
    assert outcome.branching and all(1 <= count <= 3 for count in outcome.branching)  # take 1, 2 or 3


def test_a_decision_the_agent_failed_is_counted_as_a_fallback_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent that fails (here on every third call) does not stop the study: the match plays
    the fallback move (core/match.py) and the outcome counts it, so the report can say so."""
    import boardlab.lab.play as lab_play

    def flaky_agent(spec: str, **kwargs: Any) -> Any:
        agent = make_agent(spec, **kwargs)
        choose, calls = agent.choose, []

        def sometimes_fails(state: Any) -> Any:
            calls.append(1)
            if len(calls) % 3 == 0:
                raise RuntimeError("the search ran out of memory")
            return choose(state)

        agent.choose = sometimes_fails
        return agent

    monkeypatch.setattr(lab_play, "make_agent", flaky_agent)
    played = play_one(SimulationPlan("towers", agents=("greedy",), games=1, seed=2), 0)
    assert played.outcome.fallback_moves == played.outcome.decisions // 3 > 0
    assert played.record.notes.count("fallback") == played.outcome.fallback_moves  # the record says which
