"""P2's starting resources, the option ``second_player_resources`` (R3.4, R12): off, the ruled
game; on, P2 alone takes that many resources of its choice after setup, before the first roll."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

import boardlab
from boardlab.core import IllegalMoveError, OptionError, PositionError
from boardlab.games.territories import TerritoriesGame, TerritoriesState
from boardlab.games.territories.view import goods_words
from boardlab.testing import all_checks, budget_for
from tests.territories.helpers import position

SUITS = "HSCD"


def phase(state: TerritoriesState) -> str:
    return str(state.view(None)["board"]["phase"])


def after_setup_towns(game: TerritoriesGame, seed: int, first: int) -> TerritoriesState:
    """The state after the deal and the four setup Towns (R3), with seat ``first`` as P1; the
    Towns go on the first free intersection each time."""
    state = game.new_state(seed)
    assert isinstance(state, TerritoriesState)
    while phase(state) == "deal":
        state.play(state.sample_chance())
    state.play(f"P1=seat{first}")
    for _ in range(4):
        state.play(state.legal_moves()[0])
    return state


def holdings(state: TerritoriesState, seat: int) -> dict[str, int]:
    return dict(state.view(seat)["board"]["seats"][seat]["resources"])


def random_game_digest(seed: int, plies: int = 400, **options: Any) -> str:
    """A digest of every position of a random game: equal digests, the same game move by move."""
    state = boardlab.load("territories", **options).new_state(seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while not state.is_over() and state.ply < plies:
        digest.update(state.position().encode())
        state.play(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    digest.update(state.position().encode())
    return digest.hexdigest()[:16]


# --- off: the ruled game (R3.4: 0 skips the step) -------------------------------------------
def test_r3_4_off_is_the_ruled_game_position_by_position() -> None:
    # digests recorded with the code as it was before the option existed (same seeds, same moves)
    before_the_option = ["746a0f61a00e5744", "5b9636df0a09d887", "c9bef183b09c375e"]
    assert [random_game_digest(seed) for seed in (1, 2, 3)] == before_the_option
    assert [random_game_digest(seed, second_player_resources=0) for seed in (1, 2, 3)] == before_the_option


def test_r3_4_off_the_first_roll_follows_the_fourth_town() -> None:
    state = after_setup_towns(TerritoriesGame(), 4, first=0)
    assert phase(state) == "roll" and state.is_chance()
    assert state.view(None)["board"]["wildcards_owed"] == []
    assert TerritoriesGame().max_moves == TerritoriesGame(second_player_resources=0).max_moves


# --- on: exactly N of P2's choice, to P2 only ------------------------------------------------
@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("grant", [1, 2, 3])
def test_r3_4_p2_and_only_p2_chooses_n_resources_before_the_first_roll(grant: int, first: int) -> None:
    game = TerritoriesGame(second_player_resources=grant)
    state = after_setup_towns(game, 11, first)
    second = 1 - first  # with first=1, P2 is White (seat 0): the grant follows the turn order, not a colour
    assert state.current_player() == second and not state.is_chance()
    assert state.view(None)["board"]["phase"] == "wildcard"
    assert f"takes {grant} starting resource" in state.view(None)["board"]["decision"]
    moves = [str(move) for move in state.legal_moves()]
    multisets = {1: 4, 2: 10, 3: 20}[grant]  # every multiset of N kinds of four: the bank holds them all
    assert len(moves) == len(set(moves)) == multisets and all(m.startswith("wild(P2:") for m in moves)
    before = [holdings(state, seat) for seat in (0, 1)]
    bank_before = dict(state.view(None)["board"]["bank"])
    choice = "D" * grant  # the same kind N times is a choice too
    state.play(f"wild(P2:{choice})")
    assert holdings(state, second) == {**before[second], "D": before[second]["D"] + grant}
    assert holdings(state, first) == before[first]
    assert state.view(None)["board"]["bank"] == {**bank_before, "D": bank_before["D"] - grant}
    # setup is over: P1's first turn starts with its roll (R4.1)
    assert phase(state) == "roll" and state.is_chance()
    board = state.view(None)["board"]
    assert board["turn"] == 1 and board["active"] == first and board["wildcards_owed"] == []


@settings(max_examples=25, deadline=None)
@given(grant=st_.integers(1, 3), seed=st_.integers(0, 10_000), first=st_.integers(0, 1), pick=st_.integers(0, 10**6))
def test_r3_4_any_choice_moves_exactly_n_cards_from_the_bank_to_p2(grant: int, seed: int, first: int, pick: int) -> None:
    state = after_setup_towns(TerritoriesGame(second_player_resources=grant), seed, first)
    before = [sum(holdings(state, seat).values()) for seat in (0, 1)]
    moves = state.legal_moves()
    state.play(moves[pick % len(moves)])
    assert sum(holdings(state, 1 - first).values()) == before[1 - first] + grant
    assert sum(holdings(state, first).values()) == before[first]
    bank = state.view(None)["board"]["bank"]
    for suit in SUITS:  # R1.4: bank + both holdings = 13 of each suit
        assert bank[suit] + holdings(state, 0)[suit] + holdings(state, 1)[suit] == 13


def test_r3_4_nothing_else_is_played_before_the_grant() -> None:
    state = after_setup_towns(TerritoriesGame(second_player_resources=2), 5, first=0)
    with pytest.raises(IllegalMoveError, match=r"starting resources.*R3\.4"):
        state.play(str(state.legal_moves()[0]).replace("wild(P2:", "wild(P1:"))
    for text in ("wild(P2:H)", "wild(P2:HSC)"):
        with pytest.raises(IllegalMoveError, match=r"exactly 2 starting resources.*R3\.4"):
            state.play(text)
    with pytest.raises(IllegalMoveError, match=r"R3\.4"):
        state.play("P@0,0")
    with pytest.raises(IllegalMoveError):
        state.play("r3+4")  # no roll before P2 has chosen


def test_r13_4_a_timeout_takes_the_kinds_the_bank_holds_most() -> None:
    state = TerritoriesGame(second_player_resources=3).state_from_position(position(
        buildings={(0, 0): "0P", (5, 0): "1P", (1, 2): "1P", (5, 4): "0P"},
        res0=(0, 0, 1, 0), res1=(1, 3, 0, 0), phase="setup", turn="0", wild="1:3",
    ))
    # the bank holds H12 S10 C12 D13: D first (13), then H (12, ties go H first), then C (12, before D)
    assert str(state.default_move()) == "wild(P2:HCD)"


# --- hidden information (R11): public by kind, or only the count -----------------------------
def test_r11_the_grant_is_public_by_kind_and_its_move_reads_the_same_to_all() -> None:
    state = after_setup_towns(TerritoriesGame(second_player_resources=2), 8, first=0)
    move = state.legal_moves()[0]
    assert {state.move_text(move, viewer) for viewer in (0, 1, None)} == {
        f"takes {goods_words(move.amounts)} as wildcards"}
    state.play(move)
    assert state.view(0)["board"]["seats"][1]["resources"] == holdings(state, 1)


def test_r11_with_resources_hidden_p1_sees_only_the_count_of_the_grant() -> None:
    game = TerritoriesGame(second_player_resources=3, resources_public=False)
    state = after_setup_towns(game, 8, first=0)
    count_before = state.view(0)["board"]["seats"][1]["resource_count"]
    state.play("wild(P2:HHS)")
    seen_by_p1 = state.view(0)["board"]["seats"][1]
    assert seen_by_p1["resources"] is None and seen_by_p1["resource_count"] == count_before + 3
    own = state.view(1)["board"]["seats"][1]["resources"]
    assert own is not None and own["H"] >= 2 and own["S"] >= 1


# --- positions (R10.4) -------------------------------------------------------------------------
def grant_position(**fields: Any) -> str:
    values: dict[str, Any] = {
        "buildings": {(0, 0): "0P", (1, 0): "1P", (2, 0): "1P", (3, 0): "0P"},
        "res0": (0, 1, 1, 0), "res1": (0, 1, 1, 0), "phase": "setup", "turn": "0", "wild": "1:2",
    }
    values.update(fields)
    return position(**values)


def test_r10_4_a_position_awaiting_the_grant_round_trips() -> None:
    game = TerritoriesGame(second_player_resources=2)
    text = grant_position()
    state = game.state_from_position(text)
    assert state.position() == text and state.current_player() == 1
    state.play("wild(P2:HH)")
    assert "phase=roll" in state.position() and "wild=-" in state.position()


@pytest.mark.parametrize(("options", "fields", "field"), [
    ({}, {}, "step"),  # without the option there is no step 4 in setup
    ({"second_player_resources": 3}, {}, "wild"),  # 2 owed where the option grants 3
    ({"second_player_resources": 2}, {"wild": "0:2"}, "wild"),  # owed to P1
    ({"second_player_resources": 2}, {"wild": "-"}, "wild"),  # nothing owed at step 4
])
def test_r10_4_positions_with_a_wrong_grant_are_refused_naming_the_field(
    options: dict[str, Any], fields: dict[str, Any], field: str,
) -> None:
    with pytest.raises(PositionError, match=field):
        TerritoriesGame(**options).state_from_position(grant_position(**fields))


# --- the option itself (R12) ---------------------------------------------------------------------
@pytest.mark.parametrize("value", [-1, 4, "two", "1.5"])
def test_r12_bad_values_are_refused_naming_the_option_and_its_range(value: Any) -> None:
    with pytest.raises(OptionError, match=r"second_player_resources") as error:
        boardlab.load("territories", second_player_resources=value)
    assert any(bound in str(error.value) for bound in ("from 0 to 3", ">= 0", "<= 3"))


def test_r12_the_option_is_listed_with_its_default() -> None:
    options = {o["name"]: o for o in TerritoriesGame.describe()["options"]}
    assert options["second_player_resources"]["default"] == 0


@pytest.mark.parametrize("grant", [1, 3])
def test_conformance_checks_pass_with_the_option_on(grant: int) -> None:
    """The protocol's conformance checks (tests/conformance runs them on the default game only)."""
    game = boardlab.load("territories", second_player_resources=grant)
    budget = budget_for(game).scaled(1 / 3)
    for check in all_checks(fuzz=False):
        check(game, budget)
