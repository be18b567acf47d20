"""Hidden information (R11), resampling, and invariants over random play (R1)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from boardlab.core import IllegalMoveError
from boardlab.games.territories import TerritoriesGame
from boardlab.games.territories.cards import CARD_CODE, KIND_CHARS, START_SUPPLY
from tests.territories.helpers import play_all, state


def view_text(st, viewer) -> str:
    return json.dumps(st.view(viewer))


def test_r11_a_view_never_shows_the_opponents_hidden_cards() -> None:
    st = state(hand0="9S,QD", hand1="TS,JD*")
    assert st.secrets(0) >= {"TS"} and "JD" not in st.secrets(0)
    white = st.view(0)["board"]
    assert white["seats"][0]["territories"] == ["9S", "QD"]
    assert white["seats"][1]["territories"] == ["JD"]  # the known one only
    assert white["seats"][1]["territory_count"] == 2
    assert '"TS"' not in view_text(st, 0)
    for code in ("9S", "QD", "TS"):
        assert f'"{code}"' not in view_text(st, None)


def test_r11_two_states_differing_only_in_a_hidden_hand_look_alike_to_the_opponent() -> None:
    one = state(hand1="TS,QD")
    other = state(hand1="2C,5S")
    assert one.view(0) == other.view(0)
    assert one.view(1) != other.view(1)


def test_r11_resources_by_kind_can_be_hidden_from_views() -> None:
    st = state(TerritoriesGame(resources_public=False), res0=(2, 0, 1, 0), res1=(0, 3, 0, 0))
    players = st.view(0)["board"]["seats"]
    assert players[0]["resources"] == {"H": 2, "S": 0, "C": 1, "D": 0}
    assert players[1]["resources"] is None and players[1]["resource_count"] == 3


def test_r1_4_draws_are_uniform_over_the_unseen_cards_only() -> None:
    st = state(res0=(4, 0, 0, 0), hand0="9S", hand1="TS", discard="2C")
    st.play("4H>T")
    outcomes = st.chance_outcomes()
    drawn = {str(m)[5:7] for m, _ in outcomes}
    assert len(outcomes) == 40 - 20 - 3 and not drawn & {"9S", "TS", "2C"}
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12


def test_r11_resample_keeps_the_view_and_redraws_only_unknown_cards() -> None:
    st = state(hand0="9S", hand1="TS,JD*,QD")
    rng = random.Random(5)
    seen_hands = set()
    for _ in range(40):
        sampled = st.resample(0, rng)
        assert sampled.view(0) == st.view(0)
        assert sampled.ply == st.ply
        black = sampled.view(1)["board"]["seats"][1]["territories"]
        assert "JD" in black and "9S" not in black and len(black) == 3
        assert not set(black) & {code for _, _, code in st.view(None)["board"]["grid"]}
        seen_hands.add(tuple(black))
    assert len(seen_hands) > 20  # really re-drawn, not copied


def test_r11_2_resample_keeps_no_history_of_the_real_draws() -> None:
    game = TerritoriesGame()
    st = game.new_state(seed=4)
    rng = random.Random(4)
    while st.view(None)["board"]["seats"][1]["territory_count"] == 0 or st.current_player() != 0:
        st.play(st.sample_chance() if st.is_chance() else rng.choice(st.legal_moves()))
    hidden = st.secrets(0) & {CARD_CODE[c] for c in range(40)}
    real_hand = [CARD_CODE[c] for c in st.hands[1]]
    assert hidden and any(str(m).startswith("draw(") for m in st.history)
    hands = set()
    for _ in range(20):
        sampled = st.resample(0, rng)
        assert sampled.history == () and sampled.ply == st.ply  # rebased: no past, the count goes on
        assert sampled.start_position == sampled.position() != st.position() or sampled.hands == st.hands
        with pytest.raises(IllegalMoveError, match="nothing to undo"):
            sampled.undo()
        assert sampled.view(0) == st.view(0) and sampled.view(None) == st.view(None)
        hands.add(tuple(CARD_CODE[c] for c in sampled.hands[1]))
        sampled.play(sampled.legal_moves()[0])  # a resampled state plays on and undoes its own moves
        sampled.undo()
    assert len(hands) > 1 and hands != {tuple(real_hand)}


def _invariants(st) -> None:
    view = st.view(None)["board"]
    for suit in "HSCD":
        held = sum(p["resources"][suit] for p in view["seats"])
        assert view["bank"][suit] + held == 13
    cards = (
        len(view["grid"]) + view["pile_size"] + len(view["discard"])
        + sum(p["territory_count"] for p in view["seats"])
    )
    assert cards == 40
    for seat, player in enumerate(view["seats"]):
        built = [b[3] for b in view["buildings"] if b[2] == seat]
        for index, kind in enumerate(KIND_CHARS):
            assert player["supply"][kind] + built.count(kind) == START_SUPPLY[index]


@settings(max_examples=12, deadline=None)
@given(seed=st_.integers(0, 2**32), agent_seed=st_.integers(0, 1000),
       options=st_.sampled_from([{}, {"ability_limit": "unlimited", "lose_all": "resources_and_territories"},
                                 {"swap_removed_card_to": "pile_bottom", "territory_discard_to": "pile_bottom"},
                                 {"reshuffle_discards": True, "swap_removed_card_to": "discard_pile"}]))
def test_r1_resources_cards_and_pieces_are_conserved_in_random_play(seed: int, agent_seed: int, options) -> None:
    game = TerritoriesGame(max_turns=60, **options)
    st = game.new_state(seed)
    rng = random.Random(agent_seed)
    while not st.is_over():
        st.apply(st.sample_chance() if st.is_chance() else rng.choice(st.legal_moves()))
        if st.ply % 7 == 0:
            _invariants(st)
    _invariants(st)


def test_a_seed_reproduces_a_game() -> None:
    def run(seed: int) -> list[str]:
        st = TerritoriesGame(max_turns=30).new_state(seed)
        rng = random.Random(1)
        while not st.is_over():
            st.apply(st.sample_chance() if st.is_chance() else rng.choice(st.legal_moves()))
        return [str(m) for m in st.history]

    assert run(8) == run(8) and run(8) != run(9)


def test_r11_after_a_reshuffle_resample_keeps_the_older_hidden_cards() -> None:
    # Option reshuffle_discards (R1.5): the pile is empty, White holds 9H 9S unseen by Black,
    # and the public discard pile QD 2C TC becomes the new pile when Black buys a card. Black
    # then knows White's two cards exactly (no other card is unaccounted for): they predate the
    # reshuffle, so a resample may re-deal only what White draws from the reshuffled pile.
    rest = "JC,QH,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,TS,JD"  # 15 cards for Black
    st = state(TerritoriesGame(reshuffle_discards=True), res0=(0, 4, 0, 0), res1=(4, 0, 0, 0),
               hand0="9H,9S", hand1=rest, discard="QD,2C,TC", active="1")
    play_all(st, "4H>T draw(2C)")  # Black draws from the reshuffled pile: QD, TC are left in it
    rng = random.Random(3)
    for _ in range(20):
        sampled = st.resample(1, rng)
        assert sampled.view(1) == st.view(1)
        assert [CARD_CODE[c] for c in sampled.hands[0]] == ["9H", "9S"]
    play_all(st, "end r1+1 4S>T draw(QD)")  # White draws one of QD, TC
    sampled_hands = set()
    for _ in range(30):
        sampled = st.resample(1, rng)
        assert sampled.view(1) == st.view(1)
        sampled_hands.add(tuple(sorted(CARD_CODE[c] for c in sampled.hands[0])))
    assert sampled_hands == {("9H", "9S", "QD"), ("9H", "9S", "TC")}
    text = st.position()  # the reshuffled set is part of the state (R10.4)
    assert "reshuffled=2C,TC,QD" in text
    assert TerritoriesGame(reshuffle_discards=True).state_from_position(text).position() == text


def test_r11_2_after_a_reshuffle_in_play_resample_redeals_only_the_reshuffled_cards() -> None:
    # Black discards TC on a 7 (public); the empty pile then takes QD 2C TC back (R1.5) when the
    # 7's draw is due. White's later draw is one of QD and TC for Black; 9H 9S predate the reshuffle.
    rest = "JC,QH,2D,3H,3D,4H,4S,5C,5S,6C,6D,8C,8D,TS,JD,TC"
    game = TerritoriesGame(reshuffle_discards=True, hand_limit=20)
    st = state(game, res0=(0, 4, 0, 0), res1=(4, 1, 0, 0), hand0="9H,9S", hand1=rest,
               discard="QD,2C", active="1", phase="roll")
    play_all(st, "r3+4 disc(P2:TC) draw(2C) end r1+1 4S>T draw(QD)")
    assert st.reshuffled and "reshuffled=2C,TC,QD" in st.position()
    rng = random.Random(7)
    seen = set()
    for _ in range(30):
        sampled = st.resample(1, rng)
        assert sampled.view(1) == st.view(1) and sampled.history == ()
        assert sampled.reshuffled == st.reshuffled
        seen.add(tuple(CARD_CODE[c] for c in sampled.hands[0]))
    assert seen == {("9H", "9S", "QD"), ("9H", "9S", "TC")}
