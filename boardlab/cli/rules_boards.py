"""The rules document as ``boardlab rules`` prints it: the Markdown formatted, and each
embedded position (a ```position GAME block, docs/learn.md) as the game's own text board."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from ..core.errors import BoardlabError
from ..learn.figures import split_document


def rules_renderable(text: str) -> RenderableType:
    """What to print for a rules document: its text, with each position drawn; a position the
    game refuses is printed as an error in its place (the tests keep every one loading)."""
    parts: list[RenderableType] = []
    for part in split_document(text):
        if isinstance(part, str):
            parts.append(Markdown(part))
            continue
        try:
            board = Text.from_markup(part.text_board())
        except BoardlabError as exc:
            board = Text.from_markup(f"[red]This position cannot be drawn: {escape(str(exc))}[/red]")
        parts.append(Padding(board, (1, 0, 1, 4)))
    return Group(*parts)


__all__ = ["rules_renderable"]
