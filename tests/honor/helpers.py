"""Shared helpers for Honor's rule tests: games without tremor, scripted play."""

from __future__ import annotations

import json
from typing import Any

import pytest

import boardlab

pytest.importorskip("pymunk")


def exact_game(players: int = 2, **options: Any) -> boardlab.Game:
    """Honor with tremor off (exact mode, rule 9): placements are deterministic."""
    return boardlab.load("honor", players=players, tremor=False, **options)


def play(state: boardlab.State, *moves: str) -> boardlab.State:
    for text in moves:
        state.play(text)
    return state


def with_fields(state: Any, **changes: Any) -> Any:
    """A state loaded from ``state``'s position with some record fields replaced (cold start)."""
    record = json.loads(state.position())
    record.update(changes)
    return state.game.state_from_position(json.dumps(record, sort_keys=True, separators=(",", ":")), seed=1)


#: a short scripted game (release texts only; tremor outcomes come from the seed)
SCRIPT = ["build SL1 0", "pass", "rel 30", "build BR1 0", "pass", "rel 90", "build CU1 0", "pass", "rel 31"]


def scripted_hash(seed: int) -> str:
    """The state hash after :data:`SCRIPT` with seeded tremor (rule 11.5)."""
    state = boardlab.load("honor", players=2).new_state(seed=seed)
    for text in SCRIPT:
        state.play(text)
        if state.is_chance():
            state.play(state.sample_chance())
    return state.state_hash()
