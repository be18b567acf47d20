"""The playtest form at the end of ``boardlab play``: asked only on a yes, each question
skippable, a wrong answer asked again, every person at the screen in turn, the answers saved
with the record (and read back by ``boardlab playtests``), and ``--no-survey``."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

import boardlab
from boardlab.agents import seat_agents
from boardlab.cli.play import PlaySession
from boardlab.core import Match
from boardlab.core.records import Record
from boardlab.lab.playtest_form import RECORD_ANSWERS, FormAnswer, record_answers
from tests.cli.test_commands import run
from tests.cli.test_play_session import Script

#: dicenim with 3 counters left, P1 to move: take3 wins at once
WINNING_POSITION = "3 0 0 1 2"


def ending(specs: list[str], lines: list[str]) -> tuple[PlaySession, Script, str]:
    game = boardlab.load("dicenim")
    match = Match(game, seat_agents(game, specs, 1), start=WINNING_POSITION, seed=1, undo="same_screen")
    # people sharing the screen hand it over first (dicenim hides each one's bid)
    script = Script([*([""] if specs.count("human") > 1 else []), "take3", *lines])
    buffer = io.StringIO()
    session = PlaySession(match, Console(file=buffer, width=120, highlight=False), script)
    assert session.run() == 0
    return session, script, buffer.getvalue()


def test_the_form_is_answered_then_saved_with_the_game(tmp_path: Path) -> None:
    target = tmp_path / "played.json"
    session, script, output = ending(["human", "random"], ["", "y", "9", "4", "2", "l", "the dice decide too much", str(target)])
    assert "Game over: P1 wins" in output
    assert "'9': a whole number from 1 to 5" in output  # asked again, not taken
    assert script.prompts.count("How much fun was it for P1, 1 (none) to 5 (great)? ") == 2
    assert session.answers == [FormAnswer(0, 4, "favoured", 1, "long", "the dice decide too much")]
    assert any(prompt.startswith("Save this game with the form's answers?") for prompt in script.prompts)
    assert record_answers(Record.load(target)) == session.answers


def test_answers_given_after_a_save_are_added_to_the_saved_file(tmp_path: Path) -> None:
    target = tmp_path / "played.json"
    _, _, output = ending(["human", "random"], [str(target), "y", "4", "", "", ""])
    assert record_answers(Record.load(target)) == [FormAnswer(0, fun=4)] and f"added to {target}" in output


def test_every_person_at_the_screen_answers_and_enter_skips_a_question(tmp_path: Path) -> None:
    # no file at first; P1: fun only; P2: fair, nothing else; then no file again
    session, script, _ = ending(["human", "human"], ["n", "y", "5", "", "", "", "", "f", "", "", "n"])
    assert session.answers == [FormAnswer(0, fun=5), FormAnswer(1, fairness="fair")]
    assert any("for P2" in prompt for prompt in script.prompts)


def test_no_yes_no_form_and_the_end_of_input_keeps_what_was_answered(tmp_path: Path) -> None:
    for answer in ("", "n", "maybe"):
        session, script, _ = ending(["human", "random"], ["", answer])
        assert session.answers == [] and not any("fun" in prompt for prompt in script.prompts)
    session, _, output = ending(["human", "random"], ["", "y", "3"])  # the input ends mid-form
    assert session.answers == [FormAnswer(0, fun=3)] and "kept with the game's record" in output


def test_no_survey_asks_nothing_and_a_computers_game_has_no_form() -> None:
    game = boardlab.load("dicenim")
    match = Match(game, seat_agents(game, ["human", "random"], 1), start=WINNING_POSITION, seed=1)
    script = Script(["take3"])
    PlaySession(match, Console(file=io.StringIO()), script, survey=False).run()
    assert not any("playtest form" in prompt for prompt in script.prompts)
    computers = Match(game, seat_agents(game, ["random", "random"], 1), seed=1)
    script = Script([])
    PlaySession(computers, Console(file=io.StringIO()), script).run()
    assert script.prompts == []


def test_the_terminals_answers_reach_the_designers_view(tmp_path: Path) -> None:
    saved = tmp_path / "records" / "one.json"
    saved.parent.mkdir()
    # saved first (a script answering the offer to save is never taken for the form), then the form
    script = f"take3\n{saved}\ny\n2\nf\nr\nshort and sharp\n"
    done = run("play", "dicenim", "--players", "human,random", "--position", WINNING_POSITION, stdin=script)
    assert done.returncode == 0, done.stderr
    assert json.loads(saved.read_text())["meta"][RECORD_ANSWERS][0]["note"] == "short and sharp"
    skipped = run("play", "dicenim", "--players", "human,random", "--position", WINNING_POSITION, "--no-survey",
                  stdin="take3\n\n")
    assert skipped.returncode == 0 and "playtest form" not in skipped.stdout
    # a person against the computer is no game between people: left out, and said so
    shown = run("playtests", "dicenim", str(saved.parent), "--json")
    assert shown.returncode == 0, shown.stderr
    report = json.loads(shown.stdout)
    assert report["games"] == 0 and report["left_out"] == {"with the computer": 1}
    record = Record.load(saved)
    record.seats = [seat.__class__(seat.name, "human") for seat in record.seats]
    record.save(saved)
    report = json.loads(run("playtests", "dicenim", str(saved.parent), "--json").stdout)
    (variant,) = report["variants"]
    assert variant["people"]["form"]["fun"]["value"] == 2
    assert variant["people"]["notes"][0]["replay"] == f"boardlab replay {saved}"
