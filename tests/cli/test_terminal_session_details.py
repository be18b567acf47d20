"""What players ran into in the terminal, one test each.

Subprocess tests drive the real command with piped input (tests/cli/test_commands.py's
``run``); the others drive a PlaySession or a command function in-process.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console

import boardlab
from boardlab.agents import seat_agents
from boardlab.cli.info import rules_command, with_raw_colours
from boardlab.cli.play import PlaySession
from boardlab.core import Match
from tests.cli.test_commands import ROOT, run
from tests.cli.test_play_session import Script

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def flat(text: str) -> str:
    """Output with rich's line breaks undone."""
    return " ".join(text.split())


def saved_dicenim(folder: Path, name: str = "g.json", moves: str = "take1\ntake1\ntake1\n") -> Path:
    """A saved, unfinished dicenim game against the computer."""
    path = folder / name
    done = run("play", "dicenim", "--players", "human,random", "--seed", "2", stdin=f"{moves}save {path}\nquit\n")
    assert done.returncode == 0 and path.exists(), done.stdout + done.stderr
    return path


# --- item 9: a recovery file never overwrites a file the player did not agree to --------------
def test_recovery_after_resume_and_undo_leaves_the_resumed_file_unchanged(tmp_path: Path) -> None:
    saved = saved_dicenim(tmp_path)
    before = saved.read_bytes()
    done = run("play", "--resume", str(saved), stdin="undo\nundo\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert saved.read_bytes() == before
    (recovery,) = tmp_path.glob("boardlab-dicenim-*.json")
    assert str(recovery) in done.stdout.replace("\n", "") and "was left as it was" in flat(done.stdout)
    assert len(json.loads(recovery.read_text())["moves"]) < len(json.loads(before)["moves"])


def test_recovery_after_declining_to_overwrite_leaves_that_file_unchanged(tmp_path: Path) -> None:
    kept = tmp_path / "f.json"
    kept.write_text("keep me")
    done = run(
        "play", "dicenim", "--players", "human,random", "--seed", "2", stdin="take1\nsave f.json\nn\n", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert kept.read_text() == "keep me"
    (recovery,) = tmp_path.glob("boardlab-dicenim-*.json")
    assert boardlab.Record.load(recovery).moves[2] == "take1"


# --- item 14: the input ending exits 0; Ctrl-C keeps 130 -------------------------------------
def test_end_of_input_exits_0_and_ctrl_c_exits_130(tmp_path: Path) -> None:
    game = boardlab.load("dicenim")

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    def ended(prompt: str) -> str:
        raise EOFError

    for reader, status in ((ended, 0), (interrupted, 130)):
        match = Match(game, seat_agents(game, ["human", "random"], 1), seed=1)
        play = PlaySession(match, Console(file=io.StringIO()), reader)
        assert play.run() == status


# --- item 12: the seed of a game with chance stays secret until the end ----------------------
def test_seed_commitment_at_the_start_and_the_seed_at_the_end() -> None:
    done = run("play", "dicenim", "--players", "human,random", stdin="quit\n")
    assert done.returncode == 0, done.stderr
    text = flat(done.stdout)
    commitment = re.search(r"commitment SHA-256 ([0-9a-f]{64})", text)
    revealed = re.search(r"The seed was (\d+)", text)
    assert commitment and revealed, text
    seed = int(revealed.group(1))
    assert hashlib.sha256(seed.to_bytes(32, "big")).hexdigest() == commitment.group(1)
    assert revealed.group(1) not in text[: revealed.start()]
    assert seed.bit_length() > 64  # too large to try out against the commitment


def test_a_seed_the_player_chose_or_one_without_chance_is_printed() -> None:
    chosen = run("play", "dicenim", "--players", "human,random", "--seed", "7", stdin="quit\n")
    assert "(seed 7;" in chosen.stdout and "commitment" not in chosen.stdout
    towers = run("play", "towers", "--players", "human,random", stdin="quit\n")
    assert re.search(r"\(seed \d+;", towers.stdout) and "commitment" not in towers.stdout


# --- item 13: one move numbering on a screen ------------------------------------------------
def test_prompt_board_and_history_number_moves_alike() -> None:
    game = boardlab.load("dicenim")
    reader = Script(["take1", "history"])
    buffer = io.StringIO()
    match = Match(game, seat_agents(game, ["human", "random"], 3), seed=3)
    PlaySession(match, Console(file=buffer, width=200, highlight=False), reader).run()
    prompts = reader.prompts
    history = re.findall(r"(\d+)\. (?:P1|P2) ", buffer.getvalue())
    asked = int(re.search(r"move (\d+) > ", prompts[-1]).group(1))
    # the players' moves only: the secrets dealt and the dice are chance, listed without a number
    assert asked == int(history[-1]) + 1 == match.decisions + 1
    assert "(chance: " in buffer.getvalue()
    assert f"P1's view, move {asked}" in buffer.getvalue()


def test_towers_shows_one_move_number_per_board() -> None:
    done = run("play", "towers", "--players", "human,random", "--seed", "1", stdin="b7+\nquit\nquit\n")
    boards = done.stdout.split("╭")[1:]
    assert len(boards) == 2
    for board in boards:
        numbers = set(re.findall(r"\bmove\s+(\d+)", board))
        assert len(numbers) == 1, board
    assert "move 3" in boards[1]


# --- item 8: the rules pager shows styles, not ESC codes, and breaks lines between words -----
def test_rules_pager_gets_less_r_and_whole_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pager = tmp_path / "pager.py"
    pager.write_text(
        "import os, sys\n"
        f"open({str(tmp_path / 'less.txt')!r}, 'w').write(os.environ.get('LESS', ''))\n"
        f"open({str(tmp_path / 'paged.txt')!r}, 'wb').write(sys.stdin.buffer.read())\n"
    )
    monkeypatch.delenv("MANPAGER", raising=False)
    monkeypatch.setenv("PAGER", f"{sys.executable} {pager}")
    monkeypatch.setenv("LESS", "-F")
    out = Console(file=io.StringIO(), force_terminal=True, width=80, color_system="standard")
    assert rules_command(argparse.Namespace(game="towers", plain=False), out, out) == 0
    assert (tmp_path / "less.txt").read_text() == "-F -R"
    paged = (tmp_path / "paged.txt").read_text(encoding="utf-8")
    assert "\x1b[" in paged  # the styles went to the pager, for less -R to show
    plain = ANSI.sub("", paged)
    assert max(len(line) for line in plain.splitlines()) <= 80
    source_words = set(re.findall(r"[A-Za-z]+", (ROOT / "docs" / "rules" / "towers.md").read_text(encoding="utf-8")))
    assert set(re.findall(r"[A-Za-z]+", plain)) <= source_words  # no fragment of a broken word


def test_less_flags_of_the_player_are_kept() -> None:
    assert with_raw_colours("") == "-R"
    assert with_raw_colours("FRX") == "FRX"
    assert with_raw_colours("-i -M") == "-i -M -R"
    assert with_raw_colours("--RAW-CONTROL-CHARS") == "--RAW-CONTROL-CHARS"


# --- item 14: record files ---------------------------------------------------------------------
def test_render_refuses_a_record_whose_final_position_is_wrong(tmp_path: Path) -> None:
    saved = saved_dicenim(tmp_path)
    data = json.loads(saved.read_text())
    data["final_position"] = "9 0 0 1 2"
    saved.write_text(json.dumps(data))
    for command in (("render", str(saved)), ("render", str(saved), "--move", "1"), ("replay", str(saved), "--final")):
        done = run(*command)
        assert done.returncode == 2 and "final position" in done.stderr, (command, done.stderr)


def test_a_record_from_a_newer_rules_version_is_announced(tmp_path: Path) -> None:
    saved = saved_dicenim(tmp_path)
    data = json.loads(saved.read_text())
    data["rules_version"] = "99"
    saved.write_text(json.dumps(data))
    for command in (("render", str(saved)), ("play", "--resume", str(saved)), ("replay", str(saved), "--final")):
        done = run(*command, stdin="quit\n")
        assert done.returncode == 0, done.stderr
        assert "rules version 99, newer than" in flat(done.stderr), (command, done.stderr)


def test_resuming_a_record_without_seats_says_who_the_computer_plays(tmp_path: Path) -> None:
    saved = saved_dicenim(tmp_path)
    data = json.loads(saved.read_text())
    data["seats"] = []
    saved.write_text(json.dumps(data))
    done = run("play", "--resume", str(saved), stdin="quit\n")
    assert done.returncode == 0, done.stderr
    said = flat(done.stderr)
    assert "names no players: you play P1" in said and "plays P2" in said


def test_a_record_with_a_utf8_byte_order_mark_loads(tmp_path: Path) -> None:
    saved = saved_dicenim(tmp_path)
    saved.write_bytes(b"\xef\xbb\xbf" + saved.read_bytes())
    for command in (("replay", str(saved), "--final"), ("render", str(saved)), ("play", "--resume", str(saved))):
        done = run(*command, stdin="quit\n")
        assert done.returncode == 0, (command, done.stderr)


def test_check_leaves_no_hypothesis_folder(tmp_path: Path) -> None:
    done = run("check", "dicenim", "--quick", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (tmp_path / ".hypothesis").exists()


def test_games_never_breaks_an_option_name() -> None:
    done = run("games", "towers", env={"COLUMNS": "60"})
    assert done.returncode == 0, done.stderr
    (towers,) = [entry for entry in boardlab.catalog() if entry["id"] == "towers"]
    for option in towers["options"]:
        assert re.search(rf"│ {option['name']}\s", done.stdout), option["name"]


def test_history_says_a_run_of_chance_in_one_bracket() -> None:
    # Territories opens with twenty cards dealt and the first seat drawn: one bracket, not 21
    game = boardlab.load("territories")
    buffer = io.StringIO()
    match = Match(game, seat_agents(game, ["human", "human"], 3), seed=3)
    PlaySession(match, Console(file=buffer, width=400, highlight=False), Script(["history"])).run()
    history = next(line for line in buffer.getvalue().splitlines() if line.startswith("(chance: deal"))
    first = "White" if match.log()[20].notation == "P1=seat0" else "Black"
    assert history.strip() == f"(chance: deal ×20, {first} plays first)", history
