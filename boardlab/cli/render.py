"""``boardlab render``: a picture (PNG) of any state, or its text board.

The state comes from a game and a position string, or from a record (after
``--move N``). Pictures come from the ``image_renderer`` the game's class declares (every
built-in game's ``render_png``; matplotlib is imported only when drawing); a game without
one gets its text board.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..core.game import Game
from ..core.records import Record
from ..core.registry import game_ids
from ..core.state import State
from .common import CliError, board_panel, build_game, rules_version_warning
from .replay import move_boundaries

PictureRenderer = Callable[[Mapping[str, Any], str], None]


def picture_renderer(game: Game) -> PictureRenderer | None:
    """How ``game`` draws a view envelope to a PNG file: the ``image_renderer`` its class
    declares, or None."""
    return type(game).image_renderer


def _looks_like_record(target: str) -> bool:
    return target not in game_ids() and (target.endswith(".json") or Path(target).is_file())


def state_to_render(args: argparse.Namespace, err: Console) -> tuple[State, str, int | None]:
    """The state named on the command line, GAME [--position TEXT] or RECORD [--move N], what
    it is (``after move N``: the players' moves, as play and replay number them; ``the start``;
    ``the position given``) and, from a record, the players' moves made (N)."""
    if _looks_like_record(args.target):
        if args.position is not None:
            raise CliError("--position applies to a game id, not to a record (use --move N)")
        # the whole record, final position included, as replay and play check it: a record
        # that does not hold together is refused, whichever move is drawn
        record = Record.load(args.target)
        warning = rules_version_warning(record, args.target)
        if warning:
            err.print(f"[yellow]{escape(warning)}[/yellow]")
        boundaries = move_boundaries(record.turns)
        number = len(boundaries) - 1 if args.move is None else args.move
        if not 0 <= number < len(boundaries):
            raise CliError(f"--move {number}: the record has moves 0..{len(boundaries) - 1}")
        return record.state_at(boundaries[number]), f"after move {number}", number
    if args.move is not None:
        raise CliError("--move applies to a record file, not to a game id (use --position TEXT)")
    game = build_game(args.target, args.num_players, args.option)
    if args.position is not None:
        return game.state_from_position(args.position, seed=args.seed), "the position given", None
    return game.new_state(args.seed if args.seed is not None else 0), "the start", 0


def output_target(name: str, force: bool) -> Path:
    """The file ``-o`` names, checked before anything is drawn: a ``.png`` or ``.txt`` name, not a
    folder, in a folder that exists, and not an existing file unless ``--force``."""
    if not name.strip():
        raise CliError("-o: empty file name (give e.g. board.png or board.txt)")
    path = Path(name).expanduser()
    if path.is_dir():
        raise CliError(f"-o {name}: is a folder; give a file name such as {path / 'board.png'}")
    suffix = path.suffix.lower()
    if suffix not in (".png", ".txt"):
        raise CliError(
            f"-o {name}: the name must end in .png (a picture) or .txt (the text board), not {suffix or 'nothing'!r}"
        )
    if not path.parent.is_dir():
        what = "is a file, not a folder" if path.parent.exists() else "does not exist"
        raise CliError(f"-o {name}: {path.parent} {what}")
    if path.exists() and not force:
        raise CliError(f"-o {name}: the file exists; add --force to replace it")
    return path


def render_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    state, moment, made = state_to_render(args, err)
    game = state.game
    viewer = None
    if args.seat is not None:
        if not 1 <= args.seat <= game.num_players:
            raise CliError(f"--seat {args.seat}: the game has seats 1..{game.num_players}")
        viewer = args.seat - 1
    view = state.view(viewer)
    title = escape(f"{game.name}, {moment}")
    if args.output is None:
        out.print(board_panel(game, view, title))
        return 0
    target = output_target(args.output, args.force)
    if target.suffix.lower() == ".txt":
        plain = Console(width=120, no_color=True, color_system=None, record=True, file=io.StringIO())
        plain.print(board_panel(game, view, title))
        target.write_text(plain.export_text(), encoding="utf-8")
        out.print(f"Wrote the text board to {escape(str(target))} ({game.id}, {moment}).")
        return 0
    draw = picture_renderer(game)
    if draw is None:
        raise CliError(
            f"{game.id} has no picture renderer, so {args.output} was not written; "
            f"use -o {target.with_suffix('.txt')} for the text board, or no -o to print it"
        )
    try:
        # the picture's heading numbers the moves as this command does, not by the ply
        draw(view if made is None else {**view, "moves_made": made}, str(target))
    except ImportError as exc:
        if (exc.name or "").startswith("boardlab"):
            raise  # a part of boardlab itself is missing: a bug, not an extra to install
        raise CliError(
            f"{game.id} needs optional packages to draw pictures ({exc.name or exc}); "
            'install them with: pip install -e ".[dev]"'
        ) from None
    except OSError as exc:
        raise CliError(f"{args.output}: cannot write the picture: {exc.strerror or exc}") from None
    out.print(f"Wrote the picture {escape(str(target))} ({game.id}, {moment}).")
    return 0
