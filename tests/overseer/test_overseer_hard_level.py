"""The top level in the endgame the 100-move rule punishes (rule 7.2): a
lone Overseer must be trapped and captured, not chased until the no-capture limit draws."""

from __future__ import annotations

import pytest

from boardlab.agents import make_agent
from tests.overseer.helpers import load


def _hunt(pieces: dict[str, str], defender: str, seed: int) -> tuple[str | None, int]:
    state = load(pieces)
    hunter = make_agent("hard", seed=seed, game=state.game)
    prey = make_agent(defender, seed=seed, game=state.game)
    plies = 0
    while not state.is_over() and plies < 100:
        agent = hunter if state.current_player() == 0 else prey
        state.play(agent.choose(state.copy()))
        plies += 1
    return (state.result().code if state.is_over() else None), plies


def test_the_hard_level_corners_a_lone_overseer_with_a_commander_and_a_pilot() -> None:
    code, plies = _hunt({"L1": "O", "A4": "M", "K3": "P", "F5": "o"}, "easy", seed=2)
    assert code == "overseer_captured" and plies <= 30


@pytest.mark.slow
@pytest.mark.parametrize(
    "pieces",
    [
        # with a Commander; with only two Soldiers the hunt is not yet sure (docs/levels.md)
        {"A1": "O", "D4": "M", "H6": "o"},
        {"B2": "O", "C5": "M", "G4": "C", "J7": "o"},
    ],
)
def test_the_hard_level_traps_a_lone_overseer_that_the_normal_level_defends(pieces: dict[str, str]) -> None:
    code, plies = _hunt(pieces, "normal", seed=0)
    assert code == "overseer_captured", f"no capture in {plies} plies"
