"""Every page a player meets, at a phone's size (360x740) and a desktop's (1280x900), one browser
tab per size: the lobby, a game of each game in play, each lesson, each rules page and the replay
of a finished game. On each page:

* nothing scrolls sideways (the page is never wider than the screen);
* where there is a board, its drawing fits the screen's width and every piece that can move is on
  the screen (at a phone's width too: the board fits by default, tests/web/test_phone.py zooms it);
* the lobby shows a picture of every game's board;
* on the phone, every control outside the board's drawing is a fingertip wide (44 px);
* axe-core's current release (pinned in tests/web/conftest.py) finds no serious or
  critical violation.

One tab visits the pages in turn, so each costs its own loading only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import Server
from tests.web.conftest import STEP_MS, assert_no_serious_violations
from tests.web.steps import hold_seats, open_room
from tests.web.test_phone import FINGER, PHONE, TARGETS, open_game

DESKTOP = {"width": 1280, "height": 900}
GAMES = ["towers", "sovereign", "overseer", "territories", "honor"]

WIDTHS = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth, document.body.scrollWidth]"
#: the board's drawing and the pieces that can move, as boxes on the screen
BOARD = """() => {
  const drawing = document.querySelector('#board svg.bl-board-svg');
  if (!drawing) return null;
  const box = drawing.getBoundingClientRect();
  const movable = [...document.querySelectorAll('#board [data-key].bl-movable')].map((node) => {
    const part = node.getBoundingClientRect();
    return { key: node.dataset.key, left: part.left, right: part.right, width: part.width, inDrawing: drawing.contains(node) };
  });
  return { left: box.left, right: box.right, width: box.width, movable };
}"""


@pytest.fixture(params=["phone", "desktop"])
def tab(request: pytest.FixtureRequest, chromium: Any, web_server: Server, axe_script: Path) -> Iterator[Any]:
    """One tab at the size asked, axe-core loaded before each page's own scripts (an init script
    is not subject to the pages' Content-Security-Policy); a script error on any page fails."""
    phone = request.param == "phone"
    context = chromium.new_context(
        viewport=PHONE if phone else DESKTOP, base_url=web_server.url, is_mobile=phone, has_touch=phone
    )
    context.set_default_timeout(STEP_MS)
    context.add_init_script(path=str(axe_script))
    page = context.new_page()
    page.size = request.param
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    yield page
    context.close()
    assert not errors, f"errors in the pages' scripts: {errors}"


def every_page(server: Server) -> Iterator[tuple[str, Callable[[Any], None]]]:
    """(what, open it in a tab) for every page a player meets."""
    yield "the lobby", open_lobby
    for game in GAMES:
        yield f"the {game} page", lambda page, game=game: open_game(page, server, game)
    for game in GAMES:
        yield f"the {game} lesson", lambda page, game=game: open_lesson(page, game)
    for game in GAMES:
        yield f"the {game} rules", lambda page, game=game: open_rules(page, game)
    yield "a finished game's replay", lambda page: open_replay(page, server)


def open_lobby(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#create-form select")
    page.wait_for_function("n => document.querySelectorAll('.game-picture svg').length === n", arg=len(GAMES))


def open_lesson(page: Any, game: str) -> None:
    page.goto(f"/learn/{game}")
    page.wait_for_selector("#board svg.bl-board-svg")
    page.wait_for_selector("#board [data-key].bl-movable")


def open_rules(page: Any, game: str) -> None:
    page.goto(f"/rules/{game}")
    page.wait_for_selector(".rules-document")
    page.wait_for_function("() => [...document.querySelectorAll('figure.rules-position')].every((f) => f.dataset.drawn)")


def open_replay(page: Any, server: Server) -> None:
    created = server.create("territories", ["here", "here"])
    resigned = server.client.post(
        f"/api/rooms/{created['room']}/resign", json={"seat": 0}, headers={"Authorization": f"Bearer {created['token']}"}
    )
    assert resigned.status_code == 200, resigned.text
    hold_seats(page, created["room"], "territories", created["token"], [0, 1])
    open_room(page, created["room"])
    page.wait_for_selector("#replay:not([hidden])")


def check_layout(page: Any, what: str) -> None:
    document, viewport, body = page.evaluate(WIDTHS)
    assert document <= viewport and body <= viewport, f"{what} is {max(document, body)} px wide on a {viewport} px screen"
    board = page.evaluate(BOARD)
    if board is not None:
        span = f"{board['left']:.0f}-{board['right']:.0f} px"
        assert board["left"] >= -0.5 and board["right"] <= viewport + 0.5, f"{what}: the board spans {span}"
        off = [m["key"] for m in board["movable"] if m["left"] < -0.5 or m["right"] > viewport + 0.5]
        assert not off, f"{what}: pieces that can move are off the screen: {off}"
    if page.size == "phone":
        small = [
            f"{t['tag']} '{t['name']}' {t['width']:.0f}x{t['height']:.0f}" for t in page.evaluate(TARGETS)
            if not t["inDrawing"] and (t["width"] < FINGER - 0.5 or t["height"] < FINGER - 0.5)
        ]
        assert not small, f"{what}: tap targets under {FINGER} px: {small}"


def test_every_page_fits_the_screen_and_passes_axe(tab: Any, web_server: Server) -> None:
    for what, open_it in every_page(web_server):
        open_it(tab)
        check_layout(tab, f"{what} ({tab.size})")
        assert_no_serious_violations(tab, f"{what} ({tab.size})")


def test_the_lobby_shows_every_games_board_and_a_play_button_on_the_first_screen(tab: Any) -> None:
    open_lobby(tab)
    cards = tab.locator(".game-card")
    assert cards.count() == len(GAMES)
    assert cards.first.get_attribute("data-game") == "towers"  # the simplest first
    assert cards.nth(len(GAMES) - 1).get_attribute("data-game") == "honor"  # the richest last
    for game in GAMES:
        picture = tab.locator(f'.game-card[data-game="{game}"] .game-picture svg')
        box = picture.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 60, (game, box)
        # the picture is the renderer's drawing of the board (Honor's: its bare table, the two
        # zones marked), nothing in it to click
        assert picture.locator("rect, path, circle, ellipse, polygon").count() >= 3, game
        assert picture.locator("[tabindex], [role=button]").count() == 0
    if tab.size == "desktop":
        # "play the computer" and "learn" of every game are on the first screen
        for game in GAMES:
            for selector in (f'button[data-play="{game}"]', f'a[data-learn="{game}"]'):
                box = tab.locator(selector).bounding_box()
                assert box is not None and box["y"] + box["height"] <= DESKTOP["height"], (selector, box)
