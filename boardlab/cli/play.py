"""``boardlab play``: a game in the terminal between people and computer players.

A :class:`PlaySession` drives one game. It is the only holder of the real
state: chance is sampled from the state's seed and announced, people see
``render(their seat)``, computer players get ``state.resample(seat, rng)``.
Whoever :meth:`State.current_player` names decides, whether or not it is
"their turn" in the game's own sense.
"""

from __future__ import annotations

import random
import re
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape

from ..agents import make_agent
from ..core.agent import Agent
from ..core.errors import BoardlabError, OptionError
from ..core.game import CHANCE, TERMINAL, Game, Move, State
from ..core.records import Record, Seat
from ..lab.simulate import game_seed
from .common import HUMAN, board_panel, default_computer, hides

HELP = """\
Enter a move in the game's notation, or a command:
  moves [TEXT] list the legal moves (only those starting with TEXT)
  undo         take back your last move (and the computer's and chance moves after it)
  save FILE    save the game as a record (boardlab replay FILE shows it; --resume FILE goes on)
  hint         ask the computer for a move (1 s of thought)
  board        draw the board again
  history      the moves so far
  help         this text
  quit         leave the game"""

#: what the deciding-seat marker of the history is for chance outcomes
_CHANCE_DECIDER = CHANCE


@dataclass
class SeatPlayer:
    """One seat: a person (``agent`` is None) or a computer player built from ``spec``."""

    spec: str
    agent: Agent | None

    @property
    def is_human(self) -> bool:
        return self.agent is None


class _Leave(Exception):
    """The person closed the input (EOF) or pressed Ctrl-C."""


def build_seats(game: Game, specs: Sequence[str], seed: int) -> list[SeatPlayer]:
    """One :class:`SeatPlayer` per seat; OptionError if the count or a spec is wrong."""
    if len(specs) != game.num_players:
        raise OptionError(
            f"{game.id} with {game.num_players} players needs {game.num_players} entries in "
            f"--players, got {len(specs)}: {','.join(specs)}"
        )
    seats: list[SeatPlayer] = []
    for seat, spec in enumerate(specs):
        if spec == HUMAN:
            seats.append(SeatPlayer(HUMAN, None))
        else:
            agent = make_agent(spec, seed=game_seed(seed, seat + 1))
            seats.append(SeatPlayer(agent.spec(), agent))
    return seats


def natural_key(text: str) -> list[tuple[int, int | str]]:
    """Sort key putting ``a2`` before ``a10``: digit runs compare as numbers."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part]


class PlaySession:
    """One game in the terminal. ``read_line(prompt)`` reads a person's input.

    ``deciders[i]`` is the seat that chose history move ``i`` (CHANCE for
    chance outcomes): ``undo`` uses it to go back to a person's decision.
    """

    def __init__(
        self,
        state: State,
        seats: list[SeatPlayer],
        seed: int,
        out: Console,
        read_line: Callable[[str], str],
        deciders: list[int] | None = None,
        times: list[float] | None = None,
    ) -> None:
        self.game = state.game
        self.state = state
        self.seats = seats
        self.seed = seed
        self.out = out
        self.read_line = read_line
        self.deciders: list[int] = list(deciders) if deciders is not None else []
        self.times: list[float] = list(times) if times is not None else []
        self.view_rng = random.Random(f"views/{seed}")
        self.clock_offset = self.times[-1] if self.times else 0.0
        self.began = time.monotonic()
        self.saved_ply: int | None = state.ply if state.ply else None
        self.quit_warned = False
        self.last_shown_human: int | None = None
        self.pending_chance: list[str] = []

    # --- who is at the table -------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [seat for seat, player in enumerate(self.seats) if player.is_human]

    @property
    def hot_seat_secrets(self) -> bool:
        """Several people share the screen and one may see what another may not: hand over
        before showing. (Secrets kept from everybody alike, such as a seed, need no hand-over.)"""
        humans = self.humans
        if len(humans) < 2 or not self.game.has_hidden_information:
            return False
        kept_from = [self.state.secrets(seat) for seat in humans]
        return any(secrets != kept_from[0] for secrets in kept_from[1:])

    def viewers(self) -> list[int | None]:
        """Whose secrets an announcement must keep: the people, or spectators if none."""
        return list(self.humans) or [None]

    def seat_label(self, seat: int) -> str:
        player = self.seats[seat]
        name = self.game.player_name(seat)
        return name if player.is_human else f"{name} ({player.spec})"

    # --- the game loop -------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the person leaves; the exit status."""
        self.out.print(
            f"[bold]{escape(self.game.name)}[/bold]: "
            + escape(", ".join(self.seat_label(s) for s in range(self.game.num_players)))
            + f"  (seed {self.seed}; type [bold]help[/bold] for commands)"
        )
        if not self.humans:
            self.show_board(None)
        try:
            while True:
                player = self.state.current_player()
                if player == TERMINAL:
                    self.finish()
                    return 0
                if player == CHANCE:
                    self.chance_move()
                elif self.seats[player].is_human:
                    if self.human_turn(player) == "quit":
                        return 0
                else:
                    self.computer_move(player)
        except (_Leave, KeyboardInterrupt):  # Ctrl-C may also come while a computer thinks
            self.leave()
            return 130

    def record_move(self, move: Move, decider: int) -> None:
        self.state.play(move)
        self.deciders.append(decider)
        self.times.append(self.clock_offset + time.monotonic() - self.began)

    def chance_move(self) -> None:
        move = self.state.sample_chance()
        self.record_move(move, _CHANCE_DECIDER)
        self.pending_chance.append("(hidden)" if hides(self.state, self.viewers(), str(move)) else str(move))

    def announce_chance(self) -> None:
        """Print the chance outcomes since the last decision on one line (a deal is many)."""
        if self.pending_chance:
            self.out.print(f"[magenta]chance:[/magenta] {escape(', '.join(self.pending_chance))}")
            self.pending_chance.clear()

    def computer_move(self, seat: int) -> None:
        agent = self.seats[seat].agent
        assert agent is not None
        self.announce_chance()
        with self.out.status(f"{escape(self.seat_label(seat))} is thinking..."):
            move = agent.choose(self.state.resample(seat, self.view_rng))
        try:
            self.record_move(move, seat)
        except BoardlabError as exc:
            raise RuntimeError(f"{self.seat_label(seat)} chose an illegal move: {exc}") from None
        self.out.print(f"[cyan]{escape(self.seat_label(seat))} plays[/cyan] [bold]{escape(str(move))}[/bold]")
        if not self.humans:
            self.show_board(None)

    def human_turn(self, seat: int) -> str | None:
        """Read commands until ``seat`` moves (None), undoes (None) or quits ("quit")."""
        name = self.game.player_name(seat)
        self.announce_chance()
        if self.hot_seat_secrets and self.last_shown_human != seat:
            self.out.rule(f"{escape(name)} to decide")
            self.ask(f"Pass the screen to {name} and press Enter (others look away) ")
            if self.out.is_terminal:
                self.out.clear()
        self.last_shown_human = seat
        self.show_board(seat)
        while True:
            line = self.ask(f"{name} > ").strip()
            if not line:
                continue
            command, _, argument = line.partition(" ")
            command = command.lower()
            if command in ("help", "?"):
                self.out.print(escape(HELP))
            elif command == "moves":
                self.show_moves(argument.strip())
            elif command == "board":
                self.show_board(seat)
            elif command == "hint":
                self.hint(seat)
            elif command == "history":
                self.show_history()
            elif command == "save":
                self.save(argument.strip())
            elif command == "undo":
                if self.undo():
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
                try:
                    move = self.state.parse_move(line)
                except BoardlabError as exc:
                    self.out.print(
                        f"[red]Not played:[/red] {escape(str(exc))}  "
                        "(type [bold]moves[/bold] for the legal moves, [bold]help[/bold] for commands)"
                    )
                    continue
                self.record_move(move, seat)
                self.quit_warned = False
                self.out.print(f"[green]{escape(name)} plays[/green] [bold]{escape(str(move))}[/bold]")
                return None

    def ask(self, prompt: str) -> str:
        try:
            return self.read_line(prompt)
        except (EOFError, KeyboardInterrupt):
            raise _Leave from None

    # --- commands ------------------------------------------------------------
    def show_board(self, viewer: int | None) -> None:
        title = self.game.name if viewer is None else f"{self.game.name}: {self.game.player_name(viewer)}'s view"
        self.out.print(board_panel(self.game, self.state, viewer, f"{escape(title)}, move {self.state.ply}"))

    def show_moves(self, prefix: str = "") -> None:
        """The legal moves in columns, in natural order; only those starting with ``prefix`` if given."""
        moves = sorted((str(m) for m in self.state.legal_moves()), key=natural_key)
        if prefix:
            moves = [m for m in moves if m.startswith(prefix)]
        kind = "candidate moves" if self.game.continuous_moves else "legal moves"
        where = f" starting with {prefix!r}" if prefix else ""
        self.out.print(escape(f"{len(moves)} {kind}{where}:"))
        self.out.print(Columns([escape(m) for m in moves], padding=(0, 3)))
        if len(moves) > 60 and not prefix:
            self.out.print("(type [bold]moves TEXT[/bold] to list only the moves starting with TEXT)")

    def hint(self, seat: int) -> None:
        """A suggestion from the default computer player, seeing only what ``seat`` sees."""
        adviser = make_agent(default_computer(self.game, seconds=1.0), seed=self.view_rng.getrandbits(32))
        with self.out.status("thinking about a hint..."):
            move = adviser.choose(self.state.resample(seat, self.view_rng))
        self.out.print(f"Hint ({escape(adviser.spec())}): [bold]{escape(str(move))}[/bold]")

    def show_history(self) -> None:
        if not self.state.history:
            self.out.print("No moves yet.")
            return
        viewers = self.viewers()
        parts = []
        for number, (move, decider) in enumerate(zip(self.state.history, self.deciders), 1):
            text = str(move)
            if decider == _CHANCE_DECIDER and hides(self.state, viewers, text):
                text = "(hidden)"
            who = "chance" if decider == _CHANCE_DECIDER else self.game.player_name(decider)
            parts.append(f"{number}. {who} {text}")
        self.out.print(escape("   ".join(parts)))

    def undo(self) -> bool:
        """Back to the previous decision of a person (computer and chance moves undone too)."""
        if not any(self.seats[d].is_human for d in self.deciders if d >= 0):
            self.out.print("[red]Nothing to undo:[/red] no move of yours has been played yet.")
            return False
        taken: list[str] = []
        while True:
            decider = self.deciders.pop()
            self.times.pop()
            taken.append(str(self.state.undo()))
            if decider >= 0 and self.seats[decider].is_human:
                break
        for player in self.seats:
            if player.agent is not None:
                player.agent.reset()
        self.last_shown_human = None
        shown = [escape(t) for t in reversed(taken)] if not self.game.has_hidden_information else []
        detail = f": {' '.join(shown)}" if shown else ""
        self.out.print(f"[yellow]Took back {len(taken)} move(s){detail}.[/yellow]")
        return True

    def record(self) -> Record:
        seats = [
            Seat(self.game.player_name(s) if p.is_human else p.spec, p.spec) for s, p in enumerate(self.seats)
        ]
        return Record.for_state(
            self.state,
            seats,
            times=self.times,
            saved_by="boardlab play",
            saved_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        )

    def save(self, path: str) -> bool:
        if not path:
            self.out.print("[red]save needs a file name:[/red] save FILE (e.g. save game.json)")
            return False
        try:
            self.record().save(path)
        except OSError as exc:
            self.out.print(f"[red]Not saved:[/red] {escape(path)}: {escape(exc.strerror or str(exc))}")
            return False
        self.saved_ply = self.state.ply
        self.out.print(f"Saved {self.state.ply} moves to {escape(path)} (boardlab replay {escape(path)}).")
        return True

    def unsaved(self) -> bool:
        """Decisions were made since the last save (chance alone is rebuilt from the seed)."""
        decided = any(decider >= 0 for decider in self.deciders)
        return decided and self.saved_ply != self.state.ply and not self.state.is_over()

    def leave(self) -> None:
        """Input ended: keep the game in a recovery file rather than losing it."""
        self.out.print()
        if not self.unsaved():
            self.out.print("Left the game.")
            return
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        path = Path(tempfile.gettempdir()) / f"boardlab-{self.game.id}-{stamp}.json"
        try:
            self.record().save(path)
        except OSError as exc:
            self.out.print(f"[red]Left the game; it could not be saved ({escape(str(exc))}).[/red]")
            return
        self.out.print(
            f"Left the game at move {self.state.ply}; it was saved to {escape(str(path))}. "
            f"Go on with: boardlab play --resume {escape(str(path))}  "
            "(type save FILE before leaving to choose the file)."
        )

    def finish(self) -> None:
        result = self.state.result()
        assert result is not None
        self.announce_chance()
        self.show_board(None)
        if result.winner is not None:
            headline = f"{self.seat_label(result.winner)} wins"
        else:
            headline = "Draw between " + ", ".join(self.seat_label(p) for p in result.winners)
        self.out.print(
            f"[bold]Game over: {escape(headline)}[/bold] ({escape(result.reason)}; {result.score_text()}, "
            f"{self.state.ply} moves)."
        )
        if self.humans and self.saved_ply != self.state.ply:
            self.offer_save()

    def offer_save(self) -> None:
        """At the end: ask once for a file to keep the game in (Enter or end of input skips)."""
        while True:
            try:
                path = self.read_line("Save this game? File name (Enter to skip): ").strip()
            except (EOFError, KeyboardInterrupt):
                self.out.print()
                return
            if not path or self.save(path):
                return


def deciders_of(record: Record, state_factory: Callable[[], State]) -> list[int]:
    """Replay ``record`` to learn who decided each move (CHANCE for chance outcomes)."""
    state = state_factory()
    deciders: list[int] = []
    for text in record.moves:
        deciders.append(state.current_player())
        state.play(text)
    return deciders
