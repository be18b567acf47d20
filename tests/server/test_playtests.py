"""Players who come back and playtests on the server: a remembered player (a name and a key,
nothing required to play), whose name reaches only the other players of a game and the
designers; the form after a game; a designer's sessions with a variant and an invite link;
the designer's view of people's games beside the lab's, and its export."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from sqlalchemy import select, text

from boardlab.core.records import Record
from boardlab.lab.playtest_form import RECORD_ANSWERS, record_answers
from boardlab.lab.playtests import RECORD_SESSION
from boardlab.lab.store import StudyFolder
from boardlab.lab.study import Study, Variant, run_study
from boardlab.server import Settings
from boardlab.server.designers import ADMIN_KEY_FILE
from boardlab.server.storage import Storage
from boardlab.server.tables import players
from tests.server.harness import Harness, auth, make_harness


def designer(server: Harness) -> dict[str, str]:
    key = (Path(server.app.state.settings.data_dir) / ADMIN_KEY_FILE).read_text().strip()
    return {"X-Designer-Key": key}


def new_player(server: Harness, name: str) -> dict[str, str]:
    made = server.client.post("/api/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"X-Player-Key": made.json()["key"]}


def two_people(server: Harness, session: str | None = None) -> tuple[str, str, str]:
    """A room of two people (here and invite), both seated: (room, first token, second token)."""
    if session is None:
        created = server.create("towers", ["here", "invite"])
        room, first, code = created.room, created.token, created.invites[0]["code"]
    else:
        made = server.client.post(f"/api/playtests/invitations/{session}/rooms", json={})
        assert made.status_code == 201, made.text
        room, first, code = made.json()["room"], made.json()["token"], made.json()["invites"][0]["code"]
    second = server.join(room, code).json()["token"]
    assert first is not None
    return room, first, second


def play_moves(server: Harness, room: str, tokens: list[str], count: int) -> dict[str, Any]:
    """``count`` moves, each the first legal move of the seat to move."""
    state = server.state(room, tokens[0])
    for _ in range(count):
        token = tokens[state["to_move"]]
        mine = server.state(room, token)
        answer = server.move(room, token, mine["legal_moves"][0]["notation"], mine["ply"])
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


def finished(server: Harness, session: str | None = None, moves: int = 4, resigning: int = 0) -> tuple[str, list[str]]:
    room, first, second = two_people(server, session)
    tokens = [first, second]
    play_moves(server, room, tokens, moves)
    assert server.act(room, tokens[resigning], "resign").status_code == 200
    return room, tokens


def answer(server: Harness, room: str, token: str, body: dict[str, Any], key: dict[str, str] | None = None) -> Any:
    return server.client.put(f"/api/rooms/{room}/playtest", json=body, headers={**auth(token), **(key or {})})


def test_a_remembered_player_is_a_name_and_a_key_and_storage_keeps_only_its_hash(server: Harness) -> None:
    key = new_player(server, "Ada")
    assert server.client.get("/api/players/me", headers=key).json()["name"] == "Ada"
    renamed = server.client.patch("/api/players/me", json={"name": "Ada L."}, headers=key)
    assert renamed.json()["name"] == "Ada L."
    with server.storage.engine.connect() as conn:
        stored = conn.execute(select(players)).mappings().all()
    assert len(stored) == 1 and key["X-Player-Key"] not in str(dict(stored[0]))
    missing = server.client.get("/api/players/me")
    assert missing.status_code == 401 and missing.json()["error"]["code"] == "player_key_missing"
    wrong = server.client.get("/api/players/me", headers={"X-Player-Key": "nobody-s-key-at-all-here"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_player_key"
    for bad in ("", "x" * 41, "A\x00"):
        refused = server.client.post("/api/players", json={"name": bad})
        assert refused.status_code == 422, bad
    # nothing of it is needed to play: a room without a key plays as ever
    created = server.create("towers", ["here", "here"])
    assert server.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0).status_code == 200


def test_a_players_name_reaches_the_other_players_of_the_game_and_the_designers_only(server: Harness) -> None:
    room, first, second = two_people(server)
    ada, ben = new_player(server, "Ada"), new_player(server, "Ben")
    linked = server.client.post(f"/api/rooms/{room}/player", headers={**auth(first), **ada})
    assert linked.json() == {"room": room, "seats": [0]}
    assert server.client.post(f"/api/rooms/{room}/player", headers={**auth(second), **ben}).json()["seats"] == [1]
    names = {"0": "Ada", "1": "Ben"}
    for who in (auth(first), auth(second), designer(server)):
        assert server.client.get(f"/api/rooms/{room}/players", headers=who).json()["names"] == names
    spectator = server.client.get(f"/api/rooms/{room}/players")
    assert spectator.status_code == 401 and spectator.json()["error"]["code"] == "missing_token"
    other_room = server.create("towers", ["here", "here"])
    stranger = server.client.get(f"/api/rooms/{room}/players", headers=auth(other_room.token))
    assert stranger.status_code == 403 and stranger.json()["error"]["code"] == "bad_token"
    # what anybody may read keeps the seats' own names
    for public in (server.state(room), server.client.get("/api/rooms").json()):
        assert "Ada" not in str(public) and "Ben" not in str(public)
    # a seat is linked only with its token
    assert server.client.post(f"/api/rooms/{room}/player", headers=ada).status_code == 401
    assert server.client.post(f"/api/rooms/{room}/player", headers={**auth(other_room.token), **ada}).status_code == 403


def test_the_players_games_say_their_seats_results_and_answers(server: Harness) -> None:
    room, tokens = finished(server, resigning=1)
    ada = new_player(server, "Ada")
    server.client.post(f"/api/rooms/{room}/player", headers={**auth(tokens[0]), **ada})
    unfinished, first, _ = two_people(server)
    server.client.post(f"/api/rooms/{unfinished}/player", headers={**auth(first), **ada})
    answer(server, room, tokens[0], {"fun": 5}, ada)
    games = server.client.get("/api/players/me/games", headers=ada).json()
    assert [game["room"] for game in games] == [unfinished, room]  # the latest first
    done = games[1]
    assert done["your_seats"] == [0] and done["answered"] == [0] and done["result"]["winners"] == [0]
    assert done["player_names"] == {"0": "Ada"} and games[0]["status"] == "playing"


def test_the_form_is_for_the_people_of_a_finished_game_one_answer_per_seat(server: Harness) -> None:
    room, first, second = two_people(server)
    early = answer(server, room, first, {"fun": 4})
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_over"
    server.act(room, first, "resign")
    for body, code in (
        ({"fun": 6}, "bad_request"),
        ({"fun": True}, "bad_request"),
        ({"fairness": "favoured"}, "bad_option"),  # favoured names the seat
        ({"fairness": "fair", "favoured": 1}, "bad_option"),
        ({"favoured": 3, "fairness": "favoured"}, "bad_option"),  # towers has seats 0 and 1
        ({}, "bad_option"),  # an empty form is skipped, not sent
        ({"note": "x" * 1001}, "bad_request"),
        ({"length": "endless"}, "bad_request"),
    ):
        refused = answer(server, room, first, body)
        assert refused.json()["error"]["code"] == code, (body, refused.text)
    assert answer(server, room, first, {"seat": 1, "fun": 3}).json()["error"]["code"] == "not_your_seat"
    assert server.client.put(f"/api/rooms/{room}/playtest", json={"fun": 3}).json()["error"]["code"] == "missing_token"
    given = answer(server, room, first, {"fun": 2, "fairness": "favoured", "favoured": 1, "length": "long", "note": "  slow  "})
    assert given.status_code == 200, given.text
    assert given.json()["seats"] == [
        {"seat": 0, "answer": {"seat": 0, "fun": 2, "fairness": "favoured", "favoured": 1, "length": "long", "note": "slow"}}
    ]
    changed = answer(server, room, first, {"fun": 4})  # a second answer replaces the first
    assert changed.json()["seats"][0]["answer"]["fun"] == 4 and changed.json()["seats"][0]["answer"]["length"] is None
    assert server.client.get(f"/api/rooms/{room}/playtest", headers=auth(second)).json()["seats"] == [{"seat": 1, "answer": None}]
    gone = server.client.delete(f"/api/rooms/{room}/playtest", params={"seat": 0}, headers=auth(first))
    assert gone.json()["seats"] == [{"seat": 0, "answer": None}]
    # against the computer, the computer's seat has no form
    alone = server.create("towers", ["here", "computer:beginner"])
    server.act(alone.room, alone.token, "resign")
    assert server.client.get(f"/api/rooms/{alone.room}/playtest", headers=auth(alone.token)).json()["seats"] == [
        {"seat": 0, "answer": None}
    ]
    assert answer(server, alone.room, alone.token, {"seat": 1, "fun": 1}).json()["error"]["code"] == "not_your_seat"
    # two people at one screen share a token: each answer names its seat
    shared = server.create("towers", ["here", "here"])
    server.act(shared.room, shared.token, "resign")
    assert answer(server, shared.room, shared.token, {"fun": 3}).json()["error"]["code"] == "not_your_seat"
    assert answer(server, shared.room, shared.token, {"seat": 1, "fun": 3}).status_code == 200


def test_a_player_deletes_every_answer_of_theirs_and_can_be_forgotten(server: Harness) -> None:
    ada = new_player(server, "Ada")
    rooms = [finished(server) for _ in range(2)]
    for room, tokens in rooms:
        server.client.post(f"/api/rooms/{room}/player", headers={**auth(tokens[0]), **ada})
        assert answer(server, room, tokens[0], {"fun": 5, "note": "mine"}, ada).status_code == 200
        assert answer(server, room, tokens[1], {"fun": 1, "note": "theirs"}).status_code == 200
    assert len(server.client.get("/api/players/me/answers", headers=ada).json()) == 2
    assert server.client.request("DELETE", "/api/players/me/answers", headers=ada).json() == {"deleted": 2}
    for room, tokens in rooms:
        seats = server.client.get(f"/api/rooms/{room}/playtest", headers=auth(tokens[1])).json()["seats"]
        assert seats[0]["answer"]["note"] == "theirs"  # the other player's answers stay
        assert server.client.get(f"/api/rooms/{room}/playtest", headers=auth(tokens[0])).json()["seats"][0]["answer"] is None
    assert server.client.delete("/api/players/me", headers=ada).status_code == 204
    assert server.client.get("/api/players/me", headers=ada).json()["error"]["code"] == "bad_player_key"
    room, tokens = rooms[0]
    assert server.client.get(f"/api/rooms/{room}/players", headers=auth(tokens[1])).json()["names"] == {}


@pytest.mark.both_databases
def test_a_designers_session_gives_its_rooms_its_game_rules_and_name(server: Harness) -> None:
    body = {"game": "towers", "name": "Thursday club", "options": {"layout": "pinwheel"}}
    assert server.client.post("/api/playtests/sessions", json=body).json()["error"]["code"] == "designer_key_missing"
    mistyped = {**body, "options": {"ply_cap": "40"}}
    wrong_type = server.client.post("/api/playtests/sessions", json=mistyped, headers=designer(server))
    assert wrong_type.json()["error"]["code"] == "bad_option"
    opened = server.client.post("/api/playtests/sessions", json=body, headers=designer(server))
    assert opened.status_code == 201, opened.text
    session = opened.json()
    assert session["variant"] == "layout=pinwheel" and session["link"] == f"/?playtest={session['id']}"
    again = server.client.post("/api/playtests/sessions", json=body, headers=designer(server))
    assert again.status_code == 409 and "Thursday club" in again.json()["error"]["message"]
    invitation = server.client.get(f"/api/playtests/invitations/{session['id']}").json()
    assert invitation["name"] == "Thursday club" and invitation["options"]["layout"] == "pinwheel"
    room, first, second = two_people(server, session["id"])
    assert server.stored(room).room.session == session["id"] and server.stored(room).room.options["layout"] == "pinwheel"
    computer = server.client.post(f"/api/playtests/invitations/{session['id']}/rooms", json={"seats": ["here", "computer:easy"]})
    assert computer.status_code == 422
    # the game's end, a rematch: still the session's
    server.act(room, first, "resign")
    server.act(room, first, "rematch")
    rematch = server.act(room, second, "rematch/answer", {"action": "accept"}).json()["rematch"]["room"]
    assert server.stored(rematch).room.session == session["id"]
    listed = server.client.get("/api/playtests/sessions", params={"game": "towers"}, headers=designer(server)).json()
    assert listed[0]["rooms"] == 2 and listed[0]["finished"] == 1
    closed = server.client.post(f"/api/playtests/sessions/{session['id']}/close", headers=designer(server))
    assert closed.json()["closed"] is not None
    late = server.client.post(f"/api/playtests/invitations/{session['id']}/rooms", json={})
    assert late.status_code == 409 and "closed" in late.json()["error"]["message"]
    # an id that is nobody's (or holds what no database keeps) is no session and no room, on either database
    for odd in ("nothing-here", "\x00", "a\x00b", "x" * 40):
        path = quote(odd, safe="")
        assert server.client.get(f"/api/playtests/invitations/{path}").status_code == 404, odd
        assert server.client.post(f"/api/playtests/sessions/{path}/close", headers=designer(server)).status_code == 404, odd
        report = server.client.get("/api/playtests/games/towers", params={"session": odd[:32]}, headers=designer(server))
        assert report.status_code in (404, 422), odd  # 422: text no database keeps, refused before anything runs
        assert server.client.get(f"/api/rooms/{path}/playtest", headers=auth(first)).status_code == 404, odd


def lab_study(data_dir: Path, games: int) -> Path:
    """A stored Lab study of Towers' rules as written (the server Lab's folder layout)."""
    study = Study(game_id="towers", variants=(Variant("", {}, ("greedy",)),), games=games, seed=3)
    folder = data_dir / "lab" / "a1b2c3" / "study"
    run_study(study, sink=StudyFolder(folder, study))
    return folder


def test_the_designers_view_puts_people_per_session_beside_the_labs_study(server: Harness, tmp_path: Path) -> None:
    opened = server.client.post("/api/playtests/sessions", json={"game": "towers", "name": "club"}, headers=designer(server))
    session = opened.json()["id"]
    ada = new_player(server, "Ada")
    rooms = []
    for number in range(3):
        room, tokens = finished(server, session if number < 2 else None, moves=2 + 2 * number, resigning=number % 2)
        server.client.post(f"/api/rooms/{room}/player", headers={**auth(tokens[0]), **ada})
        answer(server, room, tokens[0], {"fun": 3 + number % 2, "length": "right", "note": f"note {number}"}, ada)
        answer(server, room, tokens[1], {"fun": 2, "fairness": "fair"})
        rooms.append(room)
    alone = server.create("towers", ["here", "computer:beginner"])
    server.act(alone.room, alone.token, "resign")
    refused = server.client.get("/api/playtests/games/towers")
    assert refused.status_code == 401
    study = lab_study(Path(server.app.state.settings.data_dir), games=4)
    report = server.client.get("/api/playtests/games/towers", headers=designer(server)).json()
    assert report["games"] == 3 and report["left_out"] == {"with the computer": 1}
    (variant,) = report["variants"]
    people = variant["people"]
    assert people["games"] == 3 and people["metrics"]["decisions"]["value"] == pytest.approx((2 + 4 + 6) / 3)
    assert people["endings"] == {"resign": 3} and variant["endings"].startswith("Endings among people: resign 3; in the lab: ")
    assert people["form"]["answers"] == 6 and people["form"]["fun"]["value"] == pytest.approx((3 + 4 + 3 + 2 * 3) / 6)
    assert people["form"]["fair"] == {
        "value": 1.0, "low": pytest.approx(0.44, abs=0.01), "high": 1.0, "games": 3, "text": "100% [43, 100]"
    }  # the text every table shows (the page writes no figure itself)
    notes = {note["note"]: note for note in people["notes"]}
    assert notes["note 0"]["replay"] == f"/rooms/{rooms[0]}" and notes["note 0"]["player"] == "Ada"
    assert notes["note 0"]["session"] == "club" and notes["note 2"]["session"] is None
    (club,) = variant["sessions"]
    assert club["session"] == "club" and club["people"]["games"] == 2
    assert variant["lab"]["games"] == 4 and variant["comparison"]["decisions"]["games"] == 3
    # the study in words: a web page shows no path of the server's (and this study has no report)
    assert "The lab's figures: 4 games of Towers (the rules as written), greedy in every seat." in variant["verdict"]
    assert variant["lab"]["study"]["report"] is None
    assert str(study.parent.parent) not in json.dumps(report) and "folder" not in variant["lab"]["study"]
    only_club = server.client.get("/api/playtests/games/towers", params={"session": session}, headers=designer(server)).json()
    assert only_club["games"] == 2
    # the export: a row per person per game, and the records with their answers
    rows = list(csv.DictReader(io.StringIO(
        server.client.get("/api/playtests/games/towers/export", params={"format": "csv"}, headers=designer(server)).text
    )))
    assert len(rows) == 6 and {row["player"] for row in rows} == {"Ada", ""}
    exported = server.client.get("/api/playtests/games/towers/export", headers=designer(server))
    assert "attachment" in exported.headers["content-disposition"]
    records = [Record.from_json(data) for data in exported.json()["records"]]
    assert {record.meta["room"] for record in records} == set(rooms)
    for record in records:
        record.replay()
        assert [answer.seat for answer in record_answers(record)] == [0, 1]
        assert record.meta.get(RECORD_SESSION, "club") == "club" and RECORD_ANSWERS in record.meta
    assert server.client.get("/api/playtests/games/towers/export").status_code == 401


def test_the_designers_view_links_the_report_of_a_study_of_the_servers_lab(server: Harness) -> None:
    started = server.client.post("/api/lab/studies", headers=designer(server),
                                 json={"game": "towers", "agents": ["greedy", "random"], "games": 2})
    assert started.status_code == 201, started.text
    study_id = started.json()["id"]
    deadline = time.monotonic() + 120  # a worker starts and plays: slow on a busy two-core machine
    while (state := server.client.get(f"/api/lab/studies/{study_id}", headers=designer(server)).json())["state"] != "finished":
        assert state["state"] != "failed" and time.monotonic() < deadline, state
        time.sleep(0.2)
    finished(server)
    report = server.client.get("/api/playtests/games/towers", headers=designer(server)).json()
    (variant,) = report["variants"]
    study = variant["lab"]["study"]
    assert study["report"] == state["report"] == f"/lab/{study_id}/report"  # where the Lab page links it
    assert study["about"] == "2 games of Towers (the rules as written), between greedy and random"
    assert f"The lab's figures: {study['about']}." in variant["verdict"]
    assert str(server.app.state.settings.data_dir) not in json.dumps(report)


def test_a_database_made_before_sessions_gains_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'boardlab.sqlite3'}"
    with make_harness(url, tmp_path) as server:
        created = server.create("towers", ["here", "here"])
    old = Storage(Settings(database_url=url).storage_url())
    with old.engine.begin() as conn:  # as the rooms were before the column came
        conn.execute(text("DROP INDEX ix_rooms_session"))
        conn.execute(text("ALTER TABLE rooms DROP COLUMN session"))
    old.close()
    with make_harness(url, tmp_path) as server:
        assert server.stored(created.room).room.session is None
        opened = server.client.post("/api/playtests/sessions", json={"game": "towers", "name": "x"}, headers=designer(server))
        room, _, _ = two_people(server, opened.json()["id"])
        assert server.stored(room).room.session == opened.json()["id"]


def test_joining_with_a_player_key_links_the_seat_in_the_same_commit(server: Harness) -> None:
    created = server.create("towers", ["here", "invite"])
    bea = new_player(server, "Bea")
    joined = server.client.post(f"/api/rooms/{created.room}/join", json={"code": created.invites[0]["code"]}, headers=bea)
    assert joined.status_code == 200, joined.text
    # the host, told of the join, finds the guest's name at once; everybody else sees the seat's own name
    names = server.client.get(f"/api/rooms/{created.room}/players", headers=auth(created.token)).json()["names"]
    assert names == {"1": "Bea"} and joined.json()["state"]["seats"][1]["name"] == "Black"
    assert [game["room"] for game in server.client.get("/api/players/me/games", headers=bea).json()] == [created.room]
