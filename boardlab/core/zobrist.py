"""Zobrist keys: a fixed random number for each feature of a position (a piece on a square,
the seat to move), XORed together into the position's hash and updated by XOR as a move
changes features. Towers, Sovereign and Overseer key their repetition counts
(:class:`~boardlab.core.ProgressTracker`) and ``position_key()`` this way.

A key comes from a hash of the feature's name, not from a random generator, so it is the same
in every process: a state pickled to a worker keeps a valid hash.

Keys have :data:`KEY_BITS` bits, not 64: code compiled by mypyc keeps an int below 2**62 as a
machine word, so the XORs of a compiled move stay machine operations (a 64-bit key is a Python
object, made anew by every XOR). 61 bits still leave a collision between two of a million
positions at about one chance in 4 million.
"""

from __future__ import annotations

import hashlib
from typing import Final

KEY_BITS: Final = 61
_KEY_MASK: Final = (1 << KEY_BITS) - 1


def zobrist_key(name: str) -> int:
    """The key of the feature ``name`` (a string the game makes unique per feature)."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "little") & _KEY_MASK


__all__ = ["KEY_BITS", "zobrist_key"]
