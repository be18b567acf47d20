"""Rematch in the browser: "Play again" in one browser, the offer seen live
and accepted in another; both people land in the new room with the seats rotated, and a
spectator watching the old room follows them there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room


def post(page: Any, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = page.request.post(path, data=body, headers=headers)
    assert response.ok, response.text()
    return response.json()


def test_play_again_is_offered_accepted_live_and_everybody_lands_in_the_rotated_rematch(
    new_page: Callable[[], Any], web_server: Server
) -> None:
    host, guest, watcher = new_page(), new_page(), new_page()
    # the lobby names an invited seat "Player 2"; the guest joins as the remembered player Bo,
    # whose name the room's players see (docs/web.md), wherever the page names that seat
    created = post(host, "/api/rooms", {"game": "towers", "seats": ["here", "invite"], "names": ["Ann", "Player 2"]})
    room = created["room"]
    bo = post(guest, "/api/players", {"name": "Bo"})
    joined = guest.request.post(f"/api/rooms/{room}/join", data={"code": created["invites"][0]["code"]},
                                headers={"X-Player-Key": bo["key"]})
    assert joined.ok, joined.text()
    guest_token = joined.json()["token"]
    post(host, f"/api/rooms/{room}/resign", {}, created["token"])
    hold_seats(host, room, "towers", created["token"], [0])
    hold_seats(guest, room, "towers", guest_token, [1])
    for page in (host, guest, watcher):
        open_room(page, room)
    assert watcher.locator("#rematch-offer").count() == 0  # a spectator has nothing to offer

    host.locator("#rematch-offer").click()
    host.wait_for_function(
        "() => (document.getElementById('rematch-note') || {}).textContent?.includes('Waiting for Black (Bo) to answer')")
    assert host.locator("#rematch-note").inner_text().startswith("You offer a rematch")
    # the guest's page shows the offer by itself (the room's WebSocket), with its answers
    guest.locator("#rematch-accept").wait_for()
    assert guest.locator("#rematch-note").inner_text().startswith("White (Ann) offers a rematch")
    guest.locator("#rematch-accept").click()

    for page in (host, guest, watcher):
        page.wait_for_url(lambda url: "/rooms/" in url and room not in url)
        page.wait_for_function(f"() => {PLAY}.mode === 'live'")
    new_room = host.url.rsplit("/", 1)[1]
    assert guest.url.endswith(new_room) and watcher.url.endswith(new_room)
    # seats rotated: the guest now plays White (seat 0) and opens; the host waits as Black
    guest.wait_for_function(f"() => {PLAY}.seat === '0' && {PLAY}.yourTurn === 'true'")
    host.wait_for_function(f"() => {PLAY}.seat === '1'")
    # the rematch knows the guest by the name they joined with
    host.wait_for_function("() => document.getElementById('banner')?.textContent === 'Waiting for White (Bo)'")
    assert watcher.evaluate(f"() => {PLAY}.seat") == ""
    assert host.locator("#rematch-of a").get_attribute("href") == f"/rooms/{room}"
    # the old room, opened again, stays there to look back at, with a link to the rematch
    open_room(watcher, room)
    assert watcher.locator("#rematch-link").get_attribute("href") == f"/rooms/{new_room}"
