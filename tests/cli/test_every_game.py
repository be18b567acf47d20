"""Every registered game can be played in the terminal: moves typed as text, a wrong
entry refused, undo, save. The CLI knows games only through the protocol, so this
runs unchanged for each new game."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console

import boardlab
from boardlab.agents import seat_agents
from boardlab.cli.play import PlaySession
from boardlab.core import Match
from boardlab.core.records import Record


@pytest.mark.parametrize("game_id", boardlab.game_ids())
def test_a_person_plays_every_game_by_typing_notation(game_id: str, tmp_path: Path) -> None:
    game = boardlab.load(game_id)
    seed = 11
    match = Match(game, seat_agents(game, ["human"] + ["random"] * (game.num_players - 1), seed), seed=seed)
    buffer = io.StringIO()
    typed: list[str] = []
    rng = random.Random(1)
    target = tmp_path / "game.json"
    session: PlaySession

    def person(prompt: str) -> str:
        if not prompt.startswith(game.player_name(0)):
            return ""  # a hand-over or the end-of-game save offer
        if not typed:
            entry = "?? not a move"
        elif len(typed) < 6:
            entry = str(rng.choice(session.match.legal_moves(0)))
        elif len(typed) == 6:
            entry = "undo"
        elif len(typed) == 7:
            entry = f"save {target}"
        else:
            entry = "quit"
        typed.append(entry)
        return entry

    session = PlaySession(match, Console(file=buffer, width=120), person)
    assert session.run() == 0
    output = buffer.getvalue()
    assert "Not played" in output
    if match.is_over():
        assert "Game over" in output
    else:
        assert "Took back" in output
        assert Record.load(target).replay().position() == match.record().final_position
