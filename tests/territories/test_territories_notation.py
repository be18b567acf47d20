"""Notation (R10.2) and the position string (R10.4)."""

from __future__ import annotations

import pytest

from boardlab.core import NotationError, PositionError
from boardlab.games.territories import TerritoriesGame
from boardlab.games.territories.moves import (
    ACCEPT,
    BUY_TERRITORY,
    END_TURN,
    REJECT,
    Announce,
    BankTrade,
    Build,
    ConvertTo,
    Counter,
    Deal,
    Destroy,
    Die,
    Discard,
    Draw,
    Duel,
    FirstPlayer,
    Offer,
    Pay,
    PlaceCard,
    Roll,
    SwapCard,
    Wild,
    parse_move_text,
)
from tests.territories.helpers import position, state

QS, NINE_H, TWO_D = 19, 6, 30  # card ids: suit * 10 + rank index

EVERY_KIND = [
    (Deal(NINE_H), "deal(9H)"),
    (FirstPlayer(1), "P1=seat1"),
    (Roll(5, 3), "r5+3"),
    (Draw(QS), "draw(QS)"),
    (Die(4), "d4"),
    (Duel(5, 3), "5v3"),
    (Build(0, (2, 2)), "P@2,2"),
    (Build(5, (-1, 3)), "K@-1,3"),
    (BankTrade((0, 0, 0, 4), 0), "4D>H"),
    (BankTrade((0, 4, 0, 0), BUY_TERRITORY), "4S>T"),
    (BankTrade((2, 1, 0, 1), 2), "HHSD>C"),
    (Offer((2, 0, 0, 0), (), (0, 1, 0, 0), ()), "offer(HH:S)"),
    (Offer((1, 0, 0, 0), (QS,), (0, 0, 0, 0), (TWO_D,)), "offer(H,QS:2D)"),
    (Counter((0, 1, 0, 0), (), (1, 0, 0, 1), ()), "counter(S:HD)"),
    (ACCEPT, "acc"),
    (REJECT, "rej"),
    (Announce(0), "swap"),
    (Announce(1), "raid"),
    (Announce(2), "conv"),
    (Announce(3), "expand"),
    (Pay((2, 1, 0, 1)), "pay(HHSD)"),
    (SwapCard((1, 2), NINE_H), "[1,2]<>9H"),
    (PlaceCard((5, 1), QS), "[5,1]+QS"),
    (PlaceCard((-1, -2), QS), "[-1,-2]+QS"),
    (Destroy((4, 2)), "x4,2"),
    (ConvertTo((3, 3), 1), "3,3=R"),
    (Discard(2, (2, 1, 0, 0), (QS,)), "disc(P2:HHS,QS)"),
    (Discard(1, (0, 0, 0, 0), (QS,)), "disc(P1:QS)"),
    (Discard(1, (0, 0, 0, 4), ()), "disc(P1:DDDD)"),
    (Wild(2, (0, 0, 1, 0)), "wild(P2:C)"),
    (END_TURN, "end"),
]


@pytest.mark.parametrize("move,text", EVERY_KIND, ids=[t for _, t in EVERY_KIND])
def test_r10_2_every_move_kind_round_trips(move, text: str) -> None:
    assert str(move) == text
    assert parse_move_text(text) == move


@pytest.mark.parametrize("text,reason", [
    ("", "one token"),
    ("P@2, 2", "one token"),
    ("build town", "one token"),
    ("Z@1,1", "not Territories notation"),
    ("disc(P2:4X)", "long form"),
    ("disc(HH)", "P1:"),
    ("offer(HH)", "GIVE:GET"),
    ("deal(7H)", "not a territory card"),
    ("draw(KS)", "not a territory card"),
    ("r7+1", "not Territories notation"),
    ("pay(HXZ)", "unknown resource"),
    ("offer(QS,QS:H)", "named twice"),
])
def test_r10_2_malformed_tokens_raise_notation_errors(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        parse_move_text(text)


def test_r10_2_notation_errors_are_reported_through_parse_move() -> None:
    st = state()
    with pytest.raises(NotationError):
        st.parse_move("build a town")


def test_r10_4_position_round_trips_with_every_field_in_use() -> None:
    text = position(
        buildings={(0, 0): "0P", (1, 1): "0K", (2, 2): "1B"},
        res0=(1, 2, 3, 4), res1=(0, 1, 0, 2), hand0="9S,QD*", hand1="TS",
        discard="2C", bottom="3D", phase="respond", offer="0>1:HS,9S:D", used="1,0,0,1",
        proposals="2", nobuild="0,1", roll="3+5", turn="17",
    )
    st = TerritoriesGame().state_from_position(text)
    assert st.position() == text  # canonical: points by row, hands by suit then rank
    assert st.view(1)["board"]["seats"][0]["territories"] == ["QD"]  # the starred card


def test_r10_4_position_of_a_finished_game_round_trips() -> None:
    st = state(res0=(1, 1, 1, 1), buildings={(1, 1): "0K", (2, 1): "0R", (3, 1): "0R", (4, 1): "0N",
                                             (1, 2): "0N", (2, 2): "0B", (3, 3): "0P"})
    st.play("P@0,0")
    again = TerritoriesGame().state_from_position(st.position())
    assert again.is_over() and again.result() == st.result()


@pytest.mark.parametrize("fields,field_name", [
    ({"bank": "13,13,13,12"}, "bank"),
    ({"hand0": "2H"}, "hand0"),  # 2H lies in the grid
    ({"supply0": "7,2,2,2,1,1"}, "supply0"),
    ({"phase": "lunch"}, "phase"),
    ({"first": "2"}, "first"),
    ({"turn": "x"}, "turn"),
    ({"bld": "9,9:0P"}, "bld"),
    ({"offer": "0>1:HH:S"}, "offer"),  # an offer outside phase respond
    ({"ability": "swap"}, "ability"),  # an ability in phase main
    ({"roll": "7+1"}, "roll"),
    ({"result": "3:won"}, "result"),
    ({"grid": "0,0:2H"}, "grid"),  # 1 card after the deal
    ({"reshuffled": "QD"}, "reshuffled"),  # a reshuffle needs option reshuffle_discards
])
def test_r10_4_malformed_positions_name_the_field(fields: dict, field_name: str) -> None:
    with pytest.raises(PositionError, match=f"field {field_name}="):
        TerritoriesGame().state_from_position(position(**fields))


def test_r10_4_counts_must_be_complete() -> None:
    with pytest.raises(PositionError, match=r"field res0=.*4 comma-separated"):
        TerritoriesGame().state_from_position(position().replace("res0=0,0,0,0", "res0=1,2,3"))


def test_r10_4_after_a_reshuffle_the_unseen_pile_comes_from_it() -> None:
    game = TerritoriesGame(reshuffle_discards=True)
    all_but_jd_qd = "9H,TC,JC,QH,2C,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,9S,TS"
    st = game.state_from_position(position(reshuffled="9H,QD,JD", hand1=all_but_jd_qd))
    assert st.pile_size() == 2  # JD and QD, both from the reshuffle; 9H was drawn since
    with pytest.raises(PositionError, match=r"field reshuffled=.*comes from it"):
        game.state_from_position(position(reshuffled="QD", hand1=all_but_jd_qd))  # JD is not


def test_r10_4_position_needs_every_field_in_order() -> None:
    text = position()
    with pytest.raises(PositionError, match="expected 28 fields"):
        TerritoriesGame().state_from_position(text.rsplit(" ", 1)[0])
    with pytest.raises(PositionError, match="expected field bld"):
        TerritoriesGame().state_from_position(text.replace("bld=", "bild="))
    with pytest.raises(PositionError, match="must start with"):
        TerritoriesGame().state_from_position("towers " + text)


@pytest.mark.parametrize("fields,field_name", [
    ({"phase": "respond", "offer": "0>1:HH:S"}, "offer"),  # nobody holds those resources
    ({"phase": "ability_pay", "ability": "raid", "die": "2"}, "ability"),
    ({"phase": "ability_pay", "ability": "swap", "die": "4"}, "die"),  # White holds nothing
    ({"phase": "raid_target", "ability": "raid"}, "ability"),  # no Town to destroy
    ({"phase": "setup", "step": "2"}, "step"),  # no Towns placed yet
    ({"draws": "0", "hand0": "9H,TC,JC,QH,2C,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,9S,TS,JD,QD"}, "draws"),
    ({"disc": "0:3"}, "disc"),
    ({"disc": "0:3", "phase": "ability_die", "ability": "swap"}, "phase"),
    ({"bld": "1,1:0K;2,1:0R;3,1:0R;4,1:0N;1,2:0N;2,2:0B;3,3:0P;0,0:0P",
      "supply0": "6,0,0,1,1,0"}, "result"),  # White has 15 points: the game is over (R9.1)
    ({"nobuild": "2,0"}, "nobuild"),  # White lost on the no-building clock (R9.2)
])
def test_r10_4_positions_that_cannot_go_on_are_refused(fields: dict, field_name: str) -> None:
    with pytest.raises(PositionError, match=f"field {field_name}="):
        TerritoriesGame().state_from_position(position(**fields))
