"""The browser pages' own routes (docs/web.md), beside the app shell that ``/`` serves from
``static/``: a room's page (also the invite link), each game's renderer files, and the rules
documents as HTML pages: ``/rules/GAME`` the rules for players, ``/rules/GAME/programs`` the
document's part for programs (:mod:`boardlab.learn.documents`). None of them is part of the API
(they are left out of /docs).
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path
from string import Template

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from ...core.errors import UnknownGameError
from ...core.registry import game_class
from ...learn.documents import split_rules
from ..errors import ServerError
from ..web import render_rules, rules_file, rules_picture, web_file
from . import lessons

router = APIRouter(include_in_schema=False)
router.include_router(lessons.page_router)  # /learn/{game}, the lesson page

#: the rules page around a rendered document
RULES_TEMPLATE = Template((Path(__file__).resolve().parents[1] / "templates" / "rules.html").read_text(encoding="utf-8"))
#: the app shell's pages are small and change with an upgrade: browsers revalidate them
REVALIDATE = {"Cache-Control": "no-cache"}


class NotFoundError(ServerError):
    code = "not_found"


def _static(request: Request) -> Path:
    static_dir: Path = request.app.state.settings.static_dir
    return static_dir


@router.get("/rooms/{room_id}")
def room_page(room_id: str, request: Request) -> FileResponse:
    """The play page; the script reads the room from the address (and ``?invite=CODE`` to join).
    An unknown room is the page's to report, from the API's answer."""
    return FileResponse(_static(request) / "play.html", media_type="text/html", headers=REVALIDATE)


@router.get("/games/{game_id}/web/{path:path}")
def game_web_file(game_id: str, path: str) -> FileResponse:
    """A file of the game's ``web/`` folder (its renderer); never a file outside it."""
    target = web_file(game_id, path)
    if target is None:
        raise NotFoundError(f"game {game_id}: no web file {path[:80]!r}")
    return FileResponse(target, headers=REVALIDATE)


@router.get("/rules/files/{name}")
def rules_picture_file(name: str, request: Request) -> FileResponse:
    """A picture a rules document shows."""
    target = rules_picture(request.app.state.settings.rules_dir, name)
    if target is None:
        raise NotFoundError(f"no rules picture {name[:80]!r}")
    return FileResponse(target, headers=REVALIDATE)


@router.get("/rules/{game_id}", response_class=HTMLResponse)
def rules_page(game_id: str, request: Request) -> HTMLResponse:
    """The game's rules for players (its document up to the part for programs). Without the
    document (an installation that lacks docs/rules) the page says where the rules are
    instead; an unknown game is a 404 page."""
    return _rules(game_id, request, programs=False)


@router.get("/rules/{game_id}/programs", response_class=HTMLResponse)
def rules_programs_page(game_id: str, request: Request) -> HTMLResponse:
    """The rules document's part for programs: notation, position strings, result codes,
    views and encodings (a 404 page for a document without one)."""
    return _rules(game_id, request, programs=True)


def _rules(game_id: str, request: Request, *, programs: bool) -> HTMLResponse:
    try:
        name = game_class(game_id).name
        path = rules_file(request.app.state.settings.rules_dir, game_id)
    except UnknownGameError as exc:
        return _page("Unknown game", f"<p>{html.escape(str(exc))}</p>", status=404)
    if path is None:
        body = (
            f"<h1>{html.escape(name)}</h1><p>The rules document of {html.escape(name)} is not installed here: "
            f"it is <code>docs/rules/{html.escape(game_id)}.md</code> in boardlab's source, and "
            f"<code>boardlab rules {html.escape(game_id)}</code> prints it from a source checkout.</p>"
        )
        return _page(f"{name}: rules", body, status=404)
    page, status = _rules_page(game_id, name, path, path.stat().st_mtime_ns, programs)
    return HTMLResponse(page, status_code=status, headers=REVALIDATE)


#: the rules pages kept built: each game's two (for players, for programs), for more games than a
#: server has (its plugins' included); the key holds only registered games' ids
RULES_PAGES_KEPT = 64


@lru_cache(maxsize=RULES_PAGES_KEPT)
def _rules_page(game_id: str, name: str, path: Path, modified_ns: int, programs: bool) -> tuple[bytes, int]:
    """A rules page and its status, built once per game, part and version of its document
    (``modified_ns``, the document's time of change, is in the key only to build an edited one
    again): rendering a long document costs a tenth of a second of CPU, which no visitor may
    make the server spend again and again."""
    players, for_programs = split_rules(path.read_text(encoding="utf-8"))
    escaped = html.escape(game_id)
    if programs:
        if for_programs is None:
            missing = (f"<h1>{html.escape(name)}</h1><p>The rules of {html.escape(name)} have no part "
                       f'for programs; <a href="/rules/{escaped}">the rules</a> are all there is.</p>')
            return _page_text(f"{name}: rules", missing), 404
        title, body, contents = render_rules(for_programs)
        title = f"{name} {title[0].lower()}{title[1:]}" if title else f"{name} for programs"
        body = f'<p class="rules-part"><a href="/rules/{escaped}">← The rules of {html.escape(name)}</a></p>\n{body}'
        other = f'<p class="rules-other"><a href="/rules/{escaped}">The rules for players</a></p>'
    else:
        title, body, contents = render_rules(players)
        other = ""
        if for_programs is not None:
            # the players' part skips the numbers of the sections for programs: say where they are
            numbers = _section_numbers(for_programs)
            sections = ""
            if numbers:
                sections = f" (section{'s' if len(numbers) > 1 else ''} {_and_list(numbers)})"
            other = (f'<p class="rules-other"><a href="/rules/{escaped}/programs">For programs: notation, '
                     f"positions and encodings{sections}</a></p>")
            body += (f'\n<p class="rules-part">How moves, positions and results are written for programs '
                     f'(and records), and the adapters\' encodings: <a href="/rules/{escaped}/programs">the rules '
                     "for programs</a>.</p>")
    toc = "".join(f'<li><a href="#{html.escape(anchor)}">{html.escape(text)}</a></li>' for anchor, text in contents)
    contents_html = (f"<ul>{toc}</ul>" if toc else "") + other
    return _page_text(title or f"{name}: rules", body, toc=contents_html, game=game_id), 200


#: a numbered section's heading in a rules document: "## 9. Notation", "## R10 Notation"
_SECTION = re.compile(r"^## (R?\d+)\.?\s", re.MULTILINE)


def _section_numbers(text: str) -> list[str]:
    """The numbers of ``text``'s numbered sections, in numeric order ("9", "10", or "R10")."""
    return sorted(_SECTION.findall(text), key=lambda number: int(number.lstrip("R")))


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _page(title: str, body: str, *, status: int) -> HTMLResponse:
    return HTMLResponse(_page_text(title, body), status_code=status, headers=REVALIDATE)


def _page_text(title: str, body: str, *, toc: str = "", game: str = "") -> bytes:
    text = RULES_TEMPLATE.substitute(title=html.escape(title), body=body, toc=toc, game=html.escape(game))
    return text.encode("utf-8")


__all__ = ["router"]
