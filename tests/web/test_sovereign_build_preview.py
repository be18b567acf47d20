"""Sovereign's Contractor move on the board (rule 1.6: a step, then a build next to the new square):
once its step is clicked, the board shows the part of the move already chosen, the Contractor on
the square it stepped to and its old square empty, and marks the build squares as targets (its old
square among them, never drawn as the selected piece)."""

from __future__ import annotations

import time
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, click_key, keys, wait_for_moves
from tests.web.test_boards import enter, here_room

#: the set-up's 14 placements, played through the API: then P1 moves, its Contractors can step
SETUP = 14


def square(page: Any, key: str) -> dict[str, Any]:
    """What the board draws on ``key``: its data attributes, classes and drawn pieces."""
    return dict(page.eval_on_selector(
        f'#board [data-key="{key}"]',
        """node => ({
            piece: node.dataset.piece || "",
            height: Number(node.dataset.height),
            classes: [...node.classList],
            pieces: node.querySelectorAll(".sovereign-piece").length,
        })""",
    ))


def wait_until(check: Any, what: str, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_contractor_shows_its_step_while_its_build_is_chosen(page: Any, web_server: Server) -> None:
    created = here_room(web_server, "sovereign", SETUP, seed=1)
    legal = created["state"]["legal_moves"]
    steps = [move for move in legal if move["type"] == "contractor_move" and move["build"] == move["from"]]
    assert steps, "no Contractor of P1 can step and build on its old square after this set-up"
    chosen = steps[0]
    origin, stepped = chosen["from"], chosen["to"]
    builds = sorted({m["build"] for m in legal if m["type"] == "contractor_move" and (m["from"], m["to"]) == (origin, stepped)})
    assert origin in builds

    enter(page, "sovereign", created)
    assert square(page, origin)["piece"] == "B"
    click_key(page, origin)
    wait_until(lambda: stepped in keys(page, "bl-target"), f"clicking {origin} offers no step to {stepped}")
    click_key(page, stepped)
    wait_until(lambda: sorted(keys(page, "bl-target")) == builds, f"the build squares {builds} are not the targets")

    # the Contractor stands where it stepped, drawn there; its old square is empty
    arrived, left = square(page, stepped), square(page, origin)
    assert arrived["piece"] == "B" and arrived["pieces"] == 1, arrived
    assert left["piece"] == "" and left["pieces"] == 0, left
    # the build squares are targets, the old square among them, none drawn as the selected piece
    assert "bl-target" in left["classes"] and "bl-selected" not in left["classes"], left
    for key in builds:
        assert "bl-selected" not in square(page, key)["classes"], key
    assert keys(page, "bl-selected") == [stepped]
    assert "steps from" in page.locator(".sovereign-legend .bl-hint").inner_text()

    # building on the old square plays the move its notation names
    before, height = len(created["state"]["log"]), left["height"]
    click_key(page, origin)
    wait_for_moves(page, before + 1)
    log = web_server.state(created["room"], created["token"])["log"]
    assert log[before]["move"]["notation"] == chosen["notation"], log[before]
    page.wait_for_function(f"() => {PLAY}.moves === '{before + 1}'")
    assert square(page, stepped)["piece"] == "B" and square(page, origin)["piece"] == ""
    assert square(page, origin)["height"] == height + 1
