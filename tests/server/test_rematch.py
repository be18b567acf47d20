"""Rematch: an offer at the end of a game, answered by the other people,
watched live; the new room rotates the seats, keeps the settings and links both ways."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from boardlab.server import rematch as rematch_module
from boardlab.server.rematch import Rematches, rotated
from boardlab.server.rooms import hash_secret
from boardlab.server.rows import Change
from tests.server.harness import Harness, Seated, auth, watch


def finished_game_with_a_guest(server: Harness, **fields: Any) -> tuple[Seated, str]:
    """A Towers room of the creator (seat 0) and an invited guest (seat 1), ended by resignation."""
    created = server.create("towers", ["here", "invite"], names=["Ann", "Bo"], **fields)
    joined = server.join(created.room, created.invites[0]["code"])
    assert joined.status_code == 200, joined.text
    over = server.act(created.room, created.token, "resign")
    assert over.json()["status"] == "finished", over.text
    return created, joined.json()["token"]


def rematch(server: Harness, room: str, token: str | None, action: str | None = None, seat: int | None = None) -> Any:
    path = f"/api/rooms/{room}/rematch" + ("/answer" if action else "")
    body: dict[str, Any] = {} if action is None else {"action": action}
    if seat is not None:
        body["seat"] = seat
    return server.client.post(path, json=body, headers=auth(token))


def test_an_offer_is_seen_live_and_accepting_it_seats_both_people_rotated_in_a_linked_room(server: Harness) -> None:
    created, guest = finished_game_with_a_guest(server, move_seconds=120.0, options={"layout": "split_sides"})
    with watch(server.client, created.room, guest) as guest_socket, watch(server.client, created.room) as spectator:
        assert guest_socket.receive_json()["rematch"] is None and spectator.receive_json()["rematch"] is None
        offered = rematch(server, created.room, created.token)
        assert offered.status_code == 200, offered.text
        offer = offered.json()["rematch"]
        assert offer == {"status": "open", "by": 0, "accepted": [0], "declined": [], "room": None, "at": offer["at"]}
        assert guest_socket.receive_json()["rematch"] == offer  # the guest sees the offer at once
        assert spectator.receive_json()["rematch"] == offer
        accepted = rematch(server, created.room, guest, "accept")
        assert accepted.status_code == 200, accepted.text
        started = accepted.json()["rematch"]
        assert started["status"] == "started" and started["accepted"] == [0, 1]
        new_room = started["room"]
        # watchers, the spectator included, are told where the rematch is (after "starting")
        seen = [spectator.receive_json()["rematch"] for _ in range(2)]
        assert [entry["status"] for entry in seen] == ["starting", "started"] and seen[1]["room"] == new_room
    # the same tokens hold the rotated seats: the creator now plays seat 1, the guest seat 0
    assert server.state(new_room, created.token)["your_seats"] == [1]
    as_guest = server.state(new_room, guest)
    assert as_guest["your_seats"] == [0] and as_guest["status"] == "playing"
    assert [(seat["kind"], seat["name"], seat["joined"]) for seat in as_guest["seats"]] == [
        ("invite", "Bo", True), ("here", "Ann", True)
    ]
    assert as_guest["rematch_of"] == created.room and server.state(created.room)["rematch"]["room"] == new_room
    stored = server.stored(new_room)
    old = server.stored(created.room)
    assert (stored.room.options, stored.room.undo, stored.room.move_seconds) == (old.room.options, old.room.undo, 120.0)
    assert stored.room.pending["rematch_of"] == created.room and old.room.pending["rematch"]["room"] == new_room
    # the guest can move in the new room (White, seat 0, opens in Towers)
    move = as_guest["legal_moves"][0]["notation"]
    assert server.move(new_room, guest, move, as_guest["ply"]).status_code == 200
    assert server.stored(new_room).room.pending["rematch_of"] == created.room  # a move keeps the link


def test_a_declined_offer_ends_it_and_a_second_offer_is_refused_while_one_is_open(server: Harness) -> None:
    created, guest = finished_game_with_a_guest(server)
    assert rematch(server, created.room, created.token).status_code == 200
    again = rematch(server, created.room, guest)
    assert again.status_code == 409 and again.json()["error"]["code"] == "rematch_open"
    assert "Ann has offered a rematch already" in again.json()["error"]["message"]
    declined = rematch(server, created.room, guest, "decline")
    assert declined.json()["rematch"]["status"] == "declined" and declined.json()["rematch"]["declined"] == [1]
    late = rematch(server, created.room, created.token, "accept")
    assert late.status_code == 409 and late.json()["error"]["code"] == "no_rematch_offer"
    # declined: the guest may offer in turn, and the creator's acceptance starts it
    assert rematch(server, created.room, guest).json()["rematch"]["by"] == 1
    assert rematch(server, created.room, created.token, "accept").json()["rematch"]["status"] == "started"


def test_only_seat_holders_offer_and_answer_and_the_new_room_gives_out_no_new_secret(server: Harness) -> None:
    created, guest = finished_game_with_a_guest(server)
    spectator = rematch(server, created.room, None)
    assert spectator.status_code == 401 and spectator.json()["error"]["code"] == "missing_token"
    stranger = rematch(server, created.room, "not-a-token-of-this-room")
    assert stranger.status_code == 403
    rematch(server, created.room, created.token)
    assert rematch(server, created.room, "not-a-token-of-this-room", "accept").status_code == 403
    answered = rematch(server, created.room, guest, "accept")
    assert "token" not in answered.text and "invite" not in answered.json()["rematch"]
    new_room = answered.json()["rematch"]["room"]
    seats = server.stored(new_room).seats
    # only the old tokens open the new seats: their hashes, rotated; no invite code was made
    assert [seat.token_hash for seat in seats] == [hash_secret(guest), hash_secret(created.token)]
    assert all(seat.invite_hash is None for seat in seats)
    assert server.state(new_room)["your_seats"] == []
    bad = server.client.get(f"/api/rooms/{new_room}", headers=auth("not-a-token-of-this-room"))
    assert bad.status_code == 403


def test_against_the_computer_the_rematch_starts_at_once_with_its_level_kept(server: Harness) -> None:
    created = server.create("towers", ["here", "computer:easy"])
    early = rematch(server, created.room, created.token)
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_over"
    server.act(created.room, created.token, "resign")
    started = rematch(server, created.room, created.token).json()["rematch"]
    assert started["status"] == "started" and started["accepted"] == [0, 1]
    new_state = server.state(started["room"], created.token)
    assert new_state["your_seats"] == [1]
    assert [(seat["kind"], seat["name"]) for seat in new_state["seats"]] == [("computer", "Computer (easy)"), ("here", "Black")]
    assert server.stored(started["room"]).seats[0].level == "easy"
    refused = rematch(server, created.room, created.token)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "rematch_started"


def test_with_four_players_everybody_moves_one_seat_on(server: Harness) -> None:
    created = server.create(
        "towers", ["here", "computer:easy", "here", "computer:hard"], players=4, names=["Ann", "Computer (easy)", "Cy", "Hal"]
    )
    plan = Rematches._new_room(server.live_room(created.room))
    assert [rotated(seat, 4) for seat in range(4)] == [1, 2, 3, 0]
    assert plan.seats == ["computer:hard", "here", "computer:easy", "here"]
    assert plan.names == ["Hal", "Ann", "Computer (easy)", "Cy"]
    assert plan.token_hashes == {1: hash_secret(created.token), 3: hash_secret(created.token)}
    assert (plan.players, plan.pending) == (4, {"rematch_of": created.room})


def test_people_at_one_screen_start_the_rematch_at_once(server: Harness) -> None:
    created = server.create("towers", ["here", "here"])
    server.act(created.room, created.token, "resign", {"seat": 0})
    started = rematch(server, created.room, created.token).json()["rematch"]
    assert started["status"] == "started" and started["accepted"] == [0, 1]
    assert server.state(started["room"], created.token)["your_seats"] == [0, 1]
    assert server.stored(started["room"]).room.undo == "same_screen"


@given(st.integers(min_value=2, max_value=16))
def test_rotation_is_a_permutation_that_comes_back_after_one_rematch_per_seat(players: int) -> None:
    seats = range(players)
    assert sorted(rotated(seat, players) for seat in seats) == list(seats)
    for seat in seats:
        moved = seat
        for _ in range(players):
            moved = rotated(moved, players)
            assert moved != seat or _ == players - 1  # nobody is back in their seat before n rematches
        assert moved == seat


def test_a_rematch_left_starting_by_a_stopped_server_may_be_offered_again(server: Harness, monkeypatch: Any) -> None:
    created, guest = finished_game_with_a_guest(server)
    rematch(server, created.room, created.token)
    stored = server.stored(created.room)
    # as a server that stopped while making the new room leaves it
    left = {**stored.room.pending, "rematch": {**stored.room.pending["rematch"], "status": "starting"}}
    server.storage.commit(Change(created.room, stored.room.revision, len(stored.moves), (), {"pending": left}, takes_back=False))
    refused = rematch(server, created.room, guest)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "rematch_open"
    monkeypatch.setattr(rematch_module, "STARTING_SECONDS", -1.0)
    offered = rematch(server, created.room, guest)
    assert offered.status_code == 200 and offered.json()["rematch"]["by"] == 1


def test_remembered_players_keep_their_names_in_the_rematch_seats_rotated(server: Harness) -> None:
    """A guest who joined as a remembered player is named to the room's players by that name
    (the seat's public name stays the lobby's "Player 2"): the rematch knows them by it too."""
    bo = server.client.post("/api/players", json={"name": "Bo"}).json()
    created = server.create("towers", ["here", "invite"], names=["Ann", "Player 2"])
    joined = server.client.post(f"/api/rooms/{created.room}/join", json={"code": created.invites[0]["code"]},
                                headers={"X-Player-Key": bo["key"]})
    assert joined.status_code == 200, joined.text
    guest = joined.json()["token"]
    names = server.client.get(f"/api/rooms/{created.room}/players", headers=auth(created.token)).json()["names"]
    assert names == {"1": "Bo"}
    assert server.act(created.room, created.token, "resign").status_code == 200
    assert rematch(server, created.room, created.token).status_code == 200
    new_room = rematch(server, created.room, guest, "accept").json()["rematch"]["room"]
    carried = server.client.get(f"/api/rooms/{new_room}/players", headers=auth(created.token)).json()["names"]
    assert carried == {"0": "Bo"}, "Bo moved one seat on, still Bo"
