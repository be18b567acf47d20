"""The terminal board reads without colour and fits a 60-column screen."""

from __future__ import annotations

import io

from rich.console import Console

import boardlab
from boardlab.cli.common import board_panel

CROWNED = "-,WW,-,-,-,BB,-/WW,-,-,C,-,-,BB/-,-,-,-,-,-,-/-,CWWWW,-,CB,-,C,-/-,-,-,-,-,-,-/BB,-,-,C,-,-,WW/-,BB,-,-,-,WW,- W"


def plain_lines(state: boardlab.State, title: str = "Towers") -> list[str]:
    console = Console(width=60, no_color=True, color_system=None, record=True, file=io.StringIO())
    console.print(board_panel(state.game, state.view(0), title))
    return console.export_text().splitlines()


def test_a_crowned_castle_looks_different_without_colour() -> None:
    state = boardlab.load("towers").state_from_position(CROWNED)
    text = "\n".join(plain_lines(state))
    assert "{CWWWW}" in text  # crowned (rule 7.3)
    assert "[CB]" in text and "[C]" in text  # plain castles
    assert "[CWWWW]" not in text


def test_the_board_fits_60_columns_and_keeps_its_width_as_moves_pass() -> None:
    game = boardlab.load("towers")
    state = game.new_state(seed=3)
    widths = set()
    for _ in range(14):  # moves 0..13: the counters gain a digit at 10
        lines = plain_lines(state)
        assert max(len(line) for line in lines) <= 60
        widths.add(len(lines[0]))
        state.play(state.legal_moves()[0])
    assert len(widths) == 1
