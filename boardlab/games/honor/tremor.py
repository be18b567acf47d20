"""The hand's tremor (H-21, ruling B-14 item 12): Gaussian noise on every release.

Three ways to draw it, all returning quantised (dx in 0.01 cm, d-rotation in 0.1°):

* :func:`seeded_tremor` - the ruled counter-based formula from the game seed and the
  placement index, used when a state samples its own chance (play, the arena);
* :func:`random_tremor` - Gaussian noise from a caller's ``random.Random`` (agents'
  simulations, which never know the seed);
* :data:`TREMOR_GRID` - a 3 x 3 discretisation with exact probabilities for search:
  the Gauss-Hermite points 0 and ±√3σ with weights 2/3 and 1/6 each, which keep the mean of
  each coordinate, and its variance up to the rounding of ±√3σ to the units (±0.17 cm and
  ±0.9°: 0.96 and 1.08 times the variance of x and of the rotation).
"""

from __future__ import annotations

import hashlib
import math
import random

SIGMA_X_CM = 0.10
SIGMA_THETA_DEG = 0.5
#: the largest tremor a state accepts: 10σ (the seeded formula reaches at most 9.5σ)
MAX_DX_UNITS = 100  # 1.00 cm
MAX_DTHETA_UNITS = 50  # 5.0°


def seed_bytes(seed: int) -> bytes:
    """The game seed as the 32 bytes of the ruled formula (taken modulo 2^256)."""
    return (seed % (1 << 256)).to_bytes(32, "big")


def seeded_tremor(seed: int, placement_index: int) -> tuple[int, int]:
    """d = SHA-256(seed ‖ b"tremor" ‖ index as 8 bytes big-endian); Box-Muller on
    u1 = (d[0:8] + 1) / 2^64 and u2 = d[8:16] / 2^64; quantised half-even."""
    digest = hashlib.sha256(seed_bytes(seed) + b"tremor" + placement_index.to_bytes(8, "big")).digest()
    u1 = (int.from_bytes(digest[0:8], "big") + 1) / 2.0**64
    u2 = int.from_bytes(digest[8:16], "big") / 2.0**64
    radius = math.sqrt(-2.0 * math.log(u1))
    dx_cm = SIGMA_X_CM * radius * math.cos(2.0 * math.pi * u2)
    dtheta_deg = SIGMA_THETA_DEG * radius * math.sin(2.0 * math.pi * u2)
    return _clip(round(dx_cm * 100), MAX_DX_UNITS), _clip(round(dtheta_deg * 10), MAX_DTHETA_UNITS)


def random_tremor(rng: random.Random, scale: float = 1.0) -> tuple[int, int]:
    """Gaussian tremor (σ times ``scale``) from ``rng``, quantised and clipped to the legal range."""
    dx = rng.gauss(0.0, SIGMA_X_CM * scale)
    dtheta = rng.gauss(0.0, SIGMA_THETA_DEG * scale)
    return _clip(round(dx * 100), MAX_DX_UNITS), _clip(round(dtheta * 10), MAX_DTHETA_UNITS)


def _clip(value: int, limit: int) -> int:
    return max(-limit, min(limit, value))


_EDGE_X = round(math.sqrt(3.0) * SIGMA_X_CM * 100)  # 17 -> 0.17 cm
_EDGE_THETA = round(math.sqrt(3.0) * SIGMA_THETA_DEG * 10)  # 9 -> 0.9°
_WEIGHTS = ((-1, 1 / 6), (0, 2 / 3), (1, 1 / 6))

#: ((dx units, d-rotation units), probability), probabilities summing to 1
TREMOR_GRID: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((i * _EDGE_X, j * _EDGE_THETA), wi * wj) for i, wi in _WEIGHTS for j, wj in _WEIGHTS
)

__all__ = [
    "MAX_DTHETA_UNITS",
    "MAX_DX_UNITS",
    "SIGMA_THETA_DEG",
    "SIGMA_X_CM",
    "TREMOR_GRID",
    "random_tremor",
    "seed_bytes",
    "seeded_tremor",
]
