"""Game records: save, load, replay; every way a file can be broken gets a RecordError naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.core import RecordError
from boardlab.core.records import Record
from tests.support.play import played_record


@pytest.fixture
def record() -> Record:
    game = boardlab.load("dicenim", pile=12)
    return played_record(game, [make_agent("random", seed=1), make_agent("random", seed=2)], seed=7)


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_saved_record_loads_and_replays_to_the_same_end(record: Record, tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    record.save(target)
    loaded = Record.load(target)
    assert loaded.moves == record.moves
    assert loaded.times == pytest.approx(record.times, abs=1e-3)
    assert loaded.seats == record.seats
    final = loaded.replay()
    assert final.is_over() and final.result() == record.result
    assert loaded.movers == record.movers
    assert sum(1 for by in loaded.movers if by >= 0) == sum(1 for t in record.moves if t.startswith("take"))


def test_the_file_holds_format_game_options_seed_seats_timed_moves_and_result(record: Record) -> None:
    data = record.to_json()
    assert data["format"] == 2 and data["game"] == "dicenim" and data["options"] == {"pile": 12}
    assert data["seed"] == 7 and [s["agent"] for s in data["seats"]] == ["random", "random"]
    assert all(set(entry) == {"move", "by", "t"} for entry in data["moves"])
    assert [entry["by"] for entry in data["moves"][:2]] == ["chance", "chance"]  # the secrets are dealt
    assert {entry["by"] for entry in data["moves"] if entry["move"].startswith("take")} == {0, 1}
    times = [entry["t"] for entry in data["moves"]]
    assert times == sorted(times)
    assert data["result"]["returns"] in ([1.0, 0.0], [0.0, 1.0])
    assert data["result"]["code"] == "last_counter" and data["ending"] is None
    assert data["rules_version"] == "1" and data["final_position"] == record.replay().position()


def test_a_result_whose_returns_were_changed_is_refused(record: Record) -> None:
    data = record.to_json()
    returns = data["result"]["returns"]
    data["result"]["returns"] = [0.5, 0.5]  # the winners kept, the points shared as in a draw
    said = rf"the record says returns \[0.5, 0.5\], replaying gives \[{returns[0]}, {returns[1]}\]"
    with pytest.raises(RecordError, match=said):
        Record.from_json(data).replay()


def test_a_move_credited_to_the_wrong_seat_is_refused(record: Record) -> None:
    data = record.to_json()
    third = data["moves"][2]
    third["by"] = 1 - third["by"]
    with pytest.raises(RecordError, match=r"move 3 \('take\d'\) is marked as P\d's, but P\d was to decide") as caught:
        Record.from_json(data).replay()
    assert caught.value.move_number == 3
    data["moves"][2]["by"] = "someone"
    with pytest.raises(RecordError, match=r"'by' must be a seat 0..1"):
        Record.from_json(data)


def test_a_format_1_record_is_converted_on_reading(record: Record) -> None:
    data = record.to_json()
    old = {
        "format": 1, "game": data["game"], "players": 2, "options": data["options"], "seed": data["seed"],
        "start": None, "seats": data["seats"],
        "moves": [{"move": e["move"], "t": e["t"]} for e in data["moves"]],
        "result": {key: value for key, value in data["result"].items() if key != "code"},
        "meta": {"rules_version": "1", "final_position": data["final_position"], "saved_by": "0.1"},
    }
    converted = Record.loads(json.dumps(old))
    assert converted.movers == record.movers and converted.result == record.result
    assert converted.meta == {"saved_by": "0.1", "converted_from": 1}
    assert converted.final_position == data["final_position"] and converted.rules_version == "1"
    assert Record.from_json(converted.to_json()).replay().position() == data["final_position"]
    old["moves"][2]["move"] = "take9"
    with pytest.raises(RecordError, match=r"converting a format 1 record: move 3"):
        Record.loads(json.dumps(old))


def test_a_match_ending_is_kept_and_checked(record: Record) -> None:
    game = boardlab.load("dicenim", pile=12)
    match = boardlab.Match(game, seed=4)
    match.play(0, "take1")
    match.resign(1)
    data = match.record().to_json()
    assert data["ending"] == {"code": "resign", "seat": 1} and data["result"]["code"] == "resign"
    replayed = Record.from_json(data)
    assert not replayed.replay().is_over()  # the moves stop before the rules end the game
    assert replayed.result is not None and replayed.result.winners == (0,)
    data["result"]["winners"] = [1]
    with pytest.raises(RecordError, match="record says winners"):
        Record.from_json(data).replay()
    whole = record.to_json()
    whole["ending"] = {"code": "agreement", "seat": None}
    with pytest.raises(RecordError, match="already end the game"):
        Record.from_json(whole).replay()


def test_state_at_gives_each_moment(record: Record) -> None:
    assert record.state_at(0).ply == 0
    assert record.state_at(3).position() == next(s.position() for n, _, s in record.states() if n == 3)
    with pytest.raises(RecordError, match="does not exist"):
        record.state_at(len(record.moves) + 1)


def test_loading_reports_an_illegal_move_by_its_number(record: Record, tmp_path: Path) -> None:
    data = record.to_json()
    data["moves"][2]["move"] = "take9"
    path = write(tmp_path / "bad.json", data)
    with pytest.raises(RecordError, match=r"bad.json: move 3 \('take9'\)") as caught:
        Record.load(path)
    assert caught.value.move_number == 3
    structure_only = Record.load(path, validate=False)  # e.g. to repair it
    with pytest.raises(RecordError, match="move 3"):
        structure_only.replay()


def test_a_move_that_is_not_text_is_reported_by_its_number(record: Record, tmp_path: Path) -> None:
    data = record.to_json()
    data["moves"][4] = 17
    with pytest.raises(RecordError, match="move 5") as caught:
        Record.load(write(tmp_path / "bad.json", data))
    assert caught.value.move_number == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=3), "format 3 is not supported"),
        (lambda d: d.update(format=True), "format True is not supported"),
        # another file of boardlab's, a lab study's settings: named as no record, with where records are
        (lambda d: [d.clear(), d.update(study_id="f1de", settings={})],
         r"not a game record: it has no 'format' field \(it holds 'study_id', 'settings'\).*DIR/records/"),
        (lambda d: d.pop("seed"), "no 'seed' field"),
        (lambda d: d.update(seed="7"), "'seed' must be a whole number"),
        (lambda d: d.update(players=3), "3 seats|seats for 3 players"),
        (lambda d: d.update(options=[]), "'options' must be an object"),
        (lambda d: d.update(moves={}), "'moves' must be a list"),
        (lambda d: d["moves"][0].update(t=-1), "time -1"),
        (lambda d: d.update(seats=[{"agent": "random"}, {"name": "x"}]), "seat 1"),
        (lambda d: d.update(result={"winners": [0]}), "'result' is malformed"),
        (lambda d: d["result"].update(code="Not A Code"), "'result' is malformed"),
        (lambda d: d.update(ending={"code": "surrender", "seat": 0}), "'ending'"),
    ],
)
def test_broken_structure_names_the_field(record: Record, tmp_path: Path, change, message: str) -> None:
    data = record.to_json()
    change(data)
    with pytest.raises(RecordError, match=message):
        Record.load(write(tmp_path / "bad.json", data))


def test_a_record_of_an_unknown_game_or_bad_option_says_so(record: Record) -> None:
    data = record.to_json()
    data["game"] = "chess"
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        Record.from_json(data).replay()
    data = record.to_json()
    data["options"] = {"pile": 500}
    with pytest.raises(RecordError, match="pile"):
        Record.from_json(data).replay()


def test_a_result_that_replaying_contradicts_is_refused(record: Record) -> None:
    data = record.to_json()
    data["result"]["winners"] = [1 - data["result"]["winners"][0]]
    with pytest.raises(RecordError, match="record says winners"):
        Record.from_json(data).replay()
    data = record.to_json()
    data["result"] = None
    with pytest.raises(RecordError, match="no result"):
        Record.from_json(data).replay()


def test_a_final_position_that_replaying_contradicts_is_refused(record: Record) -> None:
    # Same moves, same winner, different end: e.g. the rules changed since the game was saved.
    data = record.to_json()
    assert data["final_position"] == record.replay().position()
    data["final_position"] = "7 0 0 2 2"
    with pytest.raises(RecordError, match="does not reach the recorded final position"):
        Record.from_json(data).replay()
    data["final_position"] = None
    assert Record.from_json(data).replay().is_over()  # a record without it still replays


def test_unreadable_files_say_why(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")
    (tmp_path / "cut.json").write_text('{"format": 1, "game": ', encoding="utf-8")
    with pytest.raises(RecordError, match=r"not valid JSON \(line 1, column 23: Expecting value\)"):
        Record.load(tmp_path / "cut.json")
    (tmp_path / "torn.json").write_text('{"format": 1,\n "game": "tow', encoding="utf-8")
    with pytest.raises(RecordError, match=r"not valid JSON \(line 2, column 10: Unterminated string"):
        Record.load(tmp_path / "torn.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="not a text file"):
        Record.load(tmp_path / "bin.json")
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(RecordError):
        Record.load(tmp_path / "deep.json")
    (tmp_path / "list.json").write_text("[]", encoding="utf-8")
    with pytest.raises(RecordError, match="must be a JSON object"):
        Record.load(tmp_path / "list.json")


def test_a_failed_save_keeps_the_old_file_and_leaves_no_temporary(record: Record, tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    record.save(target)
    before = target.read_bytes()
    record.meta["unsaveable"] = object()  # json cannot write it
    with pytest.raises(TypeError):
        record.save(target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    with pytest.raises(OSError):
        Record.for_state(record.replay()).save(tmp_path / "no" / "such" / "dir.json")
