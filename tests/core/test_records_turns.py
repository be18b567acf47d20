"""A record is a header plus the played turns: the match's own turns,
written in record format 2, and a file saved in that format before turns existed loads,
resumes and saves again unchanged."""

from __future__ import annotations

import json

import boardlab
from boardlab import Match, Record
from boardlab.core.turns import Turn
from boardlab.core.values import CHANCE

#: a Towers game saved by ``boardlab play`` before records held turns (format 2, compact)
SAVED_BEFORE_TURNS = """{"format": 2, "game": "towers", "players": 2,
 "options": {"layout": "diagram", "random_first": false, "no_progress_limit": 0, "ply_cap": 0},
 "rules_version": "1", "seed": 5, "start": null,
 "seats": [{"name": "Ann", "agent": "human"}, {"name": "Bo", "agent": "human"}],
 "moves": [{"move": "f1+", "by": 0, "t": 1.25}, {"move": "b1+", "by": 1, "t": 2.5, "note": "thought long"},
           {"move": "f1+", "by": 0, "t": 3.75}],
 "ending": {"code": "timeout", "seat": 1},
 "result": {"winners": [0], "returns": [1.0, 0.0], "code": "timeout", "reason": "Black ran out of time"},
 "final_position":
   "-,WW,-,-,-,BB,-/WW,-,-,C,-,-,BB/-,-,-,-,-,-,-/-,C,-,C,-,C,-/-,-,-,-,-,-,-/BB,-,-,C,-,-,WW/-,BBB,-,-,-,WWWW,- B",
 "meta": {"saved_by": "boardlab play", "saved_at": "2026-11-26T20:00:00+00:00"}}"""


def test_a_record_saved_before_turns_loads_as_turns_and_saves_unchanged() -> None:
    record = Record.loads(SAVED_BEFORE_TURNS)
    assert [(turn.number, turn.by, turn.t, turn.notation, turn.note) for turn in record.turns] == [
        (1, 0, 1.25, "f1+", ""), (2, 1, 2.5, "b1+", "thought long"), (3, 0, 3.75, "f1+", ""),
    ]
    assert record.moves == ["f1+", "b1+", "f1+"] and record.movers == [0, 1, 0] and record.notes[1] == "thought long"
    assert record.to_json() == json.loads(SAVED_BEFORE_TURNS)
    assert "converted_from" not in record.meta  # the same format: nothing to convert
    resumed = Match.from_record(record)
    assert [turn.notation for turn in resumed.log()] == record.moves and resumed.log()[1].note == "thought long"
    assert resumed.result() is not None and resumed.result().code == "timeout"  # type: ignore[union-attr]


def test_a_matchs_record_holds_the_matchs_own_turns() -> None:
    game = boardlab.load("towers")
    match = Match(game, [None, None], seed=2)
    for _ in range(4):
        seat = match.to_move()
        match.play(seat, match.legal_moves(seat)[0])
    record = match.record()
    assert all(mine is theirs for mine, theirs in zip(record.turns, match.log()))
    assert Record.loads(record.dumps()).moves == record.moves


def test_a_bare_states_record_works_out_who_moved() -> None:
    game = boardlab.load("territories")
    state = game.new_state(4)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance())
    record = Record.for_state(state)
    assert all(isinstance(turn, Turn) and turn.by == CHANCE and turn.t == 0.0 for turn in record.turns)
    assert record.moves == state.history_notation()


def test_what_a_store_appends_carries_the_records_notation_where_a_game_annotates_it() -> None:
    """Honor writes the state hash after each resolving move (rules 10.3, 11.4): storage must
    keep it, though the log shows players the plain move."""
    game = boardlab.load("honor", players=2, tremor=False)
    match = Match(game, [None, None], seed=1)
    kept, turns = match.unstored()
    assert kept == 0 and turns == match.log()
    match.mark_stored()
    for _ in range(60):  # until a move resolves the physics
        seat = match.to_move()
        match.play(seat, match.legal_moves(seat)[0])
        if "#" in match.record().moves[-1]:
            break
    kept, turns = match.unstored()
    recorded = match.record().moves
    assert [turn.notation for turn in turns] == recorded[kept:] and "#" in turns[-1].notation
    assert "#" not in match.log()[-1].notation  # what players read
    match.mark_stored()
    assert match.unstored() == (len(recorded), [])


def test_a_move_in_words_is_whole_to_everybody_and_a_draw_only_to_the_drawer() -> None:
    """A log entry carries the move's structure to each viewer who may read it whole: a move
    that reads the same to all, in words or not, to everybody; a hidden draw to the drawer only."""
    match = Match(boardlab.load("territories"), seed=5)  # the deal is played at once: chance in words
    deal = next(turn for turn in match.log() if turn.kind == "deal")
    assert deal.text_for(None) != deal.notation
    assert all(deal.to_json(viewer)["move"]["notation"] == deal.notation for viewer in (None, 0, 1))
    drawn = Turn(9, CHANCE, 0.0, ("White drew a card", "White drew Q♦", "White drew a card"), "draw(QD)", kind="draw",
                 move=deal.move)
    assert [drawn.readable_by(viewer) for viewer in (None, 0, 1)] == [False, True, False]
