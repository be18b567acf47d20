"""Play a computers-only game through the match driver, for tests that need a finished record."""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.core import Agent, Game, Match, Record


def played_record(game: Game, agents: Sequence[Agent], seed: int) -> Record:
    """The record of a whole game between ``agents`` (one per seat) from ``seed``."""
    match = Match(game, list(agents), seed=seed)
    match.play_out()
    return match.record()
