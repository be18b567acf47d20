"""The lobby's "Start a game your way" makes one room a click: a room with an invited seat shows
its links in place ("Your Towers game is ready"), brought into view, and the form's Start button
makes no second room, neither from a double click nor from a click once the links show, until
the player changes a choice or asks for another game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import Server

#: a laptop's window made narrow, where the ready panel appears under the fold of the form
WINDOW = {"width": 800, "height": 600}
#: the rooms this browser made (the lobby keeps each one's token and invite links)
ROOMS_KEPT = "() => Object.keys(JSON.parse(localStorage.getItem('boardlab.rooms') || '{}'))"
#: the ready panel's heading on the screen: its top inside the viewport, and the panel shown
PANEL_IN_VIEW = """() => {
  const panel = document.getElementById('created');
  if (!panel || panel.hidden) return false;
  const top = panel.getBoundingClientRect().top;
  return top >= 0 && top + 40 <= window.innerHeight;
}"""


@pytest.fixture
def window(new_page: Callable[..., Any]) -> Any:
    return new_page(WINDOW)


def test_start_makes_one_invitation_room(window: Any, web_server: Server, screenshots: Path) -> None:
    page = window
    made: list[str] = []  # every request the page sent to make a room
    page.on(
        "request",
        lambda request: made.append(request.url) if request.method == "POST" and request.url.endswith("/api/rooms") else None,
    )
    page.goto("/?game=towers")
    page.wait_for_selector("#seat-1")
    page.select_option("#seat-1", "invite")
    start = page.locator("#create")
    assert start.inner_text() == "Start Towers"

    # two clicks in quick succession: one room
    start.dblclick()
    page.wait_for_selector("#created:not([hidden]) .invite-link")
    assert "Your Towers game is ready" in page.locator("#created h2").inner_text()
    # brought into view: the page scrolls to it
    page.wait_for_function(PANEL_IN_VIEW)

    # once more, on the Start button the panel appeared under, and the form sent another way
    start.click(force=True)  # forced: a button that is spent may be disabled
    page.evaluate("() => document.getElementById('create-form').requestSubmit()")
    page.wait_for_timeout(1500)
    assert len(made) == 1, f"the lobby asked for {len(made)} rooms: {made}"
    rooms = page.evaluate(ROOMS_KEPT)
    assert len(rooms) == 1, rooms
    room = rooms[0]
    waiting = web_server.client.get("/api/rooms", params={"status": "open"}).json()
    assert room in [entry["room"] for entry in waiting] or web_server.state(room)["status"] == "waiting"
    # the panel is still the one room's
    assert page.locator("#created").is_visible()
    assert page.locator("#open-room").get_attribute("href") == f"/rooms/{room}"
    # the Start button is spent, and the line beside it says why and how to start another game
    assert start.is_disabled() and start.inner_text() == "Towers started"
    note = page.locator("#create-made")
    assert "is made" in note.inner_text() and "links are below" in note.inner_text(), note.inner_text()
    page.screenshot(path=str(screenshots / "lobby-invitation-ready.png"))

    # another game, asked for in words: the Start button makes one again
    page.locator("#create-another").click()
    assert start.is_enabled() and start.inner_text() == "Start Towers"
    assert not page.locator("#create-made").is_visible()
    assert len(made) == 1  # asking for another game made none by itself
    start.click()
    page.wait_for_function(
        "() => document.getElementById('create').disabled && document.getElementById('create-made').textContent"
    )
    assert len(page.evaluate(ROOMS_KEPT)) == 2
    assert len(made) == 2
    # announced: the keyboard's place moved onto the panel (a screen reader reads its heading).
    # Asked of this single click: a press on the spent button moves the keyboard's place to the
    # page, as any browser does, so the double click above takes it off the panel whenever the
    # room is made between its two clicks
    focused = page.evaluate("() => document.activeElement && document.activeElement.id")
    assert focused == "created", focused


def test_a_changed_choice_starts_a_new_room(window: Any) -> None:
    page = window
    page.goto("/?game=towers")
    page.wait_for_selector("#seat-1")
    page.select_option("#seat-1", "invite")
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden]) .invite-link")
    assert page.locator("#create").is_disabled()
    # a name given to the host: a different game, so the button starts it
    page.fill("#name-0", "Ann")
    assert page.locator("#create").is_enabled()
    page.locator("#create").click()
    page.wait_for_function("() => document.getElementById('create').disabled")
    page.wait_for_function("n => Object.keys(JSON.parse(localStorage.getItem('boardlab.rooms') || '{}')).length === n", arg=2)
