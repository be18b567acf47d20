"""A move sent from the page carries the revision of the state it was chosen in, not only its ply
. The ply alone cannot tell a move chosen before a take-back from
one chosen after it, when both land on the same ply; the revision changes on every take-back."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room, play_by_clicking, wait_for_turn


def test_a_clicked_move_is_sent_with_the_state_revision(new_page: Any, web_server: Server) -> None:
    room = web_server.create("towers", ["here", "here"], undo="same_screen")
    page = new_page()
    hold_seats(page, room["room"], "towers", room["token"], [0, 1])
    open_room(page, room["room"])
    rng = random.Random(5)
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda request: sent.append(json.loads(request.post_data or "{}")) if request.url.endswith("/moves") else None,
    )
    for _ in range(2):
        wait_for_turn(page)
        play_by_clicking(page, rng)
        page.wait_for_function(f"n => Number({PLAY}.moves) >= n", arg=len(sent))
    # take the last move back: the ply goes back to 1 while the revision goes on
    revision = web_server.state(room["room"], room["token"])["revision"]
    undone = web_server.client.post(
        f"/api/rooms/{room['room']}/undo",
        json={"seat": 1, "revision": revision},
        headers={"Authorization": f"Bearer {room['token']}"},
    )
    assert undone.status_code == 200, undone.text
    page.wait_for_function(f"() => Number({PLAY}.moves) === 1")
    wait_for_turn(page)
    play_by_clicking(page, rng)
    page.wait_for_function(f"() => Number({PLAY}.moves) === 2")
    assert [body["ply"] for body in sent] == [0, 1, 1]
    revisions = [body["revision"] for body in sent]
    assert revisions[0] < revisions[1] < revisions[2]  # the same ply twice, two revisions
