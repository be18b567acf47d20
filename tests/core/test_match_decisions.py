"""One loop, in Match: what a computer seat is to decide (``pending``), how the answer is
taken (``decide``), the one seeding rule and the one failure policy (the fallback move).

Runs on Towers (no default move: the fallback is the one-ply best move) and on the test
game dicenim (chance and hidden secrets; tests/support/dicenim.py)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

import boardlab
from boardlab import Match, RefusedError, StaleMoveError
from boardlab.agents import make_agent, seat_agents
from boardlab.core.agent import Agent
from boardlab.core.decisions import ONE_PLY_FALLBACK, Decision, FallbackPolicy, ThinkingFailed, decision_seed, think
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
    expected = ONE_PLY_FALLBACK.move(decision.state)
    played = match.play_computer()
    assert str(played) == str(expected)
    turn = match.log()[-1]
    assert turn.note == "fallback" and turn.by == 0
    # Towers has no default move: the fallback is a move of the best one-ply value by the game's
    # evaluation for the mover, whatever the seed
    def one_ply_value(move: Move) -> float:
        after = decision.state.copy()
        after.apply(move)
        estimate = after.evaluate()
        assert estimate is not None
        return float(estimate[decision.seat])

    values = {str(move): one_ply_value(move) for move in decision.state.legal_moves()}
    assert values[str(played)] == max(values.values())


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


def test_an_agents_memory_survives_between_moves_and_carries_over_from_a_thinkers_copy() -> None:
    counting, second = Counting(), Counting()
    match = towers_match([counting, second])
    match.play_computer()
    match.play_computer()
    match.play_computer()
    assert counting.decisions == 2 and second.decisions == 1
    # a thinker in another process searched with a copy: the seat's agent takes over what it learned
    decision = match.pending()
    assert decision is not None and decision.agent is second
    searched = Counting()
    searched.decisions = 41
    decision.agent.carry_over(searched)
    match.decide(decision, think(decision))
    assert match.agents[1] is second and second.decisions == 42
    match.play_computer()
    match.play_computer()
    assert second.decisions == 43


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


class Refusing:
    """A thinker with no answer (a deadline passed elsewhere): it says why."""

    def think(self, decision: Decision) -> Move:
        raise ThinkingFailed("no answer in 0.2 s")


class FirstMove:
    """A thinker on an event loop that answers with the rules' first move."""

    def __init__(self) -> None:
        self.asked = 0

    async def think(self, decision: Decision) -> Move:
        self.asked += 1
        await asyncio.sleep(0)
        return decision.state.legal_moves()[0]


def test_a_thinker_without_an_answer_gives_the_seat_the_fallback_move_with_its_reason() -> None:
    match = towers_match([make_agent("random"), None])
    decision = match.pending()
    assert decision is not None
    played = match.play_computer(Refusing())
    assert str(played) == str(ONE_PLY_FALLBACK.move(decision.state))
    assert match.log()[-1].note == "fallback" and match.last_failure == "no answer in 0.2 s"


def test_run_computers_plays_every_computer_decision_with_the_thinker_it_is_given() -> None:
    match = towers_match([make_agent("random"), make_agent("random")])
    thinker = FirstMove()
    played = asyncio.run(match.run_computers_async(thinker))
    assert match.is_over() and played == thinker.asked == match.decisions
    inline = towers_match([make_agent("random"), make_agent("random")])
    first_moves = []
    while not inline.is_over():
        decision = inline.pending()
        assert decision is not None
        first_moves.append(str(decision.state.legal_moves()[0]))
        inline.play_computer(MoveFirst())
    assert [turn.notation for turn in match.log() if turn.by >= 0] == first_moves


class MoveFirst:
    def think(self, decision: Decision) -> Move:
        return decision.state.legal_moves()[0]


class LastMoveFallback(FallbackPolicy):
    """A driver's own policy: the rules' last move."""

    def move(self, state: State) -> Move:
        return state.legal_moves()[-1]


def test_a_driver_may_give_the_match_its_own_fallback_policy() -> None:
    match = towers_match([Broken(), None], fallback=LastMoveFallback())
    decision = match.pending()
    assert decision is not None
    assert str(match.play_computer()) == str(decision.state.legal_moves()[-1])


def test_the_fallback_needs_no_agent_registry() -> None:
    """The fallback policy is the core's own object: a match of the core alone (boardlab.agents
    never imported) still plays a failed decision's fallback move."""
    program = (
        "import sys, boardlab\n"
        "from boardlab.core.agent import Agent\n"
        "class Broken(Agent):\n"
        "    name = 'broken'\n"
        "    def choose(self, state):\n"
        "        raise RuntimeError('bug')\n"
        "match = boardlab.Match(boardlab.load('towers'), [Broken(), None], seed=4)\n"
        "print(match.play_computer(), match.log()[-1].note, 'boardlab.agents' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    move, note, agents_imported = done.stdout.split()
    assert note == "fallback" and agents_imported == "False"
    expected = towers_match([Broken(), None], seed=4)
    decision = expected.pending()
    assert decision is not None and move == str(ONE_PLY_FALLBACK.move(decision.state))
