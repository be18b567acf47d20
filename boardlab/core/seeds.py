"""Derived seeds: one base seed gives every game of a study and every player its own seed."""

from __future__ import annotations

import hashlib


def derive_seed(base_seed: int, index: int) -> int:
    """Seed number ``index`` derived from ``base_seed``: a hash, stable across runs and machines.

    Game ``i`` of a study gets ``derive_seed(study_seed, i)``; the agent in seat ``s``
    of a game with seed ``g`` gets ``derive_seed(g, s + 1)``.
    """
    digest = hashlib.sha256(f"boardlab-simulate/{base_seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


__all__ = ["derive_seed"]
