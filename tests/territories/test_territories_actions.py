"""Building, trading and the end of the game (R6, R8, R9)."""

from __future__ import annotations

import re

import pytest

from boardlab.core import CHANCE, IllegalMoveError
from boardlab.games.territories import TerritoriesGame
from tests.territories.helpers import hand, play_all, resources, state

EIGHT_TOWNS = {(x, 0): "0P" for x in range(6)} | {(0, 4): "0P", (1, 4): "0P"}


def legal(st) -> set[str]:
    return {str(m) for m in st.legal_moves()}


def test_r6_1_town_costs_one_of_each_and_takes_a_free_point() -> None:
    st = state(res0=(1, 1, 1, 1), buildings={(2, 2): "1P"})
    assert "P@2,2" not in legal(st) and "P@1,1" in legal(st)
    st.play("P@1,1")
    assert resources(st, 0) == {"H": 0, "S": 0, "C": 0, "D": 0}
    assert st.view(None)["board"]["seats"][0]["points"] == 1
    assert not any(m.startswith("P@") for m in legal(st))


def test_r6_1_option_distance_rule_keeps_towns_apart() -> None:
    st = state(TerritoriesGame(distance_rule=True), res0=(1, 1, 1, 1), buildings={(2, 2): "1P"})
    with pytest.raises(IllegalMoveError, match="distance rule"):
        st.play("P@2,1")
    st.play("P@3,3")  # diagonal neighbours are not joined by a card side


def test_r6_2_upgrading_returns_the_town_to_supply() -> None:
    st = state(res0=(1, 1, 1, 5), buildings=EIGHT_TOWNS)
    with pytest.raises(IllegalMoveError, match="no Town left in your supply"):
        st.play("P@2,2")
    st.play("R@0,0")
    assert st.view(None)["board"]["seats"][0]["supply"]["P"] == 1
    assert st.view(None)["board"]["seats"][0]["points"] == 9
    st.play("P@2,2")  # the freed pawn is a Town again
    assert st.view(None)["board"]["seats"][0]["supply"]["P"] == 0


def test_r6_2_upgrade_needs_your_own_town_and_the_right_suit() -> None:
    st = state(res0=(4, 0, 0, 2), buildings={(1, 1): "0P", (2, 2): "1P"})
    with pytest.raises(IllegalMoveError, match="R@1,1: costs DDDD: you hold only 2 D"):
        st.play("R@1,1")
    with pytest.raises(IllegalMoveError, match="the Town at 2,2 is your opponent's"):
        st.play("B@2,2")
    with pytest.raises(IllegalMoveError, match="no building at 0,0"):
        st.play("B@0,0")
    st.play("B@1,1")


def test_r6_3_capital_replaces_only_a_tier_two_building() -> None:
    st = state(res0=(2, 2, 2, 2), buildings={(1, 1): "0P", (2, 2): "0N"})
    with pytest.raises(IllegalMoveError, match="not a Town"):
        st.play("K@1,1")
    st.play("K@2,2")
    supply = st.view(None)["board"]["seats"][0]["supply"]
    assert supply["K"] == 0 and supply["N"] == 2


def test_r8_1_illegal_bank_trades_say_why() -> None:
    st = state(res0=(4, 0, 0, 2), res1=(0, 13, 0, 0))
    with pytest.raises(IllegalMoveError, match="4D>H: you hold only 2 D"):
        st.play("4D>H")
    with pytest.raises(IllegalMoveError, match="receive a kind you do not give"):
        st.play("4H>H")
    with pytest.raises(IllegalMoveError, match="bank has no S left"):
        st.play("4H>S")
    with pytest.raises(IllegalMoveError, match="4 of one kind"):
        st.play("HHDD>C")
    st.play("4H>C")
    assert resources(st, 0) == {"H": 0, "S": 0, "C": 1, "D": 2}


def test_r8_1_bank_trade_for_a_territory_card_and_the_empty_pile() -> None:
    st = state(res0=(8, 0, 0, 0))
    st.play("4H>T")
    assert st.current_player() == CHANCE
    st.play("draw(9H)")
    assert hand(st, 0) == ["9H"]
    # every card placed somewhere: the pile is empty (R1.5)
    full = state(res0=(8, 0, 0, 0), hand0="9H,TC,JC,QH,2C,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,9S,TS,JD,QD")
    with pytest.raises(IllegalMoveError, match="pile is empty"):
        full.play("4H>T")


def test_r8_1_option_mixed_bank_trade() -> None:
    st = state(TerritoriesGame(bank_trade="mixed4"), res0=(2, 1, 0, 1))
    assert "HHSD>C" in legal(st)
    st.play("HHSD>C")
    assert resources(st, 0) == {"H": 0, "S": 0, "C": 1, "D": 0}


def test_r8_2_offer_accept_reject_and_the_proposal_limit() -> None:
    st = state(res0=(3, 0, 0, 0), res1=(0, 3, 0, 0))
    assert "propose" in legal(st) and not any(m.startswith("offer(") for m in legal(st))
    st.play("propose")
    assert st.current_player() == 0 and "offer(HH:S)" in legal(st) and "end" not in legal(st)
    st.play("offer(HH:S)")
    assert st.current_player() == 1 and legal(st) == {"acc", "rej"}
    st.play("acc")
    assert resources(st, 0) == {"H": 1, "S": 1, "C": 0, "D": 0}
    assert resources(st, 1) == {"H": 2, "S": 2, "C": 0, "D": 0}
    play_all(st, "propose offer(H:SS) rej")
    assert resources(st, 0) == {"H": 1, "S": 1, "C": 0, "D": 0}
    play_all(st, "propose offer(S:H) rej")
    with pytest.raises(IllegalMoveError, match="propose: already 3 trade proposals"):
        st.play("propose")
    assert "propose" not in legal(st)


def test_r8_2_a_proposal_is_announced_then_named_and_bad_ones_are_explained() -> None:
    st = state(res0=(3, 0, 0, 1), res1=(0, 3, 1, 0))
    with pytest.raises(IllegalMoveError, match=r"offer\(H:S\): announce the proposal first: propose"):
        st.play("offer(H:S)")
    st.play("propose")
    assert "offer(HHHD:SSSC)" in legal(st)  # the complete list (R10.3), not a family of small trades
    with pytest.raises(IllegalMoveError, match="opponent holds only 3 S"):
        st.play("offer(H:SSSS)")
    with pytest.raises(IllegalMoveError, match="H appears on both sides"):
        st.play("offer(H:HS)")
    with pytest.raises(IllegalMoveError, match="territory cards cannot be traded"):
        st.play("offer(H,9H:S)")
    with pytest.raises(IllegalMoveError, match="both sides of a trade must be non-empty"):
        st.play("offer(:S)")
    with pytest.raises(IllegalMoveError, match="end: name the trade proposal announced"):
        st.play("end")
    st.play("offer(HHHD:SSSC)")
    st.play("acc")
    assert resources(st, 0) == {"H": 0, "S": 3, "C": 1, "D": 0}


def test_r8_2_no_announcement_without_a_possible_trade() -> None:
    alone = state(res0=(2, 0, 0, 0), res1=(3, 0, 0, 0))  # only H on both sides
    assert "propose" not in legal(alone)
    with pytest.raises(IllegalMoveError, match="propose: no trade is possible"):
        alone.play("propose")


def test_r8_3_option_counter_offer_answered_by_the_proposer() -> None:
    st = state(TerritoriesGame(counter_offers=True), res0=(3, 0, 0, 0), res1=(0, 3, 1, 0))
    play_all(st, "propose offer(HH:S)")
    assert legal(st) == {"acc", "rej", "counter"}
    with pytest.raises(IllegalMoveError, match="announce the counter-proposal first"):
        st.play("counter(C:HH)")
    st.play("counter")
    assert st.current_player() == 1 and "counter(S:H)" in legal(st)
    st.play("counter(C:HH)")
    assert st.current_player() == 0 and legal(st) == {"acc", "rej"}
    st.play("acc")
    assert resources(st, 0) == {"H": 1, "S": 0, "C": 1, "D": 0}
    assert st.view(None)["board"]["proposals"] == 2


def test_r8_4_option_territory_cards_become_known_when_traded() -> None:
    st = state(TerritoriesGame(trade_territories=True), res0=(1, 0, 0, 0), res1=(0, 1, 0, 0), hand0="9S")
    st.play("propose")
    with pytest.raises(IllegalMoveError, match="cards you know your opponent holds"):
        st.play("offer(H:S,QD)")
    play_all(st, "offer(9S:S) acc")
    assert st.view(0)["board"]["seats"][1]["territories"] == ["9S"]  # White knows where it went


def test_r9_1_fifteen_points_win_in_the_middle_of_a_turn() -> None:
    # 14 points: Capital 3 + five tier-2 pieces 10 + one Town 1.
    buildings = {(1, 1): "0K", (2, 1): "0R", (3, 1): "0R", (4, 1): "0N", (1, 2): "0N", (2, 2): "0B",
                 (3, 3): "0P", (5, 4): "1P"}
    st = state(res0=(1, 1, 1, 1), buildings=buildings)
    assert st.view(None)["board"]["seats"][0]["points"] == 14
    st.play("P@0,0")
    assert st.is_over() and st.result().winner == 0 and "15 points" in st.result().reason
    assert st.returns() == (1.0, 0.0)


def test_r9_1_option_target_points() -> None:
    st = state(TerritoriesGame(target_points=3), res0=(1, 1, 1, 1), buildings={(1, 1): "0P", (2, 2): "0P"})
    st.play("P@3,3")
    assert st.result().winner == 0


def test_r9_2_two_own_turns_without_buildings_lose() -> None:
    st = state(buildings={(2, 2): "1P"})
    st.play("end")
    assert not st.is_over() and st.view(None)["board"]["seats"][0]["no_building_turns"] == 1
    play_all(st, "r1+1 end r1+1")  # Black's turn does not count for White
    assert not st.is_over()
    st.play("end")
    assert st.result().winner == 1 and "no buildings" in st.result().reason


def test_r9_2_a_building_resets_the_clock() -> None:
    st = state(buildings={(2, 2): "1P"}, res0=(1, 1, 1, 1), nobuild="1,0")
    st.play("P@1,1")
    play_all(st, "end r1+1 end r1+1 end")
    assert not st.is_over() and st.view(None)["board"]["seats"][0]["no_building_turns"] == 0


def test_r9_2_option_game_turn_clock_both_out_is_a_draw() -> None:
    st = state(TerritoriesGame(no_building_clock="game_turns"))
    st.play("end")
    assert not st.is_over()
    play_all(st, "r1+1 end")
    assert st.is_over() and st.result().is_draw


def test_r9_3_turn_cap_ends_on_points() -> None:
    st = state(TerritoriesGame(max_turns=6), buildings={(1, 1): "0R", (2, 2): "1P"})
    play_all(st, "end r1+1")
    assert st.view(None)["board"]["turn"] == 6
    st.play("end")
    assert st.is_over() and st.result().winner == 0 and "turn cap 6" in st.result().reason


def test_r9_4_max_moves_bound_follows_the_options() -> None:
    assert TerritoriesGame().max_moves == 25 + 200 * (15 + 9 + 2 * 69 + 16)
    assert TerritoriesGame(ability_limit="unlimited").max_moves > TerritoriesGame().max_moves


def test_r1_5_option_reshuffle_discards_refills_the_empty_pile() -> None:
    full = "9H,TC,JC,QH,2C,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,9S,TS,JD"
    st = state(TerritoriesGame(reshuffle_discards=True), res0=(4, 0, 0, 0), hand1=full, discard="QD")
    st.play("4H>T")
    assert [str(m) for m, _ in st.chance_outcomes()] == ["draw(QD)"]
    st.play("draw(QD)")
    assert hand(st, 0) == ["QD"] and st.view(None)["board"]["discard"] == []


def test_r10_3_listed_moves_in_a_main_phase_position_are_counted_exactly() -> None:
    st = state(res0=(4, 4, 4, 4), res1=(2, 2, 2, 2), buildings={(1, 1): "0P"})
    moves = legal(st)
    by_kind = {
        "town": [m for m in moves if m.startswith("P@")],
        "upgrade": [m for m in moves if m[0] in "RNBQ" and "@" in m],
        "bank": [m for m in moves if ">" in m],
        "propose": [m for m in moves if m == "propose"],
    }
    assert len(by_kind["town"]) == 29  # 30 intersections, one built on
    assert sorted(by_kind["upgrade"]) == ["B@1,1", "N@1,1", "Q@1,1", "R@1,1"]
    assert len(by_kind["bank"]) == 4 * (3 + 1)  # each suit for each other suit, or a card
    assert by_kind["propose"] == ["propose"]  # its 1,696 proposals are listed once announced
    assert len(moves) == 29 + 4 + 16 + 1 + 1  # and end
    st.play("propose")
    # every kind left out, given 1-4 times or asked 1-2 times, less an empty side (R10.3)
    assert len(st.legal_moves()) == 7**4 - 5**4 - 3**4 + 1 == 1696


def test_r3_3_setup_lists_every_free_intersection() -> None:
    st = state(phase="setup", step="0", turn="0", active="0")
    assert len(st.legal_moves()) == 30
    spaced = state(TerritoriesGame(distance_rule=True), phase="setup", step="1", turn="0",
                   buildings={(2, 2): "0P"})
    assert len(spaced.legal_moves()) == 30 - 1 - 4  # the point and its four side neighbours


@pytest.mark.parametrize(("token", "reason"), [
    ("x2,2", "no Raid has been won: announce raid first (R7.3)"),
    ("2,2=P", "no Convert has been won: announce conv first (R7.4)"),
    ("pay(H)", "no Swap or Expand waits for payment"),
    ("[0,0]<>QD", "no Swap is being resolved"),
    ("[5,1]+QD", "no Expand is being resolved"),
    ("disc(P1:H)", "nobody owes discards now"),
    ("wild(P1:H)", "nobody is owed Temple wildcards now"),
    ("acc", "no trade proposal is open (R8.2)"),
    ("r3+4", "that is a chance outcome"),
    ("P@-1,-1", "no such intersection -1,-1: no grid card has it as a corner (R2.2)"),
    ("P@2,2", "2,2 is occupied (R6.1)"),
])
def test_r4_1_a_move_of_another_moment_is_refused_with_its_reason(token: str, reason: str) -> None:
    st = state(buildings={(1, 1): "0B", (2, 2): "1P"}, res0=(4, 1, 1, 1), hand0="QD")
    with pytest.raises(IllegalMoveError, match=re.escape(f"{token}: {reason}")):
        st.play(token)
