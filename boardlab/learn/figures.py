"""Positions drawn inside a rules document: a fenced block whose info string is
``position GAME`` (docs/learn.md).

    ```position towers
    -,-,-,-,-,-,-/.../-,-,-,-,-,-,- W
    move: c3E
    highlight: d3 e3
    caption: Rule 5.3's example, before White pushes c3 east.
    ```

The first line is the game's own position string; then optional lines: ``move`` (a legal
move, shown as the move about to be played: the renderer's arrow or highlighted path),
``highlight`` (keys the renderer marks, e.g. squares), ``choices: on`` (drawn as the player to
move sees it while deciding: Honor's hand over the release window; nothing can be played), ``options`` (``name=value`` pairs the
position needs, e.g. Honor's ``tremor=false``), ``players`` (the number of seats, where not the
game's default: Towers' 4-player layouts) and ``caption``. The browser's rules page draws
it with the game's renderer; ``boardlab rules`` prints the game's text board. A block that does
not parse is an error naming the document's line, so a test can check every one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape
from typing import Any

from ..core.errors import BoardlabError
from ..core.registry import load
from ..core.state import State
from .conditions import LessonError

#: the info string that marks a position block
INFO = re.compile(r"^position\s+([a-z0-9_]+)\s*$")
_KEYS = ("move", "highlight", "choices", "options", "players", "caption")


@dataclass(frozen=True)
class Figure:
    """One position block: the game, its position string and what to show on it."""

    game_id: str
    position: str
    line: int  # 1-based line of the block's opening fence in its document
    move: str | None = None
    highlight: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)
    caption: str = ""
    choices: bool = False
    players: int | None = None

    def state(self) -> State:
        """The position's state (LessonError naming the line when the game refuses it)."""
        try:
            game = load(self.game_id, self.players, **self.options)
            return game.state_from_position(self.position)
        except BoardlabError as exc:
            raise LessonError(f"line {self.line}: the {self.game_id} position does not load: {exc}") from None

    def viewer(self, state: State) -> int | None:
        """Whose view is drawn: the player to move (spectators at a chance node or the end)."""
        return state.current_player() if state.current_player() >= 0 else None

    def move_json(self, state: State) -> dict[str, Any] | None:
        if self.move is None:
            return None
        try:
            return state.parse_move(self.move).to_json()
        except BoardlabError as exc:
            raise LessonError(f"line {self.line}: the move {self.move!r} is not legal there: {exc}") from None

    def text_board(self) -> str:
        """The game's text board (rich markup) with the move and caption under it."""
        state = self.state()
        lines = [state.render(self.viewer(state))]
        if self.move:
            lines.append(f"[bold]→ {self.move}[/bold]")  # the move shown: its notation alone
        if self.caption:
            lines.append(f"[italic]{self.caption}[/italic]")
        return "\n".join(lines)

    def html(self) -> str:
        """The block as a figure the rules page's script draws with the game's renderer; the
        text board is its content until then (and without scripts)."""
        state = self.state()
        viewer = self.viewer(state)
        data = {
            "game": self.game_id,
            "seat": viewer,
            "view": state.view(viewer),
            "move": self.move_json(state),
            "highlight": list(self.highlight),
            "ply": state.ply,
            "choices": self.choices,
            "legal_moves": [move.to_json() for move in state.legal_moves()] if self.choices else [],
        }
        plain = re.sub(r"\[/?[a-z_ #0-9]*\]", "", state.render(viewer)).replace("\\[", "[")
        caption = f"<figcaption>{escape(self.caption)}</figcaption>" if self.caption else ""
        return (
            f'<figure class="rules-position" data-game="{escape(self.game_id)}" data-figure="{escape(json.dumps(data))}">'
            f'<pre class="rules-position-text">{escape(plain)}</pre>{caption}</figure>\n'
        )


def parse_figure(game_id: str, body: str, line: int) -> Figure:
    """A block's body as a Figure (LessonError naming ``line`` for a bad key or a missing position)."""
    rows = [row.strip() for row in body.strip("\n").splitlines() if row.strip()]
    if not rows:
        raise LessonError(f"line {line}: a position block needs the position string on its first line")
    extra: dict[str, str] = {}
    for row in rows[1:]:
        key, colon, value = row.partition(":")
        if not colon or key.strip() not in _KEYS:
            raise LessonError(f"line {line}: {row!r}: a position block's lines after the first are {', '.join(_KEYS)}: VALUE")
        extra[key.strip()] = value.strip()
    if extra.get("choices", "off") not in ("on", "off"):
        raise LessonError(f"line {line}: choices is on or off, not {extra['choices']!r}")
    players = extra.get("players")
    if players is not None and not players.isdecimal():
        raise LessonError(f"line {line}: players is a number of seats, not {players!r}")
    options = {}
    for pair in extra.get("options", "").split():
        name, eq, value = pair.partition("=")
        if not eq:
            raise LessonError(f"line {line}: options are name=value pairs, not {pair!r}")
        options[name] = value
    return Figure(
        game_id=game_id,
        position=rows[0],
        line=line,
        move=extra.get("move") or None,
        highlight=tuple(extra.get("highlight", "").split()),
        options=options,
        caption=extra.get("caption", ""),
        choices=extra.get("choices") == "on",
        players=None if players is None else int(players),
    )


def figures(text: str) -> Iterator[Figure]:
    """Every position block of a Markdown document, in order."""
    for start, game_id, body in _blocks(text):
        yield parse_figure(game_id, body, start)


def _blocks(text: str) -> Iterator[tuple[int, str, str]]:
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = re.match(r"^(`{3,})\s*(.*)$", lines[index])
        if opening is None:
            index += 1
            continue
        fence, info = opening.groups()
        end = index + 1
        while end < len(lines) and not lines[end].startswith(fence):
            end += 1
        matched = INFO.match(info)
        if matched:
            yield index + 1, matched.group(1), "\n".join(lines[index + 1 : end])
        index = end + 1


def split_document(text: str) -> list[str | Figure]:
    """The document as Markdown pieces and the figures between them, in order (what
    ``boardlab rules`` prints: the text formatted, each figure as the game's text board)."""
    lines = text.splitlines(keepends=True)
    parts: list[str | Figure] = []
    cursor = 0
    for figure in figures(text):
        opening = figure.line - 1
        closing = opening + 1
        fence = re.match(r"^(`{3,})", lines[opening])
        assert fence is not None
        while closing < len(lines) and not lines[closing].startswith(fence.group(1)):
            closing += 1
        parts.append("".join(lines[cursor:opening]))
        parts.append(figure)
        cursor = closing + 1
    parts.append("".join(lines[cursor:]))
    return [part for part in parts if not isinstance(part, str) or part.strip()]


def figure_html(info: str, body: str, line: int) -> str | None:
    """The HTML of a fenced block if it is a position block (else None, and the block stays
    code). A block that does not load is shown as an error in place, never hidden."""
    matched = INFO.match(info.strip())
    if matched is None:
        return None
    try:
        return parse_figure(matched.group(1), body, line).html()
    except BoardlabError as exc:
        return f'<p class="alert rules-position-error">This position cannot be drawn: {escape(str(exc))}</p>\n'


__all__ = ["Figure", "figure_html", "figures", "parse_figure", "split_document"]
