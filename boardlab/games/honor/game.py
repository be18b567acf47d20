"""The Honor rules object: options, the ruleset, the length bound, states and renderers."""

from __future__ import annotations

import secrets

from boardlab.core import Game, Option

from .catalogue import ALL_PIECES
from .encoding import HonorActions, HonorObservation
from .physics import pymunk_module
from .position import parse_position
from .render import render_view
from .render_image import render_png
from .rules import AUCTION_ORDERS, CLOCKWISE, RESULT_CODES, RULES_VERSION, SEAT_NAMES, SEED_BITS, START_POOL, HonorRules
from .state import HonorState


class HonorGame(Game):
    """Honor, "A Game of Honor and Diplomacy": bid for pieces and balance them on your
    tower, on a pymunk physics table; the last tower standing wins (docs/rules/honor.md)."""

    id = "honor"
    name = "Honor"
    summary = "bid tokens for wooden pieces and balance them on your tower; last tower standing wins (physics)"
    min_players = 2
    max_players = 4
    default_players = 2
    options_spec = (
        Option("tremor", True, "Gaussian hand tremor on every release, sigma 0.10 cm / 0.5 deg (rule 4.5)", kind=bool),
        Option("resign", True, "players may resign at their own decision points (rule 7.13)", kind=bool),
        Option("zone_gap", 0, "empty table between zones, cm (rule 3.1)", kind=int, minimum=0, maximum=60),
        Option("settle", "ruled", "settle windows: ruled (1 s + 1 s quiet, 20 s timeout) or quick "
               "(0.5 s + 0.5 s, 10 s) for faster lab runs (rule 5.3)", choices=("ruled", "quick")),
        Option("minimum_opening_bid", 0, "the least opening bid of a Build, tokens; a turn player whose pool is "
               "below it can only push (rule 7.2; 0 is the ruled game, a balance option)", kind=int, minimum=0,
               maximum=5),
        Option("auction_order", CLOCKWISE, "who an auction asks first: clockwise from the player after the turn "
               "player (rule 7.3, the ruled game) or lowest_pool_first (the smallest pool first, equal pools "
               "clockwise; a balance option)", choices=AUCTION_ORDERS),
        Option("preview", "drop", "what previewing a release shows: drop (the piece where the hand lets go, "
               "at the true drop height; rule 14.1) or outcome (the table after it settles, without tremor)",
               choices=("drop", "outcome")),
    )
    has_chance = True
    has_hidden_information = True
    continuous_moves = True
    # the chance is the hand's tremor, and what is hidden only the seed that draws it (rules 4.5, 11.5)
    nature = ("physics", "a small tremor on every release")
    result_codes = RESULT_CODES
    rules_version = RULES_VERSION
    state_class = HonorState
    rules_class = HonorRules
    rules: HonorRules
    seat_names = SEAT_NAMES
    action_encoding_class = HonorActions
    observation_encoding_class = HonorObservation
    view_renderer = staticmethod(render_view)
    image_renderer = staticmethod(render_png)
    #: the computer's levels (docs/levels.md): the beginner looks one move ahead on the evaluation,
    #: each release tried under two of the tremor's outcomes drawn at random (all of them cost far
    #: more CPU a placement and bought no rung: docs/levels.md); the others are Honor's own agent
    #: (rules section 13)
    level_specs = {
        "beginner": "greedy:exact_chance=0,chance_samples=2",
        "easy": "honor:level=easy",
        "normal": "honor:level=normal",
        # values push chains by the fitted weights where they hold (two players): docs/evaluation.md
        "hard": "honor:level=hard,evaluation=fitted",
    }
    #: the lab's presets (docs/lab.md, "Presets", has their cost): the lab's own simulate every
    #: release under every tremor outcome (quick) or at every node of a search (strong), far
    #: dearer here than elsewhere; here quick tries each release under one outcome drawn at
    #: random, and strong is the `normal` level
    lab_presets = {
        "quick": "greedy:exact_chance=0,chance_samples=1",
        "strong": "honor:level=normal",
    }
    #: the levels for players: how steady a hand each places with, and how it sees what a
    #: piece will do to a tower (no setting: those are the spec's)
    level_words = {
        "beginner": "the gentlest opponent, for a first game: it tries each spot for a piece only once or "
                    "twice and keeps the one that looks best, so it often misjudges how the tower will take it",
        "easy": "a step up from beginner: it tries a few ways to place each piece, but with a shaky hand, "
                "so its pieces often land off the mark",
        "normal": "the default, a fair game once you know the rules: it places with care but a slightly "
                  "shaky hand, and guesses by rule of thumb which pieces are risky",
        "hard": "a real challenge for a practised player: it places with a steady hand, foresees which "
                "pieces will topple a rival's tower, and knows what each of its tokens is worth",
    }
    #: every move that places a piece runs the physics: few, short games
    conformance_budget = {"random_games": 3, "variant_games": 1, "check_every": 7, "moves_per_check": 6,
                          "fuzz_examples": 40}

    @property
    def max_moves(self) -> int:
        """Rule 12: <= 30n placements, each after <= 1 choice, 10 raises, n passes, 8 push
        passes and 2 release moves; <= 10n outbid rounds of <= 12 + n moves; n resignations."""
        n = self.num_players
        placements = len(ALL_PIECES) * n
        per_placement = 1 + START_POOL + n + 8 + 2
        outbid_rounds = START_POOL * n * (2 + START_POOL + n)
        return placements * per_placement + outbid_rounds + n

    def new_state(self, seed: int | None = None) -> HonorState:
        """A new game; a default seed has 256 bits (B-14 item 12)."""
        return super().new_state(secrets.randbits(SEED_BITS) if seed is None else seed)  # type: ignore[return-value]

    def state_from_position(self, text: str, seed: int | None = None) -> HonorState:
        """A state from a position string; it starts cold (no pickled space, rule 11.3)."""
        return super().state_from_position(text, secrets.randbits(SEED_BITS) if seed is None else seed)  # type: ignore[return-value]

    def _new_state(self, seed: int) -> HonorState:
        pymunk_module()  # fail early with the install hint
        return HonorState(self, seed)

    def _state_from_position(self, text: str) -> HonorState:
        pymunk_module()
        return HonorState(self, 0, parse_position(text, self.rules))

    @property
    def resigns_by_move(self) -> bool:
        """With the resign option the rules have their own resignation (rule 7.13)."""
        return self.rules.resign


__all__ = ["HonorGame"]
