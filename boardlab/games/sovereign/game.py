"""The Sovereign rules object: options, the length bound, states (docs/rules/sovereign.md)."""

from __future__ import annotations

from boardlab.core import Game, Option, OptionError

from .board import SEAT_NAMES, SETUP_LOWER_PER_PLAYER, SETUP_PLACEMENTS, SETUP_TOP_PER_PLAYER
from .encoding import SovereignActions, SovereignObservation
from .position import parse_position
from .render import render_view
from .render_image import render_png
from .rules import BUILD_MODES, RENAMED_RESULT_CODES, RESULT_CODES, SovereignRules
from .state import SovereignState


class SovereignGame(Game):
    """Sovereign: race your Sovereign up a 3-level tower in the enemy's back ranks (docs/rules/sovereign.md)."""

    id = "sovereign"
    name = "Sovereign"
    summary = (
        "7x7 board, towers of 1-3 levels; Sovereign, Diplomat, Consultants, Contractors: "
        "bring your Sovereign onto a 3-level tower in the enemy's back two ranks"
    )
    min_players = 2
    max_players = 2
    rules_version = "1"
    state_class = SovereignState
    rules_class = SovereignRules
    rules: SovereignRules
    seat_names = SEAT_NAMES
    # the option named as Overseer's for the same choice (the ending's code: RENAMED_RESULT_CODES)
    renamed_options = {"no_legal_move": "no_moves"}
    renamed_result_codes = RENAMED_RESULT_CODES
    action_encoding_class = SovereignActions
    observation_encoding_class = SovereignObservation
    view_renderer = staticmethod(render_view)
    image_renderer = staticmethod(render_png)
    #: the computer's levels, chosen by measurement (docs/levels.md has the figures): alpha-beta beat
    #: the evaluated search at a fraction of its cost; its depth is a ceiling and its positions the
    #: budget (a pass that would exceed them is abandoned, and the pass before decides); the three
    #: searches judge by the weights fitted to alpha-beta's own games (search-evaluation.json), which
    #: order positions well enough that fewer positions judged by them beat more judged by hand
    level_specs = {
        "beginner": "greedy:temperature=0.05",
        "easy": "greedy",
        "normal": "mcts:iterations=300,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=3,evaluation=search",
        "hard": "alphabeta:depth=8,nodes=24000,seconds=20,evaluation=search",
        "expert": "alphabeta:depth=9,nodes=200000,seconds=20,evaluation=search",
    }
    #: the lab's strong preset judges by the same weights: at the same CPU a game it scores far
    #: higher against the quick one than by hand (docs/lab.md, "Presets")
    lab_presets = {"strong": "mcts:iterations=60,leaf_eval=true,widen=1,jitter=0.03,evaluation=search"}
    draw_by_agreement = True
    conformance_budget = {"random_games": 8, "variant_games": 1, "check_every": 4, "moves_per_check": 30}
    result_codes = RESULT_CODES
    options_spec = (
        Option(
            "height_model", "castle",
            "castle: crossing open ground resets the climb to the ground (rule 1.4); "
            "relative: every move ends at most its climb above the starting level (A10)",
            choices=("castle", "relative"),
        ),
        Option(
            "towers_block_slides", True, "a tower ends a slide (rule 1.5, A11); false: only pieces block", kind=bool
        ),
        Option(
            "transit_shape", "any_path",
            "any_path: walks through a castle may turn (rule 1.5, A12); straight: no turns",
            choices=("any_path", "straight"),
        ),
        Option(
            "contractor_transit", False, "a Contractor may walk on through the castle it steps onto (A12)", kind=bool
        ),
        Option(
            "build", "one_level",
            "one_level: a build adds one level (rule 1.6.2, A14); whole_tower: a new 1-3 level tower on open "
            "ground; multi_level: any number of levels up to 3",
            choices=BUILD_MODES,
        ),
        Option("diplomat_self_protect", False, "the Diplomat at level 2+ protects itself too (A19)", kind=bool),
        Option(
            "diplomat_pin", "strict",
            "strict: a pinned Diplomat may not move (rule 1.8.2, A20); keep_protection: it may move where it "
            "still shields the Sovereign",
            choices=("strict", "keep_protection"),
        ),
        Option(
            "threat_response", "sovereign_only",
            "sovereign_only: a threatened Sovereign must move (rule 1.9.2, A21); any_resolving_move: any move "
            "that ends the threat",
            choices=("sovereign_only", "any_resolving_move"),
        ),
        Option(
            "winning_move_ignores_threat", True,
            "the winning move may end on a threatened square (rule 1.10, A22)", kind=bool,
        ),
        Option(
            "path_ban_applies_to_diplomat", False, "the path ban of rule 1.9.4 binds the Diplomat too (A23)", kind=bool
        ),
        Option(
            "sovereign_stalemate", "threatened_only",
            "threatened_only: a threatened Sovereign without a move draws (rule 1.11.1, A24); any_time: any "
            "Sovereign without a legal move draws",
            choices=("threatened_only", "any_time"),
        ),
        Option(
            "no_moves", "draw", "a player without a legal move draws (rule 1.11.2) or loses",
            choices=("draw", "loss"),
        ),
        Option(
            "repetition_count", 3, "the occurrence of a position that draws (rule 1.11.3); 0 = no repetition rule",
            kind=int, minimum=0, maximum=100,
        ),
        Option(
            "ply_limit", 200, "plies of play that draw the game (rule 1.11.4)", kind=int, minimum=1, maximum=100_000
        ),
        Option("supply_lower", 35, "lower tower pieces in the supply (rule 1.1.3; for tests and balancing)",
               kind=int, minimum=2 * SETUP_LOWER_PER_PLAYER, maximum=1000),
        Option("supply_top", 14, "top tower pieces in the supply (rule 1.1.3; for tests and balancing)",
               kind=int, minimum=2 * SETUP_TOP_PER_PLAYER, maximum=1000),
    )

    def _check_options(self) -> None:
        if self.options["repetition_count"] == 1:
            raise OptionError(
                "sovereign: repetition_count=1 would end every game at once; use 2 or more, or 0 for no "
                "repetition rule (rule 1.11.3)"
            )

    @property
    def max_moves(self) -> int:
        """A proven bound on the moves of any game: the 14 placements of the setup, then play
        ends at the latest when ``ply_limit`` plies of play have been made (rule 1.11.4), and a
        position loaded mid-play has fewer left. So 14 + ply_limit."""
        return SETUP_PLACEMENTS + self.rules.ply_limit

    def _new_state(self, seed: int) -> SovereignState:
        return SovereignState(self, seed)

    def _state_from_position(self, text: str) -> SovereignState:
        return SovereignState(self, 0, parse_position(text, self.rules))
