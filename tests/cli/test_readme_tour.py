"""Every command of the README's tour runs, so the README cannot drift again.

The commands are read from the README itself. Studies keep their flags but play fewer
games, and play reads ``quit`` from its input: the test is about the command lines being
accepted and working, not about their statistics. The other commands run as written (each
takes a few seconds at most).
"""

from __future__ import annotations

import os
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import boardlab
from boardlab.agents import seat_agents
from boardlab.core import Match

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def tour_commands(text: str) -> list[str]:
    """The ``boardlab ...`` lines of the first bash block after the tour's heading, comments cut."""
    tour = text.split("## A tour of the command", 1)[1]
    block = re.search(r"```bash\n(.*?)```", tour, re.S)
    assert block, "the README's tour has no bash block"
    commands = []
    for line in block.group(1).splitlines():
        line = line.split(" #", 1)[0].strip()
        if line.startswith("boardlab "):
            commands.append(line)
    return commands


def shortened(command: str) -> tuple[list[str], str]:
    """The argument list to run and the input to give it, for one tour command."""
    args = shlex.split(command)[1:]
    name = args[0]
    if name in ("simulate", "lab", "tournament"):
        games = {"simulate": "2", "lab": "1", "tournament": "1"}[name]
        args[args.index("-n") + 1] = games
    elif name not in ("games", "rules", "agents", "play", "replay", "render", "analyse", "check", "learn"):
        pytest.fail(f"the tour's {name!r} command has no short form in this test yet: {command}")
    stdin = "quit\nquit\n" if name in ("play", "learn") else "q\n" if name == "replay" else ""
    return args, stdin


def write_saved_game(path: Path) -> None:
    """The tour's ``game.json``: an unfinished Towers game of 14 moves between two people."""
    game = boardlab.load("towers")
    match = Match(game, seat_agents(game, ["human", "human"], 7), seed=7, undo="same_screen")
    rng = random.Random(7)
    while match.ply < 14:
        seat = match.to_move()
        match.play(seat, rng.choice(match.legal_moves(seat)))
    assert not match.is_over()
    match.record(saved_by="test").save(path)


def test_the_tour_reads_its_commands_from_the_readme() -> None:
    commands = tour_commands(README.read_text(encoding="utf-8"))
    assert len(commands) >= 15
    assert any("--resume game.json" in c for c in commands) and any(c.startswith("boardlab check") for c in commands)


def test_every_command_of_the_readme_tour_runs(tmp_path: Path) -> None:
    write_saved_game(tmp_path / "game.json")
    environment = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT)}
    failures = []
    began = time.monotonic()
    for command in tour_commands(README.read_text(encoding="utf-8")):
        args, stdin = shortened(command)
        done = subprocess.run(
            [sys.executable, "-m", "boardlab", *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=environment,
            timeout=120,
        )
        if done.returncode != 0 or "Traceback" in done.stderr:
            failures.append(f"{command}\n  exit {done.returncode}: {done.stderr.strip()[-400:]}")
    assert not failures, "README tour commands that fail:\n" + "\n".join(failures)
    assert time.monotonic() - began < 300
