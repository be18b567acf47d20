"""The four abilities (R7): dice, costs, geometry, "lose all" and the once-per-turn limit."""

from __future__ import annotations

import pytest

from boardlab.core import CHANCE, IllegalMoveError
from boardlab.games.territories import TerritoriesGame
from tests.territories.helpers import grid_text, hand, play_all, resources, state


def legal(st) -> set[str]:
    return {str(m) for m in st.legal_moves()}


def grid_card(st, cell: tuple[int, int]) -> str | None:
    for c, r, code in st.view(None)["board"]["grid"]:
        if (c, r) == cell:
            return code
    return None


def test_r7_2_swap_exchanges_a_grid_card_which_enters_the_hand_face_up() -> None:
    st = state(buildings={(1, 1): "0R"}, res0=(2, 2, 0, 0), hand0="9S")
    st.play("swap")
    assert st.current_player() == CHANCE
    assert [p for _, p in st.chance_outcomes()] == [pytest.approx(1 / 6)] * 6
    st.play("d3")
    with pytest.raises(IllegalMoveError, match="pay exactly 3"):
        st.play("pay(HH)")
    st.play("pay(HHS)")
    st.play("[0,0]<>9S")
    assert grid_card(st, (0, 0)) == "9S"
    assert hand(st, 0) == ["2H"]
    assert st.view(1)["board"]["seats"][0]["territories"] == ["2H"]  # known to the opponent
    assert resources(st, 0) == {"H": 0, "S": 1, "C": 0, "D": 0}


def test_r7_1_each_ability_once_per_turn() -> None:
    st = state(buildings={(1, 1): "0R"}, res0=(2, 2, 0, 0), hand0="9S")
    play_all(st, "swap d1 pay(H) [0,0]<>9S")
    assert "swap" not in legal(st)
    with pytest.raises(IllegalMoveError, match="swap: already used this turn"):
        st.play("swap")
    play_all(st, "end r1+1 end r1+1")  # a new turn of White's
    assert "swap" in legal(st)


def test_r7_1_option_per_building_and_unlimited() -> None:
    game = TerritoriesGame(ability_limit="per_building_per_turn")
    st = state(game, buildings={(1, 1): "0R", (3, 3): "0R"}, res0=(4, 0, 0, 0), hand0="9S,TS")
    play_all(st, "swap d1 pay(H) [0,0]<>9S swap d1 pay(H) [1,0]<>TS")
    with pytest.raises(IllegalMoveError, match="once per eligible building"):
        st.play("swap")
    unlimited = state(TerritoriesGame(ability_limit="unlimited"), buildings={(1, 1): "0R"}, hand0="9S")
    with pytest.raises(IllegalMoveError, match="at least 1 resource"):
        unlimited.play("swap")


def test_r7_abilities_need_a_granting_building() -> None:
    st = state(buildings={(1, 1): "0P"}, res0=(1, 1, 1, 1), hand0="9S")
    with pytest.raises(IllegalMoveError, match="needs a Capital or Fort"):
        st.play("swap")
    assert legal(st) & {"swap", "raid", "conv", "expand"} == set()


def test_r7_6_a_die_above_your_resources_loses_them_all() -> None:
    st = state(buildings={(1, 1): "0K"}, res0=(1, 1, 0, 1), hand0="9S")
    st.play("expand")
    st.play("d4")
    assert resources(st, 0) == {"H": 0, "S": 0, "C": 0, "D": 0}
    assert hand(st, 0) == ["9S"]  # territory cards are kept
    assert st.view(None)["board"]["bank"] == {"H": 13, "S": 13, "C": 13, "D": 13}
    assert st.current_player() == 0 and st.view(None)["board"]["phase"] == "main"


def test_r7_6_swap_with_no_resources_loses_nothing() -> None:
    st = state(buildings={(1, 1): "0R"}, hand0="9S")
    play_all(st, "swap d1")
    assert hand(st, 0) == ["9S"] and st.view(None)["board"]["phase"] == "main"


def test_r7_6_option_lose_territories_too() -> None:
    st = state(TerritoriesGame(lose_all="resources_and_territories"), buildings={(1, 1): "0K"},
               res0=(1, 0, 0, 0), hand0="9S")
    play_all(st, "swap d2")
    assert hand(st, 0) == [] and st.view(None)["board"]["discard"] == ["9S"]


def test_r7_3_raid_pays_first_and_wins_only_on_a_higher_die() -> None:
    st = state(buildings={(1, 1): "0N", (2, 2): "1P", (3, 3): "1R"}, res0=(1, 1, 1, 1))
    st.play("raid")
    assert resources(st, 0) == {"H": 0, "S": 0, "C": 0, "D": 0}
    outcomes = st.chance_outcomes()
    assert len(outcomes) == 36
    st.play("4v4")  # a tie fails; the payment stays with the bank
    assert st.view(None)["board"]["phase"] == "main" and len(st.view(None)["board"]["buildings"]) == 3


def test_r7_3_raid_destroys_a_town_of_your_choice() -> None:
    st = state(buildings={(1, 1): "0N", (2, 2): "1P", (3, 3): "1R"}, res0=(1, 1, 1, 1))
    play_all(st, "raid 5v3")
    assert legal(st) == {"x2,2"}  # Towns only
    with pytest.raises(IllegalMoveError, match="no opponent Town"):
        st.play("x3,3")
    st.play("x2,2")
    assert st.view(None)["board"]["seats"][1]["supply"]["P"] == 8


def test_r7_3_raid_needs_an_opponent_town() -> None:
    st = state(buildings={(1, 1): "0N", (3, 3): "1R"}, res0=(1, 1, 1, 1))
    with pytest.raises(IllegalMoveError, match="no Town"):
        st.play("raid")


def test_r7_4_convert_targets_share_a_card_and_take_same_or_lower_pieces() -> None:
    # White's Temple at 1,1; Black's Town at 2,2 and Fort at 0,1 share a card with it,
    # Black's Town at 3,3 does not.
    st = state(buildings={(1, 1): "0B", (2, 2): "1P", (0, 1): "1R", (3, 3): "1P"}, res0=(1, 1, 1, 1))
    play_all(st, "conv 6v1")
    assert legal(st) == {"2,2=P", "0,1=P", "0,1=R"}
    with pytest.raises(IllegalMoveError, match="shares no card"):
        st.play("3,3=P")
    with pytest.raises(IllegalMoveError, match="same kind or a lower tier"):
        st.play("0,1=B")  # a Temple is not a lower tier than a Fort
    st.play("0,1=R")
    view = st.view(None)["board"]
    assert [0, 1, 0, "R"] in view["buildings"]
    assert view["seats"][0]["points"] == 4 and view["seats"][1]["points"] == 2
    assert view["seats"][1]["supply"]["R"] == 2 and view["seats"][0]["supply"]["R"] == 1


def test_r7_4_convert_needs_a_target_before_paying() -> None:
    st = state(buildings={(1, 1): "0B", (4, 4): "1P"}, res0=(1, 1, 1, 1))
    with pytest.raises(IllegalMoveError, match="no opponent building shares a card"):
        st.play("conv")
    assert resources(st, 0) == {"H": 1, "S": 1, "C": 1, "D": 1}


def test_r7_5_expand_adds_a_card_beside_the_grid_with_new_intersections() -> None:
    st = state(buildings={(1, 1): "0Q"}, res0=(3, 1, 1, 1), hand0="9S,TS")
    play_all(st, "expand d2 pay(HH)")
    placements = legal(st)
    assert "[5,1]+9S" in placements and "[-1,3]+TS" in placements and "[2,-1]+9S" in placements
    assert "[5,4]+9S" not in placements  # only a corner touches the grid
    with pytest.raises(IllegalMoveError, match="does not share a side"):
        st.play("[5,4]+9S")
    with pytest.raises(IllegalMoveError, match="already holds a card"):
        st.play("[1,1]+9S")
    st.play("[5,1]+9S")
    assert grid_card(st, (5, 1)) == "9S"
    assert "P@6,1" in legal(st) and "P@6,2" in legal(st)  # new corners are intersections
    # 5,1 now touches [4,0] [4,1] [5,1]: a Town there collects from all three
    st.play("P@5,1")
    play_all(st, "end r4+5")
    assert resources(st, 0) == {"H": 0, "S": 1, "C": 0, "D": 0}


def test_r7_5_option_max_extent_forbids_growth() -> None:
    st = state(TerritoriesGame(expand_max_extent="5x4"), buildings={(1, 1): "0Q"}, res0=(3, 0, 0, 0), hand0="9S")
    with pytest.raises(IllegalMoveError, match="no empty cell"):
        st.play("expand")
    wider = state(TerritoriesGame(expand_max_extent="6x4"), buildings={(1, 1): "0Q"}, res0=(3, 0, 0, 0), hand0="9S")
    play_all(wider, "expand d1 pay(H)")
    assert {str(m) for m in wider.legal_moves()} == {f"[{c},{r}]+9S" for c in (-1, 5) for r in range(4)}


def test_r2_3_diagonal_points_across_an_empty_cell_share_no_card() -> None:
    # Grown grid: [5,1], [6,1], [6,2] added, [5,2] empty. White's Temple at 5,2 and Black's
    # Town at 6,3 are diagonal across the empty [5,2]; Black's Town at 6,2 shares [5,1].
    grown = grid_text(extra={(5, 1): "9S", (6, 1): "TS", (6, 2): "JC"})
    st = state(grid=grown, buildings={(5, 2): "0B", (6, 3): "1P"}, res0=(1, 1, 1, 1))
    with pytest.raises(IllegalMoveError, match="no opponent building shares a card"):
        st.play("conv")
    st = state(grid=grown, buildings={(5, 2): "0B", (6, 3): "1P", (6, 2): "1P"}, res0=(1, 1, 1, 1))
    play_all(st, "conv 2v1")
    assert legal(st) == {"6,2=P"}


def test_r2_2_the_starting_grid_has_30_intersections_by_touching_count() -> None:
    from collections import Counter

    from boardlab.games.territories.geometry import intersections, touching

    cells = {(c, r) for c in range(5) for r in range(4)}
    points = intersections(cells)
    assert len(points) == 30
    assert Counter(len(touching(p, cells)) for p in points) == {1: 4, 2: 14, 4: 12}
    grown = cells | {(5, 1)}
    assert sorted(touching((5, 1), grown)) == [(4, 0), (4, 1), (5, 1)]
    assert set(intersections(grown)) - set(points) == {(6, 1), (6, 2)}


def test_r7_1_refused_announcements_name_the_reason_once() -> None:
    st = state(buildings={(1, 1): "0R"}, hand0="9S")
    play_all(st, "swap d1")
    with pytest.raises(IllegalMoveError) as refused:
        st.play("swap")
    assert str(refused.value).startswith("swap: already used this turn (R7.1)")


@pytest.mark.parametrize("written", ["6x4", "[6, 4]", "6,4", [6, 4]])
def test_r7_5_option_max_extent_accepts_the_rulings_form(written) -> None:
    assert TerritoriesGame(expand_max_extent=written).rules.expand_max_extent == (6, 4)
