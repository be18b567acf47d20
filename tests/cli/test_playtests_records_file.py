"""``boardlab playtests GAME RECORDS``: a file given by name that holds no record of GAME is
refused, named with what is wrong with it; in a folder of records a stray file is counted as
left out, as docs/playtests.md says."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.lab.play import SimulationPlan, play_one


def unwrapped(text: str) -> str:
    """``text`` without its spaces and line breaks: the terminal may wrap a long path anywhere."""
    return "".join(text.split())


def saved_record(folder: Path, game_id: str, agent: str) -> Path:
    """One finished game of ``game_id`` saved as a record, as ``simulate --records`` keeps it."""
    played = play_one(SimulationPlan(game_id=game_id, agents=(agent,), games=1), 0)
    return played.record.save(folder / f"{game_id}.json")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"format": 2, "game": "tow', "not valid JSON"),  # a truncated save
        ("garbage", "not valid JSON"),
        ('{"colour": "blue"}', "not a game record: it has no 'format' field (it holds 'colour')"),
        ("[1, 2, 3]", "a record must be a JSON object"),
        ("[" * 100_000, "its JSON is nested too deeply"),
    ],
)
def test_a_named_file_that_is_no_record_is_refused_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, problem: str
) -> None:
    broken = tmp_path / "saved.json"
    broken.write_text(text, encoding="utf-8")
    assert main(["playtests", "towers", str(broken)]) == 2
    shown = capsys.readouterr()
    message = unwrapped(shown.err)
    assert message.startswith(unwrapped(f"error: {broken} is not a record nor a server's export"))
    assert unwrapped(problem) in message
    assert "Traceback" not in shown.err and "No finished game" not in shown.out


def test_a_named_file_that_is_not_text_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "picture.json"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00")
    assert main(["playtests", "towers", str(binary)]) == 2
    assert "it is not text" in " ".join(capsys.readouterr().err.split())


def test_a_named_record_of_another_game_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = saved_record(tmp_path, "dicenim", "random")
    assert main(["playtests", "towers", str(other)]) == 2
    assert unwrapped(f"{other} is a record of dicenim, not towers") in unwrapped(capsys.readouterr().err)


def test_a_named_record_of_the_game_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = saved_record(tmp_path, "towers", "greedy")
    assert main(["playtests", "towers", str(record)]) == 0
    assert "left out: 1 with the computer" in " ".join(capsys.readouterr().out.split())


def test_a_folder_counts_its_stray_files_as_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved_record(tmp_path, "towers", "greedy")
    (tmp_path / "notes.json").write_text('{"todo": "ask Ada', encoding="utf-8")
    assert main(["playtests", "towers", str(tmp_path)]) == 0
    assert "1 not records" in " ".join(capsys.readouterr().out.split())
