"""The level ladder (bench/levels.py, boardlab.lab.ladder): games stored per pair as they finish,
resumed, merged across runs, summarised with intervals and Elo, written into the docs."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.agents import game_levels, level_spec
from boardlab.lab.executors import make_executor
from boardlab.lab.ladder import (
    BOTTOM,
    REQUIRED_GAMES,
    REQUIRED_SCORE,
    LadderFolder,
    cut_note,
    default_pairs,
    ladder_agents,
    ladder_study,
    missing_note,
    play_ladder,
    read_lines,
    recorded_ladder,
    summarize,
)
from boardlab.lab.ladder_docs import ladder_data, ladder_path, level_ratings, write_docs
from tests.support.bench import load_bench

BENCH = Path(__file__).resolve().parents[2] / "bench" / "levels.py"
# cheap stand-ins for the searching levels: the machinery is under test, not the levels
CHEAP = ["--spec", "normal=mcts:iterations=8,leaf_eval=true,widen=1,jitter=0.03",
         "--spec", "hard=mcts:iterations=16,leaf_eval=true,widen=1,jitter=0.03",
         "--spec", "expert=mcts:iterations=32,leaf_eval=true,widen=1,jitter=0.03"]


def bench_main(*args: str) -> int:
    return int(load_bench("levels").main(list(args)))


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(text) for text in path.read_text().splitlines()]


def test_a_tiny_ladder_stores_every_game_with_its_cpu_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs"
    args = ["towers", "--games", "2", "--jobs", "1", "--out", str(out), *CHEAP]
    assert bench_main(*args, "--json") == 0
    summary = json.loads(capsys.readouterr().out)
    folder = out / "towers"
    assert sorted(p.name for p in folder.glob("*-vs-*.jsonl")) == [
        "beginner-vs-easy.jsonl", "easy-vs-normal.jsonl", "hard-vs-expert.jsonl", "normal-vs-hard.jsonl",
        "random-vs-beginner.jsonl",
    ]
    games = lines(folder / "normal-vs-hard.jsonl")
    assert sorted(game["index"] for game in games) == [0, 1]
    assert {tuple(game["seats"]) for game in games} == {("normal", "hard"), ("hard", "normal")}  # seats rotated
    for game in games:
        assert sum(len(seat) for seat in game["cpu"]) == game["decisions"] > 0
        assert all(seconds >= 0 for seat in game["cpu"] for seconds in seat)
    assert summary["games"] == 10 and [row["games"] for row in summary["pairs"]] == [2, 2, 2, 2, 2]
    assert next((row["weaker"], row["stronger"]) for row in summary["pairs"]) == ("random", "beginner")
    assert all(row["passed"] is False for row in summary["pairs"])  # 2 games are too few to pass
    assert {rating["agent"] for rating in summary["ratings"]} == {"random", "beginner", "easy", "normal", "hard", "expert"}
    assert summary["cpu"]["hard"]["decisions"] > 0 and summary["cpu"]["hard"]["max"] >= summary["cpu"]["hard"]["median"]
    run = summary["runs"][0]
    assert run["games_played"] == 10 and "bench/levels.py towers --games 2" in run["command"] and len(run["load_start"]) == 3

    # the same command again plays nothing and counts nothing twice
    assert bench_main(*args, "--json") == 0
    again = json.loads(capsys.readouterr().out)
    assert len(lines(folder / "normal-vs-hard.jsonl")) == 2 and again["games"] == 10
    assert [run["games_played"] for run in again["runs"]] == [10]  # the second run measured nothing
    assert len(lines(folder / "runs.jsonl")) == 2
    # more games per pair extend it
    assert bench_main("towers", "--games", "4", "--jobs", "1", "--out", str(out), "--pairs", "random-beginner", *CHEAP) == 0
    capsys.readouterr()
    assert len(lines(folder / "random-vs-beginner.jsonl")) == 4


def test_runs_on_other_seeds_merge_and_a_game_counts_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("0", "1"):
        assert bench_main("towers", "--games", "2", "--jobs", "1", "--seed", seed, "--pairs", "random-beginner",
                          "--out", str(tmp_path / f"machine{seed}")) == 0
    capsys.readouterr()
    both = [str(tmp_path / "machine0"), str(tmp_path / "machine1"), str(tmp_path / "machine0" / "towers")]
    assert bench_main("towers", "--merge", *both, "--json") == 0
    merged = json.loads(capsys.readouterr().out)
    assert merged["pairs"][0]["games"] == 4 and len(merged["runs"]) == 2  # machine0's files are named twice
    # without the cheap specs, games played by other specs are left out, and said so
    assert bench_main("towers", "--games", "2", "--jobs", "1", "--pairs", "easy-normal", "--out", str(tmp_path / "m2"),
                      *CHEAP) == 0
    capsys.readouterr()
    assert bench_main("towers", "--merge", str(tmp_path / "m2"), "--json") == 0
    stale = json.loads(capsys.readouterr().out)
    assert stale["games"] == 0 and sum(stale["skipped"].values()) == 2


def ladder_line(pair: tuple[str, str], index: int, stronger_return: float, game: Any) -> dict[str, Any]:
    seats = list(pair) if index % 2 else list(reversed(pair))
    stronger = seats.index(pair[1])
    returns = [1.0 - stronger_return, 1.0 - stronger_return]
    returns[stronger] = stronger_return
    agents = ladder_agents(game)
    return {
        "format": "boardlab-ladder-game/1", "game": game.id, "players": 2, "options": dict(game.options),
        "pair": list(pair), "specs": [agents[label] for label in pair], "seed": 0, "index": index, "seats": seats,
        "returns": returns, "cpu": [[0.01], [0.02]],
    }


def test_a_level_passes_with_65_percent_over_100_games() -> None:
    game = boardlab.load("towers", players=2)
    agents = ladder_agents(game)
    # easy scores 65 of 100 against beginner: a pass; normal 64.5 of 100 against easy: not
    results = [1.0] * 65 + [0.0] * 35
    made = [ladder_line(("beginner", "easy"), i, value, game) for i, value in enumerate(results)]
    results = [1.0] * 64 + [0.5] + [0.0] * 35
    made += [ladder_line(("easy", "normal"), i, value, game) for i, value in enumerate(results)]
    summary = summarize(game, agents, made, [])
    rows = {(row["weaker"], row["stronger"]): row for row in summary["pairs"]}
    assert rows[("beginner", "easy")]["passed"] is True and rows[("beginner", "easy")]["score"] == 0.65
    assert rows[("easy", "normal")]["passed"] is False and rows[("easy", "normal")]["draws"] == 1
    low, high = rows[("beginner", "easy")]["low"], rows[("beginner", "easy")]["high"]
    assert 0.55 < low < 0.65 < high < 0.74  # Wilson's 95% interval for 65 of 100
    ratings = {rating["agent"]: rating for rating in summary["ratings"]}
    assert ratings["random"]["elo"] == 0.0
    assert ratings["easy"]["elo"] is None  # nothing links these pairs to random: no rating
    assert summary["cpu"]["easy"]["decisions"] == 200


def test_greedy_is_an_anchor_only_where_no_level_is_greedy() -> None:
    game = boardlab.load("towers", players=2)
    assert "greedy" not in ladder_agents(game)
    agents = ladder_agents(game, {"easy": "greedy:temperature=0.01"})
    assert agents["greedy"] == "greedy"
    assert default_pairs(agents)[-2:] == [("random", "greedy"), ("greedy", "easy")]
    with pytest.raises(boardlab.BoardlabError, match="the levels of towers are"):
        ladder_agents(game, {"master": "greedy"})


def test_the_docs_section_is_rewritten_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, data = tmp_path / "levels.md", tmp_path / "ladder.json"
    docs.write_text("# Levels\n\nOur words.\n\n<!-- ladder:overseer -->\nOverseer's table\n<!-- /ladder:overseer -->\n")
    args = ["towers", "--games", "2", "--jobs", "1", "--pairs", "random-beginner,beginner-easy", "--out", str(tmp_path / "r"),
            "--write-docs", "--docs", str(docs), "--ladder-file", str(data)]
    assert bench_main(*args) == 0
    assert bench_main(*args) == 0
    capsys.readouterr()
    text = docs.read_text()
    assert text.startswith("# Levels\n\nOur words.") and "Overseer's table" in text
    assert text.count("<!-- ladder:towers -->") == 1 and text.count("<!-- /ladder:towers -->") == 1
    section = text.split("<!-- ladder:towers -->")[1]
    assert "| random vs beginner | 2 |" in section and "too few games (2)" in section
    assert "| beginner | `greedy:temperature=0.05` |" in section and "(the anchor)" in section
    stored = json.loads(data.read_text())
    assert stored["format"] == "boardlab-ladder/1" and stored["ratings"]["random"]["elo"] == 0.0
    assert stored["ratings"]["easy"]["spec"] == "greedy" and stored["ratings"]["easy"]["cpu_max"] > 0
    game = boardlab.load("towers")
    measured = level_ratings(game, data)
    assert set(measured) == {"beginner", "easy"} and measured["easy"]["elo"] == stored["ratings"]["easy"]["elo"]
    # a level now played by another spec does not show the old measurement
    stored["ratings"]["easy"]["spec"] = "greedy:temperature=0.5"
    data.write_text(json.dumps(stored))
    assert set(level_ratings(game, data)) == {"beginner"}
    assert level_ratings(game, tmp_path / "missing.json") == {}


def test_a_new_docs_file_starts_with_the_method(tmp_path: Path) -> None:
    game = boardlab.load("towers", players=2)
    summary = summarize(game, ladder_agents(game), [], [])
    text = write_docs(tmp_path / "levels.md", summary).read_text()
    assert text.startswith("# The computer's levels, measured") and "at least 65%" in text
    assert "Bradley-Terry" in text and "<!-- ladder:towers -->" in text


@pytest.mark.slow
def test_each_level_of_towers_scores_more_than_the_one_below(tmp_path: Path) -> None:
    """A short ladder with the real levels: 20 games per pair (the docs' table plays 100 or more;
    in Towers, where the first mover wins most games, easy's margin over beginner is modest
    (docs/levels.md), so 10 games are a coin toss). The rung to expert is left to the bench: its
    games cost seconds of CPU a decision (docs/levels.md)."""
    game = boardlab.load("towers", players=2)
    agents = ladder_agents(game)
    pairs = [pair for pair in default_pairs(agents) if "expert" not in pair]
    assert len(pairs) == 4
    study = ladder_study("towers", agents, pairs, games=20, seed=0)
    folder = LadderFolder(tmp_path, study)
    play_ladder(study, make_executor("process", 2), folder, "test", 2)
    summary = summarize(game, agents, *read_lines([folder.folder]))
    for row in summary["pairs"]:
        assert row["games"] == 20
        assert row["score"] > 0.5, f"{row['stronger']} scored {row['score']:.0%} against {row['weaker']}"


def test_the_bench_needs_only_the_standard_library(tmp_path: Path) -> None:
    """The full ladder runs on machines with nothing but Python and boardlab: the extras are
    made unimportable and a tiny ladder still runs."""
    blocked = ("rich", "numpy", "openskill", "matplotlib", "fastapi", "pymunk", "ray", "pydantic")
    script = (
        "import runpy, sys\n"
        f"for name in {blocked!r}: sys.modules[name] = None\n"
        "sys.argv = ['levels.py', 'towers', '--games', '2', '--jobs', '1', '--pairs', 'random-beginner', "
        f"'--out', {str(tmp_path)!r}]\n"
        f"runpy.run_path({str(BENCH)!r}, run_name='__main__')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "random vs beginner" in done.stdout and len(lines(tmp_path / "towers" / "random-vs-beginner.jsonl")) == 2


def test_games_follow_their_spec_when_the_level_table_moves_it() -> None:
    game = boardlab.load("towers", players=2)
    before = ladder_agents(game)
    made = [ladder_line(("easy", "normal"), i, value, game) for i, value in enumerate([1.0] * 70 + [0.0] * 30)]
    # the table moves greedy up to normal and the old normal's search to hard; easy plays something new
    after = {"random": "random", "beginner": before["beginner"], "easy": "greedy:temperature=0.015",
             "normal": before["easy"], "hard": before["normal"]}
    summary = summarize(game, after, made, [])
    (row,) = summary["pairs"]
    assert (row["weaker"], row["stronger"], row["games"], row["score"]) == ("normal", "hard", 100, 0.7)
    assert row["rung"] is True and row["passed"] is True
    assert summary["cpu"]["hard"]["decisions"] == 100 and "easy" not in summary["cpu"]
    # a spec no level plays any more is left out, and said so
    gone = dict(after, hard="mcts:iterations=7")
    assert summarize(game, gone, made, [])["skipped"] == {f"easy-vs-normal played by greedy / {before['normal']}": 100}


def test_games_a_stopped_run_left_unplayed_are_named_with_what_they_mean(tmp_path: Path) -> None:
    game = boardlab.load("towers", players=2)
    agents = ladder_agents(game)
    # a run stopped early: the long games 3 and 7 of seed 0 were still being played; of seed 5,
    # the first two (started first, longest)
    made = [ladder_line(("easy", "normal"), i, 1.0, game) for i in range(10) if i not in (3, 7)]
    made += [{**ladder_line(("easy", "normal"), i, 1.0, game), "seed": 5} for i in range(2, 6)]
    (row,) = summarize(game, agents, made, [])["pairs"]
    assert row["missing"] == [(0, 3), (0, 7), (5, 0), (5, 1)]
    note = missing_note(row)
    assert note.startswith("easy vs normal: 4 games missing among those played (seed 0: 3, 7; seed 5: 0, 1)")
    assert "run the same command again" in note
    docs = tmp_path / "levels.md"
    write_docs(docs, summarize(game, agents, made, []))
    assert "Easy vs normal: 4 games missing" in docs.read_text()
    # the games after the last one played are not missing: a run of fewer games is complete
    complete = [ladder_line(("easy", "normal"), i, 1.0, game) for i in range(6)]
    (row,) = summarize(game, agents, complete, [])["pairs"]
    assert row["missing"] == [] and missing_note(row) == ""


def test_a_new_rung_merged_with_ladder_json_rates_every_level_as_the_old_games_would(tmp_path: Path) -> None:
    game = boardlab.load("towers", players=2)
    agents = ladder_agents(game)
    old = [ladder_line(("random", "beginner"), i, value, game) for i, value in enumerate([1.0] * 80 + [0.5] * 10 + [0.0] * 10)]
    old += [ladder_line(("beginner", "easy"), i, value, game) for i, value in enumerate([1.0] * 60 + [0.0] * 40)]
    new = [ladder_line(("easy", "normal"), i, value, game) for i, value in enumerate([1.0] * 70 + [0.5] * 20 + [0.0] * 10)]
    whole = summarize(game, agents, old + new, [])
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(ladder_data(summarize(game, agents, old, []))))
    merged = summarize(game, agents, new, [], [recorded_ladder(path)])
    assert merged["pairs"] == whole["pairs"] and merged["games"] == whole["games"] == 300
    assert merged["recorded"] == ["random-vs-beginner", "beginner-vs-easy"]
    expected = {rating["agent"]: rating for rating in whole["ratings"]}
    for rating in merged["ratings"]:
        assert rating["elo"] == pytest.approx(expected[rating["agent"]]["elo"], abs=1e-6)
        assert rating["high"] == pytest.approx(expected[rating["agent"]]["high"], abs=1e-6)
    # beginner played only in the old games: its CPU figures are the file's; easy's are its new games'
    assert merged["cpu"]["beginner"]["median"] == pytest.approx(whole["cpu"]["beginner"]["median"], abs=1e-5)
    assert merged["cpu"]["beginner"]["decisions"] == 200 and merged["cpu"]["easy"]["decisions"] == 100
    # and its mean, what the server's Lab prices a decision at: read back as the file keeps it
    stored = json.loads(path.read_text())
    assert stored["ratings"]["beginner"]["cpu_mean"] == pytest.approx(whole["cpu"]["beginner"]["mean"], abs=1e-7)
    stored["ratings"]["beginner"]["cpu_mean"] = 0.5  # unlike its median (0.015): a mix-up would show
    path.write_text(json.dumps(stored))
    assert summarize(game, agents, new, [], [recorded_ladder(path)])["cpu"]["beginner"]["mean"] == 0.5
    path.write_text(json.dumps(ladder_data(summarize(game, agents, old, []))))
    # where the folders hold games of a recorded pair, the games count and the record does not
    again = summarize(game, agents, new + old[:100], [], [recorded_ladder(path)])
    assert again["pairs"] == whole["pairs"] and again["recorded"] == ["beginner-vs-easy"]
    # a record whose specs the level table swapped counts from the other side
    swapped = summarize(game, dict(agents, beginner=agents["easy"], easy=agents["beginner"]), [], [],
                        [recorded_ladder(path)])
    row = next(row for row in swapped["pairs"] if (row["weaker"], row["stronger"]) == ("beginner", "easy"))
    assert (row["wins"], row["draws"], row["losses"]) == (40, 0, 60)
    # a record whose level now plays another spec is left out, and said so
    moved = summarize(game, dict(agents, easy="greedy:temperature=0.5"), new, [], [recorded_ladder(path)])
    assert moved["recorded"] == ["random-vs-beginner"]
    assert moved["skipped"] == {"beginner-vs-easy played by greedy:temperature=0.05 / greedy (recorded)": 100,
                                "easy-vs-normal played by greedy / " + agents["normal"]: 100}


def test_a_ladder_file_that_cannot_be_merged_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken, old, other = tmp_path / "broken.json", tmp_path / "old.json", tmp_path / "other.json"
    broken.write_text("{ not json")
    old.write_text(json.dumps({"format": "boardlab-ladder/1", "game": "towers", "ratings": {}, "command": []}))
    other.write_text(json.dumps({"format": "boardlab-study/1"}))
    for path, words in ((broken, "not JSON"), (old, "keeps no pair results"), (other, "not a ladder file"),
                        (tmp_path / "missing.json", "cannot be read")):
        assert bench_main("towers", "--merge", str(path)) == 2
        error = capsys.readouterr().err
        assert str(path) in error and words in error


def test_the_bench_merges_a_new_rung_with_the_ladder_file_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "ladder.json"
    assert bench_main("towers", "--games", "2", "--jobs", "1", "--pairs", "random-beginner,beginner-easy",
                      "--out", str(tmp_path / "old"), "--write-docs", "--docs", str(tmp_path / "levels.md"),
                      "--ladder-file", str(data)) == 0
    stored = json.loads(data.read_text())
    assert [(pair["weaker"], pair["stronger"]) for pair in stored["pairs"]] == [("random", "beginner"), ("beginner", "easy")]
    assert sum(pair["wins"] + pair["draws"] + pair["losses"] for pair in stored["pairs"]) == 4
    assert "bench/levels.py towers --games 2" in stored["runs"][0]["command"]
    assert bench_main("towers", "--games", "2", "--jobs", "1", "--pairs", "easy-normal", "--out", str(tmp_path / "new"),
                      *CHEAP) == 0
    capsys.readouterr()
    assert bench_main("towers", "--merge", str(data), str(tmp_path / "new"), *CHEAP, "--json") == 0
    merged = json.loads(capsys.readouterr().out)
    assert [row["games"] for row in merged["pairs"]] == [2, 2, 2]
    assert merged["recorded"] == ["random-vs-beginner", "beginner-vs-easy"] and len(merged["runs"]) == 2
    assert {rating["agent"] for rating in merged["ratings"]} == {"random", "beginner", "easy", "normal"}


#: the games the package ships (a test's toy game registers itself, with no ladder of its own)
SHIPPED = sorted(folder.name for folder in (Path(boardlab.__file__).parent / "games").iterdir() if (folder / "game.py").exists())


@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_shipped_rung_was_measured_with_the_specs_the_levels_play_and_passes(game_id: str) -> None:
    # docs/levels.md's rule, held by the ladder.json each game ships: a level whose spec
    # changes, or a new top level, needs its rungs played again before it ships
    game = boardlab.load(game_id)
    recorded = {(row["weaker"], row["stronger"]): row for row in json.loads(ladder_path(game_id).read_text())["pairs"]}
    for weaker, stronger in itertools.pairwise((BOTTOM, *game_levels(game))):
        row = recorded.get((weaker, stronger))
        assert row is not None, f"{game_id}: no games of {weaker} against {stronger}"
        specs = [level_spec(game, level) if level != BOTTOM else BOTTOM for level in (weaker, stronger)]
        assert row["specs"] == specs, f"{game_id}: {weaker}-{stronger} was played by other specs"
        games = row["wins"] + row["draws"] + row["losses"]
        assert games >= REQUIRED_GAMES and (row["wins"] + row["draws"] / 2) / games >= REQUIRED_SCORE


def test_the_conversion_bench_replays_each_game_not_won_and_judges_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs"
    assert bench_main("towers", "--games", "4", "--jobs", "1", "--out", str(out), "--pairs", "random-beginner") == 0
    capsys.readouterr()
    stored = lines(out / "towers" / "random-vs-beginner.jsonl")
    conversion = load_bench("conversion")
    assert conversion.main([str(out / "towers" / "random-vs-beginner.jsonl"), "random", "--json"]) == 0
    *games, summary = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    not_won = [game for game in stored if game["winners"] != [game["seats"].index("random")]]
    assert sorted(game["index"] for game in games) == sorted(game["index"] for game in not_won)
    assert summary["replayed_alike"] == len(games)  # a ladder game replays move for move from its seed
    assert all(0.0 <= game["before_end"] <= game["peak"] <= 1.0 for game in games)
    assert summary["let_go"] == sum(game["peak"] >= 0.9 for game in games)
    # every game not won let go, when any chance at all makes a position won
    assert conversion.main([str(out / "towers" / "random-vs-beginner.jsonl"), "random", "--won", "0", "--json"]) == 0
    everything = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert everything["let_go"] == len(not_won) and everything["conversion"] == summary["wins"] / 4
    # a label that did not play is named
    assert conversion.main([str(out / "towers" / "random-vs-beginner.jsonl"), "expert"]) == 2
    assert "'expert' did not play every game" in capsys.readouterr().err


def test_the_conversion_bench_judges_no_game_that_played_otherwise_than_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs"
    assert bench_main("towers", "--games", "4", "--jobs", "1", "--out", str(out), "--pairs", "random-beginner") == 0
    capsys.readouterr()
    path = out / "towers" / "random-vs-beginner.jsonl"
    stored = lines(path)
    not_won = [game for game in stored if game["winners"] != [game["seats"].index("random")]]
    # a stored game whose ending its replay cannot reproduce, as after a decision cut by its time cap
    tampered = not_won[0]["index"]
    path.write_text("".join(json.dumps({**game, "moves": game["moves"] + 1} if game["index"] == tampered else game) + "\n"
                            for game in stored))
    conversion = load_bench("conversion")
    assert conversion.main([str(path), "random", "--won", "0", "--json"]) == 0
    *games, summary = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert [game["index"] for game in games if not game["replayed"]] == [tampered]
    assert summary["not_replayed_alike"] == [tampered]
    assert summary["let_go"] == len(not_won) - 1  # every other game not won counts, the tampered one does not
    assert conversion.main([str(path), "random", "--won", "0"]) == 0
    assert (f"not judged: 1 not won that did not replay alike (game {tampered}: no decision cut by its time cap, "
            "so the search did not repeat itself: a defect)") in " ".join(capsys.readouterr().out.split())
    # the same game stored as the ladder writes one whose decisions ran into their time cap
    path.write_text("".join(json.dumps({**game, "moves": game["moves"] + 1, "cut": [2, 1]} if game["index"] == tampered
                                       else game) + "\n" for game in stored))
    assert conversion.main([str(path), "random", "--won", "0"]) == 0
    assert (f"(game {tampered}: 3 decisions cut by the time cap when stored, 0 in the replay)"
            in " ".join(capsys.readouterr().out.split()))


def test_a_game_whose_decisions_ran_into_their_time_cap_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # hard's budget of a million iterations cannot end before its 0.02 s cap: its decisions are
    # cut, but for those the search settles early (a forced or a proven move)
    out = tmp_path / "runs"
    args = ["towers", "--games", "2", "--jobs", "1", "--out", str(out), "--pairs", "normal-hard",
            "--spec", "normal=mcts:iterations=8,leaf_eval=true", "--spec", "hard=mcts:iterations=1000000,seconds=0.02"]
    assert bench_main(*args) == 0
    shown = " ".join(capsys.readouterr().out.split())
    stored = lines(out / "towers" / "normal-vs-hard.jsonl")
    for line in stored:
        cut = dict(zip(line["seats"], line["cut"]))
        assert len(line["cpu"][line["seats"].index("hard")]) >= cut["hard"] > 0 and cut["normal"] == 0
    assert "normal vs hard: in 2 games a decision ran into its time cap (seed 0: 0, 1)" in shown
    assert bench_main(*args, "--json") == 0  # played already: the summary of the stored games
    (row,) = json.loads(capsys.readouterr().out)["pairs"]
    assert row["cut"] == [[0, 0], [0, 1]] and cut_note(row).startswith("normal vs hard: in 2 games")
    # budgets that end first cut nothing, and say nothing of it
    calm = tmp_path / "calm"
    assert bench_main("towers", "--games", "2", "--jobs", "1", "--out", str(calm), "--pairs", "random-beginner") == 0
    assert all(line["cut"] == [0, 0] for line in lines(calm / "towers" / "random-vs-beginner.jsonl"))
    assert "time cap" not in capsys.readouterr().out
