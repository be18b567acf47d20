"""Every rule option of docs/rules/sovereign.md, rule 8: what it changes, from a position where it
matters, and that each configuration plays through the protocol checks."""

from __future__ import annotations

import pytest

import boardlab
from boardlab.core import OptionError
from boardlab.testing import checks
from boardlab.testing.helpers import Budget, Config, configurations
from tests.sovereign.helpers import load, moves, refusal, targets

FAR = "g7:0s"


def test_r8_defaults_are_the_rulings() -> None:
    options = boardlab.load("sovereign").options
    assert options == {
        "height_model": "castle", "towers_block_slides": True, "transit_shape": "any_path",
        "contractor_transit": False, "build": "one_level", "diplomat_self_protect": False,
        "diplomat_pin": "strict", "threat_response": "sovereign_only", "winning_move_ignores_threat": True,
        "path_ban_applies_to_diplomat": False, "sovereign_stalemate": "threatened_only", "no_moves": "draw",
        "repetition_count": 3, "ply_limit": 200, "supply_lower": 35, "supply_top": 14,
    }


def test_r8_height_model_relative_keeps_the_starting_level_over_open_ground() -> None:
    assert "e1" not in targets(load(f"a1:3S d1:1 e1:2 {FAR}"), "a1")
    assert "e1" in targets(load(f"a1:3S d1:1 e1:2 {FAR}", height_model="relative"), "a1")
    assert "b2" not in targets(load(f"a2:0S b2:2 {FAR}", height_model="relative"), "a2")


def test_r8_transparent_towers_let_a_slide_run_past_them() -> None:
    assert "e4" in targets(load(f"a4:0S c4:1 {FAR}", towers_block_slides=False), "a4")
    assert "e4" not in targets(load(f"a4:0S c4:1 {FAR}"), "a4")


def test_r8_straight_transit_does_not_turn_corners() -> None:
    position = f"a1:0S b1:1 c1:1 c2:1 c3:1 {FAR}"
    assert "c3" in targets(load(position), "a1")
    straight = load(position, transit_shape="straight")
    assert "c1" in targets(straight, "a1") and "c3" not in targets(straight, "a1")


def test_r8_contractor_transit_walks_on_through_the_castle() -> None:
    position = f"a1:0B b1:1 c1:1 c2:2 a7:0S {FAR}"
    assert "Ba1-c1^d1" not in moves(load(position))
    walking = load(position, contractor_transit=True)
    assert "Ba1-c1^d1" in moves(walking)
    assert not moves(walking, "Ba1-c2")  # 2 levels above the ground it started from


def test_r8_whole_tower_builds_raise_new_towers_of_one_to_three_levels() -> None:
    state = load(f"c2:0B d3:1 a7:0S {FAR}", build="whole_tower")
    assert {"Bc2-c3^b3", "Bc2-c3^^b3", "Bc2-c3^^^b3"} <= moves(state)
    assert not any(m.endswith("d3") for m in moves(state))  # only on open ground
    state.play("Bc2-c3^^^b3")
    assert state.heights[15] == 3 and (state.pool_lower, state.pool_top) == (35 - 1 - 2, 13)
    assert "rule 1.6.2" in refusal(load(f"c2:0B a7:0S {FAR}"), "Bc2-c3^^b3")


def test_r8_multi_level_builds_fill_a_tower_up_to_three() -> None:
    state = load(f"c2:0B d3:1 a7:0S {FAR}", build="multi_level")
    assert {"Bc2-c3^d3", "Bc2-c3^^d3"} <= moves(state) and "Bc2-c3^^^d3" not in moves(state)


def test_r8_diplomat_self_protect() -> None:
    position = "a7:0S d4:2d b3:0C g1:0s"
    assert "Cb3xd4" in moves(load(position))
    assert "Cb3xd4" not in moves(load(position, diplomat_self_protect=True))


def test_r8_keep_protection_lets_a_pinned_diplomat_move_where_it_still_shields() -> None:
    position = "d1:0S e2:2D d2:1 c2:2 c3:0c g7:0s"
    assert not moves(load(position), "D")
    assert moves(load(position, diplomat_pin="keep_protection"), "D") == {"De2-c2"}


def test_r8_any_resolving_move_allows_capturing_the_attacker() -> None:
    position = "d1:0S c3:0c a2:0C g1:0B g7:0s"
    assert "Ca2xc3" not in moves(load(position))
    resolving = load(position, threat_response="any_resolving_move")
    assert "Ca2xc3" in moves(resolving)
    assert not moves(resolving, "Bg1")  # a Contractor move leaves the threat standing


def test_r8_winning_move_ignores_threat_off() -> None:
    position = "d5:2S d6:3 f5:1c g1:0s"
    assert "Sd5-d6" in moves(load(position))
    strict = load(position, winning_move_ignores_threat=False)
    assert "Sd5-d6" not in moves(strict)
    assert "rule 1.9.3" in refusal(strict, "Sd5-d6")


def test_r8_path_ban_applies_to_diplomat() -> None:
    position = f"a3:0D a1:0S b3:1 c3:2 d3:1 e4:0c {FAR}"
    assert "d3" in targets(load(position), "a3")
    assert "d3" not in targets(load(position, path_ban_applies_to_diplomat=True), "a3")


def test_r8_sovereign_stalemate_any_time() -> None:
    position = "a1:0S a2:0B b1:0B g7:0s"
    assert load(position).result() is None
    result = load(position, sovereign_stalemate="any_time").result()
    assert result is not None and result.code == "sovereign_stalemate"


def test_r8_no_moves_loses() -> None:
    position = "a1:0S a2:0B b1:0B e5:3 f5:3 e6:2 f6:2 g5:2 g7:0s"
    result = load(position, supply_lower=10, supply_top=2, no_moves="loss").result()
    assert result is not None and result.code == "no_moves" and result.winners == (1,)


def test_r8_repetition_count_and_ply_limit() -> None:
    round_trip = ["Sa1-b1", "Sg7-f7", "Sb1-a1", "Sf7-g7"]
    twice = load("a1:0S g7:0s", repetition_count=2)
    for move in round_trip:
        twice.play(move)
    assert twice.result().code == "repetition"
    never = load("a1:0S g7:0s", repetition_count=0, ply_limit=12)
    for move in round_trip * 3:
        assert not never.is_over()
        never.play(move)
    assert never.result().code == "move_limit"
    assert boardlab.load("sovereign", ply_limit=50).max_moves == 64


def test_r8_bad_option_values_are_refused() -> None:
    with pytest.raises(OptionError, match="repetition_count=1"):
        boardlab.load("sovereign", repetition_count=1)
    with pytest.raises(OptionError, match="supply_lower"):
        boardlab.load("sovereign", supply_lower=9)
    with pytest.raises(OptionError, match="build"):
        boardlab.load("sovereign", build="tall")


SMALL = Budget(random_games=2, variant_games=2, check_every=6, moves_per_check=12, fuzz_examples=10)
EXTRA = [
    Config("sovereign", 2, (("repetition_count", 2),)),
    Config("sovereign", 2, (("ply_limit", 60),)),
    Config("sovereign", 2, (("supply_lower", 14), ("supply_top", 3))),
]


@pytest.mark.parametrize("config", configurations("sovereign", limit=100)[1:] + EXTRA, ids=str)
def test_r8_every_configuration_passes_the_protocol_checks(config: Config) -> None:
    game = config.load()
    for check in (
        checks.check_random_games_end_within_the_bound,
        checks.check_moves_apply_parse_back_and_undo,
        checks.check_positions_round_trip,
        checks.check_undo_walks_back_to_the_start,
    ):
        check(game, SMALL)


# --- the no_moves option and ending, named no_legal_move before (saved games still load) ------
def test_r1_11_2_the_former_option_name_no_legal_move_is_read_as_no_moves() -> None:
    assert boardlab.load("sovereign", no_legal_move="loss").options["no_moves"] == "loss"
    with pytest.raises(OptionError, match="'no_legal_move' is the former name of 'no_moves'"):
        boardlab.load("sovereign", no_legal_move="loss", no_moves="draw")


def test_r1_11_2_a_record_saved_with_the_former_names_replays() -> None:
    game = boardlab.load("sovereign", supply_lower=10, supply_top=2)
    start = load("a1:0S a2:0B b1:0B e5:3 f5:3 e6:2 f6:2 g5:2 g6:0s", to_move=2, supply_lower=10, supply_top=2)
    match = boardlab.Match(game, [None, None], seed=3, start=start.position())  # two people
    match.play(1, "Sg6-g7")  # P1 is left without a legal move (rule 1.11.2)
    saved = match.record().to_json()
    assert saved["result"]["code"] == "no_moves" and saved["final_position"].endswith(" no_moves")
    saved["options"]["no_legal_move"] = saved["options"].pop("no_moves")
    saved["result"]["code"] = "no_legal_move"
    saved["final_position"] = saved["final_position"].removesuffix(" no_moves") + " no_legal_move"
    state = boardlab.Record.from_json(saved).replay()
    assert state.result() is not None and state.result().code == "no_moves"  # type: ignore[union-attr]
    assert state.game.options["no_moves"] == "draw"
