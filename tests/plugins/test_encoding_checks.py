"""The encoding checks (boardlab/testing/encodings.py) must be able to fail: each runs here on
Pebbles with one planted fault in its action or observation encoding."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.core import Game, Move, State
from boardlab.testing import CHECKS, Budget
from boardlab.testing.encodings import check_action_encoding, check_observation_encoding

SMALL = Budget(random_games=2, variant_games=1, check_every=1, moves_per_check=10, fuzz_examples=10)


def with_encodings(actions: Callable[[Game], Any] | None = None, observation: Callable[[Game], Any] | None = None) -> Game:
    """Pebbles (2,3 piles) whose encodings are replaced; never registered."""
    from boardlab_pebbles import PebblesGame

    class Faulty(PebblesGame):
        def action_encoding(self) -> Any:
            return actions(self) if actions else super().action_encoding()

        def observation_encoding(self) -> Any:
            return observation(self) if observation else super().observation_encoding()

    return Faulty(piles="2,3")


def test_the_encoding_checks_run_with_every_other_check() -> None:
    assert {check_action_encoding, check_observation_encoding} <= set(CHECKS)


def test_the_real_encodings_pass(pebbles: Path) -> None:
    game = boardlab.load("pebbles")
    check_action_encoding(game, SMALL)
    check_observation_encoding(game, SMALL)


def test_two_moves_sharing_an_index_fail(pebbles: Path) -> None:
    from boardlab_pebbles.encoding import PebblesActions

    class ByPile(PebblesActions):
        def action_index(self, state: State, move: Move) -> int:
            return move.pile  # type: ignore[attr-defined]

    with pytest.raises(AssertionError, match="share action"):
        check_action_encoding(with_encodings(actions=ByPile), SMALL)


def test_an_index_outside_num_actions_fails(pebbles: Path) -> None:
    from boardlab_pebbles.encoding import PebblesActions

    class TooFew(PebblesActions):
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.num_actions -= 1

    with pytest.raises(AssertionError, match=r"outside 0..4"):
        check_action_encoding(with_encodings(actions=TooFew), SMALL)


def test_chance_indices_in_a_game_without_chance_fail(pebbles: Path) -> None:
    from boardlab_pebbles.encoding import PebblesActions

    class ChanceToo(PebblesActions):
        num_chance_outcomes = 6

    with pytest.raises(AssertionError, match="num_chance_outcomes = 6 but has_chance = False"):
        check_action_encoding(with_encodings(actions=ChanceToo), SMALL)


def test_a_decoder_that_accepts_an_illegal_index_fails(pebbles: Path) -> None:
    from boardlab_pebbles.encoding import PebblesActions

    class Lenient(PebblesActions):
        def move_for(self, state: State, action: int) -> Move:
            # right for every legal index, but an unknown one falls back to the first legal move
            mapping = self.action_map(state)
            return mapping.get(action) or next(iter(mapping.values()), None) or super().move_for(state, action)

    with pytest.raises(AssertionError, match="is not legal here, yet move_for gave"):
        check_action_encoding(with_encodings(actions=Lenient), SMALL)


def test_an_observation_outside_its_bounds_fails(pebbles: Path) -> None:
    from boardlab_pebbles.encoding import PebblesObservation

    class Unscaled(PebblesObservation):
        def encode_view(self, view: Mapping[str, Any]) -> list[float]:
            return [*super().encode_view(view)[:4], *(float(pile) for pile in view["board"]["piles"])]

    with pytest.raises(AssertionError, match=r"value 4 is 2.0, not a finite float in \[0.0, 1.0\]"):
        check_observation_encoding(with_encodings(observation=Unscaled), SMALL)


def test_an_observation_of_the_wrong_length_fails(pebbles: Path) -> None:
    from boardlab_pebbles.encoding import PebblesObservation

    class Longer(PebblesObservation):
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.size += 1

    with pytest.raises(AssertionError, match="observation has 6 values, declared 7"):
        check_observation_encoding(with_encodings(observation=Longer), SMALL)


def test_an_observation_that_changes_on_its_own_fails(pebbles: Path) -> None:
    from boardlab_pebbles.encoding import PebblesObservation

    class Noisy(PebblesObservation):
        noise = random.Random(5)

        def encode_view(self, view: Mapping[str, Any]) -> list[float]:
            return [*super().encode_view(view)[:-1], self.noise.random()]

    with pytest.raises(AssertionError, match="changed on its own"):
        check_observation_encoding(with_encodings(observation=Noisy), SMALL)


def test_a_game_without_encodings_passes_and_check_says_it_has_no_adapters() -> None:
    game = boardlab.load("dicenim")  # the test game declares none
    check_action_encoding(game, SMALL)
    check_observation_encoding(game, SMALL)


def test_check_says_when_a_game_declares_no_encodings() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "tests.cli.run_boardlab", "check", "dicenim", "--quick", "--no-fuzz"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    text = " ".join(done.stdout.split())
    assert "dicenim declares no action and no observation encoding" in text and "adapters cannot play it" in text
    assert "pass action_encoding" in text
