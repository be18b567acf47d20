"""A tiny test-only game for protocol and agent tests (not registered as a product game).

Dice Nim: a pile of ``pile`` counters; on your turn take 1-3. After each take a
die is rolled: a 6 adds 1 counter back. Each player holds a secret bid 0-2
(hidden information), revealed only at the end; whoever takes the last counter
wins. Small enough for exhaustive checks, with chance and hidden information.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from boardlab.core import (
    CHANCE,
    TERMINAL,
    Game,
    Move,
    NotationError,
    Option,
    PositionError,
    Result,
    State,
    check_position_fields,
)


@dataclass(frozen=True, slots=True)
class Take(Move):
    count: int

    def __str__(self) -> str:
        return f"take{self.count}"


@dataclass(frozen=True, slots=True)
class Roll(Move):
    value: int

    def __str__(self) -> str:
        return f"d{self.value}"


@dataclass(frozen=True, slots=True)
class Secret(Move):
    player: int
    value: int

    def __str__(self) -> str:
        return f"secret{self.player}={self.value}"


TAKES = [Take(1), Take(2), Take(3)]
ROLLS = [(Roll(v), 1 / 6) for v in range(1, 7)]


class DiceNim(Game):
    id = "dicenim"
    result_codes = ("last_counter",)
    name = "Dice Nim (test game)"
    options_spec = (Option("pile", 10, "counters at the start", kind=int, minimum=1, maximum=50),)
    has_chance = True
    has_hidden_information = True

    @property
    def max_moves(self) -> int:
        return 10_000

    def _new_state(self, seed: int) -> DiceNimState:
        return DiceNimState(self, seed, self.options["pile"])

    def _state_from_position(self, text: str) -> DiceNimState:
        """``pile to_move rolling secret0 secret1``, as DiceNimState.position() writes it."""
        fields = check_position_fields(self.id, text, 5)
        try:
            pile, to_move, rolling, secret0, secret1 = (int(field) for field in fields)
        except ValueError:
            raise PositionError(f"dicenim position {text!r}: every field must be a whole number") from None
        if not 0 <= pile <= 60:
            raise PositionError(f"dicenim position {text!r}: pile {pile} is outside 0..60")
        if to_move not in (0, 1) or rolling not in (0, 1):
            raise PositionError(f"dicenim position {text!r}: to_move and rolling must be 0 or 1")
        if not (-1 <= secret0 <= 2 and -1 <= secret1 <= 2):
            raise PositionError(f"dicenim position {text!r}: secrets must be -1 (not dealt) or 0..2")
        if rolling and pile == 0:
            raise PositionError(f"dicenim position {text!r}: no roll follows the last counter")
        state = DiceNimState(self, 0, pile)
        state.to_move = to_move
        state.rolling = bool(rolling)
        state.secrets_ = [secret0, secret1]
        return state


class DiceNimState(State):
    def __init__(self, game: DiceNim, seed: int, pile: int) -> None:
        super().__init__(game, seed)
        self.pile = pile
        self.to_move = 0
        self.rolling = False
        self.secrets_ = [-1, -1]

    def current_player(self) -> int:
        if self.secrets_[0] < 0 or self.secrets_[1] < 0 or self.rolling:
            return CHANCE
        if self.pile == 0:
            return TERMINAL
        return self.to_move

    def _legal_moves(self):
        return TAKES[: min(3, self.pile)]

    def _chance_outcomes(self):
        if self.secrets_[0] < 0:
            return [(Secret(0, v), 1 / 3) for v in range(3)]
        if self.secrets_[1] < 0:
            return [(Secret(1, v), 1 / 3) for v in range(3)]
        return ROLLS

    def _apply(self, move):
        if isinstance(move, Secret):
            self.secrets_[move.player] = move.value
        elif isinstance(move, Take):
            self.pile -= move.count
            self.to_move = 1 - self.to_move
            self.rolling = self.pile > 0
        else:
            if move.value == 6:
                self.pile += 1
            self.rolling = False

    def _snapshot(self):
        return (self.pile, self.to_move, self.rolling, tuple(self.secrets_))

    def _restore(self, snap):
        self.pile, self.to_move, self.rolling, secrets_ = snap
        self.secrets_ = list(secrets_)

    def _copy(self):
        c = type(self).__new__(type(self))  # subclasses (the planted faults) stay themselves
        c.pile, c.to_move, c.rolling, c.secrets_ = self.pile, self.to_move, self.rolling, list(self.secrets_)
        return c

    def _parse_move(self, text):
        for cand in [*TAKES, *(m for m, _ in ROLLS), *(Secret(p, v) for p in range(2) for v in range(3))]:
            if str(cand) == text:
                return cand
        raise NotationError(f"{text}: not dice-nim notation (take1..take3, d1..d6, secretP=V)")

    def result(self):
        if self.current_player() != TERMINAL:
            return None
        return Result.win(1 - self.to_move, 2, "took the last counter", code="last_counter")

    def _move_text(self, move, viewer):
        if isinstance(move, Secret) and viewer != move.player:
            return f"P{move.player + 1} was dealt a secret"
        return str(move)

    def _view(self, player):
        mine = None
        if player is not None and self.secrets_[player] >= 0:
            mine = str(Secret(player, self.secrets_[player]))
        return {"pile": self.pile, "to_move": self.to_move, "my_secret": mine}

    def secrets(self, player):
        """Each dealt secret, as its notation, is kept from everybody but its owner."""
        return {
            str(Secret(owner, value))
            for owner, value in enumerate(self.secrets_)
            if value >= 0 and owner != player
        }

    def position(self):
        return f"{self.pile} {self.to_move} {int(self.rolling)} {self.secrets_[0]} {self.secrets_[1]}"

    def _resample(self, player, rng: random.Random):
        """Re-draw the other player's secret, then start a fresh history here, so that
        neither the state nor its history (nor undo) holds the real secret."""
        c = self.copy()
        c.seed = rng.getrandbits(64)
        other = 1 - player
        if c.secrets_[other] >= 0:
            c.secrets_[other] = rng.randrange(3)
        c.rebase()
        return c
