"""``boardlab games``, ``boardlab agents`` and ``boardlab rules``: what there is and how it plays."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..agents import agent_class, agent_names, game_levels, level_spec, make_agent
from ..agents.levels import describe_spec
from ..core.agent import kind_words
from ..core.errors import BoardlabError
from ..core.game import Game
from ..core.registry import RULES_DOCUMENT, catalog, game_class, load, plugin_failures, rules_document
from ..lab.ladder_docs import level_ratings, load_ladder, rating_text
from ..lab.study import option_text
from ..learn.documents import split_rules
from .common import CliError
from .rules_boards import rules_renderable


def _players_text(entry: Mapping[str, Any]) -> str:
    return game_class(entry["id"]).player_counts_text()


def _nature(entry: Mapping[str, Any]) -> str:
    return ", ".join(entry["nature"])


def games_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """The catalog as a table, one game in detail (``games GAME``), or JSON with --json.
    A game plugin that failed to load is named on stderr with its cause; the others list."""
    entries = catalog()
    for failure in plugin_failures():
        err.print(f"[yellow]warning:[/yellow] {escape(str(failure))}")
    if args.game is not None:
        game_class(args.game)  # UnknownGameError lists the valid ids
        entries = [e for e in entries if e["id"] == args.game]
    if args.json:
        sys.stdout.write(json.dumps(entries if args.game is None else entries[0], indent=1) + "\n")
        return 0
    if not entries:
        err.print("No games are installed.")
        return 1
    if args.game is not None:
        return _game_detail(entries[0], out)
    table = Table(title="boardlab games")
    table.add_column("id", no_wrap=True)
    table.add_column("name", no_wrap=True)
    table.add_column("players", justify="center", no_wrap=True)
    table.add_column("nature")
    table.add_column("rule options", justify="right")
    for entry in entries:
        # names and defaults are read in the detail view (the footer says how); a list here wraps mid-word
        options = str(len(entry["options"]))
        table.add_row(
            escape(entry["id"]), escape(entry["name"]), _players_text(entry), _nature(entry), escape(options)
        )
    out.print(table)
    # one command a line: a command cut in two at the terminal's edge reads as two
    out.print("Options in detail: boardlab games GAME\n"
              "Rules:             boardlab rules GAME\n"
              "Play:              boardlab play GAME")
    return 0


def _game_detail(entry: Mapping[str, Any], out: Console) -> int:
    out.print(
        f"[bold]{escape(entry['name'])}[/bold] ({escape(entry['id'])}): {escape(entry['summary'])}\n"
        f"{_players_text(entry)} players; {_nature(entry)}; rules version {escape(str(entry['rules_version']))}."
    )
    table = Table(title="options (--option NAME=VALUE)")
    # a name is typed back as it is, so it never breaks; values and help share one column that
    # wraps between words (in four narrow columns at 80 characters, values broke mid-word)
    table.add_column("option", no_wrap=True)
    table.add_column("default, allowed values and what it does", overflow="fold")
    for option in entry["options"]:
        table.add_row(
            escape(option["name"]),
            f"[bold]{escape(option_text(option['default']))}[/bold] (allowed: {escape(option['allowed'])})\n"
            f"{escape(option['help'])}",
        )
    out.print(table if entry["options"] else "No options.")
    return 0


def agents_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Every computer player with its parameters (for --players specs); with a game, only
    the players of that game, and first its levels: rating, seconds a move, then each level's
    agent spec and what it plays in words."""
    game_id = getattr(args, "game", None)
    if game_id is not None:
        game_class(game_id)  # UnknownGameError lists the valid ids
        out.print(_levels_table(game_id))
        game = load(game_id)
        for level in game_levels(game):
            spec = level_spec(game, level)
            out.print(f"[bold]{level}[/bold]: {escape(describe_spec(spec))}")
            # a space after each comma lets a long spec wrap between its parameters; quoted, it
            # is still a spec (parse_spec strips the spaces)
            out.print(Padding(Text(f"spec: {spec.replace(',', ', ')}", style="dim"), (0, 0, 0, 4)))
    table = Table(title="computer players (spec: name:param=value,...)")
    table.add_column("name", no_wrap=True)
    table.add_column("games", overflow="fold")
    table.add_column("what it does", overflow="fold")
    table.add_column("parameters", overflow="fold")
    for name in agent_names(game_id):
        cls = agent_class(name)
        params = "\n".join(
            f"{key}={option_text(default)} ({kind_words(kind)}): {help_text}"
            for key, (kind, default, help_text) in cls.params.items()
        )
        games = "every game" if cls.games is None else ", ".join(cls.games)
        table.add_row(escape(name), escape(games), escape(cls.summary), escape(params) or "-")
    out.print(table)
    return 0


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.1f} s" if value >= 1 else f"{value * 1000:.0f} ms" if value >= 0.001 else "< 1 ms"


def _time_cap(game: Game, spec: str) -> str:
    """The most the computer at this spec thinks for a move by its own settings (its
    ``seconds``, or a level's cap that the spec leaves unsaid), or "-"."""
    try:
        seconds = make_agent(spec, game=game).own_time_cap()
    except BoardlabError:
        return "-"
    return "-" if seconds is None else f"{seconds:g} s"


def _levels_table(game_id: str) -> Table:
    """The game's levels with the ladder's measurements (docs/levels.md), where they are for
    the spec the level plays now: the rating and how long the computer takes a move. The
    seconds are CPU time a decision, so what a free core takes (a two-core laptop running one
    game); a busy machine takes longer, never past the level's cap."""
    game = load(game_id)
    measured = level_ratings(game)
    data = load_ladder(game_id)
    when = f"measured {data['measured']}" if data and measured else "not measured yet"
    table = Table(
        title=f"{escape(game.name)}: the computer's levels ({when}; docs/levels.md)",
        caption="rating: Elo, random moves = 0, with its 95% interval. Seconds a move: CPU time, what a free core "
        "takes; a busy machine takes longer, up to the cap.",
    )
    table.add_column("level", no_wrap=True)
    for column in ("rating", "95% interval", "seconds a move", "longest", "cap"):
        table.add_column(column, justify="right", overflow="fold")
    for level in game_levels(game):
        entry = measured.get(level)
        table.add_row(
            level,
            rating_text(entry) or "-",
            "-" if entry is None or entry.get("low") is None else f"{entry['low']:.0f} - {entry['high']:.0f}",
            _seconds(None if entry is None else entry.get("cpu_median")),
            _seconds(None if entry is None else entry.get("cpu_max")),
            _time_cap(game, level_spec(game, level)),
        )
    return table


def rules_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Print the game's rules for players (:func:`boardlab.core.registry.rules_document`: its
    own folder's, else docs/rules/<id>.md, up to its part for programs), formatted; the part
    for programs with ``--programs``; the whole document's raw text with ``--plain``."""
    path = rules_document(args.game)
    try:
        if path is None:
            raise OSError
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise CliError(
            f"no rules document for {args.game!r}: the game ships none in its folder "
            f"({RULES_DOCUMENT}), and docs/rules/{args.game}.md is not installed here"
        ) from None
    players, for_programs = split_rules(text)
    if getattr(args, "programs", False):
        if for_programs is None:
            raise CliError(f"the rules of {args.game} have no part for programs: boardlab rules {args.game} shows them all")
        shown = for_programs
    else:
        shown = players
        if for_programs is not None:
            shown += (f"\n\n*The notation, the position strings and the encodings, for programs: "
                      f"`boardlab rules {args.game} --programs`.*\n")
    if args.plain:
        sys.stdout.write(text)
    elif out.is_terminal:  # a rules document is longer than a screen
        with out.capture() as captured:
            out.print(rules_renderable(shown))  # wrapped at word boundaries to the terminal's width
        if not page(captured.get(), out):
            out.print(rules_renderable(shown))
    else:
        out.print(rules_renderable(shown))
    return 0


def with_raw_colours(less: str) -> str:
    """The LESS variable with -R added, so less shows colours and bold instead of raw ``ESC[1;4m``
    codes (which also push lines over the width, breaking words); a person's own flags stay."""
    for word in less.split():
        if word.lower() == "--raw-control-chars":
            return less
        if not word.startswith("--") and ("R" in word or "r" in word):
            return less
    return f"{less} -R".strip()


def page(text: str, out: Console) -> bool:
    """Show ``text`` (with terminal styles) in the person's pager ($MANPAGER, $PAGER, else less);
    False when no pager could be started, so the caller prints it instead."""
    command = os.environ.get("MANPAGER") or os.environ.get("PAGER") or "less"
    environment = {**os.environ, "LESS": with_raw_colours(os.environ.get("LESS", ""))}
    try:
        pager = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, env=environment)
    except (OSError, ValueError):
        return False
    try:
        assert pager.stdin is not None
        pager.stdin.write(text.encode(out.encoding or "utf-8", errors="replace"))
        pager.stdin.close()
    except BrokenPipeError:  # the person quit the pager before the end
        pass
    while True:
        try:
            pager.wait()
            return True
        except KeyboardInterrupt:  # Ctrl-C belongs to the pager while it runs
            continue
