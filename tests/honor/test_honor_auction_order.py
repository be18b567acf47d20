"""The balance option ``auction_order`` (docs/rules/honor.md 7.3, 9, 11.1, 11.2): under
``lowest_pool_first`` an auction asks the smallest pool first, equal pools in the clockwise
order from the player after the turn player; the ruled game (``clockwise``) is unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.agents import make_agent
from boardlab.core import OptionError, PositionError, Record
from tests.honor.helpers import exact_game, play, with_fields


def auction_start(players: int, order: str, pools: list[int], turn_player: int = 0) -> Any:
    """A game at its first choice with the given pools (the rest of the tokens in the bank)."""
    state = exact_game(players, auction_order=order).new_state(seed=1)
    return with_fields(state, pools=pools, bank=10 * players - sum(pools), turn_player=turn_player)


def bidders(state: Any, *moves: str) -> list[int]:
    """The player to act after each move (the auction's successive bidders)."""
    seen = []
    for text in moves:
        state.play(text)
        seen.append(state.current_player())
    return seen


@pytest.mark.parametrize(("order", "first"), [("clockwise", 1), ("lowest_pool_first", 2)])
def test_r7_3_three_players_the_smallest_pool_bids_first(order: str, first: int) -> None:
    state = play(auction_start(3, order, [10, 8, 5]), "build SL1 0")
    assert state.phase == "AUCTION" and state.current_player() == first
    assert state.view(None)["board"]["auction"]["order"] == ([1, 2, 0] if order == "clockwise" else [2, 1, 0])
    expected = "Blue, Green, Red" if order == "clockwise" else "Green, Blue, Red"
    assert f"(bidding order: {expected})" in state.render(), "the text board says who bids in turn"


def test_r7_3_the_auction_goes_round_and_round_in_pool_order_the_opener_included() -> None:
    """Pools Red 4, Blue 10, Green 7, Red's turn: clockwise asks Blue, then Green, then Red;
    lowest_pool_first asks in pool order Red (the opener, skipped while high bidder), Green,
    Blue, and after Green's raise it asks Blue before Red, unlike clockwise."""
    clockwise = auction_start(3, "clockwise", [4, 10, 7])
    assert bidders(clockwise, "build SL1 0", "raise 1", "raise 2") == [1, 2, 0]
    lowest = auction_start(3, "lowest_pool_first", [4, 10, 7])
    assert bidders(lowest, "build SL1 0", "raise 1", "raise 2") == [2, 1, 0]
    assert lowest.auction.high == 2 and lowest.auction.bidder == 1


def test_r7_3_four_players_equal_pools_are_taken_clockwise_from_the_player_after_the_turn_player() -> None:
    """Blue's turn; Red and Green both hold 6 tokens. Clockwise from the player after Blue,
    Green comes before Red, so Green bids first (a tie broken by seat number would ask Red)."""
    state = play(auction_start(4, "lowest_pool_first", [6, 10, 6, 8], turn_player=1), "build SL1 0")
    assert state.view(None)["board"]["auction"]["order"] == [2, 0, 3, 1]
    assert bidders(state, "pass", "pass", "pass") == [0, 3, 1]
    assert state.phase == "PLACE" and state.placing.placer == 1, "everyone passed: the opener wins at 0"
    clockwise = play(auction_start(4, "clockwise", [6, 10, 6, 8], turn_player=1), "build SL1 0")
    assert clockwise.current_player() == 2
    assert bidders(clockwise, "pass") == [3], "clockwise asks Gold after Green, not Red"


def test_r7_3_equal_pools_everywhere_give_the_clockwise_order() -> None:
    for turn_player in range(4):
        lowest = play(auction_start(4, "lowest_pool_first", [7, 7, 7, 7], turn_player), "build CU1 0")
        clockwise = play(auction_start(4, "clockwise", [7, 7, 7, 7], turn_player), "build CU1 0")
        assert lowest.bidding_order() == clockwise.bidding_order()
        assert lowest.bidding_order() == tuple((turn_player + k) % 4 for k in range(1, 5))


def test_r7_4_a_pool_not_above_the_high_bid_passes_automatically_in_either_order() -> None:
    """Pools Red 10, Blue 9, Green 2, Gold 3; Red opens at 3: Green and Gold cannot raise, so
    Blue bids first whatever the order. lowest_pool_first asks Green and Gold before Blue,
    so they have passed (without a move) when Blue acts; clockwise reaches them after Blue."""
    for order, passed_before_blue in (("clockwise", ()), ("lowest_pool_first", (2, 3))):
        state = play(auction_start(4, order, [10, 9, 2, 3]), "build SL1 3")
        assert state.current_player() == 1 and state.auction.passed == passed_before_blue
        play(state, "pass")
        assert state.phase == "PLACE" and state.placing.placer == 0 and state.pools[0] == 7


def test_r7_3_with_two_players_the_option_changes_nothing() -> None:
    """With two players the only other bidder is asked first in either order."""
    for pools in ([3, 10], [10, 3]):
        moves = ("build SL1 0", "raise 1", "raise 2", "pass")
        orders = [bidders(auction_start(2, order, pools), *moves) for order in ("clockwise", "lowest_pool_first")]
        assert orders[0] == orders[1]


def test_r9_bad_values_are_refused_with_the_allowed_ones() -> None:
    for bad in ("counterclockwise", "", "Lowest_Pool_First"):
        with pytest.raises(OptionError, match=r"auction_order.*clockwise \| lowest_pool_first"):
            boardlab.load("honor", players=3, auction_order=bad)


def test_r11_1_the_option_is_part_of_the_ruleset_and_the_ruled_game_is_unchanged() -> None:
    ruled = exact_game(3).new_state(seed=1)
    explicit = exact_game(3, auction_order="clockwise").new_state(seed=1)
    varied = exact_game(3, auction_order="lowest_pool_first").new_state(seed=1)
    assert ruled.position() == explicit.position() and "order" not in json.loads(ruled.position())["ruleset"]
    assert json.loads(varied.position())["ruleset"].endswith(";order=lowest_pool_first")
    with pytest.raises(PositionError, match="ruleset"):
        varied.game.state_from_position(ruled.position(), seed=1)


def test_r11_4_a_ruled_record_replays_to_the_same_hashes_with_the_option_named() -> None:
    """The option absent is the ruled game: a three-player record made without it replays
    move for move, to the same hashes, in a game that names ``auction_order=clockwise``."""
    game = boardlab.load("honor", players=3, resign=False)
    match = boardlab.Match(game, [make_agent("random", seed=s) for s in (1, 2, 3)], seed=5)
    match.play_out()
    record = match.record()
    assert any(move.startswith("raise") for move in record.moves), "the game has a contested auction"
    named = boardlab.load("honor", players=3, resign=False, auction_order="clockwise").new_state(record.seed)
    for text in record.moves:
        named.play(text)  # every resolving move checks its recorded hash (rule 11.4)
    assert named.state_hash() == Record.loads(record.dumps()).replay().state_hash()


def test_r11_4_a_record_under_the_option_round_trips() -> None:
    game = boardlab.load("honor", players=3, resign=False, auction_order="lowest_pool_first")
    match = boardlab.Match(game, [make_agent("random", seed=s) for s in (4, 5, 6)], seed=7)
    match.play_out()
    text = match.record().dumps()
    record = Record.loads(text)
    assert record.dumps() == text and record.options["auction_order"] == "lowest_pool_first"
    replayed = record.replay()
    assert replayed.game.rules.auction_order == "lowest_pool_first"
    direct = game.new_state(record.seed)
    for move in record.moves:
        direct.play(move)
    assert replayed.position() == direct.position() and replayed.is_over()


def auction_record(pools: list[int], to_act: int, passed: list[int], order: str) -> tuple[str, Any]:
    """Red has opened the slab's auction at 0; the position names who is to act."""
    state = play(auction_start(3, order, pools), "build SL1 0")
    record = json.loads(state.position())
    record["auction"] = ["SL1", 0, 0, passed, to_act]
    return json.dumps(record, sort_keys=True, separators=(",", ":")), state.game


@pytest.mark.parametrize("order", ["clockwise", "lowest_pool_first"])
def test_r11_2_an_auction_must_have_asked_the_players_before_the_one_to_act(order: str) -> None:
    """Pools Red 10, Blue 8, Green 5 and Red's opening bid: clockwise asks Blue first, so
    Green to act with nobody passed is refused; lowest_pool_first asks Green first, so Blue
    to act is the one refused. Once the skipped player has passed, either loads."""
    first, second = (1, 2) if order == "clockwise" else (2, 1)
    text, game = auction_record([10, 8, 5], first, [], order)
    assert game.state_from_position(text, seed=1).current_player() == first
    text, game = auction_record([10, 8, 5], second, [], order)
    with pytest.raises(PositionError, match=f"player {first} is asked before player {second}.*auction_order={order}"):
        game.state_from_position(text, seed=1)
    text, game = auction_record([10, 8, 5], second, [first], order)
    assert game.state_from_position(text, seed=1).current_player() == second


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), data=st.data())
def test_r7_3_auction_invariants_under_either_order(players: int, data: st.DataObject) -> None:
    """Whatever the pools and the bids: the order lists every player once, pools never
    decreasing under lowest_pool_first; the one to act is the first in that order after the
    high bidder who has not passed; and every position of the auction reloads (rule 11.2)."""
    order = data.draw(st.sampled_from(["clockwise", "lowest_pool_first"]))
    pools = data.draw(st.lists(st.integers(1, 10), min_size=players, max_size=players))
    turn_player = data.draw(st.integers(0, players - 1))
    state = play(auction_start(players, order, pools, turn_player), f"build SL1 {data.draw(st.integers(0, 1))}")
    sequence = state.bidding_order()
    assert sorted(sequence) == list(range(players))
    if order == "lowest_pool_first":
        assert [pools[seat] for seat in sequence] == sorted(pools)
    while state.phase == "AUCTION":
        auction = state.auction
        at = sequence.index(auction.bidder)
        after = [sequence[(at + k) % players] for k in range(1, players)]
        assert state.current_player() == next(seat for seat in after if seat not in auction.passed)
        assert state.game.state_from_position(state.position(), seed=1).position() == state.position()
        state.play(data.draw(st.sampled_from([str(move) for move in state.legal_moves() if str(move) != "resign"])))
    assert state.phase == "PLACE"
