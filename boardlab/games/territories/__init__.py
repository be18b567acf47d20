"""Territories: a 2-player dice-and-cards game (rules: docs/rules/territories.md)."""

from .game import Territories
from .state import TerritoriesState

__all__ = ["Territories", "TerritoriesState"]
