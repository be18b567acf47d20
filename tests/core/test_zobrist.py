"""zobrist_key: the same key in every process, 61 bits, different for different features; the
games' key tables are built from it (so a compiled XOR of two keys stays a machine word)."""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.zobrist import KEY_BITS, zobrist_key


@given(st.text(max_size=40))
def test_a_key_has_at_most_key_bits_bits(name: str) -> None:
    assert 0 <= zobrist_key(name) < 1 << KEY_BITS


def test_a_key_is_the_same_in_another_process_with_another_string_hash_seed() -> None:
    # a key made with hash() would differ: a pickled state's hash must stay valid in a worker
    names = ["turn:0", "p12:3", "overseer:black-to-move"]
    code = f"from boardlab.core.zobrist import zobrist_key; print([zobrist_key(n) for n in {names!r}])"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert done.stdout.strip() == str([zobrist_key(name) for name in names])


def test_different_features_get_different_keys() -> None:
    names = [f"{square}:{stack}" for square in range(49) for stack in range(60)]
    assert len({zobrist_key(name) for name in names}) == len(names)


def test_every_key_table_of_the_games_is_below_two_to_the_key_bits() -> None:
    from boardlab.games.overseer import board as overseer
    from boardlab.games.sovereign import board as sovereign
    from boardlab.games.towers import board as towers

    keys = [*sovereign.HEIGHT_KEYS, *sovereign.PIECE_KEYS, *sovereign.TURN_KEYS, *towers.TURN_KEYS, *towers.TOKEN_KEYS]
    keys += [key for row in overseer.ZOBRIST for key in row] + [overseer.BLACK_TO_MOVE_KEY]
    assert max(keys) < 1 << KEY_BITS
    assert all(key >= 0 for key in keys)
