"""Conformance checks of a game's action and observation encodings (:mod:`boardlab.core.encoding`),
the two things the OpenSpiel and PettingZoo adapters need of a game.

A game that declares neither (its ``action_encoding()`` raises NotImplementedError) passes these
checks vacuously: it simply has no adapters, and ``boardlab check`` says so. One that declares
them must keep the contract of docs/api.md, "Action and observation encodings":

* actions: in every state the legal moves (chance outcomes at a chance node) and their indices
  correspond one to one, inside ``0..num_actions-1`` (``0..num_chance_outcomes-1``);
  ``move_for`` and ``index_of`` are inverses there; an index that is not legal, and any index
  at the end, is refused with an :class:`~boardlab.core.ActionError`; chance indices carry the
  outcomes' exact probabilities; encoding never changes the state;
* observations: ``size`` finite floats in ``[low, high]`` for every seat, the same for the same
  state, and the same for two states that differ only in what the seat may not see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TypeVar

from ..core.encoding import ActionEncoding, ActionError, ObservationEncoding
from ..core.game import Game
from ..core.state import State
from .helpers import Budget, checked, playthrough, sample_moves

Declared = TypeVar("Declared")


def declared(make: Callable[[], Declared]) -> Declared | None:
    """What ``make()`` returns, or None when the game declares no such encoding."""
    try:
        return make()
    except NotImplementedError:
        return None


def _seeds(budget: Budget) -> range:
    return range(1, budget.random_games + 1)


def check_action_encoding(game: Game, budget: Budget) -> None:
    """Legal moves and action indices correspond one to one in every state, both ways."""
    encoding = declared(game.action_encoding)
    if encoding is None:
        return
    assert isinstance(encoding, ActionEncoding), f"action_encoding() returned a {type(encoding).__name__}"
    for name in ("num_actions", "num_chance_outcomes"):
        value = getattr(encoding, name)
        assert isinstance(value, int) and not isinstance(value, bool) and value >= 0, f"{name} = {value!r}"
    assert encoding.num_actions > 0, "num_actions must be positive"
    assert (encoding.num_chance_outcomes > 0) == game.has_chance, (
        f"num_chance_outcomes = {encoding.num_chance_outcomes} but has_chance = {game.has_chance}"
    )
    rng = random.Random(13)
    for seed in _seeds(budget):
        for state in playthrough(game, seed):
            if checked(state, budget):
                where = f"seed {seed} ply {state.ply}"
                before = state.position()
                _check_actions_here(encoding, state, budget, rng, where)
                assert state.position() == before, f"{where}: encoding changed the state"


def _check_actions_here(encoding: ActionEncoding, state: State, budget: Budget, rng: random.Random, where: str) -> None:
    if state.is_over():
        assert encoding.legal_actions(state) == [], f"{where}: actions listed after the end"
        _refused(encoding, state, 0, f"{where}: the end")
        return
    try:
        mapping = encoding.action_map(state)
    except ActionError as exc:
        raise AssertionError(f"{where}: {exc}") from None
    chance = state.is_chance()
    listed = [move for move, _ in state.chance_outcomes()] if chance else state.legal_moves()
    size = encoding.num_chance_outcomes if chance else encoding.num_actions
    kind = "chance outcome" if chance else "legal move"
    assert len(mapping) == len(listed) and set(mapping.values()) == set(listed), (
        f"{where}: {len(listed)} {kind}s but {len(mapping)} indices"
    )
    assert encoding.legal_actions(state) == sorted(mapping), f"{where}: legal_actions is not the sorted indices"
    if chance:
        probability = dict(state.chance_outcomes())
        for index, p in encoding.chance_actions(state):
            outcome = mapping[index]
            assert math.isclose(p, probability[outcome]), (
                f"{where}: chance index {index} has probability {p}, its outcome {outcome} has {probability[outcome]}"
            )
    for move in sample_moves(state, budget, rng):
        index = encoding.index_of(state, move)
        assert mapping.get(index) == move, f"{where}: {move} has index {index}, which names {mapping.get(index)}"
        assert encoding.move_for(state, index) == move, f"{where}: move_for({index}) is not {move}"
    unused = next((index for index in range(size) if index not in mapping), None)
    if unused is not None:
        _refused(encoding, state, unused, where)
    for outside in (-1, size):
        _refused(encoding, state, outside, where)


def _refused(encoding: ActionEncoding, state: State, index: int, where: str) -> None:
    try:
        move = encoding.move_for(state, index)
    except ActionError:
        return
    raise AssertionError(f"{where}: index {index} is not legal here, yet move_for gave {move}")


def check_observation_encoding(game: Game, budget: Budget) -> None:
    """Every seat's observation has the declared size and bounds, depends on the state alone,
    and is the same in a twin that differs only in what the seat may not see."""
    encoding = declared(game.observation_encoding)
    if encoding is None:
        return
    assert isinstance(encoding, ObservationEncoding), f"observation_encoding() returned a {type(encoding).__name__}"
    assert encoding.size > 0 and math.prod(encoding.shape) == encoding.size, (
        f"shape {encoding.shape} does not hold size {encoding.size}"
    )
    assert encoding.low < encoding.high, f"low {encoding.low} is not below high {encoding.high}"
    rng = random.Random(17)
    for seed in _seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            where = f"seed {seed} ply {state.ply}"
            for seat in range(game.num_players):
                try:
                    values = encoding.encode(state, seat)
                except ValueError as exc:  # encode() refuses a list of the wrong length
                    raise AssertionError(f"{where}: seat {seat}: {exc}") from None
                assert len(values) == encoding.size, f"{where}: {len(values)} values for seat {seat}, declared {encoding.size}"
                if not _in_bounds(values, encoding.low, encoding.high):
                    position, value = next(
                        (i, v) for i, v in enumerate(values)
                        if not (isinstance(v, float) and math.isfinite(v) and encoding.low <= v <= encoding.high)
                    )
                    raise AssertionError(
                        f"{where}: seat {seat}, value {position} is {value!r}, not a finite float in "
                        f"[{encoding.low}, {encoding.high}]"
                    )
                assert encoding.encode(state, seat) == values, f"{where}: seat {seat}'s observation changed on its own"
                if game.has_hidden_information and not state.is_over():
                    twin = state.resample(seat, rng)
                    assert encoding.encode(twin, seat) == values, (
                        f"{where}: seat {seat}'s observation differs in a twin that differs only in what it "
                        "may not see (it must be computed from the seat's view)"
                    )


def _in_bounds(values: list[float], low: float, high: float) -> bool:
    """All finite floats in [low, high] (whole-list built-ins: observations run to thousands of values)."""
    return (
        set(map(type, values)) == {float}
        and all(map(math.isfinite, values))
        and low <= min(values)
        and max(values) <= high
    )


ENCODING_CHECKS: tuple[Callable[[Game, Budget], None], ...] = (check_action_encoding, check_observation_encoding)


__all__ = ["ENCODING_CHECKS", "check_action_encoding", "check_observation_encoding", "declared"]
