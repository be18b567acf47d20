"""Room seeds have 256 bits (Honor's SHA-256 commitment is only as strong as the seed it hides),
storage keeps them whole on both databases, and a database made before them still opens."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from sqlalchemy import text

from boardlab.server import Settings
from boardlab.server.storage import Storage
from tests.server.harness import make_harness

#: storage itself is under test: on SQLite and on PostgreSQL
pytestmark = pytest.mark.both_databases


def test_a_new_honor_rooms_seed_has_256_bits_and_its_commitment_checks_at_the_end(database_url: str, tmp_path: Path) -> None:
    seeds = []
    with make_harness(database_url, tmp_path, seed_source=Settings().seed_source) as server:
        for _ in range(3):
            created = server.create("honor", ["here", "here"])
            seed = server.stored(created.room).room.seed
            # below 2**192 by chance once in 2**64 tries: a shorter seed would fail at once
            assert 2**192 < seed < 2**256, seed
            commit = created.state["view"]["board"]["seed_commit"]
            assert commit == hashlib.sha256(seed.to_bytes(32, "big")).hexdigest()
            assert created.state["view"]["board"]["seed"] is None
            seeds.append(seed)
            ended = server.act(created.room, created.token, "resign", {"seat": 0}).json()
            assert ended["status"] == "finished"
            revealed = ended["view"]["board"]["seed"]
            assert len(revealed) == 64 and int(revealed, 16) == seed
            assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == commit
        assert len(set(seeds)) == 3
        unfinished = server.create("honor", ["here", "here"])
    # a restarted server rebuilds the room from storage with the very same seed
    with make_harness(database_url, tmp_path) as server:
        again = server.state(unfinished.room, unfinished.token)
        assert again["view"]["board"]["seed_commit"] == unfinished.state["view"]["board"]["seed_commit"]


def test_a_database_made_before_256_bit_seeds_still_opens(database_url: str, tmp_path: Path) -> None:
    with make_harness(database_url, tmp_path) as server:  # the harness's seeds are small
        created = server.create("towers", ["here", "here"])
        server.move(created.room, created.token, created.state["legal_moves"][0]["notation"], 0)
        before = server.state(created.room, created.token)
    old = Storage(Settings(database_url=database_url).storage_url())
    with old.engine.begin() as conn:  # as the tables were before the column came
        conn.execute(text("ALTER TABLE rooms DROP COLUMN seed_text"))
    old.close()
    with make_harness(database_url, tmp_path, seed_source=Settings().seed_source) as server:
        assert server.stored(created.room).room.seed == 1001
        after = server.state(created.room, created.token)
        assert (after["ply"], after["log"], after["legal_moves"]) == (before["ply"], before["log"], before["legal_moves"])
        honor = server.create("honor", ["here", "here"])
        assert server.stored(honor.room).room.seed > 2**192
