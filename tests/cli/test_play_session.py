"""The play loop in-process, with scripted input: undo, saving, leaving, wrong entries.

Runs on the test game dicenim (registered for the session by tests/conftest.py):
moves take1..take3, a die after every take, hidden secret bids dealt first.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console

import boardlab
from boardlab.agents import seat_agents
from boardlab.cli.play import PlaySession, played_line
from boardlab.core import CHANCE, Match
from boardlab.core.records import Record


class Script:
    """Feeds lines to the session like a person would; EOF when they run out."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def new_match(game: boardlab.Game, specs: list[str], seed: int) -> Match:
    undo = "same_screen" if specs.count("human") > 1 else "own"
    return Match(game, seat_agents(game, specs, seed), seed=seed, undo=undo)


def session(specs: list[str], lines: list[str], seed: int = 3) -> tuple[PlaySession, Script, io.StringIO]:
    game = boardlab.load("dicenim")
    buffer = io.StringIO()
    script = Script(lines)
    out = Console(file=buffer, width=100, highlight=False)
    return PlaySession(new_match(game, specs, seed), out, script), script, buffer


def moves_of(play: PlaySession) -> list[str]:
    return play.match.record().moves


def test_a_wrong_entry_reprompts_with_the_reason_and_the_game_goes_on() -> None:
    play, script, output = session(["human", "random"], ["", "take9", "take1", "quit", "quit"])
    assert play.run() == 0
    text = output.getvalue()
    assert "Not played" in text and "take9" in text and "not dice-nim notation" in text
    assert moves_of(play)[2] == "take1"
    # blank, take9, take1 at move 1 (the two secrets dealt are no moves); then quit twice at move 3
    # (P1's take, the die, P2's take, the die: two moves)
    assert script.prompts.count("P1, move 1 > ") == 3 and script.prompts.count("P1, move 3 > ") == 2


def test_undo_against_the_computer_goes_back_to_your_last_decision() -> None:
    play, _, output = session(["human", "random"], ["take1", "undo", "quit", "quit"])
    play.run()
    # secrets dealt (2 chance moves) and nothing else: the computer's take and both dice were undone
    assert play.match.ply == 2
    assert play.match.to_move() == 0
    assert [entry.by for entry in play.match.log()] == [CHANCE, CHANCE]
    took = next(line for line in output.getvalue().splitlines() if "Took back" in line)
    assert took == "Took back 4 moves: take1, d6, take2, d6.", took  # as this seat read them in the log


def test_undo_in_hot_seat_takes_back_one_decision_and_its_chance() -> None:
    # hidden information in hot seat: each handover asks for Enter first
    lines = ["", "take1", "", "take2", "", "undo", "", "quit", "quit"]
    play, script, _ = session(["human", "human"], lines)
    play.run()
    assert moves_of(play)[2] == "take1"
    assert play.match.ply == 4  # secrets, take1, its die; P2's take2 and die undone
    assert play.match.to_move() == 1
    assert any("Pass the screen to P2" in p for p in script.prompts)


def test_undo_with_nothing_of_yours_played_says_so() -> None:
    play, _, output = session(["human", "random"], ["undo", "quit"])
    play.run()
    assert "Not undone: nothing to take back" in output.getvalue()
    assert play.match.ply == 2


def test_save_writes_a_record_that_replays_to_the_same_position(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    play, _, output = session(["human", "random"], ["take2", f"save {target}", "quit"])
    assert play.run() == 0
    record = Record.load(target)
    assert record.replay().position() == play.match.record().final_position
    assert [s.agent for s in record.seats] == ["human", "random"]
    assert len(record.times) == len(record.moves) == play.match.ply
    assert "Left the game" in output.getvalue()  # saved, so one quit is enough


def test_save_into_a_missing_folder_reports_and_keeps_playing(tmp_path: Path) -> None:
    play, _, output = session(["human", "random"], [f"save {tmp_path}/no/such/dir/x.json", "take1", "quit", "quit"])
    play.run()
    assert "Not saved" in output.getvalue()
    assert "take1" in moves_of(play)


@pytest.mark.parametrize("name", ["x" * 300 + ".json", "~nosuchuser-of-this-machine/x.json", "a\x00b.json"])
def test_a_file_name_the_system_refuses_is_reported_and_the_game_goes_on(tmp_path: Path, name: str) -> None:
    # a name too long, an unknown home folder, a NUL byte: each fails before any file is opened
    target = tmp_path / "kept.json"
    play, _, output = session(["human", "random"], ["take1", f"save {name}", "take1", f"save {target}", "quit"])
    assert play.run() == 0
    assert "Not saved" in output.getvalue()
    assert Record.load(target).replay().position() == play.match.record().final_position


def test_quit_with_an_unsaved_game_warns_once() -> None:
    play, _, output = session(["human", "random"], ["take1", "quit", "quit"])
    assert play.run() == 0
    assert "not saved" in output.getvalue()


def test_end_of_input_keeps_the_game_in_a_recovery_file_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    play, _, output = session(["human", "random"], ["take1"])
    assert play.run() == 0  # input running out is a normal end; Ctrl-C is 130
    saved = list(tmp_path.glob("boardlab-dicenim-*.json"))
    assert len(saved) == 1
    assert Record.load(saved[0]).replay().position() == play.match.record().final_position
    # the command to go on is a line of its own, whole however narrow the terminal: it is copied
    assert f"  boardlab play --resume {saved[0]}" in output.getvalue().splitlines()


def test_leaving_a_resumed_game_keeps_the_file_it_came_from_and_writes_a_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the resumed file was rewritten without asking
    monkeypatch.chdir(tmp_path)
    first, _, _ = session(["human", "random"], ["take1"])
    first.run()
    (saved,) = tmp_path.glob("boardlab-dicenim-*.json")
    before = saved.read_bytes()
    record = Record.load(saved)
    game = record.game()
    resumed_match = Match.from_record(record, seat_agents(game, ["human", "random"], record.seed))
    buffer = io.StringIO()
    again = PlaySession(resumed_match, Console(file=buffer, width=200), Script(["take1"]), resumed_from=saved)
    assert again.run() == 0
    assert saved.read_bytes() == before
    (recovery,) = set(tmp_path.glob("*.json")) - {saved}
    assert len(Record.load(recovery).moves) > len(record.moves)
    assert str(recovery) in buffer.getvalue() and "was left as it was" in buffer.getvalue()


def test_computer_players_get_a_resampled_state_not_the_real_one() -> None:
    play, _, _ = session(["random", "random"], [], seed=9)
    seen: list[tuple[int, int]] = []
    agent = play.match.agents[1]
    assert agent is not None
    original = agent.choose

    def spy(state: boardlab.State):
        seen.append((state.seed, play.match.seed))
        return original(state)

    agent.choose = spy  # type: ignore[method-assign]
    assert play.run() == 0
    assert seen and all(view_seed != real_seed for view_seed, real_seed in seen)


def test_the_end_offers_to_save(tmp_path: Path) -> None:
    target = tmp_path / "end.json"
    lines = ["take3", str(target)]  # a pile of 3: taking it all ends the game
    game = boardlab.load("dicenim", pile=3)
    buffer = io.StringIO()
    out = Console(file=buffer, width=100)
    script = Script(lines)
    play = PlaySession(new_match(game, ["human", "random"], 1), out, script)
    assert play.run() == 0
    assert play.match.is_over()
    assert "Game over" in buffer.getvalue()
    assert Record.load(target).result is not None


def test_announcements_show_each_person_only_what_they_may_know() -> None:
    # against the computer, the person's own secret is shown and the computer's is not
    play, _, output = session(["human", "random"], ["quit"])
    play.run()
    text = output.getvalue()
    own = play.match.log()[0].text_for(0)
    assert own.startswith("secret0=") and own in text
    assert "P2 was dealt a secret" in text
    assert play.match.log()[1].text_for(1) not in text


def test_two_people_at_one_screen_see_the_spectators_announcements() -> None:
    play, _, output = session(["human", "human"], ["", "quit"])
    play.run()
    text = output.getvalue()
    assert "P1 was dealt a secret" in text and "P2 was dealt a secret" in text


def test_hint_suggests_a_legal_move_without_playing_it() -> None:
    play, _, output = session(["human", "random"], ["hint", "quit"])
    play.run()
    text = output.getvalue()
    assert "Hint: " in text and "mcts:" not in text  # a suggestion in words, never the engine's spec
    suggested = text.split("Hint: ")[1].split()[0]
    assert suggested in {"take1", "take2", "take3"}
    assert play.match.ply == 2  # nothing was played


def test_no_hand_over_when_every_player_is_kept_from_the_same_secrets() -> None:
    # Honor hides only its seed, and from everybody alike: two people at one screen
    # have nothing to hide from each other, so no "pass the screen" pause.
    pytest.importorskip("pymunk")
    game = boardlab.load("honor")
    buffer = io.StringIO()
    script = Script(["build SL1 0", "pass", "quit", "quit"])
    out = Console(file=buffer, width=100, highlight=False)
    play = PlaySession(new_match(game, ["human", "human"], 5), out, script)
    play.run()
    assert moves_of(play) == ["build SL1 0", "pass"]
    assert not any("Pass the screen" in prompt for prompt in script.prompts)


class Keyboard:
    """What a person types while the computer thinks: a pipe, watched like a terminal's input."""

    def __init__(self, typed: bytes, close: bool = False) -> None:
        import os

        read_end, self.write_end = os.pipe()
        os.write(self.write_end, typed)
        if close:
            os.close(self.write_end)
            self.write_end = -1
        self.source = os.fdopen(read_end)

    def __enter__(self) -> io.TextIOWrapper:
        return self.source

    def __exit__(self, *exc_info: object) -> None:
        import os

        self.source.close()
        if self.write_end >= 0:
            os.close(self.write_end)


def thinking_session(specs: list[str], keyboard: io.TextIOWrapper, lines: list[str]) -> tuple[PlaySession, Script, io.StringIO]:
    game = boardlab.load("dicenim")
    buffer = io.StringIO()
    script = Script(lines)
    play = PlaySession(
        new_match(game, specs, 3), Console(file=buffer, width=200, highlight=False), script, move_now_input=keyboard
    )
    return play, script, buffer


def test_typing_now_makes_a_thinking_computer_move_now(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "now" is the explicit move-now command
    import time

    monkeypatch.chdir(tmp_path)
    with Keyboard(b"now\n") as keyboard:
        play, _, buffer = thinking_session(["mcts:seconds=60", "human"], keyboard, ["quit", "quit"])
        began = time.monotonic()
        play.run()
    assert time.monotonic() - began < 30  # far below the 60 s budget: the search was cut short
    assert "P1 (mcts:seconds=60.0) plays" in buffer.getvalue()
    assert play.match.log()[2].by == 0  # the computer did move
    assert play.thinker.typed_ahead == []  # "now" is a command, not a line kept for the prompt


def test_lines_typed_while_the_computer_thinks_wait_for_the_prompt_and_leave_the_search_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # typed text was thrown away and cut the search short
    import time

    monkeypatch.chdir(tmp_path)
    with Keyboard(b"history\n\ntake2\n") as keyboard:
        play, script, buffer = thinking_session(["mcts:seconds=1", "human"], keyboard, ["quit", "quit"])
        interrupts: list[float] = []
        computer = play.match.pending()
        assert computer is not None
        monkeypatch.setattr(computer.agent, "interrupt", lambda: interrupts.append(time.monotonic()))
        play.run()
    assert interrupts == []  # nothing typed stopped the search (the old terminal interrupted it)
    # both lines were acted on, in order, at P2's prompts before the keyboard was asked again
    assert moves_of(play)[4] == "take2" and play.match.log()[4].by == 1
    text = buffer.getvalue()
    assert text.count("(typed while the computer thought)") == 2
    assert text.index("P2, move 2 > history") < text.index("P2, move 2 > take2")
    assert script.prompts[0].startswith("P2, move 4")  # the keyboard only after the typed lines


def test_the_input_ending_while_the_computer_thinks_leaves_after_its_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with Keyboard(b"take1\n", close=True) as keyboard:
        play, script, _buffer = thinking_session(["mcts:seconds=1", "human"], keyboard, ["take3"])
        assert play.run() == 0  # the end of input is a normal end
    assert moves_of(play)[4] == "take1"  # the typed line was still played
    assert script.prompts == []  # the keyboard's end was heard: nothing more was read
    assert list(tmp_path.glob("*.json"))  # the unsaved game went to a recovery file


def test_lines_typed_when_the_game_ends_are_reported_not_dropped_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with Keyboard(b"take1\n") as keyboard:
        # two computers: the typed line can only wait, and the game ends
        play, _script, buffer = thinking_session(["mcts:seconds=0.2", "random"], keyboard, [""])
        assert play.run() == 0
    text = buffer.getvalue()
    assert "Not acted on (typed while the computer thought; the game is over): 'take1'" in text
    assert list(tmp_path.iterdir()) == []  # nor was it taken as a file name


def test_a_hand_over_waits_for_a_fresh_enter_not_a_line_typed_earlier() -> None:
    # at one screen the line typed during a computer's thinking must not skip the hand-over
    with Keyboard(b"") as keyboard:
        play, script, _ = thinking_session(["human", "human"], keyboard, [""])
        play.thinker.typed_ahead.append("take2")
        play.hand_over("P2")
    assert script.prompts == ["Pass the screen to P2 and press Enter (others look away) "]
    assert play.thinker.typed_ahead == ["take2"]  # still waiting for P2's prompt


def test_levels_name_the_computer_for_every_game() -> None:
    from boardlab.agents import game_levels, level_spec, make_agent, resolve_spec, top_level

    for game_id in boardlab.game_ids():
        game = boardlab.load(game_id)
        levels = game_levels(game)
        specs = [level_spec(game, level) for level in levels]
        assert len(set(specs)) == len(levels) >= 4, specs  # different players, weakest first
        top = top_level(game)
        match = new_match(game, ["human"] + [top] * (game.num_players - 1), 1)
        assert specs[-1] == resolve_spec(game, top)
        assert match.seats[1].agent == make_agent(specs[-1], game=game).spec()
    with pytest.raises(boardlab.OptionError, match="unknown level"):
        level_spec(boardlab.load("towers"), "grandmaster")


def test_a_long_run_of_alike_chance_outcomes_is_counted_not_listed() -> None:
    # Territories opened with 21 deal(...) announcements
    from boardlab.cli.play import chance_summary
    from boardlab.core import Turn

    deal = [Turn(n, CHANCE, 0.0, None, f"deal(c{n})", "", "deal") for n in range(1, 21)]
    first = Turn(21, CHANCE, 0.0, None, "P1=seat0", "", "first_player")
    decision = Turn(22, 0, 0.0, None, "end", "", "end_turn")
    assert chance_summary([*deal, first, decision], None) == ["deal ×20", "P1=seat0"]
    assert chance_summary(deal[:3], None) == ["deal(c1)", "deal(c2)", "deal(c3)"]


def test_preview_shows_a_move_without_playing_it() -> None:
    play, _, output = session(["human", "random"], ["preview take3", "preview take9", "quit"])
    play.run()
    text = output.getvalue()
    assert "preview of take3 (not played)" in text
    assert '"pile": 7' in text  # 10 counters less the 3 previewed
    assert "No preview" in text and "take9" in text
    assert play.match.ply == 2  # nothing was played


def test_picture_on_refuses_a_game_without_pictures() -> None:
    play, _, output = session(["human", "random"], ["picture on", "quit"])
    play.run()
    assert "has no picture renderer" in output.getvalue()


def test_a_computer_whose_thinking_fails_plays_the_fallback_move_and_the_terminal_says_so() -> None:
    """The match's one failure policy: the rules' default move or the one-ply
    best move, never a crash of the terminal and never a random move."""
    from boardlab.core.agent import Agent
    from boardlab.core.decisions import ONE_PLY_FALLBACK

    class Failing(Agent):
        name = "failing-test-agent"

        def choose(self, state: boardlab.State) -> boardlab.Move:
            raise RuntimeError("a bug in the agent")

    game = boardlab.load("towers")
    match = Match(game, [Failing(), None], seed=1)
    decision = match.pending()
    assert decision is not None
    expected = str(ONE_PLY_FALLBACK.move(decision.state))
    buffer = io.StringIO()
    PlaySession(match, Console(file=buffer, width=200), Script(["quit", "quit"])).run()
    assert match.log()[0].notation == expected and match.log()[0].note == "fallback"
    shown = " ".join(buffer.getvalue().split())
    assert f"plays {expected}" in shown and "the fallback move: it failed: RuntimeError('a bug in the agent')" in shown


def test_picture_on_draws_with_the_games_image_renderer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`picture on` finds the picture the way `boardlab render` does: the image renderer the
    game's class declares (Towers' as well as Honor's)."""
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    game = boardlab.load("towers")
    buffer = io.StringIO()
    play = PlaySession(new_match(game, ["human", "random"], 3), Console(file=buffer, width=100), Script(["picture on", "quit"]))
    play.run()
    picture = tmp_path / "boardlab-towers-table.png"
    assert "Pictures on" in buffer.getvalue() and "no picture renderer" not in buffer.getvalue()
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_help_keeps_each_meaning_in_its_column_at_eighty_columns() -> None:
    game = boardlab.load("dicenim")
    buffer = io.StringIO()
    play = PlaySession(new_match(game, ["human", "random"], 3), Console(file=buffer, width=80, highlight=False),
                       Script(["help", "quit", "quit"]))
    play.run()
    text = buffer.getvalue()
    shown = text[text.index("Enter a move in the game's notation"):].splitlines()[1:]
    helped = shown[:shown.index(next(line for line in shown if "your prompt" in line)) + 1]
    assert all(len(line.rstrip()) <= 80 for line in helped)
    # a meaning that wraps goes on under itself, never from the left edge
    assert all(line.startswith("  ") for line in helped), helped
    assert any(line.startswith("  undo ") for line in helped)


def test_a_game_of_computers_alone_draws_its_final_board_once() -> None:
    play, _, output = session(["random", "random"], [], seed=9)
    assert play.run() == 0
    final = f"{play.game.name}, {play.move_label()}"
    assert output.getvalue().count(final) == 1, final  # each move draws its board; the end adds none
    assert "Game over" in output.getvalue()


def test_a_move_in_a_games_own_words_is_not_said_with_plays() -> None:
    assert played_line("White", "b7S", "b7S", "green") == "[green]White plays[/green] [bold]b7S[/bold]"
    # Territories says its moves in words (rule R11.1): "White plays builds a Town" would not read
    assert played_line("White", "builds a Town at 1,1", "P@1,1", "green") == (
        "[green]White:[/green] [bold]builds a Town at 1,1[/bold]")
