"""Named agent settings for the lab: ``--preset quick`` or ``quick`` in an agent list.

A preset is a spec string chosen by measurement (bench/lab_speed.py and
docs/lab.md, "Presets"); it expands before agents are built, so records and
reports show the real spec. Where information is hidden the information-set
form of the search is used. A game where these cost far more, or where ``strong``
is not clearly the stronger, names its own (``Game.lab_presets``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..agents import agent_names
from ..core.errors import OptionError
from ..core.game import Game

#: name -> (spec for perfect-information games, spec where information is hidden); chosen on
#: Towers, each game's figures in docs/lab.md, "Presets":
#: * quick: the cheapest play worth counting, a thousand Towers games in seconds;
#: * strong: beats quick by a wide margin; jitter keeps its self-play games apart.
PRESETS: dict[str, tuple[str, str]] = {
    "quick": ("greedy", "greedy"),
    "strong": ("mcts:iterations=60,leaf_eval=true,widen=1,jitter=0.03", "ismcts:iterations=200,rollout_depth=1"),
}


def expand(spec: str, game: Game) -> str:
    """``spec`` itself, or the setting a preset name stands for in ``game``."""
    if spec not in PRESETS:
        return spec
    perfect, hidden = PRESETS[spec]
    chosen = game.lab_presets.get(spec, hidden if game.has_hidden_information else perfect)
    if chosen.partition(":")[0] not in agent_names(game.id):
        raise OptionError(f"preset {spec!r} ({chosen}) does not play {game.id}")
    return chosen


def expand_all(specs: Sequence[str], game: Game) -> list[str]:
    return [expand(spec, game) for spec in specs]


def preset_seats(name: str, game: Game) -> list[str]:
    """``--preset NAME``: the preset in every seat."""
    if name not in PRESETS:
        raise OptionError(f"unknown preset {name!r}; presets: {', '.join(sorted(PRESETS))}")
    return [expand(name, game)] * game.num_players
