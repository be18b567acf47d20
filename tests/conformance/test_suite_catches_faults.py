"""The conformance checks must be able to fail: each runs here against a game with one planted fault.

The faulty games are subclasses of the test game dicenim under their own ids,
never registered, so the suite's parametrization does not see them.
"""

from __future__ import annotations

import pytest

from tests.conformance import test_protocol as protocol
from tests.conformance.helpers import Budget, leaked
from tests.support.dicenim import DiceNim, DiceNimState

SMALL = Budget(random_games=3, variant_games=1, check_every=1, moves_per_check=10, fuzz_examples=20)


class ForgetfulUndoState(DiceNimState):
    def _restore(self, snap):  # forgets to restore the pile
        pile = self.pile
        super()._restore(snap)
        self.pile = pile


class LeakyViewState(DiceNimState):
    def view(self, player=None):
        view = super().view(player)
        view["note"] = f"opponent holds s{self.secrets_[1 - player]}" if player is not None else ""
        return view

    def secrets(self, player):
        if player is None or self.secrets_[1 - player] < 0:
            return set()
        return {f"s{self.secrets_[1 - player]}"}


class PeekingResampleState(DiceNimState):
    def resample(self, player, rng):
        state = super().resample(player, rng)
        state.secrets_[player] = (state.secrets_[player] + 1) % 3 if state.secrets_[player] >= 0 else -1
        return state


class RollForgettingPositionState(DiceNimState):
    def position(self):  # never says that a roll is pending
        return f"{self.pile} {self.to_move} 0 {self.secrets_[0]} {self.secrets_[1]}"


class SeedKeepingResampleState(DiceNimState):
    def resample(self, player, rng):
        state = super().resample(player, rng)
        state.seed = self.seed  # lets an agent predict every die
        return state


def faulty_game(state_class: type[DiceNimState]) -> DiceNim:
    class Faulty(DiceNim):
        id = f"faulty-{state_class.__name__}"

        def _new_state(self, seed: int) -> DiceNimState:
            return state_class(self, seed, self.options["pile"])

    return Faulty()


def test_undo_check_catches_an_undo_that_forgets_a_field() -> None:
    with pytest.raises(AssertionError):
        protocol.test_undo_walks_back_to_the_start_exactly(faulty_game(ForgetfulUndoState), SMALL)


def test_view_check_catches_a_leaked_secret() -> None:
    with pytest.raises(AssertionError, match="leaks"):
        protocol.test_views_are_json_and_hide_each_players_secrets(faulty_game(LeakyViewState), SMALL)


def test_resample_check_catches_a_changed_own_secret() -> None:
    with pytest.raises(AssertionError):
        protocol.test_resample_keeps_the_players_view(faulty_game(PeekingResampleState), SMALL)


def test_position_check_catches_a_position_string_that_drops_a_field() -> None:
    with pytest.raises(AssertionError):
        protocol.test_positions_round_trip_mid_game(faulty_game(RollForgettingPositionState), SMALL)


def test_resample_check_catches_a_kept_seed() -> None:
    with pytest.raises(AssertionError, match="replace the seed"):
        protocol.test_resample_keeps_the_players_view(faulty_game(SeedKeepingResampleState), SMALL)


def test_leak_finder_matches_whole_tokens_only() -> None:
    view = {"hand": ["K♠", "7♥"], "log": "P2 drew Q♦, then d3", "pile": 3}
    assert leaked(view, {"Q♦"}) == {"Q♦"}
    assert leaked(view, {"K♠", "A♣"}) == {"K♠"}
    assert leaked(view, {"d"}) == set()
    assert leaked({"pile": 3}, {"3"}) == {"3"}
    assert leaked(view, set()) == set()
