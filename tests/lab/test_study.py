"""Studies: variants side by side, the study folder, resuming after an interrupt, progress."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from boardlab.core.records import Record
from boardlab.lab import executors, trace
from boardlab.lab.executors import Executor, OnPly, ProcessPoolExecutor, SerialExecutor, Task
from boardlab.lab.play import PlayedGame
from boardlab.lab.progress import StudyProgress
from boardlab.lab.stats import GameOutcome
from boardlab.lab.store import GAMES_FILE, StudyFolder, StudyFolderError
from boardlab.lab.study import Study, StudyInterrupted, option_variants, parse_vary, run_study

STUDY = Study(
    game_id="dicenim",
    variants=option_variants(("random", "greedy"), parse_vary(["pile=5,12"])),
    games=6,
    seed=3,
)


def essentials(outcomes: Sequence[GameOutcome]) -> list[tuple]:
    """What must not depend on how or when a game was played (not its time or file)."""
    return [
        (o.variant, o.index, o.seed, o.seat_agents, o.winners, o.returns, o.code, o.moves, o.branching, o.repeated)
        for o in outcomes
    ]


class StopAfter(Executor):
    """Runs games in this process and presses Ctrl-C after ``games`` of them."""

    def __init__(self, games: int) -> None:
        self.games = games

    def run(self, tasks: Sequence[Task], on_ply: OnPly | None = None) -> Iterator[PlayedGame | None]:
        for number, played in enumerate(SerialExecutor().run(tasks, on_ply)):
            if number == self.games:
                raise KeyboardInterrupt
            yield played


def test_vary_plays_each_value_on_the_same_seeds() -> None:
    outcomes = run_study(STUDY)
    assert list(outcomes) == ["pile=5", "pile=12"]
    small, large = outcomes["pile=5"], outcomes["pile=12"]
    assert [o.index for o in small] == list(range(6))
    assert [o.seed for o in small] == [o.seed for o in large]  # common seeds for a fair comparison
    assert {o.variant for o in large} == {"pile=12"}
    # a larger pile takes longer: every pile=12 game needs at least 4 takes, pile=5 at most 5
    assert min(o.decisions for o in large) >= 4
    assert sum(o.decisions for o in large) > sum(o.decisions for o in small)


def test_vary_parsing_and_combinations() -> None:
    assert parse_vary(["layout=a, b", "cap=1"]) == [("layout", ["a", "b"]), ("cap", ["1"])]
    names = [v.name for v in option_variants(("x",), [("layout", ["a", "b"]), ("cap", ["1", "2"])])]
    assert names == ["layout=a,cap=1", "layout=a,cap=2", "layout=b,cap=1", "layout=b,cap=2"]
    for bad in (["layout"], ["layout="], ["layout=a,a"], ["a=1", "a=2"]):
        with pytest.raises(ValueError):
            parse_vary(bad)
    # balance's range, given to the lab, is named as such
    with pytest.raises(ValueError, match=r"a range LOW\.\.HIGH:STEP is for boardlab balance"):
        parse_vary(["ply_limit=100..300:100"])


def test_a_study_folder_holds_records_lines_and_settings(tmp_path: Path) -> None:
    folder = StudyFolder(tmp_path / "study", STUDY)
    outcomes = run_study(STUDY, sink=folder)
    lines = (tmp_path / "study" / GAMES_FILE).read_text().splitlines()
    assert len(lines) == 12
    for game in outcomes["pile=12"]:
        assert game.record_path is not None and Path(game.record_path).name == f"dicenim-pile=12-{game.index:05d}.json"
        record = Record.load(game.record_path)  # replays and re-validates every move
        assert record.meta["study"] == STUDY.study_id and record.meta["variant"] == "pile=12"
        assert record.replay().result().winners == game.winners


def test_a_game_stored_before_the_moves_digest_gets_it_from_its_record(tmp_path: Path) -> None:
    outcomes = run_study(STUDY, sink=StudyFolder(tmp_path, STUDY))
    digests = {o.key: o.moves_digest for games in outcomes.values() for o in games}
    assert all(digests.values()) and len(set(digests.values())) > 1
    # the lines an older version wrote had no digest: reading them back gives the same one
    games = tmp_path / GAMES_FILE
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    games.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "moves_digest"}) + "\n" for line in lines))
    reopened = StudyFolder(tmp_path, STUDY).done()
    assert {key: o.moves_digest for key, o in reopened.items()} == digests


def test_resume_after_an_interrupt_counts_no_game_twice(tmp_path: Path) -> None:
    uninterrupted = run_study(STUDY)
    with pytest.raises(StudyInterrupted) as stopped:
        run_study(STUDY, StopAfter(5), StudyFolder(tmp_path, STUDY))
    assert sum(len(games) for games in stopped.value.outcomes.values()) == 5
    assert len((tmp_path / GAMES_FILE).read_text().splitlines()) == 5
    seen: list[tuple[str, int]] = []
    resumed = run_study(STUDY, SerialExecutor(), StudyFolder(tmp_path, STUDY), on_outcome=lambda o: seen.append(o.key))
    assert len(seen) == 7  # only the games the first run did not finish
    for name in uninterrupted:
        assert essentials(resumed[name]) == essentials(uninterrupted[name])
    lines = [json.loads(line) for line in (tmp_path / GAMES_FILE).read_text().splitlines()]
    assert len({(line["variant"], line["index"]) for line in lines}) == len(lines) == 12


def test_a_line_cut_short_by_a_crash_is_played_again(tmp_path: Path) -> None:
    run_study(STUDY, sink=StudyFolder(tmp_path, STUDY))
    games = tmp_path / GAMES_FILE
    text = games.read_text()
    games.write_text(text[: len(text) - 40])  # the last line loses its end, as in a crash mid-write
    folder = StudyFolder(tmp_path, STUDY)
    assert len(folder.done()) == 11
    assert games.read_text().endswith("\n")  # the stub is gone, so the next line starts cleanly
    replayed: list[GameOutcome] = []
    run_study(STUDY, sink=folder, on_outcome=replayed.append)
    assert [o.key for o in replayed] == [("pile=12", 5)]  # its own record is replaced by the same game


def test_growing_a_study_plays_only_the_new_games(tmp_path: Path) -> None:
    run_study(STUDY, sink=StudyFolder(tmp_path, STUDY))
    bigger = replace(STUDY, games=8)
    played: list[GameOutcome] = []
    run_study(bigger, sink=StudyFolder(tmp_path, bigger), on_outcome=played.append)
    assert sorted(o.index for o in played) == [6, 6, 7, 7]


def test_folders_that_are_not_this_study_are_refused(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me")
    with pytest.raises(StudyFolderError, match="is a file"):
        StudyFolder(a_file, STUDY)
    with pytest.raises(StudyFolderError, match="not empty and holds no boardlab study"):
        StudyFolder(tmp_path, STUDY)
    StudyFolder(tmp_path / "s", STUDY)
    with pytest.raises(StudyFolderError, match=r"different study \(seed 3 there, 4 asked\)"):
        StudyFolder(tmp_path / "s", replace(STUDY, seed=4))
    assert a_file.read_text() == "keep me"


def test_a_foreign_file_where_a_record_goes_is_never_overwritten(tmp_path: Path) -> None:
    folder = StudyFolder(tmp_path, STUDY)
    squatter = folder.record_path("pile=5", 2)
    squatter.parent.mkdir()
    squatter.write_text('{"meta": {"study": "someone else"}}')
    with pytest.raises(StudyFolderError, match="not this study's record"):
        run_study(STUDY, sink=folder)
    assert squatter.read_text() == '{"meta": {"study": "someone else"}}'


def test_another_studys_games_file_is_refused(tmp_path: Path) -> None:
    StudyFolder(tmp_path, STUDY)
    (tmp_path / GAMES_FILE).write_text('{"study": "0000", "index": 0}\n')
    with pytest.raises(StudyFolderError, match="line 1: not a game of this study"):
        StudyFolder(tmp_path, STUDY)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"index": "x"}, "index 'x' is not a game number"),
        ({"winners": [5]}, "winners [5] names a seat the game does not have"),
        ({"returns": [1.0]}, "returns has 1 entries for 2 seats"),
        ({"returns": [1, "a"]}, "returns [1, 'a'] are not numbers"),
        ({"seat_agents": [0, 7]}, "seat_agents [0, 7] names an agent that is not at the table"),
        ({"variant": "pile=9"}, "variant 'pile=9' is not one of the study's"),
        ({"decisions": 2.5}, "decisions 2.5 is not a whole number"),
        ({"study": None}, "another study's game"),
    ],
)
def test_a_games_line_of_the_right_shape_but_wrong_content_is_refused_saying_what_is_wrong(
    tmp_path: Path, change: dict[str, object], reason: str
) -> None:
    run_study(STUDY, sink=StudyFolder(tmp_path, STUDY))
    games = tmp_path / GAMES_FILE
    lines = games.read_text().splitlines()
    broken = {**json.loads(lines[2]), **change}
    games.write_text("\n".join([*lines[:2], json.dumps(broken), *lines[3:]]) + "\n")
    with pytest.raises(StudyFolderError) as refused:
        StudyFolder(tmp_path, STUDY)
    assert str(refused.value) == (
        f"{games} line 3: not a game of this study ({reason}); remove the line to play that game again, "
        "or choose another folder"
    )


def test_a_games_line_without_its_study_says_which_field_is_missing(tmp_path: Path) -> None:
    StudyFolder(tmp_path, STUDY)
    (tmp_path / GAMES_FILE).write_text('{"index": 0}\n')
    with pytest.raises(StudyFolderError, match=r"line 1: not a game of this study \(no 'study' field\)"):
        StudyFolder(tmp_path, STUDY)


def test_a_folder_of_another_study_is_refused_naming_what_differs_and_how(tmp_path: Path) -> None:
    StudyFolder(tmp_path, STUDY)
    other_agents = replace(STUDY, variants=option_variants(("random", "random"), parse_vary(["pile=5,12"])))
    with pytest.raises(StudyFolderError) as refused:
        StudyFolder(tmp_path, other_agents)
    message = str(refused.value)
    assert "variant 'pile=5': agents [\"random\",\"greedy\"] there, [\"random\",\"random\"] asked" in message
    assert "variant 'pile=12': agents" in message
    with pytest.raises(StudyFolderError, match=r"different study \(seed 3 there, 4 asked\)"):
        StudyFolder(tmp_path, replace(STUDY, seed=4))
    with pytest.raises(StudyFolderError, match=r"\(2 variants there, 1 asked\)"):
        StudyFolder(tmp_path, replace(STUDY, variants=option_variants(("random", "greedy"), parse_vary(["pile=5"]))))
    # options differ in one entry among many: that entry is named, whole, however long the rest
    other_pile = replace(STUDY, variants=option_variants(("random", "greedy"), parse_vary(["pile=6,12"])))
    with pytest.raises(StudyFolderError) as options:
        StudyFolder(tmp_path, other_pile)
    assert "variant 'pile=6': options: pile 5 there, 6 asked" in str(options.value)


def test_progress_clock_runs_from_the_start_and_counts_games_under_way() -> None:
    now = [100.0]
    progress = StudyProgress(total=4, clock=lambda: now[0])
    now[0] = 130.0
    progress.moved(("", 0), 40)
    snap = progress.snapshot()
    assert snap.elapsed == 30.0 and snap.done == 0 and snap.running_moves == 40
    assert snap.remaining is None  # no game finished: no basis for an estimate yet
    finished = GameOutcome(0, 0, (0, 1), (0,), (1.0, 0.0), "x", "x", 80, 80, 1.0)
    progress.finished(finished)
    progress.moved(("", 1), 40)
    snap = progress.snapshot()
    # 1.5 games' worth of work in 30 s (game 1 is half done); 2.5 left: 50 s
    assert (snap.done, snap.running) == (1, 1)
    assert snap.remaining == pytest.approx(50.0)
    progress.moved(("", 0), 79)  # a worker's late tick for a finished game
    assert progress.snapshot().running == 1


def test_the_process_pool_forwards_progress_within_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace, "TICK_SECONDS", 0.0)  # forked workers inherit it: a tick per move
    ticks: list[tuple[tuple[str, int], int]] = []
    plan = replace(STUDY.plans()[1], games=2)
    played = list(ProcessPoolExecutor(2).run([(plan, 0), (plan, 1)], lambda key, ply: ticks.append((key, ply))))
    games = [item for item in played if item is not None]
    assert sorted(g.outcome.index for g in games) == [0, 1]
    assert {key for key, _ in ticks} == {("pile=12", 0), ("pile=12", 1)}
    # a tick comes before each decision, counting the plies already played: the last is one short
    assert max(ply for _, ply in ticks) == max(g.outcome.moves for g in games) - 1


def test_backends_are_named_and_checked() -> None:
    assert isinstance(executors.make_executor("process", 1), SerialExecutor)
    assert isinstance(executors.make_executor("process", 3), ProcessPoolExecutor)
    with pytest.raises(ValueError, match="--jobs"):
        executors.make_executor("process", 0)
    with pytest.raises(ValueError, match="--backend ray"):
        executors.make_executor("process", 1, address="auto")


def test_a_folder_takes_over_only_the_games_another_study_plays_alike(tmp_path: Path) -> None:
    run_study(STUDY, sink=StudyFolder(tmp_path / "both", STUDY))
    # pile=12 alone, on the same seeds: its games are the pile=12 games of the first study
    alone = replace(STUDY, variants=STUDY.variants[1:])
    folder = StudyFolder(tmp_path / "alone", alone)
    assert folder.adopt(tmp_path / "both") == 6
    assert folder.adopt(tmp_path / "both") == 0  # held already
    played = run_study(alone, sink=folder, on_outcome=lambda outcome: pytest.fail("a game was played again"))
    assert essentials(played["pile=12"]) == essentials(run_study(STUDY)["pile=12"])
    # another seed, or a folder that is not a study, gives nothing
    assert StudyFolder(tmp_path / "reseeded", replace(alone, seed=4)).adopt(tmp_path / "both") == 0
    (tmp_path / "stray").mkdir()
    assert StudyFolder(tmp_path / "other", alone).adopt(tmp_path / "stray") == 0
