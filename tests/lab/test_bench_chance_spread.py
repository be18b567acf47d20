"""bench/chance_spread.py: the positions it judges and the two figures it prints."""

from __future__ import annotations

import math

import pytest

from tests.support.bench import load_bench

chance_spread = load_bench("chance_spread")


class Judged:
    """A position whose evaluation is fixed: what the figures are worked out from."""

    def __init__(self, *chances: float) -> None:
        self.chances = chances

    def evaluate(self) -> tuple[float, ...]:
        return self.chances


def test_each_decision_position_is_kept_as_it_stood_not_as_the_game_ended() -> None:
    # a record's states are one state moved on in place: keeping it would judge the last position again and again
    positions = chance_spread.decision_positions("towers", "random", 1, 5)
    plies = [position.ply for position in positions]
    assert len(plies) > 10 and plies == sorted(set(plies))
    assert all(position.current_player() >= 0 and not position.is_over() for position in positions)


def test_the_distance_from_an_even_share_counts_every_seat_and_the_logit_is_the_first_seats() -> None:
    distance, deviation = chance_spread.spread([Judged(0.8, 0.2), Judged(0.5, 0.5)], "hand")
    assert distance == pytest.approx(0.15)  # (0.3 + 0.3 + 0 + 0) / 4
    assert deviation == pytest.approx(math.log(4.0) / 2)  # the logits log 4 and 0
    four_seats, _ = chance_spread.spread([Judged(0.4, 0.2, 0.2, 0.2)], "hand")
    assert four_seats == pytest.approx(0.075)  # an even share of four is 0.25
