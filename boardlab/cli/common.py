"""What every subcommand shares: consoles, option parsing, seat lists, board drawing.

The CLI sees games only through the protocol (docs/api.md); nothing here knows
a particular game.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from ..agents import DEFAULT_LEVEL, game_levels, level_spec, make_agent
from ..core.errors import BoardlabError, OptionError
from ..core.game import Game
from ..core.records import Record
from ..core.registry import game_class, load

HUMAN = "human"


class CliError(BoardlabError):
    """Bad command-line input that no library call rejects (a missing file, a bad flag value)."""


def make_consoles() -> tuple[Console, Console]:
    """The stdout console and the stderr console (no syntax highlighting guesses)."""
    return Console(highlight=False), Console(stderr=True, highlight=False)


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["layout=diagram", "tremor=true"]`` -> a dict; values stay text (the game coerces them)."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise OptionError(f"--option {pair!r}: expected NAME=VALUE, e.g. --option layout=diagram")
        options[name.strip()] = value.strip()
    return options


def split_specs(text: str) -> list[str]:
    """A comma list of agent specs; commas inside ``name:k=v,k2=v2`` parameters stay with their spec.

    ``"human,mcts:seconds=2,c=1.1,random"`` -> ``["human", "mcts:seconds=2,c=1.1", "random"]``:
    a part holding ``=`` but no ``:`` continues the previous spec's parameters.
    """
    specs: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            # the example suits every caller: play takes human too, but simulate and lab refuse it
            raise OptionError(f"--players {text!r}: empty entry (expected e.g. greedy,mcts:seconds=2)")
        if specs and "=" in part and ":" not in part and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def seat_count(game_id: str, requested: int | None, specs: Sequence[str]) -> int | None:
    """How many seats: ``requested`` if given, else one per listed player when that many may
    play, or when more are listed than the game seats by default (the game then refuses the
    count, naming the counts it allows: more players than seats is no default's to absorb)."""
    if requested is not None:
        return requested
    cls = game_class(game_id)
    if len(specs) > 1 and len(specs) in cls.allowed_player_counts():
        return len(specs)
    if len(specs) > (cls.default_players or cls.min_players):
        return len(specs)
    return None


def build_game(game_id: str, players: int | None, option_pairs: Sequence[str] | None) -> Game:
    """``boardlab.load`` with command-line option text; BoardlabError lists what is valid."""
    return load(game_id, players=players, **parse_options(option_pairs))


def default_computer(game: Game, level: str = DEFAULT_LEVEL) -> str:
    """The computer's spec at ``level`` (boardlab.agents.levels: beginner, easy, normal, hard, expert)."""
    return level_spec(game, level)


def default_seats(game: Game, level: str = DEFAULT_LEVEL) -> list[str]:
    """A human in seat 1 against the computer at ``level`` in every other seat."""
    return [HUMAN] + [default_computer(game, level)] * (game.num_players - 1)


def new_seed(game: Game | None = None) -> int:
    """A fresh seed. Where the seed foretells chance or hidden cards it is kept secret behind
    its SHA-256 commitment, which only a seed too large to try out (256 bits, as the server's)
    keeps; otherwise one small enough to type back in (``--seed``)."""
    if game is not None and (game.has_chance or game.has_hidden_information):
        return secrets.randbits(256)
    return secrets.randbits(32)


def decider_label(game: Game, view: Mapping[str, Any]) -> str:
    """``White to move`` / ``chance`` / ``game over``: who decides now, from a view envelope."""
    if view["over"]:
        return "game over"
    if view["chance"]:
        return "chance"
    return f"{game.player_name(view['to_move'])} to move"


def board_panel(game: Game, view: Mapping[str, Any], title: str) -> Panel:
    """The game's own drawing of a view envelope (rich markup) in a titled frame."""
    return Panel.fit(game.render_view(view), title=title, subtitle=decider_label(game, view))


def level_name(game: Game, spec: str) -> str | None:
    """The level (``normal``...) whose agent plays ``spec`` in ``game``, or None: what a player
    is shown of a computer seat (agent specs are for the lab and the API). Specs are compared
    as their agents write them, so a record's spec and the level table's agree however spelt."""
    wanted = _agent_spec(game, spec)
    if wanted is None:
        return None
    for level in game_levels(game):
        if _agent_spec(game, level_spec(game, level)) == wanted:
            return level
    return None


_SPECS: dict[tuple[str, str], str | None] = {}


def _agent_spec(game: Game, spec: str) -> str | None:
    key = (game.id, spec)
    if key not in _SPECS:
        try:
            _SPECS[key] = make_agent(spec, seed=0, game=game).spec()
        except BoardlabError:
            _SPECS[key] = None
    return _SPECS[key]


def moves_text(count: int) -> str:
    """``1 move``, ``12 moves``: the players' moves (a roll or a deal is no move)."""
    return "1 move" if count == 1 else f"{count} moves"


def natural_key(text: str) -> list[tuple[int, int | str]]:
    """Sort key putting ``a2`` before ``a10``: digit runs compare as numbers."""
    return [(0, int(part)) if part.isdecimal() else (1, part) for part in re.split(r"(\d+)", text) if part]


def print_moves(out: Console, moves: Sequence[str], prefix: str = "", candidates: bool = False) -> None:
    """``moves`` in columns, in natural order; with ``prefix`` only those starting with it (as
    typed, else in any case: ``moves s`` finds ``Sb2-b5``). ``candidates``: a game of continuous
    moves lists a sample of its moves, not all of them."""
    ordered = sorted(moves, key=natural_key)
    if prefix:
        ordered = [m for m in ordered if m.startswith(prefix)] or [m for m in ordered if m.lower().startswith(prefix.lower())]
    kind = "candidate moves" if candidates else "legal moves"
    where = f" starting with {prefix!r}" if prefix else ""
    count = f"{len(ordered)} {kind}" if len(ordered) != 1 else f"1 {kind[:-1]}"
    out.print(escape(f"{count}{where}:"))
    out.print(Columns([escape(m) for m in ordered], padding=(0, 3)))
    if len(ordered) > 60 and not prefix:
        out.print("(type [bold]moves TEXT[/bold] to list only the moves starting with TEXT)")


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


def rules_version_warning(record: Record, source: str) -> str | None:
    """What to tell a person about a record played under other rules than this boardlab's
    (None: the same rules, or a record that does not say)."""
    played = record.rules_version
    current = str(record.game().rules_version)
    if played is None or str(played) == current:
        return None
    if _version_key(str(played)) > _version_key(current):
        return (
            f"{source} was played under {record.game_id} rules version {played}, newer than this "
            f"boardlab's version {current}. Its moves are legal here, but the newer rules may differ; "
            "update boardlab to be sure (pip install -U boardlab)."
        )
    return (
        f"{source} was played under {record.game_id} rules version {played}; this boardlab has "
        f"{current}. The moves are still legal, but details may differ."
    )
