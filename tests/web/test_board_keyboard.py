"""A keyboard player on a desktop: the board is one Tab stop (a roving tabindex over the places a
move is clicked through), the arrow keys move between those places, Enter clicks, and after the
move and the computer's reply the keyboard is back on the board's current place, not on the
page's top nor on the board's box, so the next turn goes on from there."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room, wait_for_moves

DESKTOP = {"width": 1280, "height": 800}

#: the board's keyboard stops: what Tab reaches inside #board (the box itself included)
TAB_STOPS = """() => [...document.querySelectorAll('#board, #board *')].filter((element) => {
  if (element.closest('[hidden], [aria-hidden="true"]')) return false;
  const box = element.getBoundingClientRect();
  if (!box.width && !box.height) return false;
  const native = element.matches('a[href], button:not(:disabled), input:not(:disabled), select, textarea, summary');
  return element.getAttribute('tabindex') !== null ? element.tabIndex >= 0 : native;
}).length"""
ON_TARGET = "() => document.activeElement.matches('#board svg [data-key]')"
FOCUSED_KEY = "() => document.activeElement.dataset.key ?? null"


def tab_into_board(page: Any) -> int:
    """Tab from the room's header until the keyboard is inside the board; the presses it took."""
    page.locator("h1").click()
    for presses in range(1, 80):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.getElementById('board').contains(document.activeElement)"):
            return presses
    raise AssertionError("Tab never reached the board")


@pytest.mark.parametrize("game", ["territories", "towers"])
def test_the_board_is_one_tab_stop_the_arrows_move_and_focus_comes_back_after_a_move(
    new_page: Any, web_server: Server, game: str
) -> None:
    created = web_server.create(game, ["here", "computer:easy"])
    page = new_page()
    page.set_viewport_size(DESKTOP)
    hold_seats(page, created["room"], game, created["token"], [0])
    open_room(page, created["room"])
    page.wait_for_function(f"() => {PLAY}.yourTurn === 'true'")
    page.wait_for_selector("#board svg [data-key].bl-movable")

    tab_into_board(page)
    # Tab lands on one of the places a move starts from, not on the board's box
    assert page.evaluate(ON_TARGET), page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    first = page.evaluate(FOCUSED_KEY)
    assert page.evaluate(TAB_STOPS) == 1
    # one stop: Tab leaves the board, Shift+Tab comes back onto the same place
    page.keyboard.press("Tab")
    assert not page.evaluate("() => document.getElementById('board').contains(document.activeElement)")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(FOCUSED_KEY) == first

    # the arrows go from place to place; the place reached is the board's one stop
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    moved = page.evaluate(FOCUSED_KEY)
    assert page.evaluate(ON_TARGET) and moved != first, f"the arrows left the keyboard on {moved}"
    assert page.evaluate("() => document.activeElement.getAttribute('tabindex')") == "0"
    others = page.eval_on_selector_all(
        "#board svg [data-key][tabindex]",
        "nodes => nodes.filter(n => n !== document.activeElement).map(n => n.getAttribute('tabindex'))",
    )
    assert others and set(others) == {"-1"}

    # Enter clicks (a Towers build is its square twice): until a move is sent
    state = web_server.state(created["room"], created["token"])
    for _ in range(3):
        page.keyboard.press("Enter")
        if page.evaluate(f"() => {PLAY}.yourTurn === 'false' || Number({PLAY}.moves) > {len(state['log'])}"):
            break
        assert page.evaluate(ON_TARGET)
    else:
        raise AssertionError("Enter made no move")
    wait_for_moves(page, len(state["log"]) + 1)
    # the computer answers; then the keyboard is on a place of the board again, the board one stop
    page.wait_for_function(f"() => {PLAY}.yourTurn === 'true'")
    page.wait_for_function(ON_TARGET)
    assert page.evaluate(TAB_STOPS) == 1
    assert page.evaluate("() => document.activeElement.getAttribute('tabindex')") == "0"
    # and the next turn goes on from there: an arrow moves, Enter clicks
    before = page.evaluate(FOCUSED_KEY)
    for key in ("ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
        if page.evaluate(FOCUSED_KEY) != before:
            break
    assert page.evaluate(ON_TARGET)
