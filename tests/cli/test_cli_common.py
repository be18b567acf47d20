"""What the subcommands share (boardlab.cli.common): the --players list's error shows an example
that every command taking the list accepts (``human`` is for ``play`` only)."""

from __future__ import annotations

import re

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
