"""The pages on a phone (360x740, the narrowest common phone); tests/web/test_every_page.py checks
every page's width, its board and its tap targets at that size. Here: the lobby's longest form
fits; a board fits the width by default with every piece on it, then zooms (the board's + and −)
inside a box of its own onto the player's own pieces, its squares then a fingertip wide (44 px,
WCAG 2.5.5) while the page still never scrolls sideways, and opens zoomed on them next time;
what a renderer shows beside its drawing (Honor's score line, instructions and buttons) stays on
the screen however the drawing is zoomed."""

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
    const inDrawing = element.closest('svg.bl-board-svg') !== null; // a square: the zoom makes it larger
    found.push({ tag: element.tagName.toLowerCase(), name, width: box.width, height: box.height, inDrawing });
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
        state = server.play(created["room"], created["token"], rng.choice(moves)["notation"], state["ply"])
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
    # every folded part of the form opened, for the game with the most options
    phone.select_option("#game", "territories")
    for summary in phone.locator("#create-form summary").all():
        summary.click()
    check_fits_a_phone(phone, "the lobby with Territories' rule variants and time limit open")


def test_the_labs_study_form_fits_a_phone_sideways(phone: Any) -> None:
    # a designer's page: its long level specs and the options table once made it 1045 px wide
    phone.goto("/lab")
    phone.wait_for_selector("#lab-form select#lab-agents")
    for game in ("towers", "territories"):
        phone.select_option("#lab-game", game)
        phone.wait_for_selector("#lab-form .lab-options")
        document, viewport, body = phone.evaluate(WIDTHS)
        assert document <= viewport and body <= viewport, f"the Lab's {game} form is {max(document, body)} px wide"


def visible_movable(page: Any) -> list[dict[str, float]]:
    """The pieces that can move which show inside the board's zoom box (its visible part)."""
    return list(page.evaluate("""() => {
      const box = document.querySelector('#board .bl-zoom-box').getBoundingClientRect();
      const inside = (part) => part.left >= box.left - 1 && part.right <= box.right + 1
        && part.top >= box.top - 1 && part.bottom <= box.bottom + 1;
      return [...document.querySelectorAll('#board [data-key].bl-movable')].map((node) => node.getBoundingClientRect())
        .filter(inside)
        .map((part) => ({ width: part.width, height: part.height }));
    }"""))


def test_a_board_fits_then_zooms_onto_your_own_pieces(phone: Any, web_server: Server) -> None:
    # Overseer's disc: at a phone's width its rings are finer than a finger; once it showed 35%
    # of the disc and none of the pieces that could move
    room, token, _ = game_in_play(web_server, "overseer")
    hold_seats(phone, room, "overseer", token, [0, 1])
    open_room(phone, room)
    phone.wait_for_selector("#board [data-key].bl-movable")
    movable = phone.locator("#board [data-key].bl-movable").count()
    assert len(visible_movable(phone)) == movable  # fits: every piece that can move is seen
    assert phone.locator("#zoom-label").inner_text() == "Board: fits the screen"
    while phone.locator("#zoom-in").is_enabled():  # to the largest zoom
        phone.locator("#zoom-in").click()
    assert phone.locator("#zoom-label").inner_text() == "Board: 3×"
    seen = visible_movable(phone)
    assert seen, "zoomed in, the box shows none of the player's pieces"
    assert all(part["width"] >= FINGER - 0.5 and part["height"] >= FINGER - 0.5 for part in seen), seen
    document, viewport, body = phone.evaluate(WIDTHS)
    assert document <= viewport and body <= viewport  # the drawing pans in its box, never the page
    assert phone.evaluate(BOARD_WIDTHS)[0] <= viewport
    # the next visit opens at the zoom chosen, on the player's pieces again
    phone.reload()
    phone.wait_for_selector("#board .bl-zoom-box[data-zoom='3'] [data-key].bl-movable")
    assert visible_movable(phone)
    phone.locator("#zoom-fit").click()
    assert len(visible_movable(phone)) == movable


def test_what_honor_shows_beside_its_table_stays_when_the_table_is_zoomed(phone: Any, web_server: Server) -> None:
    room, token, seat = game_in_play(web_server, "honor")
    hold_seats(phone, room, "honor", token, [seat])
    open_room(phone, room)
    phone.wait_for_selector("#board svg.bl-board-svg")
    phone.locator("#zoom-in").click()
    phone.locator("#zoom-in").click()
    phone.locator("#zoom-in").click()
    assert phone.locator("#zoom-label").inner_text() == "Board: 3×"
    table = phone.locator("#board svg.bl-board-svg").bounding_box()
    assert table is not None and table["width"] > 2.5 * PHONE["width"]  # the table is three screens wide
    for part in ("#board .honor-score, #board .bl-score", "#board .honor-controls"):
        box = phone.locator(part).first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (part, box)
    document, viewport, body = phone.evaluate(WIDTHS)
    assert document <= viewport and body <= viewport
