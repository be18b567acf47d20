"""The Towers rules object: options, player counts, the length bound, states."""

from __future__ import annotations

import random

from boardlab.core import Game, Option, OptionError

from .board import COLOUR_NAMES, LAYOUT_CHOICES, MAX_HEIGHT, SUPPLY, layout_stacks
from .encoding import TowersActions, TowersObservation
from .position import TowersPosition, parse_position
from .render import render_view
from .render_image import render_png
from .rules import RESULT_CODES, TowersRules
from .state import TowersState

_ALL_LAYOUTS = ("diagram", "split_sides", "pinwheel", "four_each", "blocks")


class TowersGame(Game):
    """Towers: build on your stacks or push them over to take the five castles (docs/rules/towers.md)."""

    id = "towers"
    name = "Towers"
    summary = (
        "7x7 board, 5 castles: build on your stacks or push them over; "
        "take 4 castles (3 with 4 players) or 3 crowned ones (2)"
    )
    min_players = 2
    max_players = 4
    default_players = 2
    player_counts = (2, 4)
    rules_version = "1"
    state_class = TowersState
    rules_class = TowersRules
    rules: TowersRules
    action_encoding_class = TowersActions
    observation_encoding_class = TowersObservation
    view_renderer = staticmethod(render_view)
    image_renderer = staticmethod(render_png)
    #: the computer's levels, chosen by measurement (docs/levels.md has the figures): a beginner's
    #: plausible mistakes, one ply, then the evaluated, widened search at three budgets, judging by
    #: the weights fitted to the smallest one's games (docs/evaluation.md), which each budget was
    #: measured to play better with; `expert`'s iterations are set so that it thinks as long as it
    #: did judging by hand (a fitted leaf costs more)
    level_specs = {
        "beginner": "greedy:temperature=0.05",
        "easy": "greedy",
        "normal": "mcts:iterations=300,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=3,evaluation=fitted",
        "hard": "mcts:iterations=20000,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=8,evaluation=fitted",
        "expert": "mcts:iterations=46000,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=20,evaluation=fitted",
    }
    draw_by_agreement = True
    conformance_budget = {"random_games": 8, "variant_games": 1, "check_every": 4, "moves_per_check": 30}
    result_codes = RESULT_CODES
    options_spec = (
        Option(
            "layout", "diagram",
            "starting towers (rules 2.2-2.4): diagram (the original board, any player count); "
            "2 players: split_sides, pinwheel; 4 players: four_each, blocks",
            choices=_ALL_LAYOUTS,
        ),
        Option(
            "random_first", False,
            "the seed picks the seat that moves first instead of White (rules 2.5)",
            kind=bool,
        ),
        Option(
            "no_progress_limit", 0,
            "moves without a build or a dropping push that draw the game (rules 8.2); "
            "0 = the rule's 100 (2 players) or 200 (4 players)",
            kind=int, minimum=0, maximum=100_000,
        ),
        Option(
            "ply_cap", 0,
            "optional hard cap on the moves of a game, reaching it draws (rules 8.3); 0 = no cap",
            kind=int, minimum=0, maximum=1_000_000,
        ),
    )

    def _check_options(self) -> None:
        layout = self.options["layout"]
        if layout not in LAYOUT_CHOICES[self.num_players]:
            raise OptionError(
                f"towers: layout={layout!r} is not a {self.num_players}-player layout; "
                f"choose one of {', '.join(LAYOUT_CHOICES[self.num_players])} (rules 2.4)"
            )

    @property
    def max_moves(self) -> int:
        """A proven bound on the moves of any game (rules 8.5).

        Each build uses a piece, so there are at most T builds (T = the total supply).
        The sum of the levels of all pieces rises only by builds, by at most 4 each, and
        starts at most at 4 per piece on the board, so there are at most 4T dropping
        pushes. Between two such resets at most ``limit`` other moves are played (the
        limit-th ends the game): at most 5T + (5T + 1) * limit moves in all.
        """
        total_supply = SUPPLY[self.num_players] * self.num_players
        resets = total_supply + (MAX_HEIGHT - 1) * total_supply
        bound = resets + (resets + 1) * self.rules.no_progress_limit
        cap = self.rules.ply_cap
        return min(bound, cap) if cap else bound

    def player_name(self, player: int) -> str:
        return COLOUR_NAMES[self.num_players][player]

    def _new_state(self, seed: int) -> TowersState:
        stacks = layout_stacks(self.options["layout"], self.num_players)
        first = 0
        if self.options["random_first"]:
            # derived from the seed alone, so a record's seed reproduces it (rules 2.5)
            first = random.Random(f"towers/first/{seed}").randrange(self.num_players)
        return TowersState(self, seed, TowersPosition(tuple(stacks), first))

    def _state_from_position(self, text: str) -> TowersState:
        return TowersState(self, 0, parse_position(text, self.rules))
