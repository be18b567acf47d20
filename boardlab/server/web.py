"""What the browser pages need besides the API: each game's ``web/`` folder (its renderer) and
its rules document as HTML.

A game's renderer lives with the game, in ``boardlab/games/<id>/web/`` (``renderer.js``, an
optional ``renderer.css`` and ``about.md``), found through the registry: a sixth game
brings its own folder and nothing here changes. A game without one is played with the
generic renderer of the app shell (docs/web.md).

The rules documents are ``docs/rules/<id>.md``. A source checkout (an editable install)
reads them there; a built wheel ships them as data files under ``<prefix>/share/boardlab/rules``
(pyproject.toml's ``data-files``), which is the second place looked at.
"""

from __future__ import annotations

import html
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..core.registry import game_class, game_ids, rules_document, rules_folders
from ..learn.figures import figure_html

#: the renderer's entry module and optional stylesheet inside a game's web folder
RENDERER_FILE = "renderer.js"
STYLESHEET_FILE = "renderer.css"
#: an optional paragraph for the lobby (Markdown); without it the rules' first paragraph is used
ABOUT_FILE = "about.md"
#: files of the rules folder that a rules page may show (pictures)
RULES_PICTURES = (".png", ".svg", ".jpg", ".jpeg", ".webp")


def rules_dirs() -> list[Path]:
    """Where rules documents are looked for, in order: the source checkout, then the data
    folder of the installation (:func:`boardlab.core.registry.rules_folders`)."""
    return rules_folders()


def find_rules_dir(candidates: list[Path] | None = None) -> Path | None:
    """The first folder of ``candidates`` (default :func:`rules_dirs`) that holds rules documents."""
    for place in candidates if candidates is not None else rules_dirs():
        if place.is_dir() and any(place.glob("*.md")):
            return place
    return None


def game_web_dir(game_id: str) -> Path | None:
    """The game's ``web/`` folder (next to the module that defines its Game class), or None.
    UnknownGameError for an id that is not registered."""
    module = sys.modules.get(game_class(game_id).__module__)
    module_file = getattr(module, "__file__", None)
    if module_file is None:
        return None
    folder = Path(module_file).resolve().parent / "web"
    return folder if folder.is_dir() else None


def web_file(game_id: str, relative: str) -> Path | None:
    """A file inside the game's web folder, or None when there is no such file or the path
    would leave the folder (``..``, an absolute path, a link pointing outside)."""
    folder = game_web_dir(game_id)
    if folder is None or not relative or "\\" in relative or "\0" in relative:
        return None
    target = (folder / relative).resolve()
    if folder not in target.parents or not target.is_file():
        return None
    return target


def rules_file(rules_dir: Path | None, game_id: str) -> Path | None:
    """The game's rules document: the one it ships in its own folder (a plugin's), else
    ``<rules_dir>/<game_id>.md``; None if there is neither (UnknownGameError for an id that
    is not registered)."""
    return rules_document(game_id, [rules_dir])


def rules_picture(rules_dir: Path | None, name: str) -> Path | None:
    """A picture that a rules document shows (a plain file name): in the rules folder, else
    beside a rules document that a game ships in its own folder (a plugin's)."""
    if "/" in name or "\\" in name or name.startswith(".") or not name.lower().endswith(RULES_PICTURES):
        return None
    own = (rules_document(game_id, []) for game_id in game_ids())
    for folder in (rules_dir, *(document.parent for document in own if document is not None)):
        if folder is not None and (folder / name).is_file():
            return folder / name
    return None


# --- Markdown ----------------------------------------------------------------------------------
def _markdown() -> MarkdownIt:
    # CommonMark with tables; raw HTML in a document is shown as text, never passed through
    return MarkdownIt("commonmark", {"html": False}).enable("table").enable("strikethrough")


_MD = _markdown()


def _slug(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    taken.add(slug)
    return slug


def _relink(tokens: list[Token], games: set[str]) -> None:
    """Pictures point at ``/rules/files/NAME``; links to another game's rules document at its page."""
    for token in tokens:
        if token.children:
            _relink(token.children, games)
        if token.type == "image":
            src = str(token.attrGet("src") or "")
            if src and "://" not in src and not src.startswith("/"):
                token.attrSet("src", f"/rules/files/{src.rsplit('/', 1)[-1]}")
        elif token.type == "link_open":
            href = str(token.attrGet("href") or "")
            stem, _, anchor = href.partition("#")
            name = stem.rsplit("/", 1)[-1]
            if "://" not in href and name.endswith(".md") and name[:-3] in games:
                token.attrSet("href", f"/rules/{name[:-3]}" + (f"#{anchor}" if anchor else ""))


def render_rules(text: str) -> tuple[str, str, list[tuple[str, str]]]:
    """A rules document as HTML: ``(title, body, contents)``. The title is the first heading's
    text; headings get ids, and ``contents`` lists the level-2 ones as ``(id, text)``."""
    tokens = _MD.parse(text)
    _relink(tokens, set(game_ids()))
    for token in tokens:  # a ```position GAME block becomes a figure the page draws (docs/learn.md)
        figure = figure_html(token.info, token.content, token.map[0] + 1 if token.map else 0) if token.type == "fence" else None
        if figure is not None:
            token.type, token.content = "html_block", figure
        elif token.type in ("fence", "code_block"):
            token.attrSet("tabindex", "0")  # a wide block scrolls sideways: the keyboard must reach it
    title = ""
    contents: list[tuple[str, str]] = []
    taken: set[str] = set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        heading = tokens[index + 1].content
        token.attrSet("id", _slug(heading, taken))
        if not title and token.tag == "h1":
            title = heading
        elif token.tag == "h2":
            contents.append((str(token.attrGet("id")), heading))
    return title, _MD.renderer.render(tokens, _MD.options, {}), contents


def first_paragraph_html(text: str) -> str:
    """The document's first top-level paragraph as inline HTML (a game's description)."""
    tokens = _MD.parse(text)
    for index, token in enumerate(tokens):
        if token.type == "paragraph_open" and token.level == 0:
            return str(_MD.renderInline(tokens[index + 1].content)).strip()
    return ""


@lru_cache(maxsize=64)
def _description(game_id: str, rules_dir: Path | None) -> str:
    about = web_file(game_id, ABOUT_FILE)
    if about is not None:
        return first_paragraph_html(about.read_text(encoding="utf-8"))
    path = rules_file(rules_dir, game_id)
    if path is not None:
        return first_paragraph_html(path.read_text(encoding="utf-8"))
    return html.escape(game_class(game_id).summary)


def web_entry(game_id: str, rules_dir: Path | None) -> dict[str, Any]:
    """What the catalog adds for the browser pages: the description (one paragraph of HTML),
    the rules page (None without a document) and the renderer's files (None: the generic one)."""
    has = {name: web_file(game_id, name) is not None for name in (RENDERER_FILE, STYLESHEET_FILE)}
    return {
        "description": _description(game_id, rules_dir),
        "rules_page": f"/rules/{game_id}" if rules_file(rules_dir, game_id) else None,
        "renderer": f"/games/{game_id}/web/{RENDERER_FILE}" if has[RENDERER_FILE] else None,
        "stylesheet": f"/games/{game_id}/web/{STYLESHEET_FILE}" if has[STYLESHEET_FILE] else None,
    }


__all__ = [
    "find_rules_dir",
    "first_paragraph_html",
    "game_web_dir",
    "render_rules",
    "rules_dirs",
    "rules_file",
    "rules_picture",
    "web_entry",
    "web_file",
]
