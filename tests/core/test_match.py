"""The match driver: seats, chance, per-viewer logs, undo policies, resignation, draws, clocks, records.

Runs on the test game dicenim (chance and hidden secrets; tests/support/dicenim.py)
and on Towers (draws by agreement, no hidden information).
"""

from __future__ import annotations

import pytest

import boardlab
from boardlab import (
    CHANCE,
    GameOverError,
    IllegalMoveError,
    Match,
    NotYourTurnError,
    Record,
    RefusedError,
    StaleMoveError,
)
from boardlab.agents import make_agent, seat_agents


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def dicenim_match(specs=("human", "human"), seed: int = 3, **settings) -> Match:
    game = boardlab.load("dicenim", pile=12)
    return Match(game, seat_agents(game, list(specs), seed), seed=seed, **settings)


def test_chance_is_resolved_at_once_so_a_match_waits_for_a_seat() -> None:
    match = dicenim_match()
    assert match.to_move() == 0 and match.ply == 2  # both secrets dealt
    assert [entry.by for entry in match.log()] == [CHANCE, CHANCE]
    match.play(0, "take2")
    assert match.to_move() == 1 and match.ply == 4  # the die after the take was rolled too


def test_the_same_seed_gives_the_same_chance() -> None:
    first, second = dicenim_match(seed=9), dicenim_match(seed=9)
    for match in (first, second):
        match.play(0, "take1")
    assert first.record().moves == second.record().moves


def test_a_move_out_of_turn_or_for_an_old_ply_is_refused_and_changes_nothing() -> None:
    match = dicenim_match()
    before = match.record().moves
    with pytest.raises(NotYourTurnError, match="P1's decision, not P2's") as caught:
        match.play(1, "take1")
    assert caught.value.code == "not_your_turn"
    with pytest.raises(NotYourTurnError, match="not a seat"):
        match.play(7, "take1")
    with pytest.raises(StaleMoveError, match="made for move 1, but the game is at move 3") as stale:
        match.play(0, "take1", ply=0)
    assert stale.value.code == "stale_move" and "another move came first" in str(stale.value)
    with pytest.raises(StaleMoveError, match=r"made for move 8, but the game is at move 3 \(a move not yet reached\)"):
        match.play(0, "take1", ply=7)
    with pytest.raises(IllegalMoveError):
        match.play(0, "take9")
    assert match.record().moves == before
    match.play(0, "take1", ply=2)  # the ply the client saw: accepted


def test_two_moves_racing_for_one_ply_exactly_one_lands() -> None:
    match = dicenim_match()
    seen = match.ply
    match.play(0, "take1", ply=seen)
    with pytest.raises((StaleMoveError, NotYourTurnError)):
        match.play(0, "take2", ply=seen)
    assert [str(m) for m in match.record().moves].count("take2") == 0


def test_each_viewer_reads_the_log_as_it_may_know_it() -> None:
    match = dicenim_match(clock=FakeClock())
    deal_of_p2 = match.log()[1]
    assert deal_of_p2.text_for(1).startswith("secret1=")
    assert deal_of_p2.text_for(0) == deal_of_p2.text_for(None) == "P2 was dealt a secret"
    assert match.log_json(0)[1] == {
        "number": 2, "move_number": None, "by": "chance", "type": "secret", "text": "P2 was dealt a secret", "t": 0.0,
        "move": None,
    }
    # the move's structure goes only to whoever may read it whole: its owner, never the others
    own = match.log_json(1)[1]
    assert own["text"].startswith("secret1=") and own["move"] == deal_of_p2.move.to_json()
    assert own["move"]["notation"] == own["text"]
    assert match.log_json(None)[1]["move"] is None


def test_computer_players_are_handed_a_resampled_state() -> None:
    match = dicenim_match(("human", "random"))
    handed = match.agent_input(1)
    assert handed.seed != match.record().seed and handed.history == ()
    match.play(0, "take1")
    assert match.run_computers() == 1 and match.to_move() == 0


def test_an_agent_that_does_not_play_the_game_is_refused() -> None:
    with pytest.raises(boardlab.UnsupportedAgentError, match="plays only honor, not dicenim"):
        Match(boardlab.load("dicenim"), [None, make_agent("honor")])


def test_undo_against_the_computer_takes_back_its_reply_and_the_dice() -> None:
    match = dicenim_match(("human", "random"))
    match.play(0, "take1")
    match.run_computers()
    assert match.ply == 6
    taken = match.undo(0)
    assert next(str(m) for m in reversed(taken)) == "take1" and len(taken) == 4
    assert match.ply == 2 and match.to_move() == 0


def test_undo_of_another_persons_move_needs_the_same_screen_policy() -> None:
    online = dicenim_match()
    online.play(0, "take1")
    online.play(1, "take1")
    with pytest.raises(RefusedError, match="P2 has moved since your last move") as caught:
        online.undo(0)
    assert caught.value.code == "undo_refused"
    assert "computer" not in str(caught.value), "no computer plays here: none is named"
    online.undo(1)  # P2 takes back their own move
    assert online.to_move() == 1

    shared = dicenim_match(undo="same_screen")
    shared.play(0, "take1")
    shared.undo(1)  # at one screen, P2 may take back P1's move
    assert shared.to_move() == 0 and shared.ply == 2
    never = dicenim_match(undo="never")
    never.play(0, "take1")
    with pytest.raises(RefusedError, match="off"):
        never.undo(0)


def test_replaying_after_undo_gives_the_same_dice() -> None:
    match = dicenim_match()
    match.play(0, "take2")
    first = [str(m) for m in match.record().moves]
    match.undo(0)
    match.play(0, "take2")
    assert [str(m) for m in match.record().moves] == first


def test_a_resignation_ends_a_two_player_match_for_the_other() -> None:
    match = dicenim_match()
    match.resign(0)
    result = match.result()
    assert result is not None and result.winners == (1,) and result.code == "resign"
    assert match.is_over() and match.view(0)["over"] and match.view(0)["result"]["code"] == "resign"
    with pytest.raises(GameOverError):
        match.play(0, "take1")
    with pytest.raises(GameOverError):
        match.resign(1)


def test_a_resignation_in_a_four_player_game_leaves_the_others_sharing() -> None:
    game = boardlab.load("towers", players=4)
    match = Match(game, seed=1)
    match.resign(2)
    result = match.result()
    assert result is not None and result.winners == (0, 1, 3) and result.returns[2] == 0.0


def test_a_draw_needs_every_seat_and_a_game_that_allows_it() -> None:
    with pytest.raises(RefusedError, match="no draw by agreement") as caught:
        dicenim_match().offer_draw(0)
    assert caught.value.code == "no_draws"
    match = Match(boardlab.load("towers"), seed=1)
    assert not match.offer_draw(0)
    assert match.view(1)["match"]["draw_offer"] == [0]
    with pytest.raises(RefusedError, match="no draw offer"):
        Match(boardlab.load("towers"), seed=1).accept_draw(1)
    assert match.accept_draw(1)
    result = match.result()
    assert result is not None and result.code == "agreement" and result.is_draw


def test_moving_on_declines_a_draw_offer() -> None:
    match = Match(boardlab.load("towers"), seed=1)
    match.offer_draw(0)
    match.play(0, match.legal_moves(0)[0])
    match.play(1, match.legal_moves(1)[0])
    assert match.view(0)["match"]["draw_offer"] is None


def test_a_computer_accepts_a_draw_only_when_it_is_not_ahead() -> None:
    game = boardlab.load("towers")
    even = Match(game, [None, make_agent("greedy", seed=1)], seed=1)
    assert even.offer_draw(0)  # the start is even: a draw's share is all greedy expects


def test_the_clock_plays_the_default_move_or_the_seat_loses() -> None:
    clock = FakeClock()
    match = dicenim_match(move_seconds=30, clock=clock)
    assert match.seconds_left() == 30
    clock.now += 29
    assert not match.expire()
    clock.now += 2
    assert match.expire()  # dicenim has no default move: P1 loses on time
    result = match.result()
    assert result is not None and result.code == "timeout" and result.winners == (1,)


def expired_with_a_default_move() -> tuple[Match, FakeClock]:
    """A dicenim match whose rules name a default move (the first legal one), run past its 5 s
    limit on the first decision (not yet expired), and its fake clock."""

    class DefaultingState(type(boardlab.load("dicenim").new_state(1))):
        def default_move(self):
            return self.legal_moves()[0]

    game = boardlab.load("dicenim", pile=12)
    game._new_state = lambda seed: DefaultingState(game, seed, 12)  # type: ignore[method-assign]
    clock = FakeClock()
    match = Match(game, seed=2, move_seconds=5, clock=clock)
    clock.now += 6
    return match, clock


def test_a_timeout_plays_the_rules_default_move_where_there_is_one() -> None:
    match, _ = expired_with_a_default_move()
    assert match.expire()
    entry = next(e for e in match.log() if e.by == 0)
    assert entry.notation == "take1" and entry.note == "timeout"
    assert match.to_move() == 1 and not match.is_over()


def test_a_record_resumes_the_match_exactly() -> None:
    clock = FakeClock()
    match = dicenim_match(("human", "random"), clock=clock)
    clock.now += 5
    match.play(0, "take1")
    match.run_computers()
    saved = Record.loads(match.record().dumps())
    resumed = Match.from_record(saved, seat_agents(saved.game(), ["human", "random"], saved.seed), clock=clock)
    assert resumed.record().moves == match.record().moves
    assert [e.by for e in resumed.log()] == [e.by for e in match.log()]
    assert [e.t for e in resumed.log()] == [e.t for e in match.log()]
    assert resumed.to_move() == match.to_move() == 0
    resumed.undo(0)  # who made each move survived: the person's move can be taken back
    assert resumed.ply == 2


def test_a_resigned_record_resumes_as_over() -> None:
    match = dicenim_match()
    match.play(0, "take1")
    match.resign(1)
    resumed = Match.from_record(Record.loads(match.record().dumps()))
    assert resumed.is_over() and resumed.result() == match.result()


def test_play_out_needs_computers_in_every_seat_and_counts_decisions() -> None:
    with pytest.raises(RefusedError):
        dicenim_match(("human", "random")).play_out()
    match = dicenim_match(("random", "random"))
    result = match.play_out()
    assert result.code == "last_counter"
    assert match.decisions == sum(1 for entry in match.log() if entry.by >= 0)
    assert Record.loads(match.record().dumps()).replay().is_over()


def test_bad_settings_are_refused() -> None:
    game = boardlab.load("dicenim")
    with pytest.raises(RefusedError, match="needs 2 seats") as seats:
        Match(game, [None])
    assert seats.value.code == "bad_seats"
    # an undo policy is an option, refused as the server refuses it: bad_option, not bad_seats
    with pytest.raises(boardlab.OptionError, match="undo policy") as undo:
        Match(game, undo="sometimes")
    assert undo.value.code == "bad_option"
    with pytest.raises(RefusedError, match="positive number"):
        Match(game, move_seconds=float("nan"))


def test_a_resignation_the_rules_have_is_played_at_the_seats_next_decision() -> None:
    pytest.importorskip("pymunk")
    game = boardlab.load("honor", players=3)
    match = Match(game, seed=5)
    assert game.resigns_by_move and match.to_move() == 0
    match.resign(2)  # not Green's decision: queued
    assert not match.is_over() and match.view(0)["match"]["resigning"] == [2]
    match.play(0, "build SL1 0")
    match.play(1, "pass")  # the auction reaches Green, whose resignation is played now
    assert match.log()[-1].notation == "resign" and match.log()[-1].by == 2
    assert not match.is_over() and match.view(0)["match"]["resigning"] is None
    assert match.view(0)["board"]["standing"] == [True, True, False]


def test_a_preview_shows_the_seats_view_after_a_move_and_changes_nothing() -> None:
    match = dicenim_match()
    before = match.record().moves
    view = match.preview(0, "take3")
    assert view["board"]["pile"] == 9 and view["viewer"] == 0
    assert view["chance"]  # the die after the take is not rolled in a preview
    assert match.record().moves == before
    with pytest.raises(NotYourTurnError):
        match.preview(1, "take1")
    with pytest.raises(IllegalMoveError):
        match.preview(0, "take9")


def test_a_timeout_note_survives_the_record() -> None:
    match, clock = expired_with_a_default_move()
    match.expire()
    data = match.record().to_json()
    assert data["moves"][2]["note"] == "timeout" and "note" not in data["moves"][0]
    record = Record.from_json(data)
    assert record.notes[2] == "timeout"
    resumed = Match.from_record(record, clock=clock)
    assert resumed.log()[2].note == "timeout"


def test_pending_offers_and_resignations_are_restored_without_asking_again() -> None:
    match = Match(boardlab.load("towers"), [None, make_agent("random", seed=1)], seed=1)
    match.restore_pending(draw_offer=[0])
    assert match.draw_offer == frozenset({0}) and match.view(1)["match"]["draw_offer"] == [0]
    with pytest.raises(RefusedError):
        match.restore_pending(draw_offer=[5])


def test_the_clock_restarts_for_the_current_decision() -> None:
    clock = FakeClock()
    match = dicenim_match(move_seconds=30, clock=clock)
    clock.now += 25
    match.restart_clock()
    assert match.seconds_left() == 30


def test_extend_plays_moves_made_elsewhere_as_resuming_the_record_would() -> None:
    # a server process holding a room extends its match by the moves another process stored
    played = dicenim_match(seed=5)
    for take in ("take1", "take2", "take1"):
        played.play(played.to_move(), take)
    record = played.record()
    held = Match.from_record(Record(**{**record.__dict__, "turns": record.turns[:4]}))
    held.extend(record.turns[4:])
    assert held.record().to_json() == Match.from_record(record).record().to_json()
    # an ending stored with the moves ends the match there
    ending = boardlab.Ending("resign", 0)
    over = Match.from_record(Record(**{**record.__dict__, "turns": record.turns[:4]}))
    over.extend(record.turns[4:], ending)
    assert over.ending == ending and over.is_over()
    with pytest.raises(IllegalMoveError, match="the match is over"):
        over.extend([])
    # a move by a seat not to move is refused (the caller then resumes the whole record)
    wrong = Match.from_record(Record(**{**record.__dict__, "turns": record.turns[:4]}))
    bad = record.turns[4]
    with pytest.raises(IllegalMoveError, match="was not made by the seat to move"):
        wrong.extend([type(bad)(bad.number, 1 - bad.by, bad.t, None, bad.notation, bad.note)])
