"""Default moves when a player runs out of time (R13), one test per kind of decision.

Each default must be legal where it is given (the conformance suite checks that
along random games too); these tests pin down which legal move it is.
"""

from __future__ import annotations

import boardlab
from boardlab.core import CHANCE
from boardlab.games.territories import TerritoriesGame
from tests.territories.helpers import play_all, state


def default(st) -> str:
    move = st.default_move()
    assert move is not None
    st.check_move(move)
    return str(move)


def test_r13_1_acting_in_the_main_phase_ends_the_turn() -> None:
    st = state(res0=(1, 1, 1, 1), buildings={(1, 1): "0R"}, hand0="9S")
    assert default(st) == "end"


def test_r13_2_a_proposal_or_counter_proposal_is_rejected() -> None:
    st = state(TerritoriesGame(counter_offers=True), res0=(2, 0, 0, 0), res1=(0, 2, 1, 0))
    play_all(st, "propose offer(H:S)")
    assert st.current_player() == 1 and default(st) == "rej"
    play_all(st, "counter counter(C:H)")
    assert st.current_player() == 0 and default(st) == "rej"


def test_r13_2_an_announced_proposal_is_named_as_the_first_listed() -> None:
    st = state(TerritoriesGame(counter_offers=True), res0=(2, 0, 1, 0), res1=(0, 2, 1, 0))
    st.play("propose")
    assert default(st) == "offer(H:S)" == str(st.legal_moves()[0])  # the smallest: one for one
    play_all(st, "offer(C:S) counter")
    assert default(st) == "counter(S:H)"


def test_r13_3_discards_take_the_kind_held_most_one_at_a_time() -> None:
    # White holds 9 resources and 2 cards: 11 cards, 4 over the limit (R5.2). H5 S3 C1:
    # H, H (4 > 3), then H and S tie at 3: H first, then S.
    st = state(res0=(5, 3, 1, 0), hand0="9S,QD", phase="roll", active="1", buildings={(1, 1): "1P"})
    st.play("r3+4")
    assert default(st) == "disc(P1:HHHS)"


def test_r13_3_discards_take_territory_cards_in_hand_order_once_resources_run_out() -> None:
    st = state(res0=(1, 0, 0, 0), hand0="9H,TC,JC,QH,2C,2D,3H,3D", phase="roll", active="1",
               buildings={(1, 1): "1P"})
    st.play("r3+4")  # 9 cards: 2 over the limit
    assert default(st) == "disc(P1:H,3H)"


def test_r13_4_each_wildcard_is_the_kind_the_bank_holds_most_of_then() -> None:
    # White's Temple at 1,1 touches 8S and 8H: 2 wildcards on an 8. The bank holds H11 S13 C0 D3.
    st = state(buildings={(1, 1): "0B"}, res1=(2, 0, 13, 10), phase="roll", active="1")
    st.play("r4+4")
    assert default(st) == "wild(P1:SS)"
    level = state(buildings={(1, 1): "0B"}, res1=(0, 0, 13, 11), phase="roll", active="1")
    level.play("r4+4")  # H13 S13 D2: H first on the tie, then S (13 > 12)
    assert default(level) == "wild(P1:HS)"


def test_r13_5_a_setup_town_goes_where_the_touching_cards_roll_most_often() -> None:
    # On the test grid 2,1 3,1 4,1 touch cards rolled 14 ways in 36, the most; 2,1 comes first.
    st = state(phase="setup", step="0", turn="0")
    assert default(st) == "P@2,1"
    taken = state(phase="setup", step="1", turn="0", buildings={(2, 1): "0P"})
    assert default(taken) == "P@3,1"


def test_r13_3_a_forced_payment_takes_the_kind_held_most() -> None:
    st = state(buildings={(1, 1): "0R"}, res0=(2, 3, 0, 1), hand0="9S")
    play_all(st, "swap d3")
    assert default(st) == "pay(HSS)"


def test_r13_6_swap_places_the_first_hand_card_on_the_first_cell_without_buildings() -> None:
    st = state(buildings={(1, 1): "0R"}, res0=(1, 0, 0, 0), hand0="QD,9S")
    play_all(st, "swap d1 pay(H)")
    assert default(st) == "[2,0]<>9S"  # cells [0,0] and [1,0] have the Fort on a corner


def test_r13_6_expand_places_the_first_hand_card_on_the_first_allowed_cell() -> None:
    st = state(buildings={(1, 1): "0Q"}, res0=(1, 0, 0, 0), hand0="QD,9S")
    play_all(st, "expand d1 pay(H)")
    assert default(st) == "[0,-1]+9S"
    bounded = state(TerritoriesGame(expand_max_extent="5x5"), buildings={(1, 1): "0Q"}, res0=(1, 0, 0, 0),
                    hand0="9S")
    play_all(bounded, "expand d1 pay(H)")
    assert default(bounded) == "[0,-1]+9S"


def test_r13_7_a_won_raid_destroys_the_first_town_in_reading_order() -> None:
    st = state(buildings={(1, 1): "0N", (3, 3): "1P", (2, 2): "1P", (4, 0): "1P", (0, 1): "1R"},
               res0=(1, 1, 1, 1))
    play_all(st, "raid 5v3")
    assert default(st) == "x4,0"


def test_r13_7_a_won_convert_takes_the_first_target_with_the_piece_worth_most() -> None:
    st = state(buildings={(1, 1): "0B", (2, 1): "1R", (1, 2): "1P"}, res0=(1, 1, 1, 1))
    play_all(st, "conv 6v1")
    assert default(st) == "2,1=R"


def test_r13_there_is_no_default_at_chance_or_at_the_end() -> None:
    st = state(phase="roll")
    assert st.current_player() == CHANCE and st.default_move() is None
    over = state()
    play_all(over, "end r1+1 end r1+1 end")
    assert over.is_over() and over.default_move() is None


def test_r13_a_match_plays_the_default_for_a_person_out_of_time() -> None:
    now = [0.0]
    game = TerritoriesGame()
    start = state(res0=(2, 0, 0, 0), res1=(0, 2, 0, 0)).position()
    match = boardlab.Match(game, [None, None], seed=3, start=start, move_seconds=30, clock=lambda: now[0])
    match.play(0, "propose", ply=match.ply)
    match.play(0, "offer(H:S)", ply=match.ply)
    now[0] = 31.0
    assert match.expire()
    assert match.log_json(0)[-1]["text"] == "rejects the trade" and match.log_json(0)[-1]["note"] == "timeout"
    assert match.to_move() == 0 and not match.view(0)["over"]
