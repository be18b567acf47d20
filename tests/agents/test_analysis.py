"""The analysis of a game (boardlab.agents.analysis): chances, preferred moves, losses, budgets.

Budgets are tiny: what is checked is what the numbers mean, not how strong the engine is."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

import boardlab
from boardlab import Record
from boardlab.agents import level_spec
from boardlab.agents.analysis import (
    WORST_MIN_LOSS,
    Analysis,
    AnalysisCancelled,
    analyse,
    default_iterations,
    hint_spec,
    search_spec,
)
from boardlab.core.errors import OptionError
from boardlab.core.match import Match
from boardlab.core.records import Ending

#: Black to move in a Towers game between two `normal` computers (move 35 of a simulated
#: game). d4S opens the way for White's b2N, which wins on the spot; most other moves do not.
BLUNDER_POSITION = (
    "-,WW,-,-,-,B,-/W,W,W,CW,-,BB,B/-,-,-,-,-,BB,B/-,C,BB,CWB,-,CB,-/-,B,B,WW,-,W,-/"
    "B,BWW,W,CW,W,W,W/B,B,-,-,-,W,- B 2"
)


def blunder_states() -> list[boardlab.State]:
    state = boardlab.load("towers").state_from_position(BLUNDER_POSITION, 0)
    states = [state.copy()]
    for move in ("d4S", "b2N"):
        state.play(move)
        states.append(state.copy())
    assert states[-1].is_over() and states[-1].winners() == (0,)
    return states


def random_states(game: boardlab.Game, moves: int, seed: int) -> list[boardlab.State]:
    """The start and the positions after each of ``moves`` random moves (chance by the seed)."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    states = [state.copy()]
    while len(states) <= moves and not state.is_over():
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
        states.append(state.copy())
    return states


DATA = Path(__file__).parent / "data"


def assert_agrees_with_itself(analysis: Analysis) -> None:
    """What the chances promise: the mover's chance never rises through their own move, a
    decision's loss is exactly how far it falls, a fall of the threshold or more is listed
    with the engine's move, and a drop on a chance move is chance's (its luck)."""
    series = analysis.series()
    listed = {entry.number for entry in analysis.worst}
    for entry in analysis.moves:
        before, after = series[entry.number - 1], series[entry.number]
        if not entry.is_decision:
            assert entry.loss == 0.0 and entry.number not in listed
            assert entry.luck == pytest.approx(max(0.0, *(b - a for b, a in zip(before, after))))
            continue
        drop = before[entry.by] - after[entry.by]
        assert drop >= -1e-12, entry
        assert entry.loss == pytest.approx(drop, abs=1e-12) and entry.luck == 0.0
        assert (entry.number in listed) == (drop >= WORST_MIN_LOSS), entry
        if drop > 0:
            assert entry.differs and entry.preferred is not None, entry
        elif entry.preferred is not None:
            assert not entry.differs


def assert_chances(chances: tuple[float, ...], players: int) -> None:
    assert len(chances) == players
    assert all(0.0 <= chance <= 1.0 for chance in chances), chances
    assert math.isclose(sum(chances), 1.0, abs_tol=1e-9), chances


def test_a_move_that_loses_on_the_spot_is_the_worst_and_the_engine_prefers_another() -> None:
    analysis = analyse(blunder_states(), iterations=60, seed=3)
    blunder, win = analysis.moves
    assert [entry.number for entry in analysis.worst] == [1]
    assert blunder.move == "d4S" and blunder.by == 1
    assert blunder.preferred is not None and blunder.preferred != "d4S" and blunder.differs
    # the engine gave Black a real game before the move and none after it
    assert blunder.best is not None and blunder.best > 0.3
    assert blunder.played == 0.0 and blunder.loss == pytest.approx(blunder.best)
    assert blunder.chances == (1.0, 0.0)  # after d4S White wins at once: the search finds it
    # White's winning move is the engine's move too: no loss
    assert win.preferred == "b2N" and win.loss == 0.0 and not win.differs
    assert win.chances == (1.0, 0.0)


def test_a_record_and_its_states_give_the_same_analysis_and_the_same_seed_the_same_numbers() -> None:
    states = blunder_states()
    record = Record.for_state(states[-1])
    first = analyse(record, iterations=40, seed=5).to_json()
    again = analyse(record, iterations=40, seed=5).to_json()
    from_states = analyse(states, iterations=40, seed=5).to_json()
    for data in (first, again, from_states):
        data.pop("seconds")
    assert first == again == from_states
    assert first["format"] == "boardlab-analysis/1" and first["worst"] == [1]
    assert first["moves"][0]["preferred"] != "d4S"


def test_the_same_seed_repeats_the_numbers_where_the_search_draws_chance() -> None:
    """Territories has dice: the search samples them with its own generator, which the
    analysis's seed seeds, so a second run repeats the first exactly."""
    game = boardlab.load("territories")
    states = random_states(game, 6, seed=2)
    one = [entry.to_json() for entry in analyse(states, iterations=30, seed=1).moves]
    assert one == [entry.to_json() for entry in analyse(states, iterations=30, seed=1).moves]


@pytest.mark.parametrize(
    ("game_id", "players", "moves"),
    [("towers", 2, 8), ("towers", 4, 8), ("territories", 2, 10), ("overseer", 2, 4), ("sovereign", 2, 4)],
)
def test_chances_are_returns_that_sum_to_one_after_every_move(game_id: str, players: int, moves: int) -> None:
    game = boardlab.load(game_id, players=players)
    states = random_states(game, moves, seed=4)
    analysis = analyse(states, iterations=12, seed=0)
    assert len(analysis.moves) == len(states) - 1 and len(analysis.series()) == len(states)
    assert_chances(analysis.start, players)
    for entry, state in zip(analysis.moves, states):
        assert_chances(entry.chances, players)
        assert entry.by == state.current_player()
        if entry.is_decision:
            assert entry.preferred is not None and entry.loss >= 0.0
            state.parse_move(entry.preferred)  # a legal move where it was preferred
        else:
            assert entry.preferred is None and entry.loss == 0.0


@pytest.mark.parametrize(
    ("game_id", "players", "moves", "seed"),
    [("towers", 2, 30, 1), ("towers", 4, 16, 2), ("territories", 2, 40, 3), ("overseer", 2, 16, 4),
     ("sovereign", 2, 24, 5)],
)
def test_the_analysis_of_a_seeded_game_agrees_with_itself(game_id: str, players: int, moves: int, seed: int) -> None:
    game = boardlab.load(game_id, players=players)
    states = random_states(game, moves, seed=seed)
    analysis = analyse(states, iterations=16, seed=seed)
    assert_agrees_with_itself(analysis)
    assert analysis.evaluation in ("fitted", "hand")


def test_a_sixty_move_game_against_the_computer_lists_every_move_that_threw_the_game_away() -> None:
    """A person's game against the `normal` computer that Black won on move 60. Moves that
    dropped the mover's chances by a quarter of a win or more were played without being
    listed, and some were the engine's own choice; now every such drop is a listed loss with
    another move preferred, and the winner ends at 100%."""
    record = Record.load(DATA / "towers_against_the_computer.json")
    analysis = analyse(record, iterations=120, seed=0)
    assert_agrees_with_itself(analysis)
    assert analysis.moves[-1].chances == (0.0, 1.0)
    assert analysis.worst and all(entry.preferred != entry.move for entry in analysis.worst)
    # the moves that threw the game away stand out, well past the listing threshold
    assert max(entry.loss for entry in analysis.worst) >= 1.5 * WORST_MIN_LOSS


def test_ten_even_moves_between_two_players_are_not_a_list_of_blunders() -> None:
    """The first ten moves of a game between two `normal` computers: the chances hold still
    unless a move loses, and no move from the second on swings them back and forth."""
    record = Record.load(DATA / "towers_ten_moves.json")
    analysis = analyse(record, iterations=default_iterations(record.game()), seed=0)
    assert_agrees_with_itself(analysis)
    assert len(analysis.worst) <= 2
    white = [point[0] for point in analysis.series()]
    reversals = sum(1 for a, b, c in zip(white, white[1:], white[2:]) if (b - a) * (c - b) < -0.01)
    assert reversals <= 1


def test_a_finished_game_ends_on_its_result_and_a_resignation_on_the_ending() -> None:
    game = boardlab.load("towers")
    match = Match(game, seed=9)
    for _ in range(3):
        match.play(match.to_move(), match.legal_moves(match.to_move())[0])
    match.resign(1)
    record = match.record()
    assert record.ending == Ending("resign", 1)
    analysis = analyse(record, iterations=10)
    assert analysis.moves[-1].chances == (1.0, 0.0)
    assert analysis.to_json()["moves"][-1]["chances"] == [1.0, 0.0]
    assert analysis.ending == "Black resigned" and analysis.to_json()["ending"] == "Black resigned"


def test_a_resignation_is_not_blamed_on_the_last_move_before_it() -> None:
    """White plays a move and then resigns: the fall to 0% is the resignation's, so White's
    move is judged as it was played and listed only if it lost by itself."""
    game = boardlab.load("towers")
    match = Match(game, seed=9)
    for _ in range(3):
        match.play(match.to_move(), match.legal_moves(match.to_move())[0])
    mover = match.log()[-1].by
    match.resign(mover)
    analysis = analyse(match.record(), iterations=200)
    last = analysis.moves[-1]
    assert last.by == mover and last.chances[mover] == 0.0, "the game's result ends the series"
    assert last.played is not None and last.played > 0.0 and last.loss < 0.5, last
    assert last.number not in {entry.number for entry in analysis.worst}


def test_honor_is_judged_by_its_evaluation_and_its_easy_computer_on_a_fixed_budget() -> None:
    pytest.importorskip("pymunk")
    game = boardlab.load("honor")
    match = Match(game, boardlab.agents.seat_agents(game, ["easy", "easy"], seed=3), seed=3)
    while match.ply < 14 and not match.is_over():
        match.play_computer()
    analysis = analyse(match.record(), iterations=999_999, seed=0)  # the budget is not the search's here
    assert analysis.method == "evaluate" and analysis.iterations is None
    # bounded by a count of simulations, not by time: the same on any machine
    assert analysis.agent == "honor:level=easy,seconds=0"
    for entry in analysis.moves:
        assert_chances(entry.chances, 2)
        assert (entry.preferred is not None) == entry.is_decision
    # people read a release, played or preferred, in words (rule 10.2.1), as the move list does
    releases = [entry for entry in analysis.moves if entry.move.startswith("rel ")]
    assert releases and all(entry.text.startswith("release ") for entry in releases)
    assert all(entry.preferred_text.startswith("release ") for entry in releases if entry.preferred_text)
    assert releases[0].to_json()["text"] == releases[0].text


def test_chance_reads_in_words_in_the_analysis_as_in_the_move_list() -> None:
    game = boardlab.load("territories")
    states = random_states(game, 30, seed=4)
    analysis = analyse(states, iterations=20, seed=0)
    chance = [entry for entry in analysis.moves if not entry.is_decision]
    assert chance and all(entry.text == states[entry.number - 1].move_text(states[entry.number].last_move, None)
                          for entry in chance)
    assert any(entry.text != entry.move for entry in chance), "a deal or a roll in words, not its notation"


def test_stop_ends_the_analysis_between_positions() -> None:
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)

    with pytest.raises(AnalysisCancelled):
        analyse(blunder_states(), iterations=10, on_progress=progress, stop=lambda: len(seen) >= 1)
    assert seen == [1]


@pytest.mark.parametrize("budget", [0, -5, 2.5, True])
def test_a_bad_budget_is_refused(budget: object) -> None:
    with pytest.raises(OptionError, match="budget"):
        analyse(blunder_states(), iterations=budget)  # type: ignore[arg-type]


def test_budgets_and_hint_specs_are_deterministic_and_fit_the_game() -> None:
    towers = boardlab.load("towers")
    assert search_spec(towers) == f"mcts:iterations={default_iterations(towers)},leaf_eval=true,widen=1,c=0.2,evaluation=fitted"
    assert "seconds" not in search_spec(towers)  # a time limit would make the analysis depend on the machine
    assert hint_spec(towers) == search_spec(towers)
    # where information is hidden, a hint is the game's hard computer, measured on such views;
    # Honor's placements (continuous) get its normal one
    territories = boardlab.load("territories")
    assert hint_spec(territories) == level_spec(territories, "hard") and hint_spec(territories).startswith("mcts:")
    assert hint_spec(boardlab.load("honor")) == level_spec(boardlab.load("honor"), "normal")


def test_the_table_says_when_chance_moved_the_chances() -> None:
    from rich.console import Console

    from boardlab.agents.analysis import MoveAnalysis
    from boardlab.cli.analyse import moves_table

    analysis = Analysis("territories", ["P1", "P2"], "search", "mcts", 10, 0, (0.5, 0.5))
    analysis.moves.append(MoveAnalysis(1, -1, "roll 7", (0.2, 0.8), luck=0.3))
    analysis.moves.append(MoveAnalysis(2, -1, "roll 8", (0.25, 0.75), luck=0.02))
    console = Console(width=160, record=True)
    console.print(moves_table(analysis, [None, None]))
    text = console.export_text()
    assert "0.30 (luck)" in text and "(luck)" not in text.split("roll 8")[1]
    assert analysis.worst == []  # chance's doing is no player's mistake
