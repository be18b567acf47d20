"""``boardlab games``, ``boardlab agents`` and ``boardlab rules``: what there is and how it plays."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from ..agents import agent_class, agent_names
from ..core.registry import catalog
from .common import CliError, rules_path


def _yes(flag: bool) -> str:
    return "yes" if flag else "-"


def games_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """The catalog as a table (or JSON with --json)."""
    entries = catalog()
    if args.json:
        out.print_json(json.dumps(entries))
        return 0
    if not entries:
        err.print("No games are installed.")
        return 1
    table = Table(title="boardlab games")
    for column in ("id", "name", "players", "chance", "hidden info", "continuous", "options"):
        table.add_column(column, overflow="fold")
    for entry in entries:
        players = (
            str(entry["min_players"])
            if entry["min_players"] == entry["max_players"]
            else f"{entry['min_players']}-{entry['max_players']}"
        )
        options = "\n".join(f"{o['name']}={o['default']} ({o['allowed']})" for o in entry["options"]) or "-"
        table.add_row(
            escape(entry["id"]),
            escape(entry["name"]),
            players,
            _yes(entry["chance"]),
            _yes(entry["hidden_information"]),
            _yes(entry["continuous_moves"]),
            escape(options),
        )
    out.print(table)
    out.print("Rules: boardlab rules GAME.  Play: boardlab play GAME.")
    return 0


def agents_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Every computer player with its parameters (for --players specs)."""
    table = Table(title="computer players (spec: name:param=value,...)")
    table.add_column("name")
    table.add_column("what it does", overflow="fold")
    table.add_column("parameters", overflow="fold")
    for name in agent_names():
        cls = agent_class(name)
        params = "\n".join(
            f"{key}={default} ({kind.__name__}): {help_text}"
            for key, (kind, default, help_text) in cls.params.items()
        )
        table.add_row(escape(name), escape(cls.summary), escape(params) or "-")
    out.print(table)
    return 0


def rules_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Print docs/rules/<id>.md, formatted (``--plain`` for the raw text)."""
    path = rules_path(args.game)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise CliError(
            f"no rules document for {args.game!r}: docs/rules/{args.game}.md is missing "
            "(the rules ship with the source checkout)"
        ) from None
    if args.plain:
        out.print(text, markup=False, highlight=False, end="")
    else:
        out.print(Markdown(text))
    return 0
