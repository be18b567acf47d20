"""Test-only games, registered for the test session only (never in the product).

``dicenim`` (tests/support/dicenim.py) is the protocol's small example with
chance and hidden information.
"""

from __future__ import annotations

from boardlab.core import register
from tests.support.dicenim import DiceNim


def register_test_games() -> None:
    """Register ``dicenim`` (idempotent)."""
    register(DiceNim)
