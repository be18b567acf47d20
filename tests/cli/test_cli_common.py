"""What the subcommands share (boardlab.cli.common): the --players list's error shows an example
that every command taking the list accepts (``human`` is for ``play`` only)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.cli.common import split_specs
from boardlab.core.errors import OptionError
from boardlab.lab.play import SimulationPlan


@pytest.mark.parametrize("text", ["", "greedy,,random", "greedy, "])
def test_an_empty_entry_names_the_list_and_shows_an_example(text: str) -> None:
    with pytest.raises(OptionError, match=re.escape(f"--players {text!r}: empty entry (expected e.g. ")):
        split_specs(text)


def test_the_example_of_the_empty_entry_error_is_accepted_by_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "towers", "--players", "", "-n", "1"]) == 2
    message = " ".join(capsys.readouterr().err.split())
    found = re.search(r"expected e\.g\. (\S+)\)", message)
    assert found is not None, message
    example = split_specs(found.group(1))
    # what simulate checks before a game is played: every spec makes an agent of the game
    SimulationPlan(game_id="towers", agents=tuple(example), games=1).validate()


def test_an_output_file_the_system_refuses_is_named_without_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    too_long = f"{tmp_path}/{'y' * 300}.png"
    assert main(["render", "towers", "-o", too_long]) == 2
    error = " ".join(capsys.readouterr().err.split())
    assert error.startswith("error:") and "File name too long" in error


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["play", "towers", "--players", "human,random,random"], "towers: players=3 not allowed; 2 or 4 players"),
        (["play", "honor", "--players", "human,honor,honor,honor,honor"], "honor: players=5 not allowed; 2-4 players"),
        (["simulate", "towers", "--players", "greedy,random,random", "-n", "1"], "players=3 not allowed; 2 or 4"),
        (["simulate", "towers", "--players", "hard:seconds=1,random", "-n", "1"], "the level 'hard' takes no parameters"),
    ],
)
def test_a_count_of_players_or_a_level_the_game_cannot_take_is_named_as_given(
    capsys: pytest.CaptureFixture[str], arguments: list[str], words: str
) -> None:
    # more players listed than the game seats by default name that count, not the default's
    assert main(arguments) == 2
    assert words in " ".join(capsys.readouterr().err.split())
