"""Notation, positions, hashes, tremor, views and reproducibility (docs/rules/honor.md, sections 4.5, 10, 11)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import boardlab
from boardlab.core import NotationError, PositionError, Record, RecordError
from boardlab.games.honor.moves import Release, Tremor
from boardlab.games.honor.tremor import TREMOR_GRID, seeded_tremor
from tests.honor.helpers import SCRIPT, exact_game, play, scripted_hash

REPOSITORY = Path(__file__).resolve().parents[2]


def test_r10_1_short_forms_parse_to_canonical_moves() -> None:
    state = exact_game(2).new_state(seed=1)
    assert str(state.parse_move("build sl1")) == "build SL1 0"
    play(state, "build SL1 0", "pass")
    move = state.parse_move("rel 31.5")
    assert move == Release(3150, 0, 5) and str(move) == "rel 31.50 0.0 0.05"
    assert str(state.parse_move("release 31.5 -90 0.1")) == "rel 31.50 270.0 0.10"
    for bad in ("rel", "rel abc", "build XX1", "raise two", "rel 30 0 0.05 #xyz"):
        with pytest.raises(NotationError):
            state.parse_move(bad)


def test_r11_4_records_carry_hashes_and_a_mismatch_is_reported() -> None:
    state = boardlab.load("honor", players=2).new_state(seed=3)
    for text in SCRIPT[:3]:
        state.play(text)
    state.play(state.sample_chance())
    record = Record.for_state(state)
    assert record.moves[-1] == f"{state.history[-1]} #{state.state_hash()[:16]}"
    assert not any("#" in text for text in record.moves[:-1]), "only the resolving move carries a hash"
    assert Record.loads(record.dumps()).replay().position() == state.position()
    data = record.to_json()
    last = data["moves"][-1]["move"]
    data["moves"][-1]["move"] = last[:-1] + ("0" if last[-1] != "0" else "1")
    with pytest.raises(RecordError, match="physics divergence") as caught:
        Record.loads(json.dumps(data))
    assert caught.value.move_number == len(record.moves)


def test_r11_1_positions_round_trip_and_reject_bad_records() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "push LG1")
    text = state.position()
    assert "\n" not in text
    loaded = state.game.state_from_position(text)
    assert loaded.position() == text and loaded.blob is None, "a loaded position starts cold"
    record = json.loads(text)
    record["bank"] = 3
    with pytest.raises(PositionError, match=r"rule 7.11"):
        state.game.state_from_position(json.dumps(record))
    record = json.loads(text)
    record["supply"].append("SL1")
    with pytest.raises(PositionError):
        state.game.state_from_position(json.dumps(record, sort_keys=True))
    with pytest.raises(PositionError, match="JSON"):
        state.game.state_from_position("{not json")
    record = json.loads(text)
    record["standing"] = [1, 0]  # out, but no record of when (rule 6.1)
    with pytest.raises(PositionError, match=r"rule 6.1"):
        state.game.state_from_position(json.dumps(record))
    record = json.loads(text)
    record.update(phase="OVER", push=None, supply=sorted([*record["supply"], "LG1"]),
                  result=[[1], "last tower standing (rule 8.1)"])
    with pytest.raises(PositionError, match=r"rules 8.1"):  # Blue cannot win while Red stands too
        state.game.state_from_position(json.dumps(record))
    record["result"] = [[0, 1], "every piece placed with two or more towers standing (rule 8.3)"]
    with pytest.raises(PositionError, match=r"rule 8.3"):  # a draw, but pieces are left to place
        state.game.state_from_position(json.dumps(record))


def test_r11_5_tremor_follows_the_seeded_formula_and_hides_the_seed() -> None:
    game = boardlab.load("honor", players=2)
    state = play(game.new_state(seed=2**200 + 12345), "build SL1 0", "pass", "rel 30")
    assert state.is_chance()
    assert state.sample_chance() == Tremor(*seeded_tremor(state.seed, 0))
    assert seeded_tremor(state.seed, 0) != seeded_tremor(state.seed, 1)
    assert abs(sum(p for _, p in TREMOR_GRID) - 1.0) < 1e-12
    assert abs(sum(p * dx for (dx, _), p in TREMOR_GRID)) < 1e-12
    # the variance as the rules give it: the points ±√3σ rounded to the units (0.17 cm, 0.9°)
    variance_x = sum(p * (dx / 100) ** 2 for (dx, _), p in TREMOR_GRID) / 0.10**2
    variance_rotation = sum(p * (dtheta / 10) ** 2 for (_, dtheta), p in TREMOR_GRID) / 0.5**2
    assert (round(variance_x, 4), round(variance_rotation, 4)) == (0.9633, 1.08)
    leaves = json.dumps(state.view(0)) + state.position()
    assert not any(secret in leaves for secret in state.secrets(0))
    resampled = state.resample(0, random.Random(1))
    assert resampled.seed != state.seed and resampled.view(0) == state.view(0)
    assert resampled.history == () and resampled.ply == state.ply == 3, "rebased: no history, the ply counts on"


def test_r11_2_the_same_seed_and_moves_give_the_same_hash_across_processes() -> None:
    here = scripted_hash(77)
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(REPOSITORY)!r})
        from tests.honor.helpers import scripted_hash
        print(scripted_hash(77))
    """)
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert there.stdout.strip() == here
    assert scripted_hash(78) != here, "another seed gives another tremor"


def test_r11_3_undo_and_copies_restore_the_physics_exactly() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass")
    twin = state.copy()
    play(state, "rel 90")
    after = state.state_hash()
    state.undo()
    play(state, "rel 90")
    play(twin, "rel 90")
    assert state.state_hash() == after == twin.state_hash()


def test_import_and_discovery_do_not_need_pymunk() -> None:
    code = textwrap.dedent("""
        import sys
        sys.modules["pymunk"] = None
        import boardlab
        assert "honor" in boardlab.game_ids()
        try:
            boardlab.load("honor").new_state(seed=1)
        except boardlab.BoardlabError as exc:
            print(exc)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert "boardlab[physics]" in out.stdout


def test_r11_4_a_match_record_saves_loads_and_replays_to_the_same_hash(tmp_path) -> None:
    from boardlab.agents import make_agent

    game = boardlab.load("honor", players=2, resign=False)  # so the game ends by a resolution
    match = boardlab.Match(game, [make_agent("random", seed=1), make_agent("random", seed=2)], seed=9)
    result = match.play_out()
    record = match.record()
    assert any("#" in move for move in record.moves)
    assert record.result.code == result.code and result.code in game.result_codes
    path = tmp_path / "honor.json"
    record.save(path)
    replayed = Record.load(path).replay()
    direct = game.new_state(record.seed)
    for text in record.moves:
        direct.play(text)
    assert replayed.state_hash() == direct.state_hash()
    assert replayed.result().winners == record.result.winners
