"""Drivers and small checks shared by the conformance checks (protocol only, no game knowledge)."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ..core.errors import OptionError
from ..core.game import Game
from ..core.registry import game_class, load
from ..core.state import State
from ..core.values import Move

#: a player for view checks: a seat or None (spectators)
Viewer = int | None


@dataclass(frozen=True)
class Budget:
    """How much work the suite spends on one game (per check).

    ``random_games``: full random games (default configuration);
    ``variant_games``: random games per other configuration (player count, option value);
    ``check_every``: the expensive per-position checks run at every k-th ply;
    ``moves_per_check``: at most this many legal moves are applied at a checked ply
    (a random sample when there are more; a game with few moves is checked in full);
    ``fuzz_examples``: hypothesis examples per fuzz check.

    A game may declare its own in ``Game.conformance_budget`` (a physics game runs
    fewer, shorter games); :func:`budget_for` reads it.
    """

    random_games: int = 12
    variant_games: int = 2
    check_every: int = 1
    moves_per_check: int = 40
    fuzz_examples: int = 120

    def scaled(self, factor: float) -> Budget:
        """This budget with its game counts and fuzz examples multiplied by ``factor`` (at least 1)."""
        return replace(
            self,
            random_games=max(1, round(self.random_games * factor)),
            variant_games=max(1, round(self.variant_games * factor)),
            fuzz_examples=max(1, round(self.fuzz_examples * factor)),
        )


def budget_for(game: Game | str) -> Budget:
    """The budget a game declares in ``conformance_budget``, over the defaults."""
    cls = game_class(game) if isinstance(game, str) else type(game)
    declared: Mapping[str, int] = getattr(cls, "conformance_budget", {}) or {}
    known = {f.name for f in fields(Budget)}
    unknown = set(declared) - known
    if unknown:
        raise ValueError(f"{cls.id}.conformance_budget: unknown keys {sorted(unknown)}; known: {sorted(known)}")
    return Budget(**declared)


@dataclass(frozen=True)
class Config:
    """A game set-up to test: id, player count, options."""

    game_id: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()

    def load(self) -> Game:
        return load(self.game_id, players=self.players, **dict(self.options))

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game_id}-{self.players}p" + (f"-{opts}" if opts else "")


def configurations(game_id: str, limit: int = 8) -> list[Config]:
    """The default set-up, every other player count, then every non-default option value.

    One variation at a time (not the product), at most ``limit`` in all.
    """
    cls = game_class(game_id)
    default = cls().num_players
    configs = [Config(game_id, default)]
    configs += [Config(game_id, n) for n in cls.allowed_player_counts() if n != default]
    for option in cls.options_spec:
        values: tuple[Any, ...] = ()
        if option.choices is not None:
            values = option.choices
        elif option.kind is bool:
            values = (not option.default,)
        for value in values:
            if value != option.default:
                configs.append(Config(game_id, default, ((option.name, value),)))
    valid = []
    for config in configs:
        try:
            config.load()
        except OptionError:
            continue  # an option value that needs another player count, say
        valid.append(config)
    return valid[:limit]


def random_move(state: State, rng: random.Random) -> Move:
    """A chance outcome drawn from the state's seed, or a uniformly random legal move."""
    if state.is_chance():
        return state.sample_chance()
    return rng.choice(state.legal_moves())


#: the moves of each seeded game played to its end, by (game class, players, options, seed):
#: every check walks the same games, which are drawn (and checked move by move) once
_PLAYED: dict[tuple[Any, ...], tuple[Move, ...]] = {}


def perft(state: State, depth: int) -> int:
    """The leaves of the move tree ``depth`` plies deep from ``state`` (a finished game is a
    leaf where it ends), walked with apply and undo: the count to compare with an independent
    implementation of the rules (the chess programmers' perft). ``state`` is left as it was."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.apply(move)
        total += 1 if state.is_over() else perft(state, depth - 1)
        state.undo()
    return total


def playthrough(game: Game, seed: int, *, fresh: bool = False) -> Iterator[State]:
    """Play a random game; yield the live state before every move and once at the end.

    Callers may inspect and temporarily change the state (play then undo) but
    must leave it as they found it. The moves depend only on ``seed``: the first walk of a
    seed draws them (each checked by ``play``) and keeps them, later walks replay them on a
    new state, unless ``fresh`` asks for them to be drawn again.
    """
    key = (type(game), game.num_players, repr(sorted(game.options.items())), seed)
    kept = None if fresh else _PLAYED.get(key)
    state = game.new_state(seed)
    if kept is not None:
        for move in kept:
            yield state
            state.apply(move)
        yield state
        return
    rng = random.Random(f"conformance/{seed}")
    played: list[Move] = []
    while True:
        yield state
        if state.is_over():
            _PLAYED[key] = tuple(played)
            return
        if state.ply > game.max_moves:
            raise AssertionError(f"{game.id}: seed {seed} passed max_moves={game.max_moves} without ending")
        move = random_move(state, rng)
        state.play(move)
        played.append(move)


def checked(state: State, budget: Budget) -> bool:
    """Whether the expensive checks run at this ply."""
    return state.ply % budget.check_every == 0 or state.is_over()


def sample_moves(state: State, budget: Budget, rng: random.Random) -> list[Move]:
    """Up to ``budget.moves_per_check`` of the legal moves (or chance outcomes) here."""
    moves = state.legal_moves() or [move for move, _ in state.chance_outcomes()]
    if len(moves) > budget.moves_per_check:
        moves = rng.sample(moves, budget.moves_per_check)
    return moves


def viewers(game: Game) -> list[Viewer]:
    """Spectators and every seat."""
    return [None, *range(game.num_players)]


def leaves(value: Any) -> Iterator[str]:
    """Every key and scalar of a JSON-like value, as text."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from leaves(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from leaves(item)
    elif value is not None:
        yield str(value)


_TOKEN_SPLIT = re.compile(r"[\s,;:=/|()\[\]{}<>\"']+")


def leaked(shown: Any, secrets: set[str]) -> set[str]:
    """The secrets that appear in ``shown`` (a view, a text): equal to a leaf or to a token of
    a text leaf. Tokens are split at spaces and punctuation, so a secret ``"K♠"`` is found in
    ``"hand: K♠ 7♥"`` while a secret ``"3"`` is not found in ``"d3"``."""
    if not secrets:
        return set()
    found: set[str] = set()
    for leaf in leaves(shown):
        if leaf in secrets:
            found.add(leaf)
        found.update(token for token in _TOKEN_SPLIT.split(leaf) if token in secrets)
    return found


def check_returns(state: State) -> None:
    """The end-of-game contract of docs/api.md: returns in [0, 1] summing to 1, winners = best,
    a code the game declares."""
    result = state.result()
    assert result is not None, f"{state.game.id}: the game is over but result() is None"
    returns = result.returns
    assert len(returns) == state.num_players
    assert all(0.0 <= r <= 1.0 for r in returns), returns
    assert math.isclose(sum(returns), 1.0, abs_tol=1e-9), returns
    best = max(returns)
    assert set(result.winners) == {p for p, r in enumerate(returns) if math.isclose(r, best)}, result
    assert state.returns() == returns
    assert state.winners() == result.winners
    codes = state.game.result_codes
    assert result.code in codes, (
        f"{state.game.id}: result code {result.code!r} is not among the game's result_codes {codes}"
    )
