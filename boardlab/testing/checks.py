"""The conformance checks: every registered game obeys the protocol of docs/api.md.

Each check is a function ``check_*(game, budget)`` that plays random games
through the public protocol only and raises AssertionError (with the seed and
ply) on the first violation. :data:`CHECKS` lists them in order; pytest runs
them in tests/conformance, and ``boardlab check GAME`` runs them from a shell.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable

from ..core.errors import GameOverError, IllegalMoveError, OptionError, PositionError, RecordError
from ..core.game import Game
from ..core.records import Record
from ..core.registry import game_class, load
from ..core.state import VIEW_FORMAT
from ..core.values import CHANCE, TERMINAL
from .encodings import ENCODING_CHECKS
from .fields import check_undo_restores_every_declared_field
from .helpers import (
    Budget,
    Config,
    check_returns,
    checked,
    configurations,
    leaked,
    playthrough,
    random_move,
    sample_moves,
    viewers,
)

GARBAGE_MOVES = ["", "   ", "zz-not-a-move", "!!!", "\x00", "999999999999999999999", "a" * 300, "help me"]
ENVELOPE_KEYS = {"format", "game", "rules_version", "players", "seat_names", "viewer", "ply", "to_move",
                 "chance", "over", "result", "board"}


def seeds(budget: Budget) -> range:
    return range(1, budget.random_games + 1)


# --- the catalog ------------------------------------------------------------------
def check_catalog_entry(game: Game, budget: Budget) -> None:
    """The catalog describes the game; defaults are the defaults; result codes are declared."""
    entry = type(game).describe()
    assert entry["name"].strip(), "the game needs a name"
    assert 1 <= entry["min_players"] <= entry["max_players"]
    fresh = load(game.id)
    for option in entry["options"]:
        assert fresh.options[option["name"]] == option["default"], option["name"]
    assert game.max_moves > 0
    assert game.result_codes, f"{game.id}: declare the ending codes of its results in result_codes"


def check_bad_player_counts_and_options(game: Game, budget: Budget) -> None:
    """A bad player count or option is refused with an OptionError naming it."""
    cls = game_class(game.id)
    try:
        load(game.id, players=cls.max_players + 1)
    except OptionError as exc:
        assert str(cls.max_players + 1) in str(exc), exc
    else:
        raise AssertionError(f"{game.id}: {cls.max_players + 1} players were accepted")
    try:
        load(game.id, no_such_option="1")
    except OptionError as exc:
        assert "no_such_option" in str(exc), exc
    else:
        raise AssertionError(f"{game.id}: an unknown option was accepted")


# --- whole games -----------------------------------------------------------------
def check_random_games_end_within_the_bound(game: Game, budget: Budget, games: int | None = None) -> None:
    """Random games end within ``max_moves``; each node is a decision, a chance node or the end,
    with consistent moves, outcomes and results."""
    count = budget.random_games if games is None else games
    for seed in range(1, count + 1):
        for state in playthrough(game, seed):
            player = state.current_player()
            moves = state.legal_moves()
            if player == TERMINAL:
                assert moves == [] and state.chance_outcomes() == []
                assert state.ply <= game.max_moves
                check_returns(state)
            elif player == CHANCE:
                outcomes = state.chance_outcomes()
                assert moves == [] and outcomes, f"seed {seed} ply {state.ply}: a chance node without outcomes"
                assert all(p > 0 for _, p in outcomes)
                assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
                assert state.result() is None
            else:
                assert 0 <= player < game.num_players
                assert moves, f"seed {seed} ply {state.ply}: player {player} to move without legal moves"
                assert len(set(moves)) == len(moves), "legal_moves() lists a move twice"
                assert state.result() is None


def check_every_configuration_plays(config: Config, budget: Budget) -> None:
    """Every player count and non-default option value plays random games to the end."""
    game = config.load()
    default = Config(config.game_id, game.num_players)
    check_random_games_end_within_the_bound(
        game, budget, budget.random_games if config == default else budget.variant_games
    )


def check_declared_nature(game: Game, budget: Budget) -> None:
    """What the game declares about itself matches what it does: chance nodes occur if and
    only if ``has_chance``; with ``has_hidden_information`` some position keeps secrets, without
    it no position does and every seat is shown the same board."""
    saw_chance = saw_secret = False
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            saw_chance = saw_chance or state.current_player() == CHANCE
            if not checked(state, budget):
                continue
            secret_sets = [state.secrets(viewer) for viewer in viewers(game)]
            saw_secret = saw_secret or any(secret_sets)
            if not game.has_hidden_information:
                assert not any(secret_sets), f"seed {seed} ply {state.ply}: secrets in a game without hidden information"
                boards = [state.view(viewer)["board"] for viewer in viewers(game)]
                assert all(board == boards[0] for board in boards), (
                    f"seed {seed} ply {state.ply}: seats see different boards in a game without hidden information"
                )
    if game.has_chance:
        assert saw_chance, f"{game.id} declares has_chance, but no chance node came up in {len(seeds(budget))} games"
    else:
        assert not saw_chance, f"{game.id} does not declare has_chance, but a chance node came up"
    if game.has_hidden_information:
        assert saw_secret, (
            f"{game.id} declares has_hidden_information, but secrets() named nothing in "
            f"{len(seeds(budget))} games: name the hidden strings so the no-leak checks can work"
        )


def check_same_seed_same_game(game: Game, budget: Budget) -> None:
    for seed in seeds(budget)[:3]:
        first = [(s.position(), s.current_player()) for s in playthrough(game, seed, fresh=True)]
        second = [(s.position(), s.current_player()) for s in playthrough(game, seed, fresh=True)]
        assert first == second, f"seed {seed}: two games from one seed differ"
        assert game.new_state(seed).position() == game.new_state(seed).position()


def check_undo_walks_back_to_the_start(game: Game, budget: Budget) -> None:
    """Undo walks a whole game back, position by position, even after a copy (which shares the
    undo snapshots) has walked back first."""
    for seed in seeds(budget)[:3]:
        positions = []
        for state in playthrough(game, seed):
            positions.append(state.position())
        final = state
        history = list(final.history)
        walker = final.copy()
        while walker.last_move is not None:
            walker.undo()
        assert walker.position() == positions[0], f"seed {seed}: a copy's undo did not reach the start"
        for move in history:  # forward again: a move that mutated a shared snapshot would corrupt the original
            walker.apply(move)
        assert walker.position() == positions[-1], f"seed {seed}: replaying a copy did not reach the end"
        for ply in range(len(history), 0, -1):
            assert final.undo() == history[ply - 1]
            assert final.position() == positions[ply - 1], f"seed {seed}: undo to ply {ply - 1}"
        try:
            final.undo()
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"seed {seed}: undo at the start did not raise")


# --- per position ------------------------------------------------------------------
def check_moves_apply_parse_back_and_undo(game: Game, budget: Budget) -> None:
    """Every legal move's notation parses back to it, its JSON form round-trips, and undo restores."""
    rng = random.Random(7)
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget) or state.is_over():
                continue
            before = state.position()
            player = state.current_player()
            for move in sample_moves(state, budget, rng):
                text = str(move)
                assert state.parse_move(text) == move, f"{text!r} parses to another move"
                data = json.loads(json.dumps(move.to_json()))
                assert data["notation"] == text and data["type"] == move.json_type(), data
                assert state.move_from_json(data) == move, f"{data} does not read back as {text!r}"
                state.play(move)
                assert state.history[-1] == move
                state.undo()
                assert state.position() == before, f"seed {seed}: undo of {text!r} changed the position"
                assert state.current_player() == player


def check_default_moves_are_legal(game: Game, budget: Budget) -> None:
    """Where the rules give a default move for a timeout, it is legal."""
    for seed in seeds(budget)[:4]:
        for state in playthrough(game, seed):
            if state.current_player() < 0 or not checked(state, budget):
                continue
            move = state.default_move()
            if move is not None:
                state.check_move(move)


def check_positions_round_trip(game: Game, budget: Budget) -> None:
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            text = state.position()
            rebuilt = game.state_from_position(text, seed=state.seed)
            assert rebuilt.position() == text, f"seed {seed} ply {state.ply}: the position does not round-trip"
            assert rebuilt.current_player() == state.current_player()
            assert sorted(map(str, rebuilt.legal_moves())) == sorted(map(str, state.legal_moves()))
            assert [(str(m), p) for m, p in rebuilt.chance_outcomes()] == [
                (str(m), p) for m, p in state.chance_outcomes()
            ]


def check_records_round_trip(game: Game, budget: Budget) -> None:
    """A record of the game so far saves, loads and replays to the same position and result."""
    for seed in seeds(budget)[:4]:
        for state in playthrough(game, seed):
            # a replay replays the whole history: check at plies 0, 1, 2, 4, 8 ... and the end
            if not (state.is_over() or state.ply & (state.ply - 1) == 0):
                continue
            record = Record.loads(Record.for_state(state).dumps())
            replayed = record.replay()
            assert replayed.position() == state.position()
            assert [str(m) for m in replayed.history] == [str(m) for m in state.history]
            if replayed.ply:
                replayed.undo()  # history survives the round trip


def check_copies_are_independent(game: Game, budget: Budget) -> None:
    rng = random.Random(3)
    for seed in seeds(budget)[:4]:
        for state in playthrough(game, seed):
            if not checked(state, budget) or state.is_over():
                continue
            before, ply = state.position(), state.ply
            clone = state.copy()
            clone.play(random_move(clone, rng))
            assert state.position() == before and state.ply == ply, "playing on a copy changed the original"
            state.play(random_move(state, random.Random(ply)))
            clone_position = clone.position()
            state.undo()
            assert clone.position() == clone_position, "undo on the original changed the copy"
            clone.undo()
            assert clone.position() == before
            assert state.position() == before


def check_rebase_keeps_the_position(game: Game, budget: Budget) -> None:
    """``rebase()`` keeps the position and the ply count and forgets the history."""
    for seed in seeds(budget)[:2]:
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            clone = state.copy()
            clone.rebase()
            assert clone.position() == state.position() and clone.ply == state.ply
            assert clone.history == () and clone.start_position == state.position()
            try:
                clone.undo()
            except IllegalMoveError:
                pass
            else:
                raise AssertionError("undo went behind a rebase")


# --- what each viewer is shown ---------------------------------------------------------
def check_views_are_enveloped_json_and_keep_secrets(game: Game, budget: Budget) -> None:
    """``view(v)`` is the versioned envelope, JSON-safe, and shows none of ``secrets(v)``."""
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            for viewer in viewers(game):
                view = state.view(viewer)
                assert set(view) == ENVELOPE_KEYS, f"view keys {sorted(view)}"
                assert view["format"] == VIEW_FORMAT and view["viewer"] == viewer and view["ply"] == state.ply
                json.dumps(view)
                assert not leaked(view, state.secrets(viewer)), (
                    f"seed {seed} ply {state.ply}: view({viewer}) leaks {leaked(view, state.secrets(viewer))}"
                )
                assert isinstance(state.render(viewer), str)


def check_move_texts_keep_secrets(game: Game, budget: Budget) -> None:
    """How a move reads to a viewer never names what that viewer may not know after it."""
    rng = random.Random(13)
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget) or state.is_over():
                continue
            for move in sample_moves(state, budget, rng):
                texts = {viewer: state.move_text(move, viewer) for viewer in viewers(game)}
                state.apply(move)
                for viewer, text in texts.items():
                    assert isinstance(text, str) and text.strip(), f"an empty move text for {viewer}"
                    found = leaked(text, state.secrets(viewer))
                    assert not found, f"seed {seed} ply {state.ply}: {move} reads {text!r} to {viewer}: leaks {found}"
                state.undo()


def check_twins_look_the_same(game: Game, budget: Budget) -> None:
    """Two states that differ only in what player ``p`` may not see (``resample(p)``) look the same
    to ``p`` and to spectators: the same view, and the same text for every move legal in both."""
    rng = random.Random(11)
    for seed in seeds(budget):
        for state in playthrough(game, seed):
            if not checked(state, budget) or state.is_over():
                continue
            before = state.position()
            for player in range(game.num_players):
                twin = state.resample(player, rng)
                for viewer in (player, None):
                    assert twin.view(viewer) == state.view(viewer), (
                        f"seed {seed} ply {state.ply}: resample({player}) changed view({viewer})"
                    )
                twin_moves = set(twin.legal_moves()) | {m for m, _ in twin.chance_outcomes()}
                for move in sample_moves(state, budget, rng):
                    if move in twin_moves:
                        for viewer in (player, None):
                            assert twin.move_text(move, viewer) == state.move_text(move, viewer), (
                                f"seed {seed} ply {state.ply}: {move} reads differently to {viewer} in a twin"
                            )
                assert twin.current_player() == state.current_player()
                assert twin.ply == state.ply
                assert twin.seed != state.seed, "resample must replace the seed: agents may not foresee chance"
                if game.has_hidden_information:
                    assert twin.history == (), (
                        "a resampled state must not keep the history of the real hidden parts (call rebase())"
                    )
                if not twin.is_over():
                    twin.play(random_move(twin, rng))
                assert state.position() == before, "playing on a resampled state changed the original"


# --- bad input ---------------------------------------------------------------------
def check_garbage_is_refused_and_changes_nothing(game: Game, budget: Budget) -> None:
    for seed in seeds(budget)[:3]:
        for state in playthrough(game, seed):
            if not checked(state, budget):
                continue
            before, ply = state.position(), state.ply
            error = GameOverError if state.is_over() else IllegalMoveError
            for text in GARBAGE_MOVES:
                try:
                    state.play(text)
                except error:
                    pass
                else:
                    raise AssertionError(f"seed {seed} ply {ply}: {text!r} was played")
                assert state.position() == before and state.ply == ply
            try:
                state.play(12345)  # type: ignore[arg-type]
            except IllegalMoveError:
                pass
            else:
                raise AssertionError("a number was played as a move")


def check_moves_from_elsewhere_are_refused_with_a_reason(game: Game, budget: Budget) -> None:
    if game.continuous_moves:
        return  # candidate lists of continuous games are not every legal move
    rng = random.Random(5)
    for seed in seeds(budget)[:3]:
        seen: set[str] = set()
        for state in playthrough(game, seed):
            here = {str(m) for m in state.legal_moves()} | {str(m) for m, _ in state.chance_outcomes()}
            seen |= here
            if not checked(state, budget) or state.is_over():
                continue
            before = state.position()
            for text in rng.sample(sorted(seen - here), min(5, len(seen - here))):
                try:
                    state.play(text)
                except IllegalMoveError as exc:
                    assert str(exc).strip(), "the error must say why"
                else:
                    raise AssertionError(f"seed {seed} ply {state.ply}: {text!r} was legal but not listed")
                assert state.position() == before


def check_malformed_positions_are_refused(game: Game, budget: Budget) -> None:
    start = game.new_state(1).position()
    for text in ["", "@@@@", "\x00", f"{start} {start}", "not a position", None]:
        try:
            game.state_from_position(text)  # type: ignore[arg-type]
        except PositionError:
            pass
        else:
            raise AssertionError(f"the position {str(text)[:40]!r} was accepted")
    try:
        Record.loads("{not json")
    except RecordError:
        pass
    else:
        raise AssertionError("a broken record was accepted")


#: the checks over one game (configuration checks take a Config: :func:`check_every_configuration_plays`)
CHECKS: tuple[Callable[[Game, Budget], None], ...] = (
    check_catalog_entry,
    check_bad_player_counts_and_options,
    check_random_games_end_within_the_bound,
    check_declared_nature,
    check_same_seed_same_game,
    check_undo_walks_back_to_the_start,
    check_undo_restores_every_declared_field,
    check_moves_apply_parse_back_and_undo,
    check_default_moves_are_legal,
    check_positions_round_trip,
    check_records_round_trip,
    check_copies_are_independent,
    check_rebase_keeps_the_position,
    check_views_are_enveloped_json_and_keep_secrets,
    check_move_texts_keep_secrets,
    check_twins_look_the_same,
    check_garbage_is_refused_and_changes_nothing,
    check_moves_from_elsewhere_are_refused_with_a_reason,
    check_malformed_positions_are_refused,
    *ENCODING_CHECKS,
)


__all__ = [
    "CHECKS",
    "check_every_configuration_plays",
    *(check.__name__ for check in CHECKS),
    "configurations",
]
