"""A static estimate of an Honor position for the generic agents (MCTS cut-offs, greedy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import START_POOL

if TYPE_CHECKING:
    from .state import HonorState

#: tower height (cm) at which a tower's weight is halved: taller towers fall more easily
HEIGHT_SCALE_CM = 20.0


def evaluate(state: HonorState) -> list[float]:
    """The result's returns at the end; before it, the standing players share 1 in proportion
    to their tokens (rule 7.7: tokens buy passes) and to how low their tower is."""
    result = state.result()
    if result is not None:
        return list(result.returns)
    weights = []
    for player, up in enumerate(state.standing):
        if not up:
            weights.append(0.0)
            continue
        height = max((piece.yq * 1e-4 for piece in state.table if piece.owner == player), default=0.0)
        weights.append((1.0 + state.pools[player] / START_POOL) / (1.0 + height / HEIGHT_SCALE_CM))
    total = sum(weights)
    return [w / total for w in weights]


__all__ = ["evaluate"]
