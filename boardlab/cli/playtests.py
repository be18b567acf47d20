"""``boardlab playtests``: the designer's view of people's games in the terminal, and the
playtest form ``boardlab play`` asks at the end of a game.

``boardlab playtests GAME`` reads the games between people from a server's database (its data
folder's SQLite, or ``--database-url``) or from a folder of records (``boardlab play`` saves,
or a server's export), and prints per rule variant and per session the figures, the form's
answers and every note, beside the lab's stored study of the same rules
(:mod:`boardlab.lab.playtests`); ``--json`` and ``--csv`` give the same as data.
``--demo GAME`` fills a throwaway data folder with simulated people (:mod:`boardlab.server.playtest_demo`).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.errors import BoardlabError, OptionError
from ..core.game import Game
from ..core.records import Record
from ..core.registry import load
from ..core.values import Player
from ..lab.playtest_form import LENGTH_WORDS, LENGTHS, FormAnswer, record_answers
from ..lab.playtests import RECORD_SESSION, PeopleGame, playtest_report, report_rows
from ..lab.verdict import figure_text
from .common import CliError

#: the SQLite file of a server's data folder (boardlab.server.settings.SQLITE_FILE, without the web extra)
SQLITE_FILE = "boardlab.sqlite3"
#: what a server's JSON export of a game's playtests is
EXPORT_FORMAT = "boardlab-playtests-export/1"
#: the demo's default count of games (boardlab.server.playtest_demo's MIN_GAMES and MAX_GAMES, which
#: the web extra's import would bring into every command's start): the most, unless the first game
#: takes so long that the most would play for over 15 s (over 0.6 s a game), then fewer, down to the fewest
DEMO_FEWEST_GAMES, DEMO_MOST_GAMES = 8, 24


def add_playtests_parser(commands: Any) -> None:
    playtests = commands.add_parser(
        "playtests",
        help="people's games beside the lab's: results, the playtest form, per variant and session",
        description="People's games of GAME (games between people only) from a server's database or a folder of "
        "records, per rule variant and per session, beside the lab's stored study of the same rules.",
    )
    playtests.add_argument("game", help="game id")
    playtests.add_argument("records", nargs="?", metavar="RECORDS",
                           help="a folder of records (boardlab play's saves) or a server's export file, "
                           "instead of a server's database")
    playtests.add_argument("--data-dir", default="boardlab-data", metavar="DIR",
                           help="the server's data folder: its SQLite database and its Lab's studies (default ./boardlab-data)")
    playtests.add_argument("--database-url", metavar="URL", help="the server's PostgreSQL (postgresql://USER@HOST/DB)")
    playtests.add_argument("--session", metavar="NAME", help="only this playtest session's games")
    playtests.add_argument("--lab", action="append", metavar="DIR",
                           help="a lab study folder, or a folder of them, to compare with (repeatable; default: the "
                           "data folder's Lab and the lab-* folders here)")
    shown = playtests.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="the figures as JSON")
    shown.add_argument("--csv", action="store_true", help="one row per person per game: result and answers")
    playtests.add_argument("--demo", action="store_true",
                           help="fill a new data folder (--data-dir, empty or new; default a temporary one) with "
                           "simulated people's games (computer levels standing in) and show them")
    playtests.add_argument("--games", type=int, metavar="N",
                           help=f"with --demo: games of simulated people, at least 1 (default: {DEMO_MOST_GAMES}, or "
                           f"fewer, down to {DEMO_FEWEST_GAMES}, where the first game takes over about 0.6 s)")


def playtests_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    load(args.game)  # an unknown game is named before anything is read
    if args.games is not None:
        # before the demo says what it will play or makes its folder
        if not args.demo:
            raise CliError("--games counts the demo's games: use it with --demo")
        if args.games < 1:
            raise CliError(f"--games must be at least 1, not {args.games}")
    if args.demo:
        from ..server.playtest_demo import run_demo

        data_dir = run_demo(args.game, args.data_dir if args.data_dir != "boardlab-data" else None, args.games, err)
        args.data_dir, args.records, args.database_url = str(data_dir), None, None
        # the demo's figures are its own lab's, wherever it runs (the default also reads this folder's)
        args.lab = args.lab or [str(data_dir / "lab")]
    report = read_report(args)
    if args.json:
        sys.stdout.write(json.dumps(report, indent=1) + "\n")
    elif args.csv:
        write_csv(report, sys.stdout)
    else:
        print_report(out, report)
        if args.demo:
            out.print(
                f"The demo's data folder is {escape(args.data_dir)}. See its Playtests page in the browser: "
                f"boardlab serve --data-dir {escape(args.data_dir)}, then open http://127.0.0.1:8000/playtests/{args.game}",
                soft_wrap=True,
            )
    return 0


def read_report(args: argparse.Namespace) -> dict[str, Any]:
    """The report of the games ``args`` names (a folder of records, or a server's database)."""
    data_dir = Path(args.data_dir)
    lab_folders = [Path(folder) for folder in args.lab] if args.lab else [data_dir / "lab", Path.cwd()]
    if args.records is not None:
        if args.database_url:
            raise CliError("give a folder of records or --database-url, not both")
        games, left_out = records_games(Path(args.records), args.game, args.session)
        return playtest_report(args.game, games, lab_folders, left_out)
    return database_report(args.game, data_dir, args.database_url, args.session, lab_folders)


def database_report(
    game_id: str, data_dir: Path, database_url: str | None, session_name: str | None, lab_folders: Sequence[Path]
) -> dict[str, Any]:
    """The report over a server's database (the web extra's SQLAlchemy reads it)."""
    try:
        from ..server.players import PlayerBook
        from ..server.playtests import PlaytestBook
        from ..server.settings import normalize_database_url
        from ..server.storage import Storage
    except ImportError as exc:
        raise CliError(f"reading a server's database needs the web extra (pip install 'boardlab[web]'): {exc}") from None
    if database_url is None:
        path = data_dir / SQLITE_FILE
        if not path.is_file():
            raise CliError(
                f"no server database in {data_dir} ({SQLITE_FILE}): give the server's --data-dir, its --database-url, "
                "or a folder of records"
            )
        url = f"sqlite:///{path.resolve()}"
    else:
        url = normalize_database_url(database_url)
    storage = Storage(url)
    try:
        book = PlaytestBook(storage, PlayerBook(storage))
        session_id = None
        if session_name is not None:
            found = book.session_named(game_id, session_name)
            if found is None:
                names = ", ".join(repr(session["name"]) for session in book.sessions(game_id)) or "none"
                raise CliError(f"{game_id} has no playtest session named {session_name!r} (its sessions: {names})")
            session_id = found["id"]
        games, left_out = book.people_games(game_id, session_id)
        report = playtest_report(game_id, games, lab_folders, left_out)
        report["sessions"] = book.sessions(game_id)
    finally:
        storage.close()
    return report


def records_games(folder: Path, game_id: str, session: str | None) -> tuple[list[PeopleGame], dict[str, int]]:
    """The finished records of ``game_id`` in ``folder`` (every ``*.json`` in it and below), or
    in a server's export file; each with its form's answers and session. In a folder, files
    that are not records are counted as left out (a folder holds other files too); a file given
    by name that is not a record, nor a server's export, nor of ``game_id``, is refused."""
    if not folder.exists():
        raise CliError(f"{folder}: no such folder or file")
    left_out: dict[str, int] = {}
    found: list[tuple[Record, str]] = []
    for path in [folder] if folder.is_file() else sorted(folder.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:
            if path == folder:
                raise CliError(f"{path} is not a record nor a server's export: {unreadable_reason(exc)}") from None
            left_out["not records"] = left_out.get("not records", 0) + 1
            continue
        exported = isinstance(data, dict) and data.get("format") == EXPORT_FORMAT
        entries = data["records"] if exported else [data]
        for number, entry in enumerate(entries):
            try:
                found.append((Record.from_json(entry), str(path) if len(entries) == 1 else f"{path}#{number}"))
            except BoardlabError as exc:
                if path == folder and not exported:
                    raise CliError(f"{path} is not a record nor a server's export: {exc}") from None
                # a broken entry of an export, or a stray file in a folder: counted, as documented
                left_out["not records"] = left_out.get("not records", 0) + 1
    if folder.is_file() and not exported and found[0][0].game_id != game_id:
        raise CliError(f"{folder} is a record of {found[0][0].game_id}, not {game_id}")
    games = []
    for record, source in found:
        if record.game_id != game_id:
            continue
        named = record.meta.get(RECORD_SESSION)
        if session is not None and named != session:
            continue
        if record.result is None and record.ending is None:
            left_out["unfinished"] = left_out.get("unfinished", 0) + 1
            continue
        try:
            answers = tuple(record_answers(record))
        except BoardlabError:
            answers = ()
            left_out["answers unreadable"] = left_out.get("answers unreadable", 0) + 1
        names = record.meta.get("players")
        if not isinstance(names, dict):
            names = {}
        player_names = {int(seat): str(name) for seat, name in names.items() if str(seat).isdigit()}
        room = record.meta.get("room") if isinstance(record.meta.get("room"), str) else None
        games.append(PeopleGame(record, answers, session=named if isinstance(named, str) else None, room=room,
                                source=None if room else source, player_names=player_names))
    return games, left_out


def unreadable_reason(exc: OSError | ValueError | RecursionError) -> str:
    """Why a file could not be read as JSON, in a designer's words."""
    if isinstance(exc, RecursionError):
        return "its JSON is nested too deeply"
    if isinstance(exc, json.JSONDecodeError):
        return f"it is not valid JSON, truncated or damaged? ({exc})"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not text"
    if isinstance(exc, OSError):
        return f"it cannot be read ({exc.strerror or exc})"
    return str(exc)


def write_csv(report: Mapping[str, Any], stream: Any) -> None:
    rows = report_rows(report)
    writer = csv.DictWriter(stream, fieldnames=list(rows[0]) if rows else ["game"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


# --- the report in the terminal ---------------------------------------------------------------------
def print_report(out: Console, report: Mapping[str, Any]) -> None:
    left = ", ".join(f"{count} {why}" for why, count in report["left_out"].items() if count)
    out.print(
        f"[bold]{escape(report['name'])}: {report['games']} game{'s' if report['games'] != 1 else ''} between people[/bold]"
        + (f" (left out: {escape(left)})" if left else "")
    )
    if not report["variants"]:
        out.print("No finished game between people yet: a designer's session gives an invite link "
                  "(the Playtests page, or POST /api/playtests/sessions); boardlab playtests --demo GAME shows what comes.")
    for variant in report["variants"]:
        out.print()
        rules = variant["variant"] or "the rules as written"
        out.print(f"[bold]{escape(rules)}[/bold] ({variant['players']} players, {variant['people']['games']} games)")
        for line in variant["verdict"]:
            out.print(escape(line), soft_wrap=True)
        out.print(figures_table(variant))
        out.print(escape(variant["endings"]), soft_wrap=True)
        sessions = variant["sessions"]
        if sessions:
            out.print(sessions_table(sessions))
        for note in variant["people"]["notes"]:
            session = f"session {note['session']}" if note["session"] else None
            who = ", ".join(part for part in (note["seat_name"], note["player"], session) if part)
            out.print(f"  [italic]“{escape(note['note'])}”[/italic] ({escape(who)}) {escape(note['replay'])}", soft_wrap=True)


def figures_table(variant: Mapping[str, Any]) -> Table:
    lab = variant["lab"]
    agents = f"; the lab: {', '.join(dict.fromkeys(lab['study']['agents']))}; difference: people minus the lab" if lab else ""
    table = Table(title=f"with 95% intervals{agents}")
    table.add_column("figure")
    table.add_column("people", justify="right")
    if lab is not None:
        table.add_column("the lab", justify="right")
        table.add_column("difference", justify="right")
    for row in variant["rows"]:
        cells = [escape(row["title"]), figure_text(row["people"], row["percent"])]
        if lab is not None:
            cells.append(figure_text(row["lab"], row["percent"]))
            shown = figure_text(row["difference"], row["percent"], signed=True)
            cells.append(f"[bold]{shown}[/bold]" if row["sure"] else shown)
        table.add_row(*cells)
    form = variant["people"]["form"]
    if form["answers"]:
        table.add_row("fun (1 to 5)", figure_text(form["fun"], False), *([""] * (2 if lab else 0)))
        table.add_row("found it fair", figure_text(form["fair"], True), *([""] * (2 if lab else 0)))
        for name, figure in zip(variant["seat_names"], form["favoured"]):
            table.add_row(f"{escape(name)} favoured", figure_text(figure, True), *([""] * (2 if lab else 0)))
        for length in LENGTHS:
            table.add_row(LENGTH_WORDS[length], figure_text(form["length"][length], True), *([""] * (2 if lab else 0)))
    return table


def sessions_table(sessions: Sequence[Mapping[str, Any]]) -> Table:
    table = Table(title="per session")
    for column in ("session", "games", "first player wins", "length in moves", "fun (1 to 5)"):
        table.add_column(column, justify="left" if column == "session" else "right")
    for session in sessions:
        people = session["people"]
        table.add_row(
            escape(session["session"]), str(people["games"]),
            figure_text(people["metrics"]["first_player_wins"], True),
            figure_text(people["metrics"]["decisions"], False), figure_text(people["form"]["fun"], False),
        )
    return table


# --- the form at the end of `boardlab play` ------------------------------------------------------
#: answers that say yes (the form is answered only on a yes: a piped script's line is never an answer)
YES = ("y", "yes")
LENGTH_KEYS = {"s": "short", "r": "right", "l": "long"}


def ask_playtest_form(read: Callable[[str], str | None], out: Console, game: Game, people: Sequence[Player]) -> list[FormAnswer]:
    """The playtest form for each person at the screen (``people``: their seats), every question
    skippable with Enter; ``read(prompt)`` gives a line, None when the input ended. Nothing is
    asked unless the first question is answered yes."""
    first = read("A playtest form for the game's designer: four short questions. Answer it? [y/N] ")
    if first is None or first.strip().lower() not in YES:
        return []
    answers: list[FormAnswer] = []
    favoured_help = ", ".join(f"{seat + 1} {game.player_name(seat)}" for seat in range(game.num_players))
    for seat in people:
        name = game.player_name(seat)
        questions: list[tuple[str, Callable[[str], Any]]] = [
            (f"How much fun was it for {name}, 1 (none) to 5 (great)? ", _fun),
            (f"Did it feel fair to {name}? f: fair, or the seat favoured ({favoured_help}): ",
             lambda text: _fairness(text, game)),
            (f"Its length for {name}: s too short, r about right, l too long? ", _length),
            (f"A note for the designer from {name} (one line)? ", lambda text: text.strip()),
        ]
        given: list[Any] = []
        for prompt, parse in questions:
            value = _ask_until_valid(read, out, prompt, parse)
            if value is _ENDED:
                break
            given.append(value)
        given += [None] * (len(questions) - len(given))  # the input ended: what was answered stays
        fairness, favoured = given[1] if given[1] else (None, None)
        answer = FormAnswer(seat, given[0], fairness, favoured, given[2], given[3] or "")
        if not answer.empty:
            answers.append(answer.checked(game.num_players))
        if value is _ENDED:
            break
    return _kept(answers, out)


_ENDED = object()


def _ask_until_valid(read: Callable[[str], str | None], out: Console, prompt: str, parse: Callable[[str], Any]) -> Any:
    """The parsed answer (None: skipped with Enter), asked again while it does not parse."""
    while True:
        text = read(prompt)
        if text is None:
            return _ENDED
        if not text.strip():
            return None
        try:
            return parse(text)
        except OptionError as exc:
            out.print(f"[red]{escape(str(exc))}[/red] (Enter skips the question)")


def _kept(answers: list[FormAnswer], out: Console) -> list[FormAnswer]:
    if answers:
        out.print("Thank you: the answers are kept with the game's record (save it to give it to the designer).")
    return answers


def _fun(text: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= 5:
        raise OptionError(f"{text.strip()!r}: a whole number from 1 to 5")
    return int(text)


def _fairness(text: str, game: Game) -> tuple[str, int | None]:
    answer = text.strip().lower()
    if answer in ("f", "fair"):
        return ("fair", None)
    if answer.isdigit() and 1 <= int(answer) <= game.num_players:
        return ("favoured", int(answer) - 1)
    raise OptionError(f"{text.strip()!r}: f, or a seat's number from 1 to {game.num_players}")


def _length(text: str) -> str:
    answer = text.strip().lower()
    for key, length in LENGTH_KEYS.items():
        if answer in (key, length, LENGTH_WORDS[length]):
            return length
    raise OptionError(f"{text.strip()!r}: s, r or l")


__all__ = ["add_playtests_parser", "ask_playtest_form", "playtests_command", "print_report", "records_games"]
