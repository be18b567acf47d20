"""Two people at two browsers: the invite link, live moves both ways without reloading, a
reload and a dropped connection that come back to the same game, the end seen by both; and
people sharing one screen, where a game with hidden cards asks for the hand-over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, click_key, hold_seats, open_room, wait_for_moves

#: test instrumentation: the page's WebSockets, so that a test can cut them as a network would
KEEP_SOCKETS = """
window.openSockets = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new NativeWebSocket(...args);
  window.openSockets.push(socket);
  return socket;
};
window.WebSocket.prototype = NativeWebSocket.prototype;
Object.assign(window.WebSocket, { OPEN: 1, CLOSED: 3, CONNECTING: 0, CLOSING: 2 });
"""


def test_an_invited_friend_plays_live_from_another_browser(new_page: Callable[[], Any], web_server: Server) -> None:
    host = new_page()
    host.add_init_script(KEEP_SOCKETS)
    host.goto("/")
    host.select_option("#game", "towers")  # the lobby's form: every choice of seats
    host.select_option("#seat-1", "invite")
    host.locator("#create").click()
    link = host.locator("#created .invite-link").input_value()
    assert "/rooms/" in link and "?invite=" in link
    host.locator("#open-room").click()
    host.wait_for_function(f"() => {PLAY}.status === 'waiting'")
    assert host.locator("#invites .invite-link").input_value() == link  # still there to copy
    assert "Waiting for the invited player (Black)" in host.locator("#banner").inner_text()

    guest = new_page()
    guest.goto(link)
    # the invitation says what it is to: the game, and the seat it gives
    assert guest.locator("#join-title").inner_text() == "You are invited to play Towers (you would play Black)"
    guest.locator("#join-name").fill("Bea")
    guest.locator("#join-button").click()
    guest.wait_for_function(f"() => {PLAY}.mode === 'live'")
    assert "?invite" not in guest.url  # a reload must not use the spent invite again
    assert guest.evaluate(f"() => {PLAY}.seat") == "1"

    # the link, once used, says so before anybody tries it, and offers to watch
    stranger = new_page()
    stranger.goto(link)
    stranger.wait_for_selector("#join-title")
    assert stranger.locator("#join-title").inner_text() == "This invitation has been used already"
    assert stranger.locator("#join-button").count() == 0
    stranger.close()

    # somebody else only watches: no controls, but the moves as they come
    watcher = new_page()
    watcher.goto(host.url)
    watcher.wait_for_function(f"() => {PLAY}.mode === 'live' && {PLAY}.seat === ''")
    assert watcher.locator("#notation").count() == 0 and watcher.locator("#resign").count() == 0
    assert "watching" in watcher.locator("#actions").inner_text()

    # the host's page learns of the guest by itself; nobody may take a move back against a guest
    host.wait_for_function(f"() => {PLAY}.status === 'playing' && {PLAY}.yourTurn === 'true'")
    assert "Bea" in host.locator("#players").inner_text()
    assert host.locator("#undo").count() == 0
    click_key(host, "f1")
    click_key(host, "f2")
    wait_for_moves(guest, 1)
    wait_for_moves(watcher, 1)
    guest.wait_for_function(f"() => {PLAY}.yourTurn === 'true'")
    assert guest.locator('#board [data-key="f2"]').get_attribute("data-top") == "W"

    # the host's connection drops (as a network would cut it) while the guest plays on
    host.context.set_offline(True)
    host.evaluate("() => window.openSockets.forEach((socket) => socket.close())")
    host.wait_for_function("() => document.getElementById('connection')?.dataset.state === 'reconnecting'")

    # a reload comes back to the same seat of the same game
    guest.reload()
    guest.wait_for_function(f"() => {PLAY}.mode === 'live' && {PLAY}.yourTurn === 'true'")
    assert guest.evaluate(f"() => {PLAY}.seat") == "1" and guest.locator("#moves li").count() == 1
    click_key(guest, "b1")
    click_key(guest, "b1")
    wait_for_moves(guest, 2)

    # back on line, the host's page reconnects by itself and shows what happened meanwhile
    host.context.set_offline(False)
    host.wait_for_function("() => document.getElementById('connection')?.dataset.state === 'open'")
    wait_for_moves(host, 2)
    assert host.locator('#board [data-key="b1"]').get_attribute("data-height") == "3"
    room = host.url.rsplit("/", 1)[-1]

    # the host resigns: both see the end
    host.locator("#resign").click()
    host.locator("#resign").click()  # the second click confirms
    for page in (host, guest):
        page.wait_for_function(f"() => {PLAY}.status === 'finished'")
        assert page.locator("#banner").inner_text().startswith("Black wins")
    assert web_server.state(room)["view"]["result"]["code"] == "resign"


def test_an_unknown_room_says_so(page: Any) -> None:
    page.goto("/rooms/nosuchroom")
    page.wait_for_function(f"() => {PLAY}.mode === 'error'")
    assert "There is no room nosuchroom" in page.locator("#banner").inner_text()


def test_people_sharing_a_screen_hand_over_before_a_hidden_hand_shows(page: Any, web_server: Server) -> None:
    created = web_server.create("territories", ["here", "here"])
    room, token = created["room"], created["token"]
    # the set-up (where nothing is hidden yet: the screen passes without asking), until hands differ
    state = created["state"]
    while web_server.state(room, token, 0)["view"]["board"] == web_server.state(room, token, 1)["view"]["board"]:
        state = web_server.play(room, token, state["legal_moves"][0]["notation"], state["ply"])
    hold_seats(page, room, "territories", token, [0, 1])
    open_room(page, room)
    page.wait_for_function(f"() => {PLAY}.mode === 'handover'")
    seat = web_server.state(room, token)["seat"]
    name = state["view"]["seat_names"][seat]
    assert page.locator("#banner").inner_text() == f"Pass the screen to {name}"
    # nothing of any hand is in the page while it waits: the board, the move list and the
    # legal moves (offered to the notation box) are gone
    for part in ("#board", "#moves", "#actions"):
        assert page.locator(part).inner_html() == "", part
    page.locator("#handover-ready").click()
    page.wait_for_function(f"() => {PLAY}.mode === 'live'")
    assert page.evaluate(f"() => {PLAY}.seat") == str(seat)
    assert page.locator("#board .terr-board").count() == 1
    # this seat plays (typed moves) until the other decides: then the screen is handed over again
    while (current := web_server.state(room, token))["seat"] == seat:
        moves = int(page.evaluate(f"() => {PLAY}.moves"))
        page.fill("#notation", current["legal_moves"][-1]["notation"])
        page.press("#notation", "Enter")
        page.wait_for_function(f"n => Number({PLAY}.moves) > n", arg=moves)
    page.wait_for_function(f"() => {PLAY}.mode === 'handover'")
    assert page.locator("#board").inner_html() == ""


def test_a_game_whose_seats_see_the_same_needs_no_hand_over(page: Any, web_server: Server) -> None:
    """Honor hides only its seed: the same screen goes on without asking."""
    created = web_server.create("honor", ["here", "here"])
    hold_seats(page, created["room"], "honor", created["token"], [0, 1])
    open_room(page, created["room"])
    page.wait_for_function(f"() => {PLAY}.mode === 'live'")
    assert page.locator("#handover").is_hidden()


def test_a_refused_name_at_the_invitation_is_said_as_a_refusal(new_page: Callable[[], Any], web_server: Server) -> None:
    created = web_server.create("towers", ["here", "invite"])
    link = created["invites"][0]["link"]
    guest = new_page()
    guest.goto(link if link.startswith("/") else link.removeprefix(web_server.url))
    guest.locator("#join-name").fill("Bea\u202eevil")
    guest.locator("#join-button").click()
    refusal = guest.locator("#join .alert[role=alert]")
    refusal.wait_for()
    assert refusal.inner_text() == "a name may not hold a mark that changes the direction of the text (U+202E)"
    assert guest.locator("#join-button").is_enabled()  # the person may correct it and join
