"""Honor under the match protocol (docs/rules/honor.md): result codes (rule 8), the moves a
timeout makes (rule 7.14), Honor's own resignation (rule 7.13), resampling (rule 11.5),
records (rule 11.4), the view (rule 11.6), moves as JSON (rule 10.5) and the agent that
plays only Honor (rule 13)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core import IllegalMoveError, NotationError, Record, UnsupportedAgentError
from boardlab.games.honor.catalogue import ALL_PIECES
from boardlab.games.honor.moves import Accept, Build, Pass, PassOn, Push, Raise, Release, Resign, Tremor
from tests.honor.helpers import SCRIPT, exact_game, play, with_fields

RULES_DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "rules" / "honor.md"


class FakeClock:
    """A clock the test moves by hand (the match's ``clock``)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# --- rule 8: result codes ---------------------------------------------------------------
def test_r8_every_ending_has_a_declared_and_documented_code() -> None:
    game = exact_game(2)
    assert game.result_codes == ("last_standing", "last_to_fall", "all_placed")
    text = RULES_DOCUMENT.read_text(encoding="utf-8")
    for code in game.result_codes:
        assert f"`{code}`" in text, f"docs/rules/honor.md must document the code {code}"


def test_r8_1_a_resignation_leaving_one_player_is_last_standing() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "resign")
    result = state.result()
    assert result.winners == (0,) and result.code == "last_standing" and result.returns == (1.0, 0.0)


# --- rule 7.14: what a timeout plays -----------------------------------------------------
def test_r7_14_a_timed_out_turn_player_builds_the_first_piece_in_catalogue_order_at_bid_0() -> None:
    state = exact_game(2).new_state(seed=1)
    assert state.default_move() == Build("CU1", 0), "cubes head the catalogue (rule 2.1)"
    cubes = [["CU1", 0, 1, 0, 300_000, 15_000, 0], ["CU2", 0, 0, 1, 300_000, 45_000, 0],
             ["CU3", 0, 0, 2, 300_000, 75_000, 0], ["CU4", 0, 0, 3, 300_000, 105_000, 0]]
    state = with_fields(state, supply=[p for p in ALL_PIECES if not p.startswith("CU")], table=cubes,
                        placement_index=4)
    move = state.default_move()
    assert move == Build("BR1", 0), "without cubes, bricks come next in the catalogue, not AR1 by its id"
    state.check_move(move)


def test_r7_14_a_timed_out_bidder_passes_and_a_timed_out_holder_accepts() -> None:
    state = play(exact_game(3).new_state(seed=1), "build SL1 3")
    assert state.default_move() == Pass()
    play(state, state.default_move(), "pass")
    assert state.placing.placer == 0 and state.pools == (7, 10, 10), "the opener won at 3"
    state = play(exact_game(2).new_state(seed=1), "push LG1")
    assert state.default_move() == Accept(), "accepting is free; passing it on would cost a token"
    play(state, state.default_move())
    assert state.placing.placer == 1 and state.pools == (10, 10)


def test_r7_14_a_timed_out_placer_releases_at_rotation_0_over_the_middle() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass")
    foundation = state.default_move()
    assert foundation == Release(3000, 0, 5), "the middle of zone 0..60 at rotation 0"
    play(state, foundation)
    play(state, "build BR1 0", "pass", "rel 90", "build CU1 0", "pass")
    left, right = state.tower_extent(0)
    release = state.default_move()
    assert isinstance(release, Release) and release.thetaq == 0 and release.hq == 5
    assert abs(release.xq - (left + right) * 50) <= 1, "the middle of the tower's extent"
    play(state, release)
    assert state.standing == (True, True), "a cube dropped on the middle of the slab stays up"


def test_r7_14_chance_and_the_end_have_no_default_move() -> None:
    state = play(boardlab.load("honor").new_state(seed=1), "build SL1 0", "pass", "rel 30")
    assert state.is_chance() and state.default_move() is None
    over = play(exact_game(2).new_state(seed=1), "resign")
    assert over.is_over() and over.default_move() is None


def test_r7_14_a_match_clock_plays_the_default_moves_and_notes_the_timeout() -> None:
    clock = FakeClock()
    match = boardlab.Match(exact_game(2), seed=1, move_seconds=30, clock=clock)
    match.play(0, "build SL1 0")
    assert not match.expire(), "Blue still has time"
    clock.now += 31
    assert match.expire()
    assert match.log_json(None)[-1] == {
        "number": 2, "move_number": 2, "by": 1, "type": "pass", "text": "pass", "t": 31.0, "note": "timeout",
        "move": {"type": "pass", "notation": "pass"},
    }
    clock.now += 31
    assert match.expire()
    last = match.log_json(None)[-1]
    assert last["text"] == "release the slab, in the middle of its zone" and last["note"] == "timeout", (
        "the default release (10.2.1)")
    assert not match.is_over() and match.to_move() == 1, "the slab is Red's foundation; Blue's turn"


# --- rule 7.13: resigning --------------------------------------------------------------
def test_r7_13_resign_move_only_at_the_players_own_decision_and_with_the_option() -> None:
    state = exact_game(3).new_state(seed=1)
    assert state.resign_move(0) == Resign()
    assert state.resign_move(1) is None and state.resign_move(2) is None, "not their decision"
    off = exact_game(3, resign=False).new_state(seed=1)
    assert off.resign_move(0) is None
    with pytest.raises(IllegalMoveError, match=r"rule 7.13"):
        off.play("resign")
    chance = play(boardlab.load("honor", players=3).new_state(seed=1), "build SL1 0", "pass", "pass", "rel 30")
    assert chance.is_chance() and all(chance.resign_move(p) is None for p in range(3))


def test_r7_13_in_a_match_the_resigning_player_leaves_and_the_others_go_on() -> None:
    match = boardlab.Match(exact_game(3), seed=1)
    match.play(0, "build SL1 0")
    match.resign(1)  # Blue, deciding in the auction
    assert match.ending is None and not match.is_over()
    board = match.view(None)["board"]
    assert board["standing"] == [True, False, True] and board["pools"] == [10, 0, 10] and board["bank"] == 10
    assert "SL1" in board["supply"], "the interrupted auction's piece returns to the supply"
    assert match.to_move() == 0 and board["phase"] == "CHOOSE", "Red's turn placed nothing: Red chooses again"
    assert match.log_json(None)[-1]["text"] == "resign"


def test_r7_13_with_two_players_a_resignation_ends_by_the_rules_not_by_the_match() -> None:
    match = boardlab.Match(exact_game(2), seed=1)
    match.resign(0)
    assert match.is_over() and match.ending is None
    assert match.result().code == "last_standing" and match.result().winners == (1,)


# --- rule 11.5: resampling -----------------------------------------------------------
def test_r11_5_resample_draws_a_new_seed_keeps_the_commitment_and_drops_the_history() -> None:
    state = boardlab.load("honor", players=2).new_state(seed=2**200 + 5)
    play(state, *SCRIPT[:3])
    play(state, state.sample_chance())
    twin = state.resample(1, random.Random(3))
    assert twin.seed != state.seed and twin.seed.bit_length() > 64, "a fresh 256-bit seed"
    assert twin.seed_commit == state.seed_commit, "the commitment shown from the start stays"
    assert twin.history == () and twin.ply == state.ply == 4 and twin.start_position == state.position()
    with pytest.raises(IllegalMoveError):
        twin.undo()
    assert twin.view(1) == state.view(1) and twin.view(None) == state.view(None)
    play(twin, *SCRIPT[3:6])
    play(state, *SCRIPT[3:6])
    assert twin.is_chance() and state.is_chance()
    assert twin.sample_chance() != state.sample_chance(), "the twin's tremor comes from its own seed"


def test_r11_4_resolution_hashes_stay_on_their_moves_after_a_rebase() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30")
    rebased = state.copy()
    rebased.rebase()
    for each in (state, rebased):
        play(each, "build BR1 0", "pass", "rel 90")
    assert state.state_hash() == rebased.state_hash()
    assert rebased.history_notation() == state.history_notation()[3:]
    assert rebased.history_notation() == ["build BR1 0", "pass", f"rel 90.00 0.0 0.05 #{state.state_hash()[:16]}"]


# --- rule 11.6: the view -------------------------------------------------------------
def test_r11_6_the_board_part_leaves_seats_turn_and_result_to_the_envelope() -> None:
    state = exact_game(3).new_state(seed=1)
    view = state.view(2)
    board = view["board"]
    assert not {"game", "players", "names", "viewer", "to_move", "result"} & set(board)
    assert view["seat_names"] == ["Red", "Blue", "Green"] and view["to_move"] == 0
    assert board["phase"] == "CHOOSE" and board["zones"][2] == [120.0, 180.0]
    assert board == state.view(None)["board"] == state.view(0)["board"], "the seed is hidden from every seat alike"
    play(state, "build SL1 0", "resign")  # Blue resigns; Red and Green play on
    assert state.view(1)["result"] is None and state.view(1)["board"]["seed"] is None
    play(state, "resign")  # Red too: Green is the last tower standing
    end = state.view(1)
    assert end["over"] and end["result"]["code"] == "last_standing" and end["result"]["winners"] == [2]
    assert end["board"]["seed"] == f"{state.seed:064x}", "the seed is revealed at the end"


# --- rule 10.5: moves as JSON ------------------------------------------------------------
def test_r10_5_moves_as_json_in_the_games_own_terms() -> None:
    assert Build("SL1", 2).to_json() == {"type": "build", "notation": "build SL1 2", "piece": "SL1", "bid": 2}
    assert Push("LG1").to_json() == {"type": "push", "notation": "push LG1", "piece": "LG1"}
    assert Raise(3).to_json() == {"type": "raise", "notation": "raise 3", "bid": 3}
    assert Pass().to_json() == {"type": "pass", "notation": "pass"}
    assert Accept().to_json() == {"type": "accept", "notation": "acc"}
    assert PassOn().to_json() == {"type": "pass_on", "notation": "passon"}
    assert Release(3137, 900, 30, expect="0" * 16).to_json() == {
        "type": "release", "notation": "rel 31.37 90.0 0.30", "x": 31.37, "rotation": 90.0, "clearance": 0.3}
    assert Tremor(-7, 4).to_json() == {"type": "tremor", "notation": "tremor -0.07 0.4", "dx": -0.07, "rotation": 0.4}
    assert Resign("1" * 16).to_json() == {"type": "resign", "notation": "resign"}, "a recorded hash is no part of it"
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass")
    off_the_list = Release(3137, 0, 30)
    assert off_the_list not in state.legal_moves()
    assert state.move_from_json(json.loads(json.dumps(off_the_list.to_json()))) == off_the_list


def test_r10_2_numbers_too_large_for_any_table_are_refused_as_notation() -> None:
    """Regression: 'rel 1e9999999' raised decimal.Overflow (not a BoardlabError) and 'rel 1e99999'
    built a 100,000-digit integer before the range check."""
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass")
    for text in ("rel 1e9999999", "rel 1e99999", "rel 30 1e99999", "rel 30 0 -1e999999"):
        with pytest.raises(NotationError, match="out of range"):
            state.parse_move(text)
    chance = play(boardlab.load("honor").new_state(seed=1), "build SL1 0", "pass", "rel 30")
    with pytest.raises(NotationError, match="out of range"):
        chance.parse_move("tremor 1e9999999 0")


def test_r10_2_numbers_are_written_in_ascii_digits() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass")
    for text in ("rel \u0663\u0661.\u0665", "rel 1.5_0", "rel 30 \uff10", "rel 30 0 0.0_5"):
        with pytest.raises(NotationError, match="is not a number"):
            state.parse_move(text)
    assert str(state.parse_move("rel 31.5")) == "rel 31.50 0.0 0.05"


# --- rule 13: the agent ----------------------------------------------------------------
def test_r13_the_honor_agent_plays_only_honor() -> None:
    with pytest.raises(UnsupportedAgentError, match="honor"):
        make_agent("honor", game="towers")
    assert make_agent("honor", seed=1, game="honor").games == ("honor",)
    with pytest.raises(UnsupportedAgentError):
        boardlab.Match(boardlab.load("towers"), [make_agent("honor", seed=1), None])


def test_r13_a_match_hands_the_agent_a_resampled_state_and_plays_its_choice() -> None:
    match = boardlab.Match(exact_game(2), [None, make_agent("honor:level=easy", seed=1)], seed=1)
    match.play(0, "build SL1 0")
    assert match.run_computers() == 1
    assert match.log_json(None)[-1]["text"] == "raise the bid to 1 token", "Blue bids for a slab it lacks (rule 13)"
    record = match.record()
    assert record.movers == [0, 1] and record.seats[1].agent == "honor:level=easy"
    assert Record.loads(record.dumps()).replay().position() == record.final_position


def test_r4_1_r7_1_r7_3_a_move_out_of_its_phase_is_refused_naming_the_phase_in_words() -> None:
    # a player reads "choosing a piece", not the position's CHOOSE
    state = boardlab.load("honor").new_state(seed=1)
    with pytest.raises(IllegalMoveError) as placing:
        state.play("rel 30.00 0.0 0.05")
    assert "rule 4.1: nothing to place now: it is choosing a piece" in str(placing.value)
    with pytest.raises(IllegalMoveError) as raising:
        state.play("raise 2")
    assert "rule 7.3: there is no auction now: it is choosing a piece" in str(raising.value)
    state.play("build SL1 0")
    with pytest.raises(IllegalMoveError) as choosing:
        state.play("build CU1 0")
    assert "rule 7.1: pieces are chosen only at the start of a choice, and now it is the auction" in str(choosing.value)
    assert "CHOOSE" not in str(placing.value) + str(raising.value) and "AUCTION" not in str(choosing.value)
    # a bare number is a release only while a piece is to be placed (10.2); the refusal says so in words
    with pytest.raises(NotationError) as number:
        state.play("30")
    assert "nothing is to be placed now: it is the auction" in str(number.value) and "AUCTION" not in str(number.value)


def test_r4_5_a_tremor_typed_by_a_player_is_refused_as_the_games_draw_not_theirs() -> None:
    state = boardlab.load("honor").new_state(seed=1)
    with pytest.raises(IllegalMoveError) as tremor:
        state.play("tremor 0 0")
    assert "rule 4.5: a tremor is the hand's shake, which the game draws" in str(tremor.value)
