"""Setup, production and the seven (R3, R4, R5)."""

from __future__ import annotations

import pytest

from boardlab.core import CHANCE, IllegalMoveError
from boardlab.games.territories import TerritoriesGame
from tests.territories.helpers import DEFAULT_GRID, hand, play_all, resources, state

DEAL_TOKENS = " ".join(f"deal({code})" for row in DEFAULT_GRID for code in row)


def test_r3_1_deal_fills_the_grid_row_by_row_with_exact_chances() -> None:
    st = TerritoriesGame().new_state(seed=3)
    outcomes = st.chance_outcomes()
    assert len(outcomes) == 40 and all(p == pytest.approx(1 / 40) for _, p in outcomes)
    play_all(st, "deal(9H) deal(QS)")
    assert st.view(None)["board"]["grid"][:2] == [[0, 0, "9H"], [1, 0, "QS"]]
    assert len(st.chance_outcomes()) == 38
    with pytest.raises(IllegalMoveError, match="not in the undealt deck"):
        st.play("deal(9H)")


def test_r3_3_only_the_second_towns_collect_one_per_touching_card() -> None:
    st = TerritoriesGame().new_state(seed=1)
    play_all(st, DEAL_TOKENS + " P1=seat1")
    assert st.current_player() == 1  # Black is P1
    play_all(st, "P@1,1 P@0,0")  # P1's first, P2's first: nothing collected
    assert resources(st, 0) == resources(st, 1) == {"H": 0, "S": 0, "C": 0, "D": 0}
    st.play("P@2,2")  # P2's second Town touches 8H 9C 2S 3C
    assert resources(st, 0) == {"H": 1, "S": 1, "C": 2, "D": 0}
    st.play("P@5,4")  # P1's second Town: the corner touches only QC
    assert resources(st, 1) == {"H": 0, "S": 0, "C": 1, "D": 0}
    view = st.view(None)["board"]
    assert view["phase"] == "roll" and view["active"] == 1 and view["turn"] == 1
    assert [p["points"] for p in view["seats"]] == [2, 2]
    assert view["bank"] == {"H": 12, "S": 12, "C": 10, "D": 13}


def test_r3_3_setup_refuses_an_occupied_point_or_a_point_off_the_grid() -> None:
    st = TerritoriesGame().new_state(seed=1)
    play_all(st, DEAL_TOKENS + " P1=seat0 P@1,1")
    with pytest.raises(IllegalMoveError, match="occupied"):
        st.play("P@1,1")
    with pytest.raises(IllegalMoveError, match="no such intersection 9,9"):
        st.play("P@9,9")


def test_r4_2_the_non_roller_produces_too_per_matching_card() -> None:
    # White's Town at 1,1 touches 8S and 8H; Black rolls an 8.
    st = state(buildings={(1, 1): "0P", (4, 4): "1P"}, phase="roll", active="1")
    st.play("r4+4")
    assert resources(st, 0) == {"H": 1, "S": 1, "C": 0, "D": 0}
    assert resources(st, 1) == {"H": 0, "S": 0, "C": 0, "D": 0}


def test_r4_2_option_roller_only_production() -> None:
    st = state(TerritoriesGame(production="roller"), buildings={(1, 1): "0P"}, phase="roll", active="1")
    st.play("r4+4")
    assert resources(st, 0) == {"H": 0, "S": 0, "C": 0, "D": 0}


def test_r4_2_palace_yields_two_and_fort_one() -> None:
    st = state(buildings={(1, 1): "0Q", (2, 1): "1R"}, phase="roll")
    st.play("r4+4")  # 2,1 touches 3S 4C 8H 9C: only 8H matches
    assert resources(st, 0) == {"H": 2, "S": 2, "C": 0, "D": 0}
    assert resources(st, 1) == {"H": 1, "S": 0, "C": 0, "D": 0}


def test_r4_3_capital_collects_every_touching_card_once_and_draws() -> None:
    # Capital at 1,1 touches 2H 3S 8S 8H: two matching cards still trigger once.
    st = state(buildings={(1, 1): "0K"}, phase="roll")
    st.play("r5+3")
    assert resources(st, 0) == {"H": 2, "S": 2, "C": 0, "D": 0}
    assert st.current_player() == CHANCE  # the Capital's card
    assert st.view(None)["board"]["draws_owed"] == [0]
    st.play("draw(QD)")
    assert hand(st, 0) == ["QD"]
    assert st.view(1)["board"]["seats"][0]["territories"] == []  # the opponent sees only the count
    assert st.view(1)["board"]["seats"][0]["territory_count"] == 1


def test_r4_3_option_capital_per_match_and_per_suit() -> None:
    game = TerritoriesGame(capital_trigger="per_match", capital_yield="per_suit")
    st = state(game, buildings={(1, 1): "0K"}, phase="roll")
    st.play("r4+4")
    # two triggers, each 1 per distinct suit (H and S), and two cards
    assert resources(st, 0) == {"H": 2, "S": 2, "C": 0, "D": 0}
    assert st.view(None)["board"]["draws_owed"] == [0, 0]


def test_r4_4_temple_wildcards_chosen_by_the_owner_roller_first() -> None:
    st = state(buildings={(1, 1): "1B", (2, 1): "0B"}, phase="roll")
    st.play("r6+2")
    assert st.current_player() == 0  # White rolled: White chooses first
    moves = [str(m) for m in st.legal_moves()]
    assert "wild(P1:D)" in moves and len(moves) == 4
    st.play("wild(P1:D)")
    assert st.current_player() == 1
    with pytest.raises(IllegalMoveError, match="exactly 2"):
        st.play("wild(P2:C)")
    st.play("wild(P2:CD)")
    assert resources(st, 1) == {"H": 0, "S": 0, "C": 1, "D": 1}
    assert resources(st, 0)["D"] == 1


def test_r4_5_shortage_both_claim_nobody_gets_the_suit() -> None:
    # One S left in the bank; White's Town (8S) and Black's Town at 0,1 (8S) both claim S.
    st = state(buildings={(1, 1): "0P", (0, 2): "1P"}, res0=(0, 6, 0, 0), res1=(0, 6, 0, 0), phase="roll")
    st.play("r4+4")
    assert resources(st, 0) == {"H": 1, "S": 6, "C": 0, "D": 0}  # H paid, S withheld
    assert resources(st, 1)["S"] == 6
    assert st.view(None)["board"]["bank"]["S"] == 1


def test_r4_5_shortage_a_single_claimant_gets_what_is_left() -> None:
    st = state(buildings={(1, 1): "0Q"}, res1=(0, 12, 0, 0), phase="roll")
    st.play("r4+4")  # the Palace claims 2 S, the bank holds 1
    assert resources(st, 0) == {"H": 2, "S": 1, "C": 0, "D": 0}
    assert st.view(None)["board"]["bank"]["S"] == 0


def test_r4_5_option_roller_first_pays_the_roller() -> None:
    game = TerritoriesGame(bank_shortage="roller_first")
    st = state(game, buildings={(1, 1): "0P", (0, 2): "1P"}, res0=(0, 6, 0, 0), res1=(0, 6, 0, 0),
               phase="roll", active="1")
    st.play("r4+4")  # Black rolls: Black's claim is paid first
    assert resources(st, 1)["S"] == 7 and resources(st, 0)["S"] == 6


def test_r5_2_discards_come_before_the_rollers_draw() -> None:
    # Black rolls a 7 holding 8 cards; White holds 6 resources + 2 territory cards = 8.
    st = state(res0=(3, 3, 0, 0), hand0="QD,9S", res1=(2, 2, 2, 2), active="1", phase="roll",
               buildings={(1, 1): "0P", (3, 3): "1P"})
    st.play("r3+4")
    assert st.current_player() == 1  # the roller discards first
    with pytest.raises(IllegalMoveError, match="exactly 1"):
        st.play("disc(P2:HH)")
    with pytest.raises(IllegalMoveError, match=r"Black \(P2\) discards now, not White \(P1\)"):
        st.play("disc(P1:H)")
    st.play("disc(P2:D)")
    assert st.current_player() == 0
    discards = {str(m) for m in st.legal_moves()}
    assert "disc(P1:QD)" in discards and "disc(P1:H)" in discards
    st.play("disc(P1:QD)")
    assert st.view(None)["board"]["discard"] == ["QD"]  # public, out of play (R5.3)
    assert st.current_player() == CHANCE  # only now the roller draws
    st.play("draw(5S)")
    view = st.view(1)["board"]["seats"][1]
    assert view["territories"] == ["5S"] and view["resource_count"] + view["territory_count"] == 8


def test_r5_1_option_resources_only_ignores_territory_cards() -> None:
    game = TerritoriesGame(hand_limit_counts="resources_only")
    st = state(game, res0=(3, 3, 0, 0), hand0="QD,9S", active="1", phase="roll")
    st.play("r3+4")
    assert st.current_player() == CHANCE  # nobody discards: White holds 6 resources


def test_r5_3_option_discarded_cards_go_under_the_pile_and_are_drawn_last() -> None:
    game = TerritoriesGame(territory_discard_to="pile_bottom")
    st = state(game, res1=(2, 2, 2, 2), hand1="QD", active="1", phase="roll")
    st.play("r3+4")
    st.play("disc(P2:H,QD)")  # 8 resources + 1 card: 2 to discard
    assert st.view(None)["board"]["pile_bottom"] == ["QD"]
    outcomes = st.chance_outcomes()
    assert all(str(m) != "draw(QD)" for m, _ in outcomes)  # unseen cards first
