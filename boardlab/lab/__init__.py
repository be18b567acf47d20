"""The lab: computer-vs-computer games, statistics and balance reports."""

from .simulate import SimulationPlan, game_seed, simulate
from .stats import GameOutcome, Summary, summarize

__all__ = ["GameOutcome", "SimulationPlan", "Summary", "game_seed", "simulate", "summarize"]
