"""What a person does on the play page, as steps a browser test takes: hold a room's seats (the
page keeps tokens in localStorage), open the room, wait for a state, click a move."""

from __future__ import annotations

import random
import time
from typing import Any

#: a move's clicks on each drawn board, as the game's renderer.js says (clickPath)
CLICK_PATHS = {
    "towers": lambda move: [move["square"], move["square"]] if move["type"] == "build" else [move["from"], move["to"]],
    "sovereign": lambda move: (
        ([move["square"], move["tower"]] if move["tower"] else [move["square"]])
        if move["type"] == "placement"
        else [move["from"], move["to"], move["build"]]
        if move["type"] == "contractor_move"
        else [move["from"], move["to"]]
    ),
    "overseer": lambda move: [move["from"], move["to"]],
    "territories": lambda move: _territories_path(move),
    "honor": lambda move: (
        [move["piece"], f"bid:{move['bid']}"] if move["type"] == "build"
        else [move["piece"], "push"] if move["type"] == "push"
        else None if move["type"] in ("release", "tremor", "resign")
        else [move["notation"]]
    ),
}


def _territories_path(move: dict[str, Any]) -> list[str] | None:
    """A Town on its corner, an upgrade on the building and then the piece, Swap and Expand on a
    hand card and then the cell, a proposal (composed, then announced and made) and discards in a
    form (None), the rest on
    a button named by the move's notation."""
    point = "pt:{},{}".format(*move["point"]) if "point" in move else None
    if move["type"] == "build":
        return [point] if move["kind"] == "P" else [point, f"kind:{move['kind']}"]
    if move["type"] == "convert_to":
        return [point, f"kind:{move['kind']}"]
    if move["type"] == "destroy":
        return [point]
    if move["type"] in ("swap_card", "place_card"):
        return [f"card:{move['card']}", "cell:{},{}".format(*move["cell"])]
    if move["type"] in ("offer", "counter", "discard", "wild", "pay", "propose_trade", "propose_counter"):
        return None  # put together in a form (a proposal before its announcement, R8.2)
    return [move["notation"]]

#: the play page's state as its script publishes it; empty while the page is still loading (a
#: wait that starts during a navigation reads nothing yet instead of failing on a missing element)
PLAY = "(document.getElementById('play') || {dataset: {}}).dataset"


def hold_seats(page: Any, room: str, game: str, token: str, seats: list[int]) -> None:
    """Give this browser the token of ``seats`` (as creating the room in the lobby would)."""
    page.goto("/favicon.svg")
    page.evaluate(
        """([room, game, token, seats]) => {
            const data = JSON.parse(localStorage.getItem("boardlab.rooms") || "{}");
            data[room] = {game, identities: [{token, seats}], invites: [], created: Date.now()};
            localStorage.setItem("boardlab.rooms", JSON.stringify(data));
        }""",
        [room, game, token, seats],
    )


def open_room(page: Any, room: str) -> None:
    page.goto(f"/rooms/{room}")
    page.wait_for_function(f"() => ['live', 'replay', 'handover'].includes({PLAY}.mode)")


#: Honor in exact mode (no tremor): Red's brick at x 30, Blue's at x 90, and Red holds the log
#: (LG2), aiming it: the same position every time
HONOR_TO_AIMING = ["build BR1 0", "pass", "rel 30", "build BR2 0", "pass", "rel 90", "build LG2 0", "pass"]


def honor_room_aiming(
    page: Any, web_server: Any, seats: list[int], script: list[str] = HONOR_TO_AIMING
) -> tuple[str, str, dict[str, Any]]:
    """An Honor room of two seats here, played in exact mode by ``script`` (notation) to a piece
    in the hand, open on ``page`` holding ``seats``, live: ``(room, token, state)``."""
    created = web_server.create("honor", ["here", "here"], options={"tremor": False})
    room, token = created["room"], created["token"]
    state = created["state"]
    for text in script:
        state = web_server.play(room, token, text, state["ply"])
    hold_seats(page, room, "honor", token, seats)
    open_room(page, room)
    page.wait_for_selector("#board [data-hand]")
    page.wait_for_function("() => document.getElementById('connection')?.dataset.state === 'open'")
    return room, token, state


def steady_box(page: Any, selector: str, timeout_s: float = 15.0) -> dict[str, float]:
    """The on-screen box of ``selector`` once it is drawn and has stopped moving.

    A room page draws from the REST state first and again when the live socket's first message
    lands; an element read between the two can be detached (no box) or about to move. Two equal
    reads 100 ms apart mean the drawing has settled."""
    deadline = time.monotonic() + timeout_s
    locator = page.locator(selector)
    last = None
    while time.monotonic() < deadline:
        box = locator.bounding_box() if locator.count() else None
        if box is not None and box == last:
            return dict(box)
        last = box
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} never showed a steady box within {timeout_s} s (last read: {last})")


def moves_shown(page: Any) -> int:
    return int(page.evaluate(f"() => Number({PLAY}.moves)"))


def wait_for_moves(page: Any, count: int) -> None:
    """Until the page shows at least ``count`` moves (live, without reloading)."""
    page.wait_for_function(f"n => Number({PLAY}.moves) >= n", arg=count)


def wait_for_turn(page: Any) -> str:
    """Until this page's person decides, or the game is over; returns the room's status."""
    page.wait_for_function(f"() => {PLAY}.status === 'finished' || {PLAY}.yourTurn === 'true'")
    return str(page.evaluate(f"() => {PLAY}.status"))


def keys(page: Any, kind: str) -> list[str]:
    """The board's highlighted keys: ``bl-movable`` (where a move starts) or ``bl-target``."""
    return list(page.eval_on_selector_all(f"#board [data-key].{kind}", "nodes => nodes.map(n => n.dataset.key)"))


def click_key(page: Any, key: str) -> None:
    page.locator(f'#board [data-key="{key}"]').click()


def play_by_clicking(page: Any, rng: random.Random) -> list[str]:
    """Click a highlighted piece, then highlighted targets, until a move is sent; returns the
    keys clicked. Only what the page highlights is ever clicked."""
    clicked: list[str] = []
    revision = page.evaluate(f"() => {PLAY}.revision")
    candidates = keys(page, "bl-movable")
    assert candidates, "nothing on the board is highlighted as movable"
    for _ in range(4):
        key = rng.choice(candidates)
        click_key(page, key)
        clicked.append(key)
        # the move went: the page waits for the answer, or has it (and the computer's reply) already
        if page.evaluate(f"r => {PLAY}.yourTurn === 'false' || {PLAY}.revision !== r", revision):
            return clicked
        if page.locator("#chooser").is_visible():
            page.locator("#chooser button").first.click()
            return clicked
        candidates = keys(page, "bl-target")
        assert candidates, f"after clicking {clicked} nothing is highlighted"
    raise AssertionError(f"clicking {clicked} made no move")
