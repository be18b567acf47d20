"""The HTTP API on SQLite and PostgreSQL: the catalog, rooms, seats, moves, the computer,
undo, resignation, draws, the clock, listings and record downloads."""

from __future__ import annotations

import time
from pathlib import Path

import boardlab
import boardlab.agents
from boardlab import Record
from boardlab.cli import main as cli_main
from tests.server.harness import Harness, auth


def first_move(state: dict) -> str:
    return state["legal_moves"][0]["notation"]


def test_the_catalog_lists_every_registered_game_with_its_options_and_levels(server: Harness) -> None:
    games = server.client.get("/api/games").json()
    assert [game["id"] for game in games] == boardlab.game_ids()
    by_id = {game["id"]: game for game in games}
    for game_id, game in by_id.items():
        levels = {entry["level"]: entry["agent"] for entry in game["levels"]}
        # the catalog shows each game's own level table, weakest first (expert only where it has one)
        assert list(levels) == list(boardlab.agents.game_levels(boardlab.load(game_id)))
        assert list(levels)[:4] == ["beginner", "easy", "normal", "hard"]
        assert levels == boardlab.agents.level_table(boardlab.load(game_id))
    # a game's own agent plays it at its level
    assert by_id["honor"]["levels"][3]["agent"] == "honor:level=hard,evaluation=fitted"
    one = server.client.get("/api/games/towers").json()
    assert [option["name"] for option in one["options"]] == [option["name"] for option in by_id["towers"]["options"]]


def test_sovereigns_expert_level_takes_a_seat_where_honor_has_none(server: Harness) -> None:
    # docs/levels.md: Sovereign has a fifth level, alpha-beta judging by its search's own weights; Honor has four
    created = server.create("sovereign", ["here", "computer:expert"])
    seat = created.state["view"]["match"]["seats"][1]
    sovereign = boardlab.load("sovereign")
    expert = boardlab.agents.make_agent(boardlab.agents.level_spec(sovereign, "expert"), game=sovereign)
    assert seat["agent"] == expert.spec()
    assert seat["agent"].startswith("alphabeta:") and "evaluation=search" in seat["agent"]
    levels = [entry["level"] for entry in server.client.get("/api/games/sovereign").json()["levels"]]
    assert levels == ["beginner", "easy", "normal", "hard", "expert"]
    refused = server.client.post("/api/rooms", json={"game": "honor", "seats": ["here", "computer:expert"]})
    assert refused.status_code == 422 and "honor has no expert level" in refused.json()["error"]["message"]


def test_a_new_room_seats_its_creator_and_shows_only_the_deciding_seat_its_moves(server: Harness) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    state = created.state
    assert state["status"] == "playing" and state["seat"] == 0 and state["your_seats"] == [0]
    assert state["view"]["format"] == "boardlab-view/1" and state["view"]["match"]["seats"][1]["agent"] == "greedy"
    # each legal move is its notation plus the structure a page highlights
    push = next(move for move in state["legal_moves"] if move["type"] == "push")
    assert {"notation", "from", "to", "direction"} <= set(push)
    spectator = server.state(created.room)
    assert spectator["seat"] is None and spectator["your_seats"] == [] and spectator["legal_moves"] == []
    assert spectator["view"]["viewer"] is None


def test_a_move_is_stored_before_it_is_acknowledged_and_the_computer_replies(server: Harness) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    text = first_move(created.state)
    response = server.move(created.room, created.token, text, created.state["ply"])
    assert response.status_code == 200, response.text
    assert response.json()["log"][0] == {**response.json()["log"][0], "by": 0, "text": text}
    stored_first = server.stored(created.room).moves[0]
    assert (stored_first.text, stored_first.by) == (text, 0)
    after = server.wait(created.room, created.token, lambda state: state["ply"] == 2 and not state["thinking"])
    assert after["log"][1]["by"] == 1 and after["legal_moves"]
    assert [move.by for move in server.stored(created.room).moves] == [0, 1]


def test_people_at_one_screen_share_a_token_and_take_back_the_last_persons_move(server: Harness) -> None:
    created = server.create("towers", ["here", "here"])
    assert created.state["view"]["match"]["undo"] == "same_screen"
    first = server.move(created.room, created.token, first_move(created.state), 0).json()
    assert first["seat"] == 1 and first["your_seats"] == [0, 1] and first["legal_moves"]
    second = server.move(created.room, created.token, first_move(first), first["ply"]).json()
    assert second["ply"] == 2
    undone = server.act(created.room, created.token, "undo", {"revision": second["revision"]}).json()
    assert undone["ply"] == 1 and len(server.stored(created.room).moves) == 1
    # a named seat's view, among the token's seats
    assert server.state(created.room, created.token, seat=0)["seat"] == 0


def test_a_seat_named_null_is_called_by_its_own_name(server: Harness) -> None:
    created = server.create("towers", ["here", "invite", "computer:easy", "here"], players=4, names=["Ann", None, None, "Cy"])
    assert [seat["name"] for seat in created.state["seats"]] == ["Ann", "Blue", "Computer (easy)", "Cy"]


def test_an_invited_person_joins_once_with_the_code_and_then_the_game_begins(server: Harness) -> None:
    created = server.create("towers", ["here", "invite"], names=["Ann", "Bob"])
    assert created.state["status"] == "waiting" and created.state["legal_moves"] == []
    (invite,) = created.invites
    assert invite["seat"] == 1 and invite["code"] in invite["link"]
    refused = server.move(created.room, created.token, "f1+", 0)
    assert refused.json()["error"]["code"] == "waiting_for_players"
    joined = server.join(created.room, invite["code"], name="Robert")
    assert joined.status_code == 200, joined.text
    guest = joined.json()
    assert guest["seat"] == 1 and guest["state"]["status"] == "playing" and guest["state"]["your_seats"] == [1]
    assert guest["state"]["seats"][1] == {"seat": 1, "kind": "invite", "name": "Robert", "agent": "human", "joined": True}
    again = server.join(created.room, invite["code"])
    assert (again.status_code, again.json()["error"]["code"]) == (409, "seat_taken")
    wrong = server.join(created.room, "not-the-code")
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (403, "bad_invite")
    host = server.state(created.room, created.token)
    played = server.move(created.room, created.token, first_move(host), host["ply"]).json()
    reply = server.move(created.room, guest["token"], first_move(server.state(created.room, guest["token"])), played["ply"])
    assert reply.status_code == 200 and reply.json()["log"][-1]["by"] == 1
    # take-backs need the other person's consent: none with an invited person
    asked = {"revision": reply.json()["revision"]}
    assert server.act(created.room, guest["token"], "undo", asked).json()["error"]["code"] == "undo_refused"


def test_rooms_are_listed_by_status_and_game_without_secrets(server: Harness) -> None:
    waiting = server.create("towers", ["here", "invite"])
    playing = server.create("territories", ["here", "here"])
    finished = server.create("towers", ["here", "here"])
    server.act(finished.room, finished.token, "resign")

    def listed(status: str, game: str | None = None) -> list[str]:
        params = {"status": status} if game is None else {"status": status, "game": game}
        return [entry["room"] for entry in server.client.get("/api/rooms", params=params).json()]

    assert listed("open") == [waiting.room]
    assert listed("playing") == [playing.room]
    assert listed("finished") == [finished.room]
    assert set(listed("all")) == {waiting.room, playing.room, finished.room}
    assert set(listed("all", "towers")) == {waiting.room, finished.room}
    entry = server.client.get("/api/rooms", params={"status": "finished"}).json()[0]
    assert entry["result"]["code"] == "resign" and entry["moves"] == 0
    text = server.client.get("/api/rooms").text
    assert "seed" not in text and "hash" not in text and waiting.invites[0]["code"] not in text


def test_rooms_of_an_unknown_game_are_refused_naming_the_games(server: Harness) -> None:
    response = server.client.get("/api/rooms", params={"game": "chess"})
    assert response.status_code == 404, response.text
    error = response.json()["error"]
    assert error["code"] == "unknown_game" and "'chess'" in error["message"] and "towers" in error["message"]


def test_a_seat_the_token_does_not_hold_is_refused_saying_how_to_watch(server: Harness) -> None:
    created = server.create("towers", ["here", "invite"])
    response = server.client.get(f"/api/rooms/{created.room}", headers={"Authorization": f"Bearer {created.token}"},
                                 params={"seat": 1})
    assert response.status_code == 403, response.text
    message = response.json()["error"]["message"]
    assert message.endswith("does not hold seat 1; leave the seat out to watch as a spectator") and "None" not in message


def test_a_listed_room_counts_the_players_moves_not_the_deals(server: Harness) -> None:
    # Territories deals its cards and draws the first seat before anyone moves (chance, no move)
    created = server.create("territories", ["here", "here"])
    state = created.state
    chance_entries = sum(1 for entry in state["log"] if entry["move_number"] is None)
    assert chance_entries > 0
    played = server.move(created.room, created.token, state["legal_moves"][0]["notation"], state["ply"])
    assert played.status_code == 200, played.text
    entry = next(e for e in server.client.get("/api/rooms", params={"status": "playing"}).json() if e["room"] == created.room)
    assert entry["moves"] == 1
    assert len(server.stored(created.room).moves) > 1  # the deals are stored too


def test_undo_against_the_computer_takes_back_its_reply_too(server: Harness) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    server.move(created.room, created.token, first_move(created.state), 0)
    replied = server.wait(created.room, created.token, lambda state: state["ply"] == 2)
    undone = server.act(created.room, created.token, "undo", {"seat": 0, "revision": replied["revision"]})
    assert undone.status_code == 200, undone.text
    assert undone.json()["ply"] == 0 and undone.json()["legal_moves"]
    assert server.stored(created.room).moves == []


def test_resigning_ends_the_game_and_the_record_downloads_for_boardlab_replay(server: Harness, tmp_path: Path) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    early = server.client.get(f"/api/rooms/{created.room}/record")
    assert (early.status_code, early.json()["error"]["code"]) == (409, "game_not_over")
    server.move(created.room, created.token, first_move(created.state), 0)
    server.wait(created.room, created.token, lambda state: state["ply"] == 2)
    over = server.act(created.room, created.token, "resign").json()
    assert over["status"] == "finished" and over["view"]["result"]["code"] == "resign"
    assert over["view"]["result"]["winners"] == [1] and over["legal_moves"] == []
    download = server.client.get(f"/api/rooms/{created.room}/record")
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    path = tmp_path / "game.json"
    path.write_text(download.text)
    record = Record.load(path)  # every move re-validated
    assert record.ending is not None and record.ending.code == "resign" and len(record.moves) == 2
    assert cli_main(["replay", str(path), "--final"]) == 0
    after = server.move(created.room, created.token, "f1+", over["ply"])
    assert after.json()["error"]["code"] == "game_over"


def test_draws_are_offered_declined_and_agreed_where_the_game_allows_them(server: Harness) -> None:
    created = server.create("towers", ["here", "here"])
    offered = server.act(created.room, created.token, "draw", {"action": "offer", "seat": 0}).json()
    assert offered["view"]["match"]["draw_offer"] == [0]
    declined = server.act(created.room, created.token, "draw", {"action": "decline", "seat": 1}).json()
    assert declined["view"]["match"]["draw_offer"] is None
    server.act(created.room, created.token, "draw", {"action": "offer", "seat": 0})
    agreed = server.act(created.room, created.token, "draw", {"action": "accept", "seat": 1}).json()
    assert agreed["status"] == "finished" and agreed["view"]["result"]["code"] == "agreement"
    cardgame = server.create("territories", ["here", "here"])
    refused = server.act(cardgame.room, cardgame.token, "draw", {"action": "offer"})
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "no_draws")


def test_running_out_of_time_loses_where_the_rules_have_no_default_move(server: Harness) -> None:
    created = server.create("towers", ["here", "here"], move_seconds=0.3)
    assert 0 <= created.state["view"]["match"]["seconds_left"] <= 0.3
    over = server.wait(created.room, created.token, lambda state: state["status"] == "finished", timeout=10)
    assert over["view"]["result"]["code"] == "timeout" and over["view"]["result"]["winners"] == [1]
    assert server.stored(created.room).room.ending == {"code": "timeout", "seat": 0}


def test_running_out_of_time_plays_the_default_move_where_the_rules_have_one(server: Harness) -> None:
    created = server.create("territories", ["here", "here"], move_seconds=0.3)
    start = created.state["ply"]
    later = server.wait(created.room, created.token, lambda state: state["ply"] > start, timeout=10)
    timed_out = [entry for entry in later["log"] if entry.get("note") == "timeout"]
    assert timed_out and timed_out[0]["by"] == created.state["to_move"]
    assert len(server.stored(created.room).moves) >= later["ply"] - 1
    assert later["status"] == "playing"


def test_the_openapi_page_documents_every_route(server: Harness) -> None:
    schema = server.client.get("/openapi.json").json()
    assert {"/api/games", "/api/rooms", "/api/rooms/{room_id}/moves", "/api/rooms/{room_id}/record"} <= set(schema["paths"])
    assert server.client.get("/docs").status_code == 200


def test_a_restarted_app_resumes_every_room_exactly(database_url: str, tmp_path: Path) -> None:
    from tests.server.harness import make_harness

    with make_harness(database_url, tmp_path) as first:
        versus = first.create("towers", ["here", "computer:easy"])
        first.move(versus.room, versus.token, first_move(versus.state), 0)
        first.wait(versus.room, versus.token, lambda state: state["ply"] == 2)
        cards = first.create("territories", ["here", "invite"])
        guest = first.join(cards.room, cards.invites[0]["code"]).json()
        pending = first.create("towers", ["here", "here"])
        first.act(pending.room, pending.token, "draw", {"action": "offer", "seat": 0})
        tokens = {versus.room: [versus.token], cards.room: [cards.token, guest["token"]], pending.room: [pending.token]}
        before = {room: [first.state(room, token) for token in [None, *held]] for room, held in tokens.items()}
    time.sleep(0.01)
    with make_harness(database_url, tmp_path) as second:
        for room, held in tokens.items():
            after = [second.state(room, token) for token in [None, *held]]
            for old, new in zip(before[room], after):
                for message in (old, new):
                    message["view"]["match"].pop("seconds_left")
                assert new == old
        assert second.state(pending.room)["view"]["match"]["draw_offer"] == [0]
        assert second.client.get(f"/api/rooms/{versus.room}", headers=auth("wrong")).json()["error"]["code"] == "bad_token"


def test_an_answer_can_leave_out_the_log_the_client_holds(server: Harness) -> None:
    created = server.create("towers", ["here", "here"])
    state = created.state
    for _ in range(3):
        state = server.move(created.room, created.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    url = f"/api/rooms/{created.room}/moves"
    body = {"move": state["legal_moves"][0]["notation"], "ply": state["ply"], "revision": state["revision"]}
    short = server.client.post(url, json=body, params={"log_from": 3}, headers=auth(created.token)).json()
    assert short["log_start"] == 3 and [entry["number"] for entry in short["log"]] == [4]
    whole = server.client.get(f"/api/rooms/{created.room}", params={"log_from": 99}, headers=auth(created.token)).json()
    assert whole["log_start"] == 4 and whole["log"] == []
    bad = server.client.get(f"/api/rooms/{created.room}", params={"log_from": -1})
    assert bad.json()["error"]["code"] == "bad_request"
