"""One move numbering: the players' moves counted from 1, a roll or a deal no move. The match log,
a record read back, ``play``'s prompt and history, ``replay``, ``render`` and ``analyse`` all say
"move N" for the same move; Territories' 20 deals and seat draw no longer make the first move
"move 22", and Overseer's board no longer shows a second count of its own."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import boardlab
from boardlab.agents import seat_agents
from boardlab.cli import main
from boardlab.cli.play import PlaySession
from boardlab.cli.replay import move_boundaries
from boardlab.core import CHANCE, Match
from boardlab.core.records import Record
from boardlab.core.turns import Turn, moves_made, next_move_number, numbered
from tests.cli.test_play_session import Script


def random_match(game_id: str, seed: int, moves: int) -> Match:
    game = boardlab.load(game_id)
    match = Match(game, seat_agents(game, ["human"] * game.num_players, seed), seed=seed, undo="same_screen")
    rng = random.Random(seed)
    for _ in range(moves):
        seat = match.to_move()
        if seat < 0:
            break
        match.play(seat, rng.choice([m for m in match.legal_moves(seat) if m.json_type() != "resign"]))
    return match


def assert_numbered(log: list[Turn]) -> None:
    """Decisions carry 1, 2, 3 ... in order; chance outcomes carry no number."""
    decisions = [turn for turn in log if turn.by != CHANCE]
    assert [turn.move_number for turn in decisions] == list(range(1, len(decisions) + 1))
    assert all(turn.move_number is None for turn in log if turn.by == CHANCE)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 40), back=st.integers(0, 3))
def test_the_log_numbers_decisions_only_through_undo_and_a_record(seed: int, moves: int, back: int) -> None:
    match = random_match("territories", seed, moves)
    for _ in range(back):
        if moves_made(match.log()) == 0:
            break
        match.undo(0)  # people at one screen: the last person's move, whoever made it
    assert_numbered(match.log())
    assert match.decisions == moves_made(match.log())
    reread = Record.loads(match.record().dumps())
    assert [t.move_number for t in reread.turns] == [t.move_number for t in match.log()]
    assert all(entry["move_number"] == turn.move_number for entry, turn in zip(match.log_json(None), match.log()))


def test_territories_first_move_is_move_1_after_the_deals() -> None:
    match = random_match("territories", 2, 0)
    assert len(match.log()) > 20 and moves_made(match.log()) == 0  # 20 deals and the seat draw
    assert next_move_number(match.log(), 0) == 1
    script = Script(["quit", "quit"])
    buffer = io.StringIO()
    PlaySession(match, Console(file=buffer, width=100), script).run()
    assert script.prompts[0].endswith(", move 1 > "), script.prompts


def test_numbering_old_turns_counts_decisions() -> None:
    turns = [
        Turn(1, CHANCE, 0.0, None, "d6"), Turn(2, 0, 0.0, None, "a"), Turn(3, CHANCE, 0.0, None, "d2"), Turn(4, 1, 0.0, None, "b")
    ]
    assert [turn.move_number for turn in numbered(turns)] == [None, 1, None, 2]
    assert next_move_number(turns, 0) == 3 and next_move_number(turns, CHANCE) is None  # turns without numbers


def test_overseer_board_shows_no_move_count_of_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    match = random_match("overseer", 4, 4)
    text = match.game.render_view(match.view(None))
    assert "(ply" not in text and "Move " not in text  # it said "Move 3 (ply 4)" under the frame's "move 5"
    buffer = io.StringIO()
    script = Script(["quit", "quit"])
    PlaySession(match, Console(file=buffer, width=100), script).run()
    assert script.prompts[0].endswith("move 5 > ")


@pytest.fixture
def territories_record(tmp_path: Path) -> tuple[Path, Record]:
    match = random_match("territories", 5, 30)
    path = tmp_path / "game.json"
    match.record().save(path)
    return path, Record.load(path)


def test_replay_render_and_analyse_name_the_same_move(
    territories_record: tuple[Path, Record], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = territories_record
    total = moves_made(record.turns)
    assert total == 30
    boundaries = move_boundaries(record.turns)
    assert len(boundaries) == total + 1 and record.turns[boundaries[11]].move_number == 12

    assert main(["replay", str(path), "--to", "11"]) == 0
    replayed = capsys.readouterr().out
    eleventh = next(t for t in record.turns if t.move_number == 11)
    assert f"after move 11 of {total}" in replayed and eleventh.notation in " ".join(replayed.split())
    assert main(["replay", str(path), "--to", str(total + 1)]) == 2
    assert f"the record has moves 0..{total}" in capsys.readouterr().err

    assert main(["render", str(path), "--move", "11", "-o", str(tmp_path / "board.txt")]) == 0
    assert "after move 11" in capsys.readouterr().out
    drawn = (tmp_path / "board.txt").read_text(encoding="utf-8")
    assert "after move 11" in drawn and "after move 12" not in drawn
    # the position after move 11 is the one replay shows: the eleventh move and the chance after it
    assert record.state_at(boundaries[11]).position() == Record.load(path).state_at(boundaries[11]).position()

    assert main(["analyse", str(path), "--budget", "2", "--json"]) == 0
    analysis = json.loads(capsys.readouterr().out)
    assert len(analysis["moves"]) == len(record.turns)  # the analysis indexes every log entry
    assert main(["analyse", str(path), "--budget", "2"]) == 0
    table = capsys.readouterr().out
    assert f"move 0 to {total}" in table


def test_analyse_warns_about_a_record_of_other_rules(
    territories_record: tuple[Path, Record], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = territories_record
    data = json.loads(path.read_text(encoding="utf-8"))
    data["rules_version"] = "0.1"
    data.pop("final_position", None)  # the older rules' final position is not checked
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["analyse", str(path), "--budget", "1", "--json"]) == 0
    assert "rules version 0.1" in capsys.readouterr().err
