"""Edge cases of the product ruling that a careless implementation gets wrong (R4-R9, R12)."""

from __future__ import annotations

import pytest

from boardlab.core import IllegalMoveError
from boardlab.games.territories import TerritoriesGame
from tests.territories.helpers import grid_text, hand, play_all, resources, state

# Every territory card except the two a test keeps in the pile: QD and 9S.
ALL_BUT_QD_9S = "2C,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,9H,TC,TS,JC,JD,QH"


def legal(st) -> set[str]:
    return {str(m) for m in st.legal_moves()}


def test_r4_5_wildcards_the_bank_cannot_pay_after_the_roller_chose_are_lost() -> None:
    # Only one D is left in the bank. White's Temple at 1,1 touches 8S and 8H (2 wildcards),
    # Black's Temple at 2,1 touches 8H (1 wildcard). Black rolls, so Black chooses first.
    st = state(buildings={(1, 1): "0B", (2, 1): "1B"}, res0=(13, 13, 0, 0), res1=(0, 0, 13, 12),
               phase="roll", active="1")
    st.play("r4+4")
    assert st.current_player() == 1 and legal(st) == {"wild(P2:D)"}
    st.play("wild(P2:D)")
    assert st.current_player() == 1 and st.view(None)["board"]["phase"] == "main"  # White's 2 are lost
    assert resources(st, 0) == {"H": 13, "S": 13, "C": 0, "D": 0}


def test_r4_5_the_rollers_capital_draws_first_from_a_short_pile() -> None:
    # The pile holds QD and 9S only; both Capitals trigger on an 8. Black rolls.
    st = state(buildings={(1, 1): "0K", (2, 1): "1K"}, hand0=ALL_BUT_QD_9S, phase="roll", active="1")
    st.play("r4+4")
    assert st.view(None)["board"]["draws_owed"] == [1, 0]
    play_all(st, "draw(9S) draw(QD)")
    assert hand(st, 1) == ["9S"] and "QD" in hand(st, 0)
    one_left = state(buildings={(1, 1): "0K", (2, 1): "1K"}, hand0=ALL_BUT_QD_9S + ",9S",
                     phase="roll", active="1")
    one_left.play("r4+4")
    one_left.play("draw(QD)")
    assert hand(one_left, 1) == ["QD"]
    assert one_left.current_player() == 1  # the pile is empty: White's card is not drawn (R1.5)


def test_r4_2_a_seven_produces_nothing_and_only_the_roller_draws() -> None:
    st = state(buildings={(1, 1): "0K", (2, 2): "1Q"}, phase="roll", active="1")
    st.play("r1+6")
    assert st.view(None)["board"]["draws_owed"] == [1]
    st.play("draw(QD)")
    assert resources(st, 0) == resources(st, 1) == {"H": 0, "S": 0, "C": 0, "D": 0}
    assert hand(st, 0) == []


@pytest.mark.parametrize(("where", "pile", "discard"), [
    ("discard_pile", [], ["2H"]),
    ("pile_bottom", ["2H"], []),
])
def test_r7_2_option_swap_removed_card_to(where: str, pile: list[str], discard: list[str]) -> None:
    st = state(TerritoriesGame(swap_removed_card_to=where), buildings={(1, 1): "0R"}, res0=(1, 0, 0, 0),
               hand0="9S")
    play_all(st, "swap d1 pay(H) [0,0]<>9S")
    view = st.view(None)["board"]
    assert hand(st, 0) == [] and view["pile_bottom"] == pile and view["discard"] == discard


def test_r7_3_a_raid_succeeds_on_exactly_15_of_the_36_duels() -> None:
    wins = 0
    for duel, chance in state(buildings={(1, 1): "0N", (2, 2): "1P"}, res0=(1, 1, 1, 1),
                              phase="duel", ability="raid").chance_outcomes():
        assert chance == pytest.approx(1 / 36)
        st = state(buildings={(1, 1): "0N", (2, 2): "1P"}, phase="duel", ability="raid")
        st.play(str(duel))
        wins += st.view(None)["board"]["phase"] == "raid_target"
    assert wins == 15


def test_r9_1_a_won_convert_reaching_fifteen_ends_the_game_at_once() -> None:
    # White has 14 points (Capital 3 + Temple 2 + four tier-2 pieces 8 + Town 1); Black's Town
    # at 2,2 shares a card with White's Temple at 1,1: converting it into a Town makes 15.
    buildings = {(1, 1): "0B", (4, 4): "0K", (0, 4): "0R", (1, 4): "0R", (2, 4): "0N", (3, 4): "0N",
                 (5, 0): "0P", (2, 2): "1P", (5, 4): "1P"}
    st = state(buildings=buildings, res0=(1, 1, 1, 1))
    assert st.view(None)["board"]["seats"][0]["points"] == 14
    play_all(st, "conv 6v2 2,2=P")
    assert st.is_over() and st.result().winner == 0 and "15 points" in st.result().reason


def test_r7_5_expand_above_and_left_gives_negative_points_that_produce() -> None:
    st = state(buildings={(1, 1): "0Q"}, res0=(2, 1, 1, 1), hand0="9S")
    play_all(st, "expand d1 pay(H) [-1,0]+9S")
    assert "P@-1,0" in legal(st) and "P@-1,1" in legal(st)
    st.play("P@-1,1")  # touches 9S and 8S ([0,1]): two cards, one of them new
    play_all(st, "end r4+5")
    assert resources(st, 0) == {"H": 0, "S": 1, "C": 0, "D": 0}
    assert [-1, 1, 0, "P"] in st.view(None)["board"]["buildings"]


def test_r7_5_a_point_beside_a_new_card_may_touch_three_cards() -> None:
    grown = grid_text(extra={(5, 1): "9S"})
    st = state(grid=grown, buildings={(5, 1): "0P"}, phase="roll")
    st.play("r5+4")  # 5,1 touches 6H [4,0], JH [4,1], 9S [5,1]: only 9S matches
    assert resources(st, 0) == {"H": 0, "S": 1, "C": 0, "D": 0}
    st = state(grid=grown, buildings={(5, 1): "0K"}, phase="roll")
    st.play("r5+4")  # a Capital there collects from all three cards
    assert resources(st, 0) == {"H": 2, "S": 1, "C": 0, "D": 0}


def test_r8_2_option_max_trade_proposals() -> None:
    st = state(TerritoriesGame(max_trade_proposals=1), res0=(3, 0, 0, 0), res1=(0, 3, 0, 0))
    play_all(st, "propose offer(H:S) rej")
    with pytest.raises(IllegalMoveError, match="max 1"):
        st.play("propose")
    none = state(TerritoriesGame(max_trade_proposals=0), res0=(3, 0, 0, 0), res1=(0, 3, 0, 0))
    assert "propose" not in legal(none)


def test_r8_2_only_the_active_player_proposes() -> None:
    st = state(TerritoriesGame(counter_offers=False), res0=(3, 0, 0, 0), res1=(0, 3, 0, 0))
    play_all(st, "propose offer(H:S)")
    assert st.current_player() == 1
    with pytest.raises(IllegalMoveError, match="answer the trade proposal"):
        st.play("propose")  # the responder cannot propose
    play_all(st, "rej end r1+1")
    assert st.current_player() == 1  # Black's own turn: now Black may propose
    play_all(st, "propose offer(S:H)")
    assert st.current_player() == 0


def test_r5_2_option_hand_limit() -> None:
    st = state(TerritoriesGame(hand_limit=3), res0=(2, 1, 1, 0), phase="roll", active="1")
    st.play("r3+4")
    assert st.view(None)["board"]["discards_owed"] == [[0, 1]]


def test_a_single_card_to_discard_is_worded_in_the_singular() -> None:
    st = state(TerritoriesGame(hand_limit=3), res0=(2, 1, 1, 0), phase="roll", active="1")
    st.play("r3+4")
    screen = st.render(0)
    assert "White discards 1 card (a 7 was rolled)" in screen and "1 cards" not in screen


def test_r9_2_option_no_building_turns() -> None:
    st = state(TerritoriesGame(no_building_turns=1), buildings={(2, 2): "1P"})
    st.play("end")
    assert st.is_over() and st.result().winner == 1


def test_r9_3_turn_cap_with_equal_points_is_a_draw() -> None:
    st = state(TerritoriesGame(max_turns=5), buildings={(1, 1): "0R", (2, 2): "1N"})
    st.play("end")
    assert st.is_over() and st.result().is_draw and "equal points 2" in st.result().reason


ALL_BUT_QD = "9H,TC,JC,QH,2C,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,9S,TS,JD"


def test_r5_3_the_sevens_draw_waits_for_discards_put_under_an_empty_pile() -> None:
    # Option territory_discard_to=pile_bottom: the pile is empty when Black rolls a 7, but
    # White's discard goes under it before Black draws, so Black draws that card.
    game = TerritoriesGame(territory_discard_to="pile_bottom", hand_limit=18)
    st = state(game, hand0=ALL_BUT_QD, hand1="QD", active="1", phase="roll")
    play_all(st, "r3+4 disc(P1:9H)")
    assert [str(m) for m, _ in st.chance_outcomes()] == ["draw(9H)"]
    st.play("draw(9H)")
    assert hand(st, 1) == ["9H", "QD"]


def test_r1_5_a_reshuffle_for_the_sevens_draw_includes_that_sevens_discards() -> None:
    game = TerritoriesGame(reshuffle_discards=True, hand_limit=17)
    st = state(game, hand0=ALL_BUT_QD.replace("9S,", ""), hand1="QD", discard="9S", active="1",
               phase="roll")
    play_all(st, "r3+4 disc(P1:9H)")
    assert sorted(str(m) for m, _ in st.chance_outcomes()) == ["draw(9H)", "draw(9S)"]
    assert st.position().count("reshuffled=9H,9S") == 1


def test_r1_5_without_a_refill_the_sevens_draw_is_lost_after_the_discards() -> None:
    st = state(TerritoriesGame(hand_limit=18), hand0=ALL_BUT_QD, hand1="QD", active="1", phase="roll")
    st.play("r3+4")
    assert st.current_player() == 0  # White discards first; the draw is still owed
    st.play("disc(P1:9H)")
    assert st.current_player() == 1 and st.view(None)["board"]["draws_owed"] == []
    assert st.view(None)["board"]["discard"] == ["9H"]
