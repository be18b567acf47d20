"""The ``boardlab`` command end to end, in a process of its own with scripted stdin.

``python -m tests.cli.run_boardlab`` is the real command with the test game
dicenim registered (forked from a process that imported it once: tests/support/command.py);
``python -m boardlab`` is the command as installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import boardlab
from tests.support.command import MODULE, run_command

ROOT = Path(__file__).resolve().parents[2]


def run(
    *args: str, stdin: str = "", command: str = MODULE, env: dict | None = None, cwd: Path = ROOT
):
    """Run the command; the CompletedProcess (text). The test-game command is forked from a
    process that has imported it already (tests/support/command.py); another starts afresh."""
    environment = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT), **(env or {})}
    if command == MODULE:
        return run_command(args, cwd=cwd, environment=environment, stdin=stdin)
    return subprocess.run(
        [sys.executable, "-m", command, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=120,
    )


def test_games_lists_every_registered_game_as_a_table() -> None:
    done = run("games")
    assert done.returncode == 0, done.stderr
    for game_id in boardlab.game_ids():
        assert game_id in done.stdout
    assert "players" in done.stdout


def test_games_json_is_the_catalog() -> None:
    done = run("games", "--json")
    assert json.loads(done.stdout) == json.loads(json.dumps(boardlab.catalog()))


def test_games_detail_lists_options_with_allowed_values() -> None:
    done = run("games", "dicenim")
    assert done.returncode == 0
    assert "pile" in done.stdout and "a whole number from 1 to 50" in " ".join(done.stdout.replace("│", " ").split())
    # a game that does not say how it plays is described by its flags (chance, hidden information)
    assert "luck, hidden information" in done.stdout


def test_games_says_how_each_game_plays_in_its_own_words() -> None:
    done = run("games", "--json")
    nature = {entry["id"]: entry["nature"] for entry in json.loads(done.stdout)}
    # Honor's chance is the hand's tremor and its hidden information a seed: no dice, no cards
    assert nature["honor"] == ["physics", "a small tremor on every release"]
    assert nature["territories"] == ["dice", "hidden cards"]
    assert nature["towers"] == nature["sovereign"] == nature["overseer"] == ["no luck", "nothing hidden"]
    assert nature["dicenim"] == ["luck", "hidden information"]


def test_python_dash_m_boardlab_works_without_test_games() -> None:
    done = run("--version", command="boardlab")
    assert done.returncode == 0 and boardlab.__version__ in done.stdout


def test_unknown_game_is_one_line_naming_the_valid_ids() -> None:
    done = run("play", "chess")
    assert done.returncode == 2
    assert "unknown game 'chess'" in done.stderr and "dicenim" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_option_names_the_option() -> None:
    done = run("simulate", "dicenim", "--players", "random", "-n", "2", "--option", "pile=99")
    assert done.returncode == 2
    assert "pile" in done.stderr and "50" in done.stderr


def test_rules_shows_the_rules_document_or_says_where_it_is_missing() -> None:
    done = run("rules", "dicenim")
    assert done.returncode == 2 and "docs/rules/dicenim.md" in done.stderr
    documented = [g for g in boardlab.game_ids() if (ROOT / "docs" / "rules" / f"{g}.md").exists()]
    for game_id in documented[:2]:
        done = run("rules", game_id, "--plain")
        assert done.returncode == 0
        assert done.stdout == (ROOT / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8")


def test_hot_seat_game_with_a_wrong_entry_undo_save_then_replay(tmp_path: Path) -> None:
    saved = tmp_path / "hotseat.json"
    # dicenim hides each player's bid, so each hand-over asks for Enter first
    lines = ["", "moves", "take7", "take2", "", "take1", "", "undo", "", "take3", "", f"save {saved}", "quit"]
    script = "\n".join(lines) + "\n"
    done = run("play", "dicenim", "--players", "human,human", "--seed", "4", stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "3 legal moves:" in out and "take1   take2   take3" in out
    assert "Not played" in out and "take7" in out
    assert "P1 plays take2" in out and "P2 plays take1" in out
    assert "Took back 2 moves" in out  # P2's take1 and the die after it
    assert "P2 plays take3" in out
    assert f"Saved 2 moves to {saved}" in out  # P1's take2 and P2's take3: the deals and the dice are no moves

    replayed = run("replay", str(saved), "--final")
    assert replayed.returncode == 0, replayed.stderr
    assert "after move 2 of 2" in replayed.stdout
    assert "unfinished" in replayed.stdout

    # a step is a player's move with the die thrown after it: move 1 is P1's take2 and its die
    stepped = run("replay", str(saved), stdin="\n\n\nb\n6\nq\n")
    assert stepped.returncode == 0
    assert "after move 1 of 2: P1 take2; chance " in stepped.stdout
    assert "after move 2 of 2: P2 take3" in stepped.stdout and "No move 3: the game has moves 0..2" in stepped.stdout
    assert "No move 6" in stepped.stdout


def test_resume_goes_on_with_a_saved_game(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    first = run("play", "dicenim", "--players", "human,random", "--seed", "2", stdin=f"take1\nsave {saved}\nquit\n")
    assert first.returncode == 0, first.stderr
    moves_before = len(json.loads(saved.read_text())["moves"])
    refused = run("play", "--resume", str(saved), stdin=f"take1\nsave {saved}\nn\nquit\nquit\n")
    assert refused.returncode == 0, refused.stderr
    assert "exists. Replace it?" in refused.stdout and "was kept as it was" in refused.stdout
    assert len(json.loads(saved.read_text())["moves"]) == moves_before  # not replaced without a yes
    second = run("play", "--resume", str(saved), stdin=f"take1\nsave {saved}\ny\nquit\n")
    assert second.returncode == 0, second.stderr
    assert len(json.loads(saved.read_text())["moves"]) > moves_before


def test_resume_with_a_level_plays_the_records_computer_seats_at_it(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    first = run("play", "towers", "--seed", "3", stdin=f"b7+\nsave {saved}\nquit\n")
    assert first.returncode == 0 and "Black (normal)" in first.stdout, first.stderr
    resumed = run("play", "--resume", str(saved), "--level", "easy", stdin="quit\nquit\n")
    assert resumed.returncode == 0 and "Towers: White, Black (easy)" in resumed.stdout


def test_end_of_input_exits_cleanly_and_says_where_the_game_is(tmp_path: Path) -> None:
    done = run("play", "dicenim", "--players", "human,random", "--seed", "2", stdin="take1\n", cwd=tmp_path)
    assert done.returncode == 0  # the input ending is a normal end, not an interrupt
    assert "Traceback" not in done.stderr
    assert "--resume" in done.stdout
    assert list(tmp_path.glob("boardlab-dicenim-*.json"))  # in the current folder, not a temporary one


def test_a_broken_record_names_the_first_bad_move(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    run("play", "dicenim", "--players", "human,human", "--seed", "4", stdin=f"\ntake2\n\ntake1\n\nsave {saved}\nquit\n")
    data = json.loads(saved.read_text())
    data["moves"][4]["move"] = "take9"
    saved.write_text(json.dumps(data))
    done = run("replay", str(saved))
    assert done.returncode == 2
    assert "move 5" in done.stderr and "take9" in done.stderr
    saved.write_text("{ truncated")
    done = run("replay", str(saved))
    assert done.returncode == 2 and "not valid JSON" in done.stderr


def test_simulate_prints_wins_draws_and_lengths() -> None:
    done = run("simulate", "dicenim", "--players", "random,random", "-n", "6")
    assert done.returncode == 0, done.stderr
    for heading in ("wins per seat", "draws", "per agent", "by agent and seat", "game length", "std dev", "median",
                    "Seat balance"):
        assert heading in done.stdout
    assert "random#1" in done.stdout and "random#2" in done.stdout


def test_simulate_json_with_jobs_and_records_matches_a_serial_run(tmp_path: Path) -> None:
    args = ("simulate", "dicenim", "--players", "random,greedy", "-n", "8", "--rotate", "--seed", "3", "--json")
    parallel = run(*args, "--jobs", "2", "--records", str(tmp_path))
    serial = run(*args)
    assert parallel.returncode == 0, parallel.stderr
    data, again = json.loads(parallel.stdout), json.loads(serial.stdout)
    assert data["games"] == 8 and sum(data["seat_wins"]) + data["draws"] == 8
    assert {k: v for k, v in data.items() if k != "seconds_per_game"} == {
        k: v for k, v in again.items() if k != "seconds_per_game"
    }
    records = sorted((tmp_path / "records").glob("dicenim-*.json"))
    assert len(records) == 8
    assert run("replay", str(records[0]), "--final").returncode == 0


def test_render_prints_the_text_board_and_writes_it_as_text(tmp_path: Path) -> None:
    shown = run("render", "dicenim", "--position", "7 1 0 2 0")
    assert shown.returncode == 0 and '"pile": 7' in shown.stdout
    done = run("render", "dicenim", "--position", "7 1 0 2 0", "-o", str(tmp_path / "x.txt"))
    assert done.returncode == 0, done.stderr
    assert f"Wrote the text board to {tmp_path / 'x.txt'}" in done.stdout.replace("\n", "")
    assert '"pile": 7' in (tmp_path / "x.txt").read_text() and "\x1b[" not in (tmp_path / "x.txt").read_text()
    bad = run("render", "dicenim", "--position", "7 1 0")
    assert bad.returncode == 2 and "expected 5 fields" in bad.stderr


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("x.png", "no picture renderer, so"),  # it used to write nothing and exit 0
        ("board", "must end in .png"),  # it used to write board.png and say "Wrote board"
        ("", "empty file name"),
        ("x.jpeg", "must end in .png"),
        ("no/such/folder/x.txt", "does not exist"),
    ],
)
def test_render_refuses_what_it_cannot_write_and_writes_nothing(tmp_path: Path, name: str, message: str) -> None:
    done = run("render", "dicenim", "-o", name, cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr.replace("\n", " "), done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_render_to_a_folder_or_an_existing_file_is_refused(tmp_path: Path) -> None:
    folder = run("render", "dicenim", "-o", str(tmp_path))
    assert folder.returncode == 2 and "is a folder" in folder.stderr
    (tmp_path / "old.txt").write_text("keep me")
    kept = run("render", "dicenim", "-o", str(tmp_path / "old.txt"))
    assert kept.returncode == 2 and "--force" in kept.stderr
    assert (tmp_path / "old.txt").read_text() == "keep me"
    inside_a_file = run("render", "dicenim", "-o", str(tmp_path / "old.txt" / "x.txt"))
    assert inside_a_file.returncode == 2 and "old.txt is a file, not a folder" in inside_a_file.stderr.replace("\n", "")
    replaced = run("render", "dicenim", "-o", str(tmp_path / "old.txt"), "--force")
    assert replaced.returncode == 0 and "pile" in (tmp_path / "old.txt").read_text()


@pytest.mark.parametrize("game_id", [g for g in boardlab.game_ids() if boardlab.game_class(g).image_renderer is not None])
def test_render_writes_a_png_where_the_game_draws_pictures(game_id: str, tmp_path: Path) -> None:
    target = tmp_path / "state.png"
    done = run("render", game_id, "-o", str(target))
    assert done.returncode == 0, done.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"Wrote the picture {target}" in done.stdout.replace("\n", "")


def test_play_from_a_position_string() -> None:
    # pile 3, P1 to move, bids dealt: taking all three counters wins at once
    done = run("play", "dicenim", "--players", "human,random", "--position", "3 0 0 1 2", stdin="take3\n\n")
    assert done.returncode == 0, done.stderr
    assert "Game over: P1 wins" in done.stdout
    over = run("play", "dicenim", "--players", "human,random", "--position", "0 1 0 1 2")
    assert over.returncode == 2 and "already over" in over.stderr


def test_agents_lists_every_computer_player_with_its_parameters() -> None:
    from boardlab.agents import agent_class, agent_names

    done = run("agents")
    assert done.returncode == 0
    for name in agent_names():
        assert name in done.stdout
        for param in agent_class(name).params:
            assert param in done.stdout
    # each parameter's default and kind in words, not Python's (None, int)
    shown = " ".join(done.stdout.replace("│", " ").split())
    assert "nodes=none (a whole number)" in shown and "None" not in shown and "(int)" not in shown


def test_replay_refuses_a_seat_that_does_not_exist(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    run("play", "dicenim", "--players", "human,random", "--seed", "2", stdin=f"take1\nsave {saved}\nquit\n")
    done = run("replay", str(saved), "--final", "--seat", "3")
    assert done.returncode == 2 and "seats 1..2" in done.stderr
    done = run("replay", str(saved), "--to", "99")
    assert done.returncode == 2 and "--to 99" in done.stderr


def test_check_runs_the_conformance_suite_on_a_game() -> None:
    done = run("check", "dicenim", "--quick")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pass  twins_look_the_same" in done.stdout and "All " in done.stdout
    unknown = run("check", "chess")
    assert unknown.returncode == 2 and "unknown game 'chess'" in unknown.stderr


def test_a_game_specific_agent_is_refused_for_another_game() -> None:
    done = run("play", "towers", "--players", "human,honor", "--seed", "1", stdin="b7+\n")
    assert done.returncode == 2
    assert "agent honor plays only honor, not towers" in done.stderr
    assert "Traceback" not in done.stderr
    listed = run("agents")
    assert "every game" in listed.stdout


def test_a_records_header_names_only_the_options_changed_in_words(tmp_path: Path) -> None:
    from boardlab.agents import seat_agents

    for options, said in (({}, "the rules as written"), ({"expand_max_extent": "9x8", "reshuffle_discards": True},
                                                          "reshuffle_discards=true, expand_max_extent=9x8")):
        game = boardlab.load("territories", **options)
        match = boardlab.Match(game, seat_agents(game, ["human", "human"], seed=3), seed=3)
        path = tmp_path / f"game-{len(options)}.json"
        match.record().save(str(path))
        done = run("replay", str(path), "--final")
        assert done.returncode == 0, done.stderr
        header = " ".join(done.stdout.split("seed")[0].split())
        assert header == f"Territories, 2 players, {said},", header  # not 24 options, nor True and None
        # a person left unnamed is said to be one, not named by the seat again ("White: White")
        assert "White: a person, Black: a person." in " ".join(done.stdout.split())


def test_a_yes_or_no_question_shows_its_answers() -> None:
    # the prompt is plain text: read as markup, "[y/N]" vanished and the question hung there bare
    done = run("play", "towers", "--level", "easy", "--no-survey", stdin="resign\nn\nquit\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "White: resign the game? [y/N]" in done.stdout
