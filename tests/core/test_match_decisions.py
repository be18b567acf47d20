"""One loop, in Match: what a computer seat is to decide (``pending``), how the answer is
taken (``decide``), the one seeding rule and the one failure policy (the fallback move).

Runs on Towers (no default move: the fallback is the one-ply best move) and on the test
game dicenim (chance and hidden secrets; tests/support/dicenim.py)."""

from __future__ import annotations

import pytest

import boardlab
from boardlab import Match, RefusedError, StaleMoveError
from boardlab.agents import make_agent, seat_agents
from boardlab.core.agent import Agent
from boardlab.core.decisions import decision_seed, fallback_move, think
from boardlab.core.state import State
from boardlab.core.values import Move


class Broken(Agent):
    """An agent with a bug: it raises on every decision."""

    name = "broken-test-agent"

    def choose(self, state: State) -> Move:
        raise RuntimeError("a bug in the agent")


class Counting(Agent):
    """Remembers how many decisions it made (memory kept between moves) and plays randomly."""

    name = "counting-test-agent"

    def _configure(self) -> None:
        self.decisions = 0

    def choose(self, state: State) -> Move:
        self.decisions += 1
        return self.rng.choice(state.legal_moves())


def towers_match(agents: list[Agent | None], seed: int = 4, **settings: object) -> Match:
    return Match(boardlab.load("towers"), agents, seed=seed, **settings)  # type: ignore[arg-type]


def test_a_pending_decision_names_the_seat_its_agent_seed_view_and_deadline() -> None:
    agent = make_agent("random")
    match = towers_match([None, agent], think_seconds=[None, 2.5])
    assert match.pending() is None, "a person decides first"
    match.play(0, match.legal_moves(0)[0])
    decision = match.pending()
    assert decision is not None
    assert (decision.seat, decision.agent, decision.ply, decision.deadline) == (1, agent, 1, 2.5)
    assert decision.seed == decision_seed(match.seed, 1, 1)
    assert decision.state is not match.agent_input(1) and str(decision.state.legal_moves()) == str(match.legal_moves(1))


def test_the_decision_seed_not_the_agents_own_seed_decides_the_moves() -> None:
    def moves(agent_seeds: tuple[int, int]) -> list[str]:
        agents = [make_agent("greedy:temperature=0.3", seed=s) for s in agent_seeds]
        match = towers_match(agents, seed=9)  # type: ignore[arg-type]
        for _ in range(12):
            match.play_computer()
        return match.record().moves

    assert moves((1, 2)) == moves((77, 5))
    other = [make_agent("greedy:temperature=0.3"), make_agent("greedy:temperature=0.3")]
    changed = towers_match(other, seed=10)  # type: ignore[arg-type]
    for _ in range(12):
        changed.play_computer()
    assert changed.record().moves != moves((1, 2)), "another match seed thinks otherwise"


def test_a_failing_agent_loses_its_decision_to_the_fallback_move_never_the_match() -> None:
    match = towers_match([Broken(), None])
    decision = match.pending()
    assert decision is not None
    expected = fallback_move(decision.state, decision.seed)
    played = match.play_computer()
    assert str(played) == str(expected)
    turn = match.log()[-1]
    assert turn.note == "fallback" and turn.by == 0
    # Towers has no default move: the fallback is the one-ply best move, the same for any seed
    # that breaks no tie differently, and always one of greedy's best moves
    best = {str(make_agent("greedy", seed=s).choose(decision.state)) for s in range(12)}
    assert str(played) in best


def test_an_illegal_or_missing_answer_plays_the_fallback_move() -> None:
    match = towers_match([make_agent("random"), None])
    decision = match.pending()
    assert decision is not None
    match.decide(decision, "not a move at all")
    assert match.log()[-1].note == "fallback" and match.to_move() == 1

    again = towers_match([make_agent("random"), None])
    decision = again.pending()
    assert decision is not None
    again.decide(decision, None, failure="no answer in 20 s")
    assert again.log()[-1].note == "fallback" and again.log()[-1].notation == match.log()[-1].notation


def test_an_answer_to_a_decision_the_match_moved_past_is_refused() -> None:
    match = towers_match([None, make_agent("random")], undo="own")
    match.play(0, match.legal_moves(0)[0])
    decision = match.pending()
    assert decision is not None
    answer = think(decision)
    match.undo(0)
    with pytest.raises(StaleMoveError):
        match.decide(decision, answer)
    assert match.ply == 0 and match.to_move() == 0


def test_an_agents_memory_survives_between_moves_and_a_thinkers_copy_takes_its_place() -> None:
    counting = Counting()
    match = towers_match([counting, Counting()])
    match.play_computer()
    match.play_computer()
    match.play_computer()
    assert counting.decisions == 2
    # a thinker in another process hands back its own copy of the agent, memory included
    decision = match.pending()
    assert decision is not None and decision.agent is match.agents[1]
    returned = Counting()
    returned.decisions = 41
    match.decide(decision, think(decision), agent=returned)
    assert match.agents[1] is returned and returned.decisions == 41
    match.play_computer()
    match.play_computer()
    assert returned.decisions == 42


def test_think_seconds_are_checked_like_every_other_setting() -> None:
    with pytest.raises(RefusedError, match="thinking times"):
        towers_match([None, None], think_seconds=[1.0])
    with pytest.raises(RefusedError, match="positive"):
        towers_match([None, None], think_seconds=[None, 0.0])


def test_hidden_information_reaches_the_thinker_only_resampled() -> None:
    game = boardlab.load("dicenim", pile=12)
    match = Match(game, seat_agents(game, ["random", "human"]), seed=3)
    decision = match.pending()
    assert decision is not None and decision.seat == 0
    # the other seat's secret is redrawn in what the thinker is handed
    assert decision.state.seed != match.seed and decision.state.history == ()
