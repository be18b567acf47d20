"""The Territories game object: options, registration and the proven length bound."""

from __future__ import annotations

from typing import Any, Mapping

from boardlab.core import Game, register

from .options import OPTIONS, Rules, parse_extent
from .state import TerritoriesState

SETUP_MOVES = 20 + 1 + 4
SEAT_NAMES = ("White", "Black")


@register
class Territories(Game):
    """Territories: two players build chess-piece buildings on a grid of playing cards
    and race to 15 points (docs/rules/territories.md)."""

    id = "territories"
    name = "Territories"
    summary = "2d6 production on a grid of playing cards; build with chess pieces; first to 15 points"
    min_players = 2
    max_players = 2
    options_spec = OPTIONS
    has_chance = True
    has_hidden_information = True
    rules_version = "1"
    state_class = TerritoriesState

    def __init__(self, players: int | None = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.rules = Rules(dict(self.options))

    def _check_options(self) -> None:
        parse_extent(self.options["expand_max_extent"])

    @property
    def max_moves(self) -> int:
        """A proven bound on the history length (R9.4).

        Setup is 25 moves (20 deals, first player, 4 Towns). A turn holds at most:
        15 fixed moves (roll, 2 discards, the 7's draw, 2 wildcard choices, up to 8
        Capital draws, end); 2P trade moves (P proposals, each answered once); every
        build, upgrade or Capital spends >= 4 resources and a bank trade >= 3 net,
        and resources enter the mover's hand mid-turn only through the <= P accepted
        trades (at most 52 each), so there are <= 52(1+P)/3 of them, each followed by
        at most one draw; and at most A ability activations of <= 4 moves each, where
        A = 4 (per ability), 12 (per building: <= 3 eligible buildings per ability)
        or 52(1+P) (unlimited: each activation then spends >= 1 resource).
        """
        rules = self.rules
        proposals = rules.max_trade_proposals
        budget = 52 * (1 + proposals)
        activations = {"per_ability_per_turn": 4, "per_building_per_turn": 12}.get(
            rules.ability_limit, budget
        )
        per_turn = 15 + 2 * proposals + 2 * (budget // 3) + 4 * activations
        return SETUP_MOVES + rules.max_turns * per_turn

    def _new_state(self, seed: int) -> TerritoriesState:
        return TerritoriesState(self, seed)

    def _state_from_position(self, text: str) -> TerritoriesState:
        from .position import decode_position

        return decode_position(self, text)

    def render_view(self, view: Mapping[str, Any]) -> str:
        from .render import render_view

        return render_view(view)

    def player_name(self, player: int) -> str:
        return SEAT_NAMES[player]
