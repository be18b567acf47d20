"""Play one game between agents and return its record.

The driver is the only place that sees the real state: chance is sampled from
the state's own seed (so a seed reproduces a game), and each agent is handed
``state.resample(seat, rng)``, which holds nothing that seat may not see.
"""

from __future__ import annotations

import random
import time
from typing import Callable, Sequence

from ..core.agent import Agent
from ..core.game import CHANCE, Game, Move, State
from ..core.records import Record, Seat


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    *,
    start: State | None = None,
    on_move: Callable[[State, Move], None] | None = None,
    max_moves: int | None = None,
) -> Record:
    """Play ``game`` to the end with one agent per seat and return the record.

    ``seed`` fixes the game's chance and the agents' view sampling; agents carry
    their own seeds. The record's ``meta["decisions"]`` counts the players'
    moves (the history also holds chance outcomes). ``max_moves`` (default: the
    game's proven bound) guards against a broken rule implementation looping
    forever.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.id} with {game.num_players} players needs as many agents, got {len(agents)}")
    state = game.new_state(seed) if start is None else start
    view_rng = random.Random(f"views/{seed}")
    for agent in agents:
        agent.reset()
    limit = max_moves if max_moves is not None else game.max_moves
    began = time.perf_counter()
    times: list[float] = []
    decisions = 0
    while not state.is_over():
        if state.ply >= limit:
            raise RuntimeError(f"{game.id}: game exceeded its bound of {limit} moves")
        player = state.current_player()
        if player == CHANCE:
            move = state.sample_chance()
        else:
            move = agents[player].choose(state.resample(player, view_rng))
            decisions += 1
        state.play(move)
        times.append(time.perf_counter() - began)
        if on_move is not None:
            on_move(state, move)
    seats = [Seat(name=a.spec(), agent=a.spec()) for a in agents]
    return Record.for_state(state, seats, times=times, decisions=decisions)
