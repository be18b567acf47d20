"""The Territories game object: options, registration, result codes and the proven length bound."""

from __future__ import annotations

from functools import cached_property

from boardlab.core import Game

from .cards import SEAT_NAMES
from .encoding import TerritoriesActions, TerritoriesObservation
from .phases import SETUP_STEPS
from .position import check_moves_exist, parse_position
from .render import render_view
from .render_image import render_png
from .rules import OPTIONS, RESULT_CODES, TerritoriesRules, parse_extent
from .state import TerritoriesState

#: the moves before the first turn: 20 deals, the first player, the setup Towns (R3)
SETUP_MOVES = 20 + 1 + SETUP_STEPS


class TerritoriesGame(Game):
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
    nature = ("dice", "hidden cards")
    result_codes = RESULT_CODES
    rules_version = "2"
    state_class = TerritoriesState
    rules_class = TerritoriesRules
    rules: TerritoriesRules
    seat_names = SEAT_NAMES
    action_encoding_class = TerritoriesActions
    observation_encoding_class = TerritoriesObservation
    view_renderer = staticmethod(render_view)
    image_renderer = staticmethod(render_png)
    #: the computer's levels, chosen by measurement (docs/levels.md has the figures). No search
    #: measured so far is clearly stronger than the evaluated search on one resampled deal (neither
    #: information-set MCTS nor, judging by hand, more iterations), and it clearly beats greedy: so
    #: it is the top level, judging by the evaluation fitted to its own games (docs/evaluation.md:
    #: it beats the same search judging by hand, and with it a larger budget beats greedy clearly
    #: more often while a decision stays short), greedy is normal, and the two lower levels are
    #: greedy drawing its moves at two temperatures
    level_specs = {
        "beginner": "greedy:temperature=0.05",
        "easy": "greedy:temperature=0.015",
        "normal": "greedy",
        "hard": "mcts:iterations=1000,leaf_eval=true,widen=1,c=0.2,jitter=0.03,seconds=3,evaluation=fitted",
    }
    #: the lab's strong preset is hard's search at 60 iterations, clearly stronger than greedy (the
    #: quick one); the lab's own, information-set MCTS, was not, at more CPU a game
    #: (docs/lab.md, "Presets")
    lab_presets = {"strong": "mcts:iterations=60,leaf_eval=true,widen=1,c=0.2,jitter=0.03,evaluation=fitted"}
    #: the levels for players where they play otherwise than the core's words say: normal takes
    #: the best move at once (no search), easy errs only now and then
    level_words = {
        "easy": "a step up from beginner: it now and then picks a plausible but weaker move",
        "normal": "the default, a fair game once you know the rules: it takes the best move it sees at once "
                  "and never misses a win on the spot, but does not plan ahead",
    }
    conformance_budget = {"random_games": 6, "variant_games": 1, "check_every": 5, "moves_per_check": 25}

    def _check_options(self) -> None:
        parse_extent(self.options["expand_max_extent"])

    @cached_property
    def max_moves(self) -> int:
        """A proven bound on the history length (R9.4); worked out once per game (the rules are fixed).

        Setup is 25 moves (20 deals, first player, 4 Towns), and one more for P2's starting
        resources when they are granted (R3.4). A turn holds at most:
        15 fixed moves (roll, 2 discards, the 7's draw, 2 wildcard choices, up to 8
        Capital draws, end); 3P trade moves (P proposals, each announced, named and
        answered once, a counter-proposal answering instead); every
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
        per_turn = 15 + 3 * proposals + 2 * (budget // 3) + 4 * activations
        setup = SETUP_MOVES + (1 if rules.second_player_resources else 0)
        return setup + rules.max_turns * per_turn

    def _new_state(self, seed: int) -> TerritoriesState:
        return TerritoriesState(self, seed)

    def _state_from_position(self, text: str) -> TerritoriesState:
        state = TerritoriesState(self, 0, parse_position(text, self.rules))
        check_moves_exist(state, text)
        return state
