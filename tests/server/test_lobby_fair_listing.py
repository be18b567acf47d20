"""The lobby is shared: one address making room after room (as fast as its limits allow) shows
as a few of them, everybody else's rooms stay listed, and rooms waiting for a player come
before those being played and the finished ones. Storage tells creators apart by a keyed
digest of the address (``rooms.creator``), never the address; a database made before that
column gains it on opening and still lists its rooms."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, select, text

from boardlab.server import listing
from boardlab.server.rooms import creator_key, creator_of
from boardlab.server.storage import Storage
from boardlab.server.tables import rooms
from tests.server.harness import Harness, make_harness

pytestmark = pytest.mark.both_databases

#: one address's allowance for a day at once (the defaults: 20 a minute, 300 a day), from
#: addresses the test client names through X-Forwarded-For as a trusted proxy's
LIMITS: dict[str, Any] = {"rooms_per_minute": 300, "rooms_per_day": 300, "trusted_proxies": ("testclient",)}
FLOODER, OTHER, THIRD = "203.0.113.66", "198.51.100.7", "2001:db8:1:2::9"
#: the most rooms of one creator a listing holds (the service's default, pinned for these tests)
ROOMS_LISTED_PER_CREATOR = 3


@pytest.fixture(autouse=True)
def per_creator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "ROOMS_LISTED_PER_CREATOR", ROOMS_LISTED_PER_CREATOR)


def make(server: Harness, address: str, seats: list[str] | None = None) -> dict[str, Any]:
    body = {"game": "towers", "seats": seats or ["here", "invite"]}
    made = server.client.post("/api/rooms", json=body, headers={"X-Forwarded-For": address})
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    return data


def listed(server: Harness, status: str = "all") -> list[dict[str, Any]]:
    answer = server.client.get("/api/rooms", params={"status": status})
    assert answer.status_code == 200, answer.text
    entries: list[dict[str, Any]] = answer.json()
    return entries


def flood(server: Harness, count: int) -> list[str]:
    """``count`` rooms waiting for a player, all made by one address: the newest last."""
    return [make(server, FLOODER)["room"] for _ in range(count)]


def test_one_address_making_rooms_cannot_push_another_open_room_off_the_lobby(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path, **LIMITS) as server:
        waiting = make(server, OTHER)["room"]
        flooded = flood(server, server.app.state.settings.rooms_listed + 1)
        for status in ("all", "open"):
            ids = [entry["room"] for entry in listed(server, status)]
            assert waiting in ids, status
            # the flooder's newest few, newest first, and nothing more of theirs
            assert [room for room in ids if room in flooded] == flooded[::-1][:ROOMS_LISTED_PER_CREATOR], status
            assert len(ids) == ROOMS_LISTED_PER_CREATOR + 1


def test_rooms_waiting_for_a_player_come_before_those_played_and_finished(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path, **LIMITS) as server:
        waiting = make(server, OTHER)["room"]
        finished = make(server, THIRD, ["here", "here"])
        assert server.act(finished["room"], finished["token"], "resign").status_code == 200
        playing = make(server, FLOODER, ["here", "here"])["room"]
        assert [entry["room"] for entry in listed(server)] == [waiting, playing, finished["room"]]


def test_a_creators_waiting_room_is_listed_before_their_newer_games(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path, **LIMITS) as server:
        waiting = make(server, OTHER)["room"]
        games = [make(server, OTHER, ["here", "here"])["room"] for _ in range(ROOMS_LISTED_PER_CREATOR + 2)]
        ids = [entry["room"] for entry in listed(server)]
        assert ids == [waiting, *games[::-1][: ROOMS_LISTED_PER_CREATOR - 1]]


def test_storage_keeps_a_digest_of_the_creator_never_the_address(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path, **LIMITS) as server:
        made = {address: [make(server, address)["room"] for _ in range(2)] for address in (FLOODER, OTHER, THIRD)}
        with server.storage.engine.connect() as conn:
            creators = dict(conn.execute(select(rooms.c.id, rooms.c.creator)).all())
    for address, ids in made.items():
        assert creators[ids[0]] == creators[ids[1]] is not None
        # a keyed digest, 32 hex digits: no part of the address as text (a digest's hex digits may
        # spell a number like the first octet by chance, so the whole address is what is looked for)
        assert re.fullmatch(r"[0-9a-f]{32}", creators[ids[0]]) and address not in creators[ids[0]]
    assert len({creators[ids[0]] for ids in made.values()}) == 3


def test_every_process_holding_the_admin_key_counts_an_address_as_one_creator(database_url: str, tmp_path: Path) -> None:
    # one process, then another on the same database and data folder (a restart, or a second
    # process behind the same proxy): the flooder's rooms of both share its 3 places
    made = []
    for _ in range(2):
        with make_harness(database_url, tmp_path, **LIMITS) as server:
            made += flood(server, ROOMS_LISTED_PER_CREATOR + 1)
            ids = [entry["room"] for entry in listed(server)]
    assert ids == made[::-1][:ROOMS_LISTED_PER_CREATOR]
    # a server with another admin key tells creators apart by another key: a creator anew
    with make_harness(database_url, tmp_path, admin_key="another-server-key-" + "x" * 20, **LIMITS) as server:
        others = flood(server, 1)
        ids = [entry["room"] for entry in listed(server)]
    assert ids == [*others, *made[::-1][:ROOMS_LISTED_PER_CREATOR]]


def test_the_creators_key_is_the_same_in_every_process_that_holds_the_admin_key() -> None:
    # the harnesses above share one Python process; other processes derive the key alike
    secret = "a-server-admin-key-of-24"
    assert creator_key(secret) == creator_key(secret) != creator_key(secret + "!")
    assert creator_of(FLOODER, creator_key(secret)) == creator_of(FLOODER, creator_key(secret))
    # without a secret each process draws its own
    assert creator_key(None) != creator_key(None)


def forget_creators(database_url: str) -> None:
    """Make the database one of the version before ``rooms.creator`` (and its indexes: the
    listing's, and the creator's rooms by time)."""
    storage = Storage(database_url)
    try:
        with storage.engine.begin() as conn:
            conn.execute(text("DROP INDEX IF EXISTS ix_rooms_status_updated"))
            conn.execute(text("DROP INDEX IF EXISTS ix_rooms_creator_created"))
            if "creator" in {column["name"] for column in inspect(conn).get_columns("rooms")}:
                conn.execute(text("ALTER TABLE rooms DROP COLUMN creator"))
    finally:
        storage.close()


def test_a_database_made_before_creators_were_kept_lists_its_rooms_and_then_shares_the_lobby(
    database_url: str, tmp_path: Path
) -> None:
    with make_harness(database_url, tmp_path, **LIMITS) as server:
        old = [make(server, FLOODER)["room"] for _ in range(ROOMS_LISTED_PER_CREATOR + 2)]
    forget_creators(database_url)
    with make_harness(database_url, tmp_path, rooms_listed=20, **LIMITS) as server:
        # every old room is listed: whoever made them is unknown, each is a creator of its own
        assert {entry["room"] for entry in listed(server)} == set(old)
        with server.storage.engine.connect() as conn:
            assert "creator" in {column["name"] for column in inspect(conn).get_columns("rooms")}
            indexes = {index["name"] for index in inspect(conn).get_indexes("rooms")}
            assert {"ix_rooms_status_updated", "ix_rooms_creator_created"} <= indexes
        waiting = make(server, OTHER)["room"]
        flooded = flood(server, 21)
        ids = [entry["room"] for entry in listed(server, "open")]
        assert waiting in ids
        assert [room for room in ids if room in flooded] == flooded[::-1][:ROOMS_LISTED_PER_CREATOR]
        assert set(old) & set(ids)  # the old rooms share the rest with the new ones


def test_a_visitor_naming_their_own_rooms_finds_them_listed_beyond_the_share_of_one_creator(
    database_url: str, tmp_path: Path
) -> None:
    with make_harness(database_url, tmp_path, **LIMITS) as server:
        flooded = flood(server, 6)
        oldest = flooded[:2]  # past the share: the listing leaves them out
        assert not set(oldest) & {entry["room"] for entry in listed(server)}
        answer = server.client.get("/api/rooms", params={"status": "all", "mine": ",".join(oldest)})
        assert answer.status_code == 200, answer.text
        ids = [entry["room"] for entry in answer.json()]
        assert set(oldest) <= set(ids) and len(ids) == len(set(ids)) == ROOMS_LISTED_PER_CREATOR + 2
        # they are listed as the others are: waiting rooms, newest first
        assert ids == sorted(ids, key=lambda room: -next(e["updated"] for e in answer.json() if e["room"] == room))
        # a room of another status is not, in a listing of one status
        assert server.client.get("/api/rooms", params={"status": "finished", "mine": oldest[0]}).json() == []
        for bad, words in (((",".join(flooded + flooded[:3])), "at most 8 rooms"), ("x" * 33, "is not a room id")):
            refused = server.client.get("/api/rooms", params={"mine": bad})
            assert refused.status_code == 422 and words in refused.json()["error"]["message"], refused.text
