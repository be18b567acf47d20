"""The pages on a phone. At 360x740 (the narrowest common phone) the lobby and a
game page of every game fit the screen's width (the page never scrolls sideways; a board that
needs more room pans inside its own box) and every tap target is at least 44x44 px (WCAG 2.5.5,
the size Apple and Google recommend for a fingertip)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.web.browser import Server
from tests.web.conftest import STEP_MS
from tests.web.steps import hold_seats, open_room

PHONE = {"width": 360, "height": 740}
FINGER = 44

#: random moves into each game so the page has pieces to move, and where to stop early: a
#: Territories turn that may propose a trade (its form is the widest thing on its page),
#: Honor with a piece in hand (its label once covered the zone's name)
OPENINGS = {"towers": 6, "sovereign": 17, "overseer": 6, "territories": 80, "honor": 40}
STOP_AT = {"territories": "propose_trade", "honor": "release"}
HIDDEN = {"territories", "honor"}  # one seat per screen: no "pass the screen" page in between

#: every element a finger may need: links, controls, and the board's clickable squares
TARGETS = """() => {
  const found = [];
  const selector = ['a[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary', '[role=button]',
    '[role=slider]', '[tabindex="0"]', '[data-key].bl-movable', '[data-key].bl-target'].join(', ');
  for (const element of document.querySelectorAll(selector)) {
    const box = element.getBoundingClientRect();
    if (!box.width || !box.height || element.closest('[hidden]') || getComputedStyle(element).visibility === 'hidden') continue;
    const name = (element.getAttribute('aria-label') || element.textContent || element.id || '').trim().slice(0, 30);
    found.push({ tag: element.tagName.toLowerCase(), name, width: box.width, height: box.height });
  }
  return found;
}"""
WIDTHS = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth, document.body.scrollWidth]"
BOARD_WIDTHS = "() => [document.getElementById('board').scrollWidth, document.getElementById('board').clientWidth]"


def game_in_play(server: Server, game: str, seed: int = 1) -> tuple[str, str, int]:
    """A room of people at one screen, some random moves in: its id, the token and the seat to
    move (resignations left out so the game goes on)."""
    created = server.create(game, ["here", "here"])
    state = created["state"]
    rng = random.Random(seed)
    for _ in range(OPENINGS[game]):
        moves = [move for move in state["legal_moves"] if move["type"] != "resign"]
        if not moves or any(move["type"] == STOP_AT.get(game) for move in moves):
            break
        state = server.play(created["room"], created["token"], rng.choice(moves)["text"], state["ply"])
    seat = state["view"]["to_move"]
    return created["room"], created["token"], seat if seat is not None else 0


def open_game(page: Any, server: Server, game: str) -> None:
    """The play page of a game in play, as the seat to move sees it."""
    room, token, seat = game_in_play(server, game)
    hold_seats(page, room, game, token, [seat] if game in HIDDEN else [0, 1])
    open_room(page, room)
    page.wait_for_selector("#board [data-key].bl-movable, #board .terr-compose-open, #board [data-hand]")
    if game == "territories":
        page.locator("#board .terr-compose-open").click()
        page.wait_for_selector("#board form.terr-compose")


@pytest.fixture
def phone(chromium: Any, web_server: Server) -> Any:
    context = chromium.new_context(viewport=PHONE, base_url=web_server.url, is_mobile=True, has_touch=True)
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"errors in the page's scripts: {errors}"


def check_fits_a_phone(page: Any, what: str) -> None:
    document, viewport, body = page.evaluate(WIDTHS)
    assert document <= viewport and body <= viewport, f"{what} is {max(document, body)} px wide on a {viewport} px screen"
    small = [f"{t['tag']} '{t['name']}' {t['width']:.0f}x{t['height']:.0f}" for t in page.evaluate(TARGETS)
             if t["width"] < FINGER - 0.5 or t["height"] < FINGER - 0.5]
    assert not small, f"{what}: tap targets under {FINGER} px: {small}"


def test_the_lobby_fits_a_phone(phone: Any, web_server: Server) -> None:
    web_server.create("towers", ["here", "here"])  # the list of games on the server has a link
    phone.goto("/")
    phone.wait_for_selector("#create-form select")
    phone.wait_for_selector("#rooms .room > a")
    check_fits_a_phone(phone, "the lobby")
    # every option of the longest form shows too (Towers has the most)
    phone.select_option("#game", "towers")
    phone.locator("#create-form summary").first.click()
    check_fits_a_phone(phone, "the lobby with Towers' options open")


@pytest.mark.parametrize("game", ["towers", "sovereign", "overseer", "territories", "honor"])
def test_a_game_page_fits_a_phone(phone: Any, web_server: Server, game: str) -> None:
    open_game(phone, web_server, game)
    check_fits_a_phone(phone, f"the {game} page")


@pytest.mark.parametrize("game", ["towers", "territories", "overseer"])
def test_a_rules_page_fits_a_phone(phone: Any, game: str) -> None:
    phone.goto(f"/rules/{game}")
    phone.wait_for_selector(".rules-document")
    document, viewport, body = phone.evaluate(WIDTHS)
    assert document <= viewport and body <= viewport, f"the {game} rules are {document} px wide"


def test_a_board_too_fine_for_a_finger_pans_in_its_box(phone: Any, web_server: Server) -> None:
    # Overseer's rings are 36 of 760 units: drawn to the screen's width a square was 21x19 px
    open_game(phone, web_server, "overseer")
    width, visible = phone.evaluate(BOARD_WIDTHS)
    assert width > visible  # larger than the screen, so it pans
    before = phone.evaluate("() => document.getElementById('board').scrollLeft")
    phone.evaluate("() => { document.getElementById('board').scrollLeft = 300; }")
    assert phone.evaluate("() => document.getElementById('board').scrollLeft") > before
    assert phone.evaluate("() => window.scrollX") == 0
