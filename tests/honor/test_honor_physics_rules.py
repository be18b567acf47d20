"""Placing, collapse, settling and the end of the game (docs/rules/honor.md, sections 4, 5 and 8)."""

from __future__ import annotations

import json

import pytest

from boardlab.core import IllegalMoveError, PositionError
from boardlab.games.honor import physics
from tests.honor.helpers import exact_game, play, with_fields


def two_foundations():
    state = exact_game(2).new_state(seed=1)
    return play(state, "build SL1 0", "pass", "rel 30", "build BR1 0", "pass", "rel 90")


def test_r5_2_a_missed_drop_is_a_collapse() -> None:
    state = two_foundations()
    play(state, "build CU1 0", "pass")
    play(state, "rel 19.50")  # 3 cm left of the slab (22.5..37.5): the cube falls past it
    assert state.is_over() and state.result().winners == (1,)
    assert state.result().code == "last_standing", "rule 8.1: the one player left standing wins"
    assert state.last["collapses"][0][1] == 0


def test_r5_2_a_toppled_foundation_is_not_a_collapse() -> None:
    state = exact_game(2).new_state(seed=1)
    play(state, "build CO1 0", "pass", "rel 30 20")
    column = state.table[0]
    assert abs(abs(column.aq) - 1_570_796) < 50_000, "the column ends on its side"
    assert state.standing == (True, True) and not state.last["collapses"]


def test_r5_3_settling_takes_one_second_and_a_verification_segment() -> None:
    state = two_foundations()
    assert state.last["steps"] >= 2 * 240, "two segments of at least 240 steps each"
    space = state.canonical_space()
    owners = {p.pid: p.owner for p in state.table}
    segment = physics.run_segment(space, owners, {0, 1}, physics.RULED_SETTLE, 0)
    # Everything is at rest from the first step, yet the segment lasts the minimum 1 s.
    assert segment.steps == 240 and not segment.timed_out and not segment.contacts
    cube = physics.BodySpec("CU1", 0, False, 30.0, 4.6, 0.0)
    outcome = physics.resolve(state.canonical_space(), owners | {"CU1": 0}, [True, True], cube)
    assert outcome.segments == 2 and not outcome.collapses, "a calm release still gets its verification segment"


def test_r5_5_a_segment_that_never_quiets_times_out_without_eliminating() -> None:
    state = two_foundations()
    space = state.canonical_space()
    owners = {p.pid: p.owner for p in state.table}
    physics.add_piece(space, physics.BodySpec("CU1", 0, False, 30.0, 60.0, 0.3))
    segment = physics.run_segment(space, owners | {"CU1": 0}, {0, 1}, physics.SettleRule(240, 240, 40), 0)
    assert segment.timed_out and segment.steps == 40


def floating_cubes(height_p0: float, height_p1: float, players: int = 2):
    """Foundations plus one unsupported cube per player hanging above their zone (cold start)."""
    state = exact_game(players).new_state(seed=1)
    play(state, "build SL1 0", *["pass"] * (players - 1), "rel 30",
         "build BR1 0", *["pass"] * (players - 1), "rel 90")
    if players == 3:
        play(state, "build BR2 0", "pass", "pass", "rel 150")
    record = json.loads(state.position())
    record["supply"] = [p for p in record["supply"] if p not in ("CU1", "CU2")]
    order = record["placement_index"]
    record["table"] += [["CU1", 0, 0, order, 100_000, round(height_p0 * 1e4), 0],
                        ["CU2", 1, 0, order + 1, 1_000_000, round(height_p1 * 1e4), 0]]
    record["placement_index"] = order + 2
    loaded = with_fields(state, supply=record["supply"], table=record["table"],
                         placement_index=record["placement_index"])
    return play(loaded, "build CU3 0", *["pass"] * (players - 1), "rel 30")


def test_r8_2_collapses_at_the_same_step_are_a_draw() -> None:
    state = floating_cubes(10.0, 10.0)
    (step0, p0), (step1, p1) = state.last["collapses"]
    assert step0 == step1 and {p0, p1} == {0, 1}
    assert state.result().winners == (0, 1) and state.result().is_draw
    assert state.result().code == "last_to_fall" and state.result().returns == (0.5, 0.5)


def test_r8_2_the_tower_that_falls_last_wins() -> None:
    state = floating_cubes(10.0, 20.0)
    (step0, _), (step1, _) = state.last["collapses"]
    assert step0 < step1
    assert state.result().winners == (1,), "last to be standing, even if only briefly"
    assert state.result().code == "last_to_fall" and state.standing == (False, False)


def test_r8_1_a_chain_of_collapses_leaves_the_third_player_standing() -> None:
    state = floating_cubes(10.0, 20.0, players=3)
    assert [p for _, p in state.last["collapses"]] == [0, 1]
    assert state.result().winners == (2,)


def test_r8_3_an_empty_supply_with_two_standing_is_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    state = two_foundations()
    record = json.loads(state.position())
    hand = "CU1"
    rest = [p for p in record["supply"] if p != hand]
    # Park every other piece in the record as player 0's, then resolve with the physics
    # replaced by its outcome "nothing fell", to reach the last placement directly.
    record["table"] += [[pid, 0, 0, 2 + i, 300_000, 100_000 + i * 40_000, 0] for i, pid in enumerate(rest)]
    state = with_fields(state, supply=[hand], table=record["table"], placement_index=2 + len(rest))
    play(state, "build CU1 0", "pass")
    poses = [(p.pid, p.xq, p.yq, p.aq) for p in state.table] + [(hand, 300_000, 0, 0)]
    monkeypatch.setattr(physics, "first_contact_height", lambda *args: 5.0)
    monkeypatch.setattr(physics, "resolve", lambda *args, **kw: physics.Resolution(poses=poses, blob=b""))
    monkeypatch.setattr(type(state), "canonical_space", lambda self: None)
    play(state, "rel 30")
    assert state.result().winners == (0, 1) and "rule 8.3" in state.result().reason
    assert state.result().code == "all_placed"


def test_r4_3_release_legality() -> None:
    state = exact_game(2).new_state(seed=1)
    play(state, "build SL1 0", "pass")
    with pytest.raises(IllegalMoveError, match=r"4.3.*zone"):
        state.play("rel 55")  # the slab (15 cm) would stick out of zone 0..60
    with pytest.raises(IllegalMoveError, match=r"4.2"):
        state.play("rel 30 0 0.01")
    play(state, "rel 31.37 0 0.30")  # any legal release, not only a candidate
    play(state, "build CU1 0", "pass", "rel 90", "build CU2 0", "pass")
    with pytest.raises(IllegalMoveError, match=r"4.3.*tower"):
        state.play("rel 42")  # the slab spans 23.87..38.87; 3 cm reach ends at 41.87
    assert state.phase == "PLACE"
    play(state, "rel 41.80")


def test_r10_4_every_candidate_release_is_legal() -> None:
    state = two_foundations()
    play(state, "build AR1 0", "pass")
    candidates = [m for m in state.legal_moves() if str(m).startswith("rel")]
    assert 4 <= len(candidates) <= 20
    for move in candidates:
        state.check_move(move)


def test_r5_2_chain_collapse_a_neighbour_resting_on_a_fallen_tower_falls_next() -> None:
    """Player 1's plank leans on player 0's column (H-23: it stays player 1's). Player 0's
    missed drop eliminates them; once their pieces leave the table the plank falls in the
    next segment, so player 1 collapses in the same resolution, later, and player 2 wins."""
    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 0", "pass", "pass", "rel 52", "build PL1 0", "pass", "pass", "rel 70",
         "build BR1 0", "pass", "pass", "rel 150", "build CO1 0", "pass", "pass", "rel 58",
         "build PL2 0", "pass", "pass", "rel 64")
    assert all(state.standing)
    play(state, "push CU1", "acc", "rel 41.6")
    (first, p_first), (second, p_second) = state.last["collapses"]
    assert (p_first, p_second) == (0, 1)
    assert second > physics.RULED_SETTLE.min_steps > first, "the second fall comes in a later segment"
    assert state.result().winners == (2,)


def test_r8_3_golden_record_every_piece_placed_is_a_draw() -> None:
    """A game saved by boardlab 0.1 (a format 1 record) between two normal agents (tremor on):
    30 placements, both towers stand. Loading converts it (who made each move, the result's
    code); replaying re-simulates every resolution and checks its recorded hash (rule 11.4)."""
    from pathlib import Path

    from boardlab.core import CHANCE, Record

    record = Record.load(Path(__file__).parent / "data" / "draw_game.json")
    assert record.meta["converted_from"] == 1
    assert record.result.code == "all_placed" and record.result.winners == (0, 1)
    tremors = [i for i, text in enumerate(record.moves) if text.startswith("tremor")]
    assert [record.movers[i] for i in tremors] == [CHANCE] * 30, "the tremor is chance's move (rule 4.5)"
    assert record.movers[:3] == [0, 1, 0], "Red opens, Blue raises, Red passes (rule 7.3)"
    state = record.replay()
    assert state.supply == () and state.standing == (True, True)
    assert state.result().winners == (0, 1) and "rule 8.3" in state.result().reason
    assert sum(1 for text in record.moves if "#" in text) == state.placement_index == 30
    again = Record.loads(record.dumps(), validate=False)
    assert again.to_json()["format"] == 2 and again.movers == record.movers


def test_r9_the_quick_settle_option_shortens_segments_and_changes_the_ruleset() -> None:
    quick = exact_game(2, settle="quick")
    state = play(quick.new_state(seed=1), "build SL1 0", "pass", "rel 30")
    assert 2 * 120 <= state.last["steps"] < 2 * 240
    assert quick.rules.ruleset.endswith(";settle=quick") and quick.rules.ruleset != exact_game(2).rules.ruleset
    with pytest.raises(PositionError, match="ruleset"):
        exact_game(2).state_from_position(state.position())
