"""The pages on a phone (360x740, the narrowest common phone); tests/web/test_every_page.py checks
every page's width, its board and its tap targets at that size. Here: the lobby's longest form
fits; a board fits the width by default with every piece on it, then zooms (the board's + and −)
inside a box of its own onto the player's own pieces, its squares then a fingertip wide (44 px,
WCAG 2.5.5) while the page still never scrolls sideways, and opens zoomed on them next time;
what a renderer shows beside its drawing (Honor's score line, instructions and buttons) stays on
the screen however the drawing is zoomed; and what the other player asks (a trade offered, a draw,
a rematch) waits above the board, where the person who must answer sees it without scrolling."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room
from tests.web.test_territories_and_honor import one_offer, to_a_trade, two_seats

PHONE = {"width": 360, "height": 740}
#: a common phone's width; 664 px of an 844 px screen are left to the page under its browser's bars
NARROW_PHONE = {"width": 390, "height": 664}
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
def phone(new_page: Callable[..., Any]) -> Any:
    return new_page(PHONE, is_mobile=True, has_touch=True)


@pytest.fixture
def narrow_phone(new_page: Callable[..., Any]) -> Any:
    return new_page(NARROW_PHONE, is_mobile=True, has_touch=True)


def check_fits_a_phone(page: Any, what: str) -> None:
    document, viewport, body = page.evaluate(WIDTHS)
    assert document <= viewport and body <= viewport, f"{what} is {max(document, body)} px wide on a {viewport} px screen"
    small = [
        f"{t['tag']} '{t['name']}' {t['width']:.0f}x{t['height']:.0f}"
        for t in page.evaluate(TARGETS)
        if t["width"] < FINGER - 0.5 or t["height"] < FINGER - 0.5
    ]
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


def test_the_longest_names_wrap_on_a_phone(phone: Any, web_server: Server) -> None:
    # a name is at most 40 characters, and may have no space to break at
    host, guest = "A" * 40, "B" * 40
    created = web_server.create("overseer", ["here", "invite"], names=[host, None])
    code = created["invites"][0]["code"]
    joined = web_server.client.post(f"/api/rooms/{created['room']}/join", json={"code": code, "name": guest})
    assert joined.status_code == 200, joined.text
    hold_seats(phone, created["room"], "overseer", created["token"], [0])
    phone.goto("/")
    phone.wait_for_selector("#my-games-list li")  # the unfinished game, named by its players
    check_fits_a_phone(phone, "the lobby listing a game of two 40-letter names")
    open_room(phone, created["room"])
    phone.wait_for_function(f"() => {PLAY}.mode === 'live'")
    phone.wait_for_selector("#players li")
    assert guest in phone.locator("#players").inner_text()
    document, viewport, body = phone.evaluate(WIDTHS)
    assert document <= viewport and body <= viewport, f"the play page is {max(document, body)} px wide on a {viewport} px screen"


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
    return list(
        page.evaluate("""() => {
      const box = document.querySelector('#board .bl-zoom-box').getBoundingClientRect();
      const inside = (part) => part.left >= box.left - 1 && part.right <= box.right + 1
        && part.top >= box.top - 1 && part.bottom <= box.bottom + 1;
      return [...document.querySelectorAll('#board [data-key].bl-movable')].map((node) => node.getBoundingClientRect())
        .filter(inside)
        .map((part) => ({ width: part.width, height: part.height }));
    }""")
    )


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


#: where each of ``selectors`` is on the screen (``missing``: not on the page)
BOXES = """(selectors) => selectors.map((selector) => {
  const box = document.querySelector(selector)?.getBoundingClientRect();
  return box ? { selector, top: box.top, bottom: box.bottom, left: box.left, right: box.right } : { selector, missing: true };
})"""
LIVE = "() => document.getElementById('connection')?.dataset.state === 'open'"


def off_the_screen(page: Any, selectors: list[str]) -> list[dict[str, Any]]:
    """Those of ``selectors`` not wholly on the screen as it is scrolled now (or not on the page)."""
    width, height = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    return [
        box
        for box in page.evaluate(BOXES, selectors)
        if box.get("missing") or box["top"] < 0 or box["left"] < 0 or box["bottom"] > height or box["right"] > width
    ]


def wait_for(page: Any, selector: str) -> None:
    """Until ``selector`` is on the page (the page may still be drawing: nothing is there yet)."""
    page.wait_for_function("(selector) => document.querySelector(selector)?.isConnected === true", arg=selector)


ANSWERS = ['#board [data-key="acc"]', '#board [data-key="rej"]', '#board .terr-compose-open[data-announce="propose_counter"]']


def offer_a_trade(server: Server, room: str, tokens: list[str], seat: int, state: dict[str, Any]) -> None:
    """``seat`` announces a trade and makes it, as its page's Send does (R8.2)."""
    state = server.play(room, tokens[seat], "propose", state["ply"])
    server.play(room, tokens[seat], one_offer(state)["notation"], state["ply"])


def test_a_trade_offered_on_a_narrow_phone_is_answered_without_scrolling(
    narrow_phone: Any, new_page: Callable[[], Any], web_server: Server
) -> None:
    # the offer and its answers once waited under Territories' grid and its legend, screens below
    room, tokens = two_seats(web_server, "territories", options={"counter_offers": True})
    seat, state = to_a_trade(web_server, room, tokens)
    desktop = new_page()
    for page in (narrow_phone, desktop):
        hold_seats(page, room, "territories", tokens[1 - seat], [1 - seat])
        open_room(page, room)
        page.wait_for_function(LIVE)
    offer_a_trade(web_server, room, tokens, seat, state)
    for selector in ANSWERS:
        wait_for(narrow_phone, selector)
    assert narrow_phone.evaluate("() => window.scrollY") == 0
    assert not off_the_screen(narrow_phone, ANSWERS), "the answers wait below the fold"
    assert narrow_phone.locator("#board .terr-main > .bl-question").count() == 1, "above the grid, in the page's order too"
    # the banner, a live region, says what is asked; the keyboard is left where it was
    proposer = state["view"]["seat_names"][seat]
    assert narrow_phone.locator("#banner").inner_text() == f"{proposer} offers you a trade: accept, reject or counter it"
    assert narrow_phone.locator("#banner").get_attribute("aria-live") == "polite"
    assert not narrow_phone.evaluate("() => Boolean(document.activeElement?.closest('.bl-question'))")
    assert narrow_phone.locator("#question-jump").is_hidden()  # in sight: no way back to it is needed
    # a desktop's page keeps it beside the grid, where it always was in sight
    wait_for(desktop, ANSWERS[0])
    assert desktop.locator("#board .terr-side > .bl-question").count() == 1
    assert not off_the_screen(desktop, ANSWERS)
    narrow_phone.locator(ANSWERS[1]).click()
    narrow_phone.wait_for_function("() => document.querySelector('#board .bl-question') === null")
    assert web_server.state(room, tokens[0])["log"][-1]["move"]["notation"] == "rej"


def test_a_trade_offered_while_the_phone_shows_the_moves_is_one_tap_away(narrow_phone: Any, web_server: Server) -> None:
    room, tokens = two_seats(web_server, "territories")
    seat, state = to_a_trade(web_server, room, tokens)
    hold_seats(narrow_phone, room, "territories", tokens[1 - seat], [1 - seat])
    open_room(narrow_phone, room)
    narrow_phone.wait_for_function(LIVE)
    narrow_phone.locator("#moves").scroll_into_view_if_needed()
    moves_at = narrow_phone.locator("#moves").bounding_box()["y"]
    offer_a_trade(web_server, room, tokens, seat, state)
    wait_for(narrow_phone, ANSWERS[0])
    # the page is not pulled away from what the person reads: a button at the foot says what is asked
    jump = narrow_phone.locator("#question-jump")
    jump.wait_for()
    assert narrow_phone.locator("#moves").bounding_box()["y"] == pytest.approx(moves_at, abs=2)
    assert off_the_screen(narrow_phone, ANSWERS[:2])
    assert "offers you a trade" in jump.inner_text()
    assert not off_the_screen(narrow_phone, ["#question-jump"])
    jump.click()
    narrow_phone.wait_for_function(
        """(selectors) => selectors.every((selector) => {
          const box = document.querySelector(selector)?.getBoundingClientRect();
          return box !== undefined && box.top >= 0 && box.bottom <= window.innerHeight;
        })""",
        arg=ANSWERS[:2],
    )
    # the keyboard goes with it, to the board whose first control is the answer, not onto Accept
    assert narrow_phone.evaluate("() => document.activeElement?.id") == "board"
    narrow_phone.wait_for_function("() => document.getElementById('question-jump')?.hidden === true")


def check_answers_on_the_first_screen(page: Any, answers: list[str], whose: str) -> None:
    """The answers arrive, and a page at its top shows them without scrolling."""
    for selector in answers:
        wait_for(page, selector)
    assert page.evaluate("() => window.scrollY") == 0
    assert not off_the_screen(page, answers), f"{whose} answers wait below the board"


def test_a_draw_or_rematch_offered_on_a_narrow_phone_is_answered_without_scrolling(narrow_phone: Any, web_server: Server) -> None:
    room, tokens = two_seats(web_server, "towers")
    hold_seats(narrow_phone, room, "towers", tokens[1], [1])
    open_room(narrow_phone, room)
    narrow_phone.wait_for_function(LIVE)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    offered = web_server.client.post(f"/api/rooms/{room}/draw", json={"action": "offer"}, headers=headers)
    assert offered.status_code == 200, offered.text
    check_answers_on_the_first_screen(narrow_phone, ["#question #accept-draw", "#question #decline-draw"], "the draw's")
    assert narrow_phone.locator("#actions #accept-draw").count() == 0  # asked once, where it is seen
    assert narrow_phone.locator("#banner").inner_text() == "White offers a draw: accept or decline it below"
    narrow_phone.locator("#decline-draw").click()
    narrow_phone.wait_for_function("() => document.getElementById('question')?.hidden === true")

    resigned = web_server.client.post(f"/api/rooms/{room}/resign", json={}, headers=headers)
    assert resigned.status_code == 200, resigned.text
    offered = web_server.client.post(f"/api/rooms/{room}/rematch", json={}, headers=headers)
    assert offered.status_code == 200, offered.text
    check_answers_on_the_first_screen(narrow_phone, ["#question #rematch-accept", "#question #rematch-decline"], "the rematch's")
    assert narrow_phone.locator("#banner").inner_text() == (
        "Black wins: White resigned. White offers a rematch: accept or decline it"
    )
