"""The protocol's per-game parts: move texts per viewer (R11.1), ending codes (R9.5), moves as
JSON in the game's own terms (R11.3), and records as the one save format (R10.4)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import PositionError, Record
from boardlab.games.territories import RESULT_CODES, TerritoriesGame
from boardlab.games.territories.cards import CARD_CODE
from boardlab.games.territories.moves import Deal, Die, Duel
from boardlab.games.territories.view import card_words, move_text
from tests.territories.helpers import play_all, position, state

# Every card outside the test grid but 3D: with 3D under the pile, the pile holds no unseen card.
ALL_BUT_3D = "3H,4H,9H,QH,4S,5S,9S,TS,2C,5C,6C,8C,TC,JC,2D,6D,8D,JD,QD"


def test_r11_1_a_draw_reads_as_a_card_drawn_to_the_opponent_and_spectators() -> None:
    st = state(res0=(4, 0, 0, 0))
    st.play("4H>T")
    draw = st.parse_move("draw(QD)")
    assert st.move_text(draw, 0) == "White drew Q♦"  # the drawer sees the card
    assert st.move_text(draw, 1) == "White drew a card"
    assert st.move_text(draw, None) == "White drew a card"
    assert "QD" in st.secrets(1) and "QD" in st.secrets(None)


def test_r11_1_the_sevens_draw_is_hidden_the_same_way_for_black() -> None:
    st = state(phase="roll", active="1", buildings={(1, 1): "1P"})
    st.play("r3+4")
    draw = st.parse_move("draw(9S)")
    assert [st.move_text(draw, v) for v in (None, 0, 1)] == ["Black drew a card"] * 2 + ["Black drew 9♠"]


def test_r11_1_a_known_card_from_under_the_pile_is_public() -> None:
    st = state(res0=(4, 0, 0, 0), hand1=ALL_BUT_3D, bottom="3D")
    st.play("4H>T")
    draw = st.parse_move("draw(3D)")
    assert [st.move_text(draw, v) for v in (None, 0, 1)] == ["White drew 3♦"] * 3


def test_r11_1_chance_reads_in_words_to_everybody_while_its_notation_still_plays() -> None:
    # what a player reads of chance is said, not coded (P1=seat0 counted the seats from zero);
    # the notation stays the record's and the parser's
    st = state(phase="roll", active="1", buildings={(1, 1): "1P"})
    roll = st.parse_move("r3+5")
    assert {st.move_text(roll, viewer) for viewer in (None, 0, 1)} == {"rolled 3+5 = 8"}  # R4.1
    fresh = TerritoriesGame().new_state(seed=3)
    deal = fresh.chance_outcomes()[0][0]
    assert fresh.move_text(deal, None) == f"{card_words(deal.card)} dealt to the grid"  # R3.1
    assert card_words(TerritoriesGame().new_state(seed=3).parse_move("deal(TC)").card) == "10♣"
    while fresh.is_chance() and isinstance(fresh.chance_outcomes()[0][0], Deal):
        fresh.apply(fresh.sample_chance())
    first = {str(move): fresh.move_text(move, None) for move, _probability in fresh.chance_outcomes()}  # R3.2
    assert first == {"P1=seat0": "White plays first", "P1=seat1": "Black plays first"}
    assert move_text(st, Die(4), None) == "the die shows 4"  # R7.2, R7.5
    assert move_text(st, Duel(5, 3), 1) == "the dice: attacker 5, defender 3"  # R7.3, R7.4
    assert st.parse_move("r3+5") == roll and str(roll) == "r3+5"


def test_r11_1_every_other_move_reads_the_same_to_everybody_in_words() -> None:
    st = state(res0=(4, 1, 1, 1), res1=(0, 2, 0, 0), buildings={(1, 1): "0R"}, hand0="9S")
    said = {}
    for move in st.legal_moves():
        texts = {st.move_text(move, v) for v in (None, 0, 1)}
        assert len(texts) == 1, texts
        said[str(move)] = texts.pop()
    # a bank trade's resources as symbols: "4H" would read as the four of Hearts
    assert said["4H>S"] == "trades ♥×4 to the bank for ♠" and said["4H>T"] == "trades ♥×4 to the bank for a territory card"
    assert said["end"] == "ends the turn" and said["propose"] == "proposes a trade"
    assert all("P@" not in text and ">" not in text for text in said.values()), said
    st.play("propose")
    offer = st.parse_move("offer(HC:SS)")  # Black holds two Spades
    assert st.move_text(offer, None) == "offers ♥ and ♣ for ♠×2"


def test_r11_1_a_match_log_redacts_the_draw_for_the_other_seat() -> None:
    start = state(res0=(4, 0, 0, 0)).position()
    match = boardlab.Match(TerritoriesGame(), [None, None], seed=5, start=start)
    match.play(0, "4H>T", ply=match.ply)  # the match draws the card from its seed at once
    mine, theirs, spectators = match.log_json(0)[-1], match.log_json(1)[-1], match.log_json(None)[-1]
    assert mine["text"].startswith("White drew ") and mine["by"] == "chance"
    assert theirs["text"] == spectators["text"] == "White drew a card"
    drawn = match.view(0)["board"]["seats"][0]["territories"]
    assert mine["text"].removeprefix("White drew ") in [card_words(CARD_CODE.index(code)) for code in drawn]


def test_r9_5_the_game_declares_its_ending_codes() -> None:
    assert TerritoriesGame.result_codes == RESULT_CODES == ("points", "no_buildings", "move_limit")
    assert boardlab.load("territories").describe()["result_codes"] == list(RESULT_CODES)


def test_r9_5_reaching_the_target_ends_with_code_points() -> None:
    st = state(TerritoriesGame(target_points=3), res0=(1, 1, 1, 1), buildings={(1, 1): "0P", (2, 2): "0P"})
    st.play("P@3,3")
    assert (st.result().winner, st.result().code) == (0, "points")


def test_r9_5_the_no_building_clock_ends_with_code_no_buildings_win_or_draw() -> None:
    st = state(buildings={(2, 2): "1P"})
    play_all(st, "end r1+1 end r1+1 end")
    assert (st.result().winner, st.result().code) == (1, "no_buildings")
    both = state(TerritoriesGame(no_building_clock="game_turns"))
    play_all(both, "end r1+1 end")
    assert both.result().is_draw and both.result().code == "no_buildings"


def test_r9_5_the_turn_cap_ends_with_code_move_limit_on_points_or_equal() -> None:
    ahead = state(TerritoriesGame(max_turns=5), buildings={(1, 1): "0R", (2, 2): "1P"})
    ahead.play("end")
    assert (ahead.result().winner, ahead.result().code) == (0, "move_limit")
    equal = state(TerritoriesGame(max_turns=5), buildings={(1, 1): "0P", (2, 2): "1P"})
    equal.play("end")
    assert equal.result().is_draw and equal.result().code == "move_limit"


def test_r10_4_the_result_field_holds_the_code() -> None:
    st = state(TerritoriesGame(target_points=3), res0=(1, 1, 1, 1), buildings={(1, 1): "0P", (2, 2): "0P"})
    st.play("P@3,3")
    assert "result=0:points:White_reached_3_points" in st.position()
    again = TerritoriesGame(target_points=3).state_from_position(st.position())
    assert again.result() == st.result()
    with pytest.raises(PositionError, match=r"field result=.*unknown ending code 'castles'"):
        TerritoriesGame().state_from_position(position(result="0:castles:White_won"))
    with pytest.raises(PositionError, match=r"field result=.*SEAT:CODE:REASON"):
        TerritoriesGame().state_from_position(position(result="0:White_won"))


@pytest.mark.parametrize(("text", "structure"), [
    ("P@2,2", {"kind": "P", "building": "Town", "point": [2, 2]}),
    ("offer(S:CCD)", {"give": "S", "give_cards": [], "get": "CCD", "get_cards": []}),
    ("4H>T", {"give": "HHHH", "get": "T"}),
])
def test_r11_3_moves_as_json_name_points_cards_and_resources(text: str, structure: dict) -> None:
    st = state(res0=(4, 1, 1, 1), res1=(0, 0, 2, 1))
    if text.startswith("offer("):
        st.play("propose")
    move = st.parse_move(text)
    assert move.to_json() == {"type": move.json_type(), "notation": text, **structure}
    assert st.move_from_json(move.to_json()) == move


def test_r11_3_chance_and_ability_moves_as_json() -> None:
    st = state(buildings={(1, 1): "0R"}, res0=(1, 0, 0, 0), hand0="9S")
    play_all(st, "swap d1 pay(H)")
    assert st.parse_move("[0,0]<>9S").to_json() == {"type": "swap_card", "notation": "[0,0]<>9S", "cell": [0, 0],
                                                    "card": "9S"}
    roll = state(phase="roll").parse_move("r5+3")
    assert roll.to_json() == {"type": "roll", "notation": "r5+3", "dice": [5, 3], "sum": 8}


def test_r10_4_a_record_saves_and_replays_a_game_in_progress() -> None:
    st = state(res0=(5, 0, 0, 0), res1=(0, 1, 0, 0))
    play_all(st, "propose offer(H:S) acc 4H>T draw(QD)")
    record = Record.loads(Record.for_state(st).dumps())
    replayed = record.replay()
    assert replayed.position() == st.position() and "hand0=QD " in replayed.position()
    assert [str(m) for m in replayed.history] == ["propose", "offer(H:S)", "acc", "4H>T", "draw(QD)"]


def test_regression_a_copy_walked_back_leaves_the_originals_undo_intact() -> None:
    # copy() shares the undo stack; a copy undoing to the start and replaying (as a record of the
    # state does) once corrupted the snapshots the original later undid to (a card dealt twice).
    st = TerritoriesGame().new_state(seed=2)
    rng = random.Random(2)
    positions = [st.position()]
    for _ in range(80):
        st.play(st.sample_chance() if st.is_chance() else rng.choice(st.legal_moves()))
        positions.append(st.position())
    for _ in range(2):
        walker = st.copy()
        moves = list(walker.history)
        while walker.history:
            walker.undo()
        for move in moves:
            walker.apply(move)
        assert walker.position() == st.position()
    Record.for_state(st)
    while st.history:
        st.undo()
        assert st.position() == positions[st.ply]
