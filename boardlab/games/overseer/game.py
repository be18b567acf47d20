"""The Overseer rules object: options, the length bound, states."""

from __future__ import annotations

from boardlab.core import Game, Option

from .board import NUM_SQUARES, SEAT_NAMES, SETUPS, setup_board
from .encoding import OverseerActions, OverseerObservation
from .position import OverseerPosition, parse_position
from .render import render_view
from .render_image import render_png
from .rules import NO_CAPTURE_ENDINGS, NO_CAPTURE_LIMIT, RESULT_CODES, OverseerRules
from .state import OverseerState


class OverseerGame(Game):
    """Overseer: capture the enemy Overseer on a disc of 12 sectors and 8 rings (docs/rules/overseer.md)."""

    id = "overseer"
    name = "Overseer"
    summary = (
        "a disc of 12 sectors x 8 rings that wraps round; seven kinds of piece, Barricades nobody "
        "can capture; capture the enemy Overseer"
    )
    min_players = 2
    max_players = 2
    default_players = 2
    rules_version = "1"
    state_class = OverseerState
    rules_class = OverseerRules
    rules: OverseerRules
    seat_names = SEAT_NAMES
    action_encoding_class = OverseerActions
    observation_encoding_class = OverseerObservation
    view_renderer = staticmethod(render_view)
    image_renderer = staticmethod(render_png)
    #: the computer's levels (docs/levels.md has the figures): the evaluated search, whose solver
    #: proves the capture of a cornered Overseer, at three budgets. Between strong searches many
    #: games a side leads end by the no-capture limit; expert's larger budget turns more of them
    #: into captures (docs/evaluation.md) and holds its rung over hard
    level_specs = {
        "beginner": "greedy:temperature=0.05",
        "easy": "greedy",
        "normal": "mcts:iterations=50,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=3",
        "hard": "mcts:iterations=300,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=3",
        "expert": "mcts:iterations=1500,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=15",
    }
    #: the lab's strong preset is the normal level's search without its time cap: the lab's own
    #: (more iterations at its own exploration constant) cost more CPU a game for no more
    #: strength against the quick one (docs/lab.md, "Presets")
    lab_presets = {"strong": "mcts:iterations=50,leaf_eval=true,widen=1,c=0.2,jitter=0.03"}
    draw_by_agreement = True
    has_chance = False
    has_hidden_information = False
    conformance_budget = {"random_games": 8, "variant_games": 1, "check_every": 4, "moves_per_check": 30}
    result_codes = RESULT_CODES
    # the no-capture limit (rule 7.4), drawn or, with no_capture_ending=material, won on material
    limit_codes = ("no_capture_limit", "no_capture_material")
    options_spec = (
        Option(
            "setup", "concentric",
            "starting armies (rules 5): concentric (24 a side on rings 1-2 and 7-8), chess_sized "
            "(18 a side), diametric (Black turned half way round the disc)",
            choices=SETUPS,
        ),
        Option(
            "no_capture_limit", NO_CAPTURE_LIMIT,
            "plies in a row without a capture that draw the game (rules 7.4)",
            kind=int, minimum=1, maximum=10_000,
        ),
        Option(
            "no_capture_ending", "draw",
            "what the no-capture limit gives (rules 7.4): draw, or material (the side ahead in "
            "material wins; equal material draws)",
            choices=NO_CAPTURE_ENDINGS,
        ),
        Option(
            "no_moves", "draw",
            "what a player with no legal move gets (rules 7.5): draw, or loss",
            choices=("draw", "loss"),
        ),
        Option(
            "extended_material_draw", False,
            "also draw Overseer and one Soldier, Captain, General or Pilot against a bare Overseer (rules 7.2)",
            kind=bool,
        ),
        Option(
            "loose_capture_marks", False,
            "read '-' and 'x' alike and work out the capture from the board (rules 9.2)",
            kind=bool,
        ),
    )

    @property
    def max_moves(self) -> int:
        """A proven bound on the plies of any game, from the set-up or a loaded position (rules 7.7).

        Only captures cannot be undone, and the no-capture limit L ends the game at the L-th
        ply in a row without one. A capture removes a piece other than a Barricade for good;
        at most 96 - 2 such pieces fit beside the two Overseers, and taking an Overseer ends
        the game. So a game has at most 95 runs of at most L quiet plies and at most 95
        captures: 95 * (L + 1) plies (9,595 at the default limit).
        """
        captures = NUM_SQUARES - 1
        return captures * (self.rules.no_capture_limit + 1)

    def _new_state(self, seed: int) -> OverseerState:
        return OverseerState(self, seed, OverseerPosition(tuple(setup_board(self.rules.setup)), 0))

    def _state_from_position(self, text: str) -> OverseerState:
        return OverseerState(self, 0, parse_position(text, self.rules))
