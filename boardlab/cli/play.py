"""``boardlab play``: a game in the terminal between people and computer players.

A :class:`PlaySession` is the terminal around a :class:`boardlab.Match`: the
match holds the real state, resolves chance, hands computer players a resampled
state and keeps the log; the session reads what people type and prints what
each of them may see (the match's per-viewer move texts and views), in the words of
:mod:`.play_words`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.markup import escape

from ..agents import make_agent
from ..agents.analysis import hint_spec
from ..core.errors import BoardlabError, RefusedError
from ..core.match import FALLBACK_NOTE, Match
from ..core.records import Record
from ..core.turns import Turn
from ..core.values import CHANCE, Player
from ..lab.playtest_form import RECORD_ANSWERS, FormAnswer
from .common import board_panel, level_name, moves_text, print_moves
from .keyboard import MOVE_NOW, KeyboardThinker
from .play_words import chance_summary, help_text, played_line, seed_commitment
from .playtests import ask_playtest_form
from .render import PictureRenderer, picture_renderer

#: clears the screen and the terminal's scrollback, so a hand-over hides the last hand
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"
#: answers to a yes/no question: never taken for a file name
YES_ANSWERS = ("y", "yes")
NO_ANSWERS = ("", "n", "no")


class _Leave(Exception):
    """The person ended the input (Ctrl-D) or interrupted (Ctrl-C): save what must be kept and stop."""

    def __init__(self, interrupted: bool) -> None:
        super().__init__()
        #: Ctrl-C exits with 130; the input simply running out is a normal end (0)
        self.interrupted = interrupted


class PlaySession:
    """One match in the terminal. ``read_line(prompt)`` reads a person's input.

    ``resumed_from`` is the record file the match was resumed from; leaving unsaved never
    writes over it (nor any other existing file): a recovery file gets a new name.
    ``seed_chosen``: the person gave the seed, so printing it tells them nothing new; otherwise
    a game with chance or hidden information shows only the seed's commitment until the end.
    ``survey``: at the end, offer the people the playtest form (:func:`.playtests.ask_playtest_form`).
    """

    def __init__(
        self,
        match: Match,
        out: Console,
        read_line: Callable[[str], str],
        resumed_from: Path | None = None,
        move_now_input: TextIO | None = None,
        seed_chosen: bool = False,
        survey: bool = True,
    ) -> None:
        self.match = match
        #: ask the people at the screen the playtest form at the end (``--no-survey``: not)
        self.survey = survey
        #: the form's answers, kept with the record (:data:`~boardlab.lab.playtest_form.RECORD_ANSWERS`)
        self.answers: list[FormAnswer] = []
        #: the computer thinks while the keyboard (``move_now_input``) is watched, so nothing typed
        #: is lost and ``now`` makes it move at once; without one it thinks its full time
        self.thinker = KeyboardThinker(move_now_input)
        self.game = match.game
        self.out = out
        self.read_line = read_line
        self.resumed_from = resumed_from
        self.seed_chosen = seed_chosen
        self.saved_ply: int | None = match.ply if resumed_from is not None else None
        #: the file this session last saved the game to (the form's answers are added to it)
        self.saved_path: Path | None = None
        #: where ``picture on`` writes the table's picture after every move (None: off)
        self.picture_path: Path | None = None
        self.draw_picture: PictureRenderer | None = None
        self.quit_warned = False
        self.last_shown_human: Player | None = None
        #: the viewer and the ply of the board drawn last: the end does not draw the same board again
        self.last_board: tuple[Player | None, int] | None = None
        #: log entries already shown: a new match announces its opening chance, a resumed one does not
        self.announced = len(match.log()) if resumed_from is not None else 0

    # --- who is at the table -------------------------------------------------
    @property
    def humans(self) -> list[Player]:
        return self.match.humans

    @property
    def hot_seat_secrets(self) -> bool:
        """Several people share the screen and one may see what another may not: hand over
        before showing. (Secrets kept from everybody alike, such as a seed, need no hand-over.)"""
        humans = self.humans
        if len(humans) < 2 or not self.game.has_hidden_information:
            return False
        kept_from = [self.match.secrets(seat) for seat in humans]
        return any(secrets != kept_from[0] for secrets in kept_from[1:])

    def announce_viewer(self) -> Player | None:
        """Whose view announcements use: the one person at the screen, else the spectators'."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def seat_label(self, seat: Player) -> str:
        """``White`` for a person, ``Black (normal)`` for the computer at a level (its spec only
        where it plays none of the levels: a spec the person typed)."""
        name = self.game.player_name(seat)
        if self.match.is_human(seat):
            return name
        spec = self.match.seats[seat].agent
        return f"{name} ({level_name(self.game, spec) or spec})"

    # --- the game loop -------------------------------------------------------
    @property
    def seed_secret(self) -> bool:
        """The seed foretells dice, deals or tremors, and the person did not choose it."""
        chance = self.game.has_chance or self.game.has_hidden_information
        return chance and not self.seed_chosen

    def seed_text(self) -> str:
        if self.seed_secret:
            return f"seed commitment SHA-256 {seed_commitment(self.match.seed)}; the seed is shown at the end"
        return f"seed {self.match.seed}"

    def reveal_seed(self) -> None:
        """Once the game is over or left, the seed behind the commitment, to check it against."""
        if self.seed_secret:
            self.out.print(
                f"The seed was {self.match.seed}; its SHA-256 {seed_commitment(self.match.seed)} "
                "is the commitment shown at the start."
            )

    def run(self) -> int:
        """Play until the game ends or the person leaves; the exit status."""
        self.out.print(
            f"[bold]{escape(self.game.name)}[/bold]: "
            + escape(", ".join(self.seat_label(s) for s in range(self.game.num_players)))
            + f"  ({self.seed_text()}; type [bold]help[/bold] for commands)"
        )
        if not self.humans:
            self.show_board(None)
        try:
            while True:
                seat = self.match.to_move()
                if seat < 0:
                    self.finish()
                    return 0
                if self.match.is_human(seat):
                    if self.human_turn(seat) == "quit":
                        self.reveal_seed()
                        return 0
                else:
                    self.computer_move(seat)
        except _Leave as leaving:
            self.leave()
            return 130 if leaving.interrupted else 0
        except KeyboardInterrupt:  # Ctrl-C while a computer thinks
            self.leave()
            return 130

    def announce(self) -> None:
        """Print the chance outcomes logged since the last announcement, on one line."""
        entries = self.match.log()[self.announced:]
        self.announced += len(entries)
        parts = chance_summary(entries, self.announce_viewer())
        if parts:
            self.out.print(f"[magenta]chance:[/magenta] {escape(', '.join(parts))}")

    def computer_move(self, seat: Player) -> None:
        self.announce()
        hint = f" (type {MOVE_NOW} and Enter to make it move now)" if self.thinker.source is not None else ""
        before = len(self.match.log())
        with self.out.status(f"{escape(self.seat_label(seat))} is thinking...{hint}"):
            self.match.play_computer(self.thinker)
        entry = self.match.log()[before]
        text = entry.text_for(self.announce_viewer())
        self.announced = before + 1
        note = ""
        if entry.note == FALLBACK_NOTE:
            note = f" [yellow](the fallback move: {escape(self.match.last_failure)})[/yellow]"
        self.out.print(f"{played_line(self.seat_label(seat), text, entry.notation, 'cyan')}{note}")
        if not self.humans:
            self.show_board(None)

    def human_turn(self, seat: Player) -> str | None:
        """Read commands until ``seat`` moves (None), undoes (None) or quits ("quit")."""
        name = self.game.player_name(seat)
        if self.hot_seat_secrets and self.last_shown_human != seat:
            self.hand_over(name)
        self.announce()
        self.last_shown_human = seat
        self.show_board(seat)
        while True:
            line = self.ask(f"{name}, {self.move_label()} > ").strip()
            if not line:
                continue
            command, _, argument = line.partition(" ")
            command = command.lower()
            if command in ("help", "?"):
                self.out.print(help_text())
            elif command == "moves":
                self.show_moves(seat, argument.strip())
            elif command == "board":
                self.show_board(seat)
            elif command == "hint":
                self.hint(seat)
            elif command == "preview":
                self.show_preview(seat, argument.strip())
            elif command == "picture":
                self.set_picture(argument.strip().lower())
            elif command == "history":
                self.show_history(seat)
            elif command == MOVE_NOW:
                self.out.print(f"[bold]{MOVE_NOW}[/bold] makes a thinking computer move at once; it is your move now.")
            elif command == "save":
                self.save(argument.strip())
            elif command == "undo":
                if self.undo(seat):
                    return None
            elif command == "resign":
                if self.confirm(f"{name}: resign the game? [y/N] "):
                    self.match.resign(seat)
                    return None
            elif command == "draw":
                if self.offer_draw(seat):
                    return None
            elif command in ("quit", "exit"):
                if self.unsaved() and not self.quit_warned:
                    self.quit_warned = True
                    self.out.print(
                        "[yellow]The game is not saved.[/yellow] Type [bold]save FILE[/bold] to keep it, "
                        "or [bold]quit[/bold] again to leave without saving."
                    )
                    continue
                self.out.print("Left the game.")
                return "quit"
            else:
                before = len(self.match.log())
                try:
                    self.match.play(seat, line)
                except BoardlabError as exc:
                    self.out.print(
                        f"[red]Not played:[/red] {escape(str(exc))}  "
                        "(type [bold]moves[/bold] for the legal moves, [bold]help[/bold] for commands)"
                    )
                    continue
                self.quit_warned = False
                entry = self.match.log()[before]
                self.announced = before + 1
                self.out.print(played_line(name, entry.text_for(seat), entry.notation, "green"))
                return None

    def hand_over(self, name: str) -> None:
        """Hide the screen (and its scrollback) before the next person's hand is shown."""
        if self.out.is_terminal:
            self.out.file.write(CLEAR_ALL)
            self.out.file.flush()
        self.out.rule(f"{escape(name)} to decide")
        # a fresh Enter, never a line typed earlier: the one who typed it may not be the next
        self.ask(f"Pass the screen to {name} and press Enter (others look away) ", typed_earlier=False)
        if self.out.is_terminal:
            self.out.file.write(CLEAR_ALL)
            self.out.file.flush()

    def ask(self, prompt: str, typed_earlier: bool = True) -> str:
        """The next line for ``prompt``: first what was typed while a computer thought (shown
        after the prompt, as if typed there; not with ``typed_earlier=False``), then the keyboard."""
        if typed_earlier and self.thinker.typed_ahead:
            line = self.thinker.typed_ahead.pop(0)
            self.out.print(f"{escape(prompt)}{escape(line)}  [dim](typed while the computer thought)[/dim]")
            return line
        if self.thinker.input_ended:
            raise _Leave(interrupted=False)
        try:
            return self.read_line(prompt)
        except EOFError:
            raise _Leave(interrupted=False) from None
        except KeyboardInterrupt:
            raise _Leave(interrupted=True) from None

    def confirm(self, prompt: str) -> bool:
        return self.ask(prompt).strip().lower() in YES_ANSWERS

    # --- commands ------------------------------------------------------------
    def move_label(self) -> str:
        """The one numbering (:mod:`boardlab.core.turns`): ``move N`` is the move about to be
        played, the players' moves counted from 1 (a roll or a deal is no move), as history,
        replay, analyse, render and the browser number them."""
        if self.match.is_over():
            return f"after move {self.match.decisions}"
        return f"move {self.match.decisions + 1}"

    def show_board(self, viewer: Player | None) -> None:
        title = self.game.name if viewer is None else f"{self.game.name}: {self.game.player_name(viewer)}'s view"
        view = self.match.view(viewer)
        self.write_picture(viewer)
        self.out.print(board_panel(self.game, view, f"{escape(title)}, {self.move_label()}"))
        self.last_board = (viewer, self.match.ply)

    def show_preview(self, seat: Player, text: str) -> None:
        """Draw the board as it would be after ``text``, without playing it."""
        if not text:
            self.out.print("[red]preview needs a move:[/red] preview MOVE (type moves for the legal ones)")
            return
        try:
            view = self.match.preview(seat, text)
        except BoardlabError as exc:
            self.out.print(f"[red]No preview:[/red] {escape(str(exc))}")
            return
        self.out.print(board_panel(self.game, view, f"preview of {escape(text)} (not played)"))

    def set_picture(self, setting: str) -> None:
        """``picture on``: after every move write the table's picture (games that draw one)."""
        if setting == "off":
            self.picture_path = None
            self.out.print("Pictures off.")
            return
        if setting != "on":
            self.out.print("[red]picture on or picture off[/red]")
            return
        self.draw_picture = picture_renderer(self.game)
        if self.draw_picture is None:
            self.out.print(f"[red]{escape(self.game.name)} has no picture renderer:[/red] the text board is all there is.")
            return
        self.picture_path = Path.cwd() / f"boardlab-{self.game.id}-table.png"
        self.out.print(f"Pictures on: after every move the table is drawn to {escape(str(self.picture_path))}.")
        self.write_picture(self.last_shown_human)

    def write_picture(self, viewer: Player | None) -> None:
        """Draw the table to :attr:`picture_path` (when on); a failure is reported, never fatal."""
        if self.picture_path is None or self.draw_picture is None:
            return
        try:
            self.draw_picture({**self.match.view(viewer), "moves_made": self.match.decisions}, str(self.picture_path))
        except (ImportError, OSError) as exc:
            self.out.print(f"[red]No picture:[/red] {escape(str(exc))}; pictures off.")
            self.picture_path = None

    def show_moves(self, seat: Player, prefix: str = "") -> None:
        """The legal moves in columns, in natural order; only those starting with ``prefix`` if given."""
        print_moves(self.out, [str(m) for m in self.match.legal_moves(seat)], prefix, self.game.continuous_moves)

    def hint(self, seat: Player) -> None:
        """The hint the browser gives (:func:`~boardlab.agents.analysis.hint_spec`), worked out
        from what ``seat`` sees only."""
        state = self.match.agent_input(seat)
        adviser = make_agent(hint_spec(self.game), seed=state.seed & 0xFFFFFFFF, game=self.game)
        with self.out.status("thinking about a hint..."):
            move = adviser.choose(state)
        self.out.print(f"Hint: [bold]{escape(str(move))}[/bold]")

    def show_history(self, viewer: Player) -> None:
        log = self.match.log()
        if not log:
            self.out.print("No moves yet.")
            return
        parts: list[str] = []
        chance: list[Turn] = []  # a run of chance outcomes between two moves, said together
        for entry in log:
            if entry.by == CHANCE:
                chance.append(entry)
                continue
            if chance:
                parts.append(f"(chance: {', '.join(chance_summary(chance, viewer))})")
                chance = []
            parts.append(self.history_item(entry, viewer))
        if chance:
            parts.append(f"(chance: {', '.join(chance_summary(chance, viewer))})")
        self.out.print(escape("   ".join(parts)))

    def history_item(self, entry: Turn, viewer: Player) -> str:
        """``3. White b7+`` (a chance outcome is no move and carries no number: the history says
        a run of them in one bracket, ``(chance: deal ×20, White plays first)``)."""
        note = f" ({entry.note})" if entry.note else ""
        return f"{entry.move_number}. {self.game.player_name(entry.by)} {entry.text_for(viewer)}{note}"

    def undo(self, seat: Player) -> bool:
        """Back to the previous decision of a person (computer and chance moves undone too)."""
        before = self.match.log()
        try:
            taken = self.match.undo(seat)
        except RefusedError as exc:
            self.out.print(f"[red]Not undone:[/red] {escape(str(exc))}")
            return False
        self.announced = len(self.match.log())
        self.last_shown_human = None
        # as this seat read them: a card the opponent drew stays "Black drew a card"
        shown = [escape(entry.text_for(seat)) for entry in before[len(before) - len(taken):]]
        detail = f": {', '.join(shown)}" if shown else ""
        count = "1 move" if len(taken) == 1 else f"{len(taken)} moves"
        self.out.print(f"[yellow]Took back {count}{detail}.[/yellow]")
        return True

    def offer_draw(self, seat: Player) -> bool:
        """Offer a draw; the other people at the screen answer, computers decide at once."""
        try:
            for other in self.humans:
                if other != seat and not self.confirm(
                    f"{self.game.player_name(seat)} offers a draw. {self.game.player_name(other)}, accept? [y/N] "
                ):
                    self.out.print("The draw was declined.")
                    return False
            ended = self.match.offer_draw(seat)
        except BoardlabError as exc:
            self.out.print(f"[red]No draw:[/red] {escape(str(exc))}")
            return False
        if not ended:
            self.out.print("The computer declines the draw.")
        return ended

    def record(self) -> Record:
        answers = {RECORD_ANSWERS: [answer.to_json() for answer in self.answers]} if self.answers else {}
        return self.match.record(
            saved_by="boardlab play",
            saved_at=datetime.now(UTC).isoformat(timespec="seconds"),
            **answers,
        )

    def save(self, path_text: str, *, ask_overwrite: bool = True) -> bool:
        """Save to ``path_text`` (``~`` expanded); an existing file is replaced only when the
        person says so. Says exactly which file was written."""
        if not path_text:
            self.out.print("[red]save needs a file name:[/red] save FILE (e.g. save game.json)")
            return False
        try:
            path = Path(path_text).expanduser()
            is_folder, exists = path.is_dir(), path.exists()
        except (OSError, ValueError, RuntimeError) as exc:
            # a name the system refuses (too long, a NUL byte, ~nobody): the game goes on unsaved
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.out.print(f"[red]Not saved:[/red] {escape(path_text)}: {escape(reason)}")
            return False
        if is_folder:
            self.out.print(f"[red]Not saved:[/red] {escape(str(path))} is a folder; give a file name in it")
            return False
        if exists and (not ask_overwrite or not self.confirm(f"{path} exists. Replace it? [y/N] ")):
            self.out.print(f"Not saved: {escape(str(path))} was kept as it was.")
            return False
        try:
            written = self.record().save(path)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.out.print(f"[red]Not saved:[/red] {escape(str(path))}: {escape(reason)}")
            return False
        self.saved_ply = self.match.ply
        self.saved_path = written
        where = escape(str(written))
        self.out.print(f"Saved {moves_text(self.match.decisions)} to {where} (boardlab replay {where}).")
        return True

    def unsaved(self) -> bool:
        """Decisions were made since the last save (chance alone is rebuilt from the seed)."""
        decided = self.match.decisions > 0
        return decided and self.saved_ply != self.match.ply and not self.match.is_over()

    def recovery_path(self) -> Path:
        """A new file in the current folder: the person agreed to no overwrite, not even of the
        file the game was resumed from (an undo there would silently lose moves)."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        path = Path.cwd() / f"boardlab-{self.game.id}-{stamp}.json"
        number = 2
        while path.exists():
            path = Path.cwd() / f"boardlab-{self.game.id}-{stamp}-{number}.json"
            number += 1
        return path

    def leave(self) -> None:
        """Input ended: keep the game in a recovery file rather than losing it."""
        self.out.print()
        self.reveal_seed()
        if not self.unsaved():
            self.out.print("Left the game.")
            return
        path = self.recovery_path()
        try:
            self.record().save(path, overwrite=False)
        except OSError as exc:
            self.out.print(f"[red]Left the game; it could not be saved ({escape(str(exc))}).[/red]")
            return
        kept = "" if self.resumed_from is None else f" ({escape(str(self.resumed_from))} was left as it was)"
        self.out.print(
            f"Left the game before {self.move_label()}; it was saved to the new file {escape(str(path))}{kept} "
            "(type save FILE before leaving to choose the file). Go on with:"
        )
        # the command on a line of its own, never wrapped: it is copied whole
        self.out.print(f"  boardlab play --resume {escape(str(path))}", soft_wrap=True)

    def finish(self) -> None:
        result = self.match.result()
        assert result is not None
        self.announce()
        if self.last_board != (None, self.match.ply):  # computers alone: their last move drew it
            self.show_board(None)
        if result.winner is not None:
            headline = f"{self.seat_label(result.winner)} wins"
        else:
            headline = "Draw between " + ", ".join(self.seat_label(p) for p in result.winners)
        moves = moves_text(self.match.decisions)
        self.out.print(
            f"[bold]Game over: {escape(headline)}[/bold] ({escape(result.reason)}; {result.score_text()}, {moves})."
        )
        self.reveal_seed()
        if self.thinker.typed_ahead:
            # said, not silently dropped; and never taken as the answer to the save question
            unused = ", ".join(repr(line) for line in self.thinker.typed_ahead)
            self.out.print(
                f"[yellow]Not acted on (typed while the computer thought; the game is over):[/yellow] {escape(unused)}"
            )
            self.thinker.typed_ahead.clear()
        if self.humans and self.saved_ply != self.match.ply:
            self.offer_save()
        if self.humans and self.survey:
            # after the offer to save: a script that answers that offer is not taken for answers here
            self.answers = ask_playtest_form(self.read_or_none, self.out, self.game, self.humans)
            if self.answers and self.saved_path is not None and self.saved_ply == self.match.ply:
                self.record().save(self.saved_path)
                self.out.print(f"The answers were added to {escape(str(self.saved_path))}.")
            elif self.answers:
                self.offer_save()

    def read_or_none(self, prompt: str) -> str | None:
        """A line for ``prompt``; None once the input ended (Ctrl-D, a pipe's end, Ctrl-C)."""
        try:
            return self.read_line(prompt)
        except (EOFError, KeyboardInterrupt):
            self.out.print()
            return None

    def offer_save(self) -> None:
        """At the end: ask once for a file to keep the game in (Enter, n or the end of input
        skips; y asks for the name: an answer to a yes/no question is never taken for a file)."""
        with_answers = " with the form's answers" if self.answers else ""
        prompt = f"Save this game{with_answers}? File name (Enter or n to skip): "
        while True:
            try:
                path = self.read_line(prompt).strip()
            except (EOFError, KeyboardInterrupt):
                self.out.print()
                return
            answer = path.lower()
            if answer in NO_ANSWERS:
                return
            if answer in YES_ANSWERS:
                prompt = "File name (e.g. game.json; Enter to skip): "
                continue
            try:
                if not path or self.save(path):
                    return
            except _Leave:
                return
