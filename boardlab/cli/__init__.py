"""The ``boardlab`` command: games, agents, rules, play, simulate, replay, analyse, render, check.

A thin layer: parse and validate the command line, call the library, print
with rich. Every error for bad input is a BoardlabError printed as one line
(exit status 2); the games are reached only through the protocol.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.markup import escape

from .. import __version__, compiled
from ..agents import DEFAULT_LEVEL, HUMAN, LEVELS, seat_agents
from ..core.errors import BoardlabError
from ..core.match import Match
from ..core.records import Record
from .analyse import add_analyse_parser, analyse_command
from .balance import add_balance_parser, balance_command
from .check import check_command
from .common import (
    CliError,
    build_game,
    default_seats,
    make_consoles,
    new_seed,
    rules_version_warning,
    seat_count,
    split_specs,
)
from .info import agents_command, games_command, rules_command
from .lab import add_lab_parser, lab_command
from .learn import add_learn_parser, learn_command
from .play import PlaySession
from .playtests import add_playtests_parser, playtests_command
from .render import render_command
from .replay import replay_command
from .serve import add_serve_parser, serve_command
from .simulate import simulate_command
from .tournament import add_tournament_parser, tournament_command
from .train import add_train_parser, train_command

ReadLine = Callable[[str], str]


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        "-O",
        action="append",
        metavar="NAME=VALUE",
        help="a rule option (repeatable); `boardlab games` lists each game's options",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardlab",
        description="Exact rules, play, computer opponents and a balance lab for tabletop games.",
    )
    parser.add_argument("--version", action="version", version=f"boardlab {__version__} ({compiled.summary()})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    games = commands.add_parser("games", help="list the games (a table), or one game's options")
    games.add_argument("game", nargs="?", help="show this game's options in detail")
    games.add_argument("--json", action="store_true", help="the catalog as JSON")

    agents = commands.add_parser("agents", help="list the computer players and their parameters, or one game's levels")
    agents.add_argument("game", nargs="?", help="also show this game's levels: spec, rating, CPU per decision")

    rules = commands.add_parser("rules", help="show a game's rules (for players; --programs: the notation and encodings)")
    rules.add_argument("game", help="game id (see `boardlab games`)")
    rules.add_argument("--plain", action="store_true", help="the whole document's Markdown source, unformatted")
    rules.add_argument(
        "--programs", action="store_true", help="the part for programs: notation, position strings, result codes, encodings"
    )

    play = commands.add_parser(
        "play",
        help="play a game in the terminal",
        epilog="In the game, type help for the commands. While the computer thinks, type now and "
        "Enter to make it move at once; anything else typed meanwhile waits for your prompt.",
    )
    play.add_argument("game", nargs="?", help="game id (omit with --resume)")
    play.add_argument(
        "--players",
        help="one entry per seat: human, a level (beginner, easy, normal, hard; expert in a game that has it) "
        "or an agent spec, e.g. "
        "human,hard or human,mcts:seconds=2 (default: you against the computer at --level)",
    )
    play.add_argument(
        "--level",
        choices=LEVELS,
        default=None,
        help="the computer's level where --players does not name one (with --resume: every computer seat of "
        "the record plays at it): beginner and easy (instant), "
        "normal (well under 1 s a move), hard (up to a few seconds), expert in a game that has it (the "
        "strongest; `boardlab agents GAME` lists a game's levels); docs/levels.md "
        "(default: normal)",
    )
    play.add_argument(
        "--seed",
        type=int,
        help="seed of the game's chance (default: a random one; games with chance or hidden information "
        "show its SHA-256 commitment at the start and the seed at the end)",
    )
    play.add_argument("--resume", metavar="RECORD", help="go on with a saved game")
    play.add_argument("--position", metavar="TEXT", help="start from this position string instead of the set-up")
    play.add_argument("--no-survey", action="store_true", help="at the end, skip the playtest form for the game's designer")
    _add_game_options(play)

    simulate = commands.add_parser("simulate", help="computer-vs-computer games and their statistics")
    simulate.add_argument("game", help="game id")
    simulate.add_argument("--players", required=True,
                          help="levels or agent specs, e.g. hard,random or mcts,greedy (repeat around the table)")
    simulate.add_argument("-n", "--games", type=int, default=100, help="number of games (default 100)")
    simulate.add_argument("--seats", type=int, help="number of players (default: one per listed agent)")
    simulate.add_argument("--seed", type=int, default=0, help="base seed; game i gets a seed derived from it")
    simulate.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    simulate.add_argument("--rotate", action="store_true", help="shift the seating each game")
    simulate.add_argument("--records", metavar="DIR", help="save every game's record in DIR")
    simulate.add_argument("--json", action="store_true", help="print the statistics as JSON")
    _add_game_options(simulate)

    add_lab_parser(commands)
    add_playtests_parser(commands)
    add_balance_parser(commands)
    add_tournament_parser(commands)
    add_train_parser(commands)

    replay = commands.add_parser("replay", help="step through a saved game")
    replay.add_argument("file", help="a record (JSON) saved by play or simulate")
    replay.add_argument("--to", type=int, metavar="N", help="show the position after move N and exit")
    replay.add_argument("--final", action="store_true", help="show the final position and exit")
    replay.add_argument("--seat", type=int, metavar="S", help="draw seat S's view (1-based; default: spectators)")

    add_analyse_parser(commands)

    render = commands.add_parser("render", help="draw a state: a PNG where the game can, else the text board")
    render.add_argument("target", help="a game id or a record file")
    render.add_argument("--position", metavar="TEXT", help="position string (with a game id)")
    render.add_argument("--move", type=int, metavar="N",
                        help="after the players' move N, as the terminal numbers them (with a record; default: the end)")
    render.add_argument("--seats", dest="num_players", type=int, help="number of players (with a game id)")
    render.add_argument("--seed", type=int, help="seed of the state (with a game id)")
    render.add_argument("--seat", type=int, metavar="S", help="draw seat S's view (1-based; default: spectators)")
    render.add_argument(
        "-o", "--output", metavar="FILE", help="write FILE.png (a picture, where the game draws one) or FILE.txt (the text board)"
    )
    render.add_argument("--force", action="store_true", help="replace the -o file if it exists")
    _add_game_options(render)

    check = commands.add_parser("check", help="run the conformance suite on a game (for a game's author)")
    check.add_argument("game", help="game id")
    check.add_argument("--seats", type=int, help="number of players (default: the game's default)")
    check.add_argument("--quick", action="store_true", help="a fifth of the random games and fuzz examples")
    check.add_argument("--no-fuzz", action="store_true", help="skip the hypothesis fuzzing of the parsers")
    _add_game_options(check)

    add_learn_parser(commands)
    add_serve_parser(commands)
    return parser


def _enable_line_editing() -> None:
    """Arrow keys and a history for typed moves, where the platform has readline."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (importing it is what turns editing on for input())


def play_command(args: argparse.Namespace, out: Console, err: Console, read_line: ReadLine) -> int:
    """Set up the match (new or resumed) and its seats, then run the session."""
    _enable_line_editing()
    specs = split_specs(args.players) if args.players else None
    if args.resume is not None:
        if args.game is not None or args.option or args.seed is not None or args.position is not None:
            raise CliError(
                "--resume takes the game, options, seed and start from the record; "
                "give no GAME, --option, --seed or --position"
            )
        record = Record.load(args.resume)  # validates every move
        game = record.game()
        warning = rules_version_warning(record, args.resume)
        if warning:
            err.print(f"[yellow]{escape(warning)}[/yellow]")
        if specs is None:
            specs = [seat.agent for seat in record.seats]
            if not specs:
                level = args.level or DEFAULT_LEVEL
                specs = default_seats(game, level)
                computer = ", ".join(game.player_name(seat) for seat in range(1, game.num_players))
                err.print(
                    f"[yellow]{escape(args.resume)} names no players: you play {escape(game.player_name(0))}, "
                    f"the computer ({escape(level)}) plays {escape(computer)}. "
                    "Choose with --players, e.g. --players human,human.[/yellow]"
                )
            elif args.level is not None:  # the same people, the computer at another level
                specs = [spec if spec == HUMAN else args.level for spec in specs]
        agents = seat_agents(game, specs, record.seed)
        match = Match.from_record(record, agents, undo=_undo_policy(specs))
        if match.is_over():
            raise CliError(f"{args.resume}: that game is over (boardlab replay {args.resume} shows it)")
        return PlaySession(
            match, out, read_line, resumed_from=Path(args.resume).expanduser(), move_now_input=_move_now_input(),
            survey=not args.no_survey,
        ).run()
    if args.game is None:
        raise CliError("play needs a game id (see `boardlab games`) or --resume RECORD")
    game = build_game(args.game, seat_count(args.game, None, specs or []), args.option)
    seed = args.seed if args.seed is not None else new_seed(game)
    specs = specs or default_seats(game, args.level or DEFAULT_LEVEL)
    match = Match(game, seat_agents(game, specs, seed), seed=seed, start=args.position, undo=_undo_policy(specs))
    if match.is_over():
        raise CliError(f"--position {args.position!r}: the game is already over there")
    session = PlaySession(
        match, out, read_line, move_now_input=_move_now_input(), seed_chosen=args.seed is not None, survey=not args.no_survey
    )
    return session.run()


def _move_now_input() -> TextIO | None:
    """Standard input when a person types at a terminal: watched while a computer thinks (`now`)."""
    return sys.stdin if sys.stdin.isatty() else None


def _undo_policy(specs: Sequence[str]) -> str:
    """People sharing the screen may take back each other's moves; one person only their own."""
    return "same_screen" if sum(spec == "human" for spec in specs) > 1 else "own"


def warn_if_not_compiled(err: Console) -> None:
    """One line at the start when the install left the kernels uncompiled (no C compiler or
    no mypyc): pip shows the build's own warning only with -v, so it is said here, where the
    person sees it. Not when pure Python was asked for (``BOARDLAB_PURE=1``); a kernel edited
    since the build warns by itself."""
    uncompiled = [kernel for kernel in compiled.kernels() if kernel.reason == "not compiled"]
    if uncompiled:
        err.print(
            f"[yellow]boardlab: {len(uncompiled)} of {len(compiled.kernels())} kernels are not compiled, so "
            "moves, searches and simulations run as pure Python, several times slower. The install found "
            "no C compiler or no mypyc: install gcc and python3-dev (or your system's equivalent), then "
            "pip install again. `boardlab --version` says which kernels run compiled.[/yellow]"
        )


def main(argv: Sequence[str] | None = None, read_line: ReadLine | None = None) -> int:
    """Run the command; the exit status (0 ok, 2 bad input, 130 interrupted)."""
    args = build_parser().parse_args(argv)
    out, err = make_consoles()
    warn_if_not_compiled(err)
    # a prompt is plain text: "[y/N]" read as markup would vanish from the question
    reader: ReadLine = read_line if read_line is not None else (lambda prompt: out.input(escape(prompt)))
    try:
        if args.command == "games":
            return games_command(args, out, err)
        if args.command == "agents":
            return agents_command(args, out, err)
        if args.command == "rules":
            return rules_command(args, out, err)
        if args.command == "play":
            return play_command(args, out, err, reader)
        if args.command == "simulate":
            return simulate_command(args, out, err)
        if args.command == "lab":
            return lab_command(args, out, err)
        if args.command == "playtests":
            return playtests_command(args, out, err)
        if args.command == "balance":
            return balance_command(args, out, err)
        if args.command == "tournament":
            return tournament_command(args, out, err)
        if args.command == "train":
            return train_command(args, out, err)
        if args.command == "replay":
            return replay_command(args, out, err, reader)
        if args.command in ("analyse", "analyze"):
            return analyse_command(args, out, err)
        if args.command == "render":
            return render_command(args, out, err)
        if args.command == "check":
            return check_command(args, out, err)
        if args.command == "serve":
            return serve_command(args, out, err)
        if args.command == "learn":
            return learn_command(args, out, err, reader)
        raise CliError(f"unknown command {args.command!r}")
    except BoardlabError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        return 2
    except OSError as exc:
        if exc.filename is None:
            raise  # not a file the person named: a fault of ours, whose traceback says where
        # a file or folder the person named cannot be written or read (a name too long, a disk full)
        err.print(f"[red]error:[/red] {escape(str(exc.filename))}: {escape(exc.strerror or str(exc))}")
        return 2
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130


__all__ = ["build_parser", "main"]
