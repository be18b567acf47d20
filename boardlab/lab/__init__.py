"""The lab: computer-vs-computer games, statistics and balance reports."""

from .arena import play_game

__all__ = ["play_game"]
