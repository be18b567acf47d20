"""The move list of a game whose log opens with the set-up dealt by chance (Territories deals its
grid: one chance entry a card): the deal is one entry of the list, opened on its cards, and the
players' first moves come right under it; the log, its numbers and the replay's steps are still
each entry's."""

from __future__ import annotations

import time
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room, wait_for_moves

#: the list's entries a person sees, top to bottom: [by, text] of each visible line
VISIBLE = """() => [...document.querySelectorAll('#moves li')].filter((item) => item.checkVisibility())
  .filter((item) => !item.querySelector('li') || item.matches('.deal-entry'))
  .map((item) => [item.querySelector('.move-by').textContent, item.querySelector('.move-text').textContent])"""


def test_the_set_up_deal_is_one_entry_and_the_replay_still_steps_through_it(page: Any, web_server: Server) -> None:
    created = web_server.create("territories", ["here", "computer:easy"])
    room, token = created["room"], created["token"]
    state = created["state"]
    dealt = 0
    while dealt < len(state["log"]) and state["log"][dealt]["by"] == "chance":
        dealt += 1
    assert dealt >= 2, "Territories deals its grid by chance before the first move"
    # this seat's first move (after the computer's, when it begins), and the computer's answer
    deadline = time.monotonic() + 30
    state = web_server.state(room, token)
    while not state["legal_moves"] and time.monotonic() < deadline:
        time.sleep(0.1)
        state = web_server.state(room, token)
    state = web_server.play(room, token, state["legal_moves"][0]["notation"], state["ply"])
    hold_seats(page, room, "territories", token, [0])
    open_room(page, room)
    wait_for_moves(page, len(state["log"]))
    page.wait_for_function(f"() => {PLAY}.yourTurn === 'true'")

    shown = page.evaluate(VISIBLE)
    log = web_server.state(room, token)["log"]
    players = [entry for entry in log if entry["by"] != "chance"]
    # one line for the deal, then the players' moves: no line of the deal's own
    assert shown[0] == ["chance", f"The set-up is dealt: {dealt} entries"], shown[:3]
    assert [text for _, text in shown[1:]] == [entry["text"] for entry in log[dealt:]], shown[:5]
    assert len(players) >= 1 and shown[1][1] == players[0]["text"]
    # its cards are in its title, and shown when it is opened (the keyboard opens it too)
    summary = page.locator("#moves summary.deal-summary")
    assert summary.get_attribute("title") == ", ".join(entry["text"] for entry in log[:dealt])
    summary.focus()
    page.keyboard.press("Enter")
    opened = page.evaluate(VISIBLE)
    assert [text for _, text in opened[1 : dealt + 1]] == [entry["text"] for entry in log[:dealt]]
    # the log and its numbers are the server's, one entry a card
    assert page.evaluate(f"() => Number({PLAY}.moves)") == len(log)
    assert page.locator("#moves li[data-number]").count() == len(log)

    # the replay steps through every card of the deal, one at a time, then the first move
    resigned = web_server.client.post(f"/api/rooms/{room}/resign", json={}, headers={"Authorization": f"Bearer {token}"})
    assert resigned.status_code == 200, resigned.text
    page.wait_for_function(f"() => {PLAY}.status === 'finished'")
    page.locator("#replay-start").click()
    page.wait_for_function(f"() => {PLAY}.mode === 'replay'")
    for number in range(1, dealt + 2):
        page.locator("#replay-forward").click()
        page.wait_for_function(
            "n => document.querySelector('#moves li[data-number].current')?.dataset.number === String(n)", arg=number
        )
        current = page.locator("#moves li[data-number].current")
        assert current.is_visible(), f"the replay's step {number} is not shown in the list"
        assert current.locator(".move-text").inner_text() == log[number - 1]["text"]
    assert page.locator("#moves li.deal-entry").count() == 1
