"""The conformance checks must be able to fail: each runs here against a game with one planted fault.

The faulty games are subclasses of the test game dicenim under their own ids,
never registered, so the suite's parametrization does not see them.
"""

from __future__ import annotations

import pytest

from boardlab.core import Result
from boardlab.testing import checks
from boardlab.testing.helpers import Budget, leaked
from tests.support.dicenim import DiceNim, DiceNimState, Secret

SMALL = Budget(random_games=3, variant_games=1, check_every=1, moves_per_check=10, fuzz_examples=20)


class ForgetfulUndoState(DiceNimState):
    def _restore(self, snap):  # forgets to restore the pile
        pile = self.pile
        super()._restore(snap)
        self.pile = pile


class LeakyViewState(DiceNimState):
    def _view(self, player):
        view = super()._view(player)
        view["opponent"] = str(Secret(1 - player, self.secrets_[1 - player])) if player is not None else ""
        return view


class PeekingResampleState(DiceNimState):
    def _resample(self, player, rng):
        state = super()._resample(player, rng)
        state.secrets_[player] = (state.secrets_[player] + 1) % 3 if state.secrets_[player] >= 0 else -1
        return state


class RollForgettingPositionState(DiceNimState):
    def position(self):  # never says that a roll is pending
        return f"{self.pile} {self.to_move} 0 {self.secrets_[0]} {self.secrets_[1]}"


class SeedKeepingResampleState(DiceNimState):
    def _resample(self, player, rng):
        state = super()._resample(player, rng)
        state.seed = self.seed  # lets an agent predict every die
        return state


class HistoryKeepingResampleState(DiceNimState):
    def _resample(self, player, rng):
        state = self.copy()  # keeps the real deal of the other secret in history and undo
        state.seed = rng.getrandbits(64)
        if state.secrets_[1 - player] >= 0:
            state.secrets_[1 - player] = rng.randrange(3)
        return state


class TellingMoveTextState(DiceNimState):
    def _move_text(self, move, viewer):
        return str(move)  # a dealt secret reads in full to everybody


class SecretlessState(DiceNimState):
    def secrets(self, player):  # hidden information declared but never named
        return set()


class UndeclaredCodeState(DiceNimState):
    def result(self):
        result = super().result()
        return None if result is None else Result(result.winners, result.returns, result.reason, "mystery")


class IllegalDefaultState(DiceNimState):
    def default_move(self):
        return Secret(0, 1)  # a deal is no player's move


def faulty_game(state_class: type[DiceNimState], **declared) -> DiceNim:
    attributes = {"id": f"faulty-{state_class.__name__}", **declared}

    def _new_state(self, seed: int) -> DiceNimState:
        return state_class(self, seed, self.options["pile"])

    attributes["_new_state"] = _new_state
    return type("Faulty", (DiceNim,), attributes)()


@pytest.mark.parametrize(
    ("check", "state_class", "declared", "message"),
    [
        (checks.check_undo_walks_back_to_the_start, ForgetfulUndoState, {}, "undo"),
        (checks.check_views_are_enveloped_json_and_keep_secrets, LeakyViewState, {}, "leaks"),
        (checks.check_twins_look_the_same, PeekingResampleState, {}, "changed view"),
        (checks.check_positions_round_trip, RollForgettingPositionState, {}, None),
        (checks.check_twins_look_the_same, SeedKeepingResampleState, {}, "replace the seed"),
        (checks.check_twins_look_the_same, HistoryKeepingResampleState, {}, "rebase"),
        (checks.check_move_texts_keep_secrets, TellingMoveTextState, {}, "leaks"),
        (checks.check_declared_nature, SecretlessState, {}, "named nothing"),
        (checks.check_declared_nature, DiceNimState, {"has_chance": False}, "chance node came up"),
        (checks.check_declared_nature, DiceNimState, {"has_hidden_information": False}, "secrets in a game"),
        (checks.check_random_games_end_within_the_bound, UndeclaredCodeState, {}, "result_codes"),
        (checks.check_default_moves_are_legal, IllegalDefaultState, {}, "not a possible chance outcome|not"),
    ],
    ids=lambda value: getattr(value, "__name__", None) if callable(value) else None,
)
def test_each_check_catches_its_planted_fault(check, state_class, declared, message) -> None:
    with pytest.raises((AssertionError, ValueError), match=message):
        check(faulty_game(state_class, **declared), SMALL)


def test_the_unfaulted_test_game_passes_every_check() -> None:
    game = faulty_game(DiceNimState)
    for check in checks.CHECKS:
        if check in (checks.check_catalog_entry, checks.check_bad_player_counts_and_options,
                     checks.check_records_round_trip):
            continue  # these load the game by id from the registry
        check(game, SMALL)


def test_leak_finder_matches_whole_tokens_only() -> None:
    view = {"hand": ["K♠", "7♥"], "log": "P2 drew Q♦, then d3", "pile": 3}
    assert leaked(view, {"Q♦"}) == {"Q♦"}
    assert leaked(view, {"K♠", "A♣"}) == {"K♠"}
    assert leaked(view, {"d"}) == set()
    assert leaked({"pile": 3}, {"3"}) == {"3"}
    assert leaked(view, set()) == set()


class SnapshotSharingState(DiceNimState):
    """Hands the snapshot's own list back to the state on undo. Copies share the undo
    snapshots, so a copy that walks back and plays on mutates the original's (the fault
    Territories had, once found only by the records check)."""

    def _snapshot(self):
        return (self.pile, self.to_move, self.rolling, self.secrets_.copy())

    def _restore(self, snap):
        self.pile, self.to_move, self.rolling, self.secrets_ = snap


def test_the_undo_check_catches_snapshots_shared_between_copies() -> None:
    with pytest.raises(AssertionError, match="undo to ply"):
        checks.check_undo_walks_back_to_the_start(faulty_game(SnapshotSharingState), SMALL)
