"""The pages for people who use a keyboard or a screen reader, beyond what axe-core sees (its
current release, pinned in tests/web/conftest.py, runs over every page a player meets in
tests/web/test_every_page.py): a move is made with the keyboard alone, the keyboard's place
survives each redraw and the move itself, and moves are read out through a live region.
"""

from __future__ import annotations

from typing import Any

import boardlab
from tests.web.browser import Server
from tests.web.steps import hold_seats, open_room, wait_for_moves


def test_a_move_is_made_with_the_keyboard_alone_and_focus_stays_on_the_board(page: Any, web_server: Server) -> None:
    # Towers: a build is the same stack twice (rules 4); Tab reaches the squares, Enter clicks
    created = web_server.create("towers", ["here", "here"])
    hold_seats(page, created["room"], "towers", created["token"], [0, 1])
    open_room(page, created["room"])
    page.wait_for_selector("#board [data-key].bl-movable")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#board [data-key].bl-movable')"):
            break
    else:
        raise AssertionError("Tab never reached a square that can move")
    square = page.evaluate("() => document.activeElement.dataset.key")
    page.keyboard.press("Enter")
    # the board was drawn again with the square selected: the keyboard is still on that square
    page.wait_for_selector(f'#board [data-key="{square}"].bl-selected')
    assert page.evaluate("() => document.activeElement.dataset.key") == square
    page.keyboard.press("Enter")
    wait_for_moves(page, 1)
    assert web_server.state(created["room"], created["token"])["log"][-1]["text"] == f"{square}+"
    # the move was sent and the board drawn again (nothing to click while the answer came): the
    # keyboard is still on the board, not sent back to the top of the page
    page.wait_for_timeout(300)
    assert page.evaluate("() => document.getElementById('board').contains(document.activeElement)")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#board, #moves, #actions, .side') !== null")


def test_moves_are_read_out_in_a_live_region(new_page: Any, web_server: Server) -> None:
    created = web_server.create("towers", ["here", "invite"])
    invite = {"code": created["invites"][0]["code"], "name": "Bea"}
    joined = web_server.client.post(f"/api/rooms/{created['room']}/join", json=invite)
    assert joined.status_code == 200, joined.text
    page = new_page()
    hold_seats(page, created["room"], "towers", created["token"], [0])
    open_room(page, created["room"])
    region = page.locator("#announcer")
    assert region.get_attribute("aria-live") == "polite"
    assert region.inner_text() == ""  # opening the page reads out nothing old
    state = web_server.state(created["room"], created["token"])
    first = state["legal_moves"][0]["notation"]
    web_server.play(created["room"], created["token"], first, state["ply"])
    other = web_server.state(created["room"], joined.json()["token"])
    reply = other["legal_moves"][0]["notation"]
    web_server.play(created["room"], joined.json()["token"], reply, other["ply"])
    wait_for_moves(page, 2)
    page.wait_for_function(
        "text => document.getElementById('announcer')?.textContent.includes(text)", arg=f"Black (Bea): {reply}"
    )
    # colour is not all a square says: its label names the stack, bottom to top
    labels = page.eval_on_selector_all("#board [data-key]", "nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert all(labels) and any("height" in label for label in labels)
    assert boardlab.load("towers").name in page.locator("h1").inner_text()
