"""``boardlab playtests`` over a server's database (SQLite in its data folder, and PostgreSQL)
reads the same people's games, answers and sessions the designer's page shows, and as a
server's export (a file of records) the same again; a session by name; the CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from boardlab.cli import main
from tests.server.harness import Harness
from tests.server.test_playtests import answer, designer, finished, new_player


def playtests(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["playtests", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def people_games(server: Harness) -> dict[str, Any]:
    """Three games between people, two in a session, with answers; one against the computer."""
    opened = server.client.post(
        "/api/playtests/sessions", json={"game": "towers", "name": "club", "options": {"layout": "pinwheel"}},
        headers=designer(server),
    ).json()
    ada = new_player(server, "Ada")
    for number in range(3):
        room, tokens = finished(server, opened["id"] if number < 2 else None, moves=2 + 2 * number, resigning=number % 2)
        server.client.post(f"/api/rooms/{room}/player", headers={"Authorization": f"Bearer {tokens[0]}", **ada})
        answer(server, room, tokens[0], {"fun": 2 + number, "length": "long", "note": f"note {number}"}, ada)
    alone = server.create("towers", ["here", "computer:beginner"])
    server.act(alone.room, alone.token, "resign")
    return opened


@pytest.mark.both_databases
def test_the_command_reads_what_the_designers_page_shows(
    server: Harness, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    people_games(server)
    page = server.client.get("/api/playtests/games/towers", headers=designer(server)).json()
    # SQLite: the server's data folder; PostgreSQL: its URL
    where = ["--data-dir", str(tmp_path)] if database_url.startswith("sqlite") else ["--database-url", database_url]
    status, shown, _ = playtests(capsys, "towers", *where, "--json")
    assert status == 0
    report = json.loads(shown)
    assert report["games"] == 3 and report["left_out"] == {"with the computer": 1}
    assert report["variants"] == page["variants"]
    assert [session["name"] for session in report["sessions"]] == ["club"]
    status, shown, _ = playtests(capsys, "towers", *where, "--session", "club", "--csv")
    rows = list(csv.DictReader(io.StringIO(shown)))
    assert status == 0 and len(rows) == 4 and {row["session"] for row in rows} == {"club"}
    assert {row["note"] for row in rows if row["player"] == "Ada"} == {"note 0", "note 1"}
    status, shown, _ = playtests(capsys, "towers", *where)
    assert status == 0 and "layout=pinwheel" in shown and "note 2" in shown and "Ada" in shown
    status, _, error = playtests(capsys, "towers", *where, "--session", "nobody's")
    assert status == 2 and "no playtest session named" in error and "'club'" in error


def test_a_servers_export_reads_as_the_same_games(
    sqlite_server: Harness, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    people_games(sqlite_server)
    exported = sqlite_server.client.get("/api/playtests/games/towers/export", headers=designer(sqlite_server))
    file = tmp_path / "export.json"
    file.write_bytes(exported.content)
    from_database = json.loads(playtests(capsys, "towers", "--data-dir", str(tmp_path), "--json")[1])
    status, shown, _ = playtests(capsys, "towers", str(file), "--json")
    assert status == 0
    from_file = json.loads(shown)
    for mine, theirs in zip(from_file["variants"], from_database["variants"]):
        assert mine["people"]["metrics"] == theirs["people"]["metrics"] and mine["people"]["form"] == theirs["people"]["form"]
        assert [note["room"] for note in mine["people"]["notes"]] == [note["room"] for note in theirs["people"]["notes"]]
        assert [(session["session"], session["people"]["metrics"]) for session in mine["sessions"]] == [
            (session["session"], session["people"]["metrics"]) for session in theirs["sessions"]
        ]


def test_a_data_folder_without_a_database_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, error = playtests(capsys, "towers", "--data-dir", str(tmp_path / "none"))
    assert status == 2 and "no server database in" in error
    status, _, error = playtests(capsys, "chess")
    assert status == 2 and "unknown game 'chess'" in error
