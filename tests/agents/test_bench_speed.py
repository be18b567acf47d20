"""bench/speed.py measures and prints (figures are not asserted: speed is never a timed test)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from tests.agents.toy_games import SecretGuess
from tests.support.bench import load_bench
from tests.support.dicenim import DiceNim

speed = load_bench("speed")


def test_measures_a_chance_game_and_a_hidden_information_game() -> None:
    rows = [
        speed.measure_game(DiceNim(pile=12), 0.05, "mcts", seed=3),
        speed.measure_game(SecretGuess(), 0.05, "ismcts:determinizations=4", seed=3),
    ]
    for row in rows:
        assert row.random_plies_per_second > 0
        assert row.finished_games >= 1 and row.plies_per_game is not None
        assert row.legal_generations_per_second is not None and row.legal_generations_per_second > 0
        assert row.mcts_iterations >= 1 and row.mcts_iterations_per_second is not None
    assert rows[1].plies_per_game == 3.0  # deal, bet/safe, guess/coin
    out = io.StringIO()
    speed.print_table(rows, [("honor", "needs an extra: pymunk")], out=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split()[:2] == ["game", "players"] and lines[0].endswith("mcts it/s start  mid-game")
    assert lines[2].startswith("dicenim") and lines[3].startswith("secretguess")
    assert lines[-1] == "honor: skipped (needs an extra: pymunk)"


def test_search_start_draws_opening_chance_and_resamples() -> None:
    state = speed.search_start(SecretGuess(), random.Random(0))
    assert state.current_player() == 0 and state.ply == 1


def test_unknown_game_is_reported_not_crashed(capsys) -> None:  # type: ignore[no-untyped-def]
    assert speed.main(["--games", "no_such_game", "--seconds", "0.01"]) == 0
    assert "no_such_game: skipped (unknown game 'no_such_game'" in capsys.readouterr().out


def test_a_non_search_agent_is_refused_with_a_clear_message(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as stopped:
        speed.main(["--games", "no_such_game", "--mcts", "greedy"])
    assert stopped.value.code == 2
    assert "--mcts 'greedy' must name a search agent" in capsys.readouterr().err


def test_compare_trees_measures_each_tree_and_gives_ratios_to_the_first(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    root = str(Path(__file__).resolve().parents[2])
    calls: list[str | None] = []

    def measured(game_id: str, side: dict[str, str], args: object, tree: str | None = None) -> tuple[object, str]:
        calls.append(tree)
        rate = 100.0 if tree == root else 250.0
        return speed.GameSpeed(game_id, 2, rate, 10.0, 1, rate, rate, 5, rate), "compiled: 5 of 5 kernels"

    monkeypatch.setattr(speed, "measure_in_subprocess", measured)
    other = f"{root}/."
    assert speed.main(["--games", "towers", "--seconds", "0.01", "--rounds", "2", "--compare-trees", f"{root},{other}"]) == 0
    assert calls == [root, other, other, root]  # in turn, forwards then backwards
    table = capsys.readouterr().out
    assert "random plies/s" in table and "2.50x" in table


def test_compare_trees_refuses_a_folder_without_boardlab(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as stopped:
        speed.main(["--games", "towers", "--compare-trees", f"{tmp_path},{tmp_path}"])
    assert stopped.value.code == 2


def test_compare_collector_alternates_the_sides_and_sets_only_the_collector_switch(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    sides: list[dict[str, str]] = []

    def measured(game_id: str, side: dict[str, str], args: object, tree: str | None = None) -> tuple[object, str]:
        sides.append(side)
        rate = 120.0 if side else 150.0
        return speed.GameSpeed(game_id, 2, rate, 10.0, 1, rate, rate, 5, rate), "compiled: 5 of 5 kernels"

    monkeypatch.setattr(speed, "measure_in_subprocess", measured)
    assert speed.main(["--games", "towers", "--seconds", "0.01", "--rounds", "2", "--compare-collector"]) == 0
    python_side = {"BOARDLAB_COLLECTOR": "python"}
    assert sides == [{}, python_side, python_side, {}]
    table = capsys.readouterr().out
    assert "lab collector" in table and "python's" in table and "1.25x" in table


def test_random_play_runs_under_the_labs_collector_setting(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import gc

    from boardlab.core.collector import YOUNG_THRESHOLD

    seen: list[int] = []
    game = DiceNim(pile=12)
    state_class = type(game.new_state(0))
    original = state_class.apply

    def apply(self, move):  # type: ignore[no-untyped-def]
        seen.append(gc.get_threshold()[0])
        original(self, move)

    monkeypatch.setattr(state_class, "apply", apply)
    monkeypatch.delenv("BOARDLAB_COLLECTOR", raising=False)
    speed.measure_random_play(game, 0.01, random.Random(0))
    assert seen and set(seen) == {YOUNG_THRESHOLD}
    seen.clear()
    monkeypatch.setenv("BOARDLAB_COLLECTOR", "python")
    speed.measure_random_play(game, 0.01, random.Random(0))
    assert seen and YOUNG_THRESHOLD not in seen


def test_the_positions_searched_do_not_depend_on_how_many_random_games_were_played(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a faster tree plays more random games in the same seconds: the mid-game positions must not move
    sampled: list[list[str]] = []
    sample = speed.sample_positions

    def noting(game, seconds, rng):  # type: ignore[no-untyped-def]
        positions = sample(game, seconds, rng)
        sampled.append([p.position() for p in positions])
        return positions

    monkeypatch.setattr(speed, "sample_positions", noting)
    for plies_played in (1, 50):
        def random_play(game, seconds, rng, plies=plies_played):  # type: ignore[no-untyped-def]
            for _ in range(plies):
                rng.random()
            return 1.0, None, 0

        monkeypatch.setattr(speed, "measure_random_play", random_play)
        speed.measure_game(DiceNim(pile=12), 0.05, "mcts:iterations=20", seed=3)
    # the sampling stops at its deadline, so a busier moment samples fewer: the same ones, as far as it got
    assert len(sampled) == 2
    shorter, longer = sorted(sampled, key=len)
    assert shorter and longer[: len(shorter)] == shorter


def test_compare_pure_skips_a_game_whose_pure_side_ran_compiled(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    def measured(game_id: str, side: dict[str, str], args: object, tree: str | None = None) -> tuple[object, str]:
        # the switch was ignored: both sides report compiled kernels
        return speed.GameSpeed(game_id, 2, 100.0, 10.0, 1, 100.0, 100.0, 5, 100.0), "compiled: 5 of 5 kernels"

    monkeypatch.setattr(speed, "measure_in_subprocess", measured)
    assert speed.main(["--games", "towers", "--seconds", "0.01", "--rounds", "1", "--compare-pure"]) == 0
    assert "towers: skipped (the pure side ran compiled: 5 of 5 kernels)" in capsys.readouterr().out
