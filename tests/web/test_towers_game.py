"""A whole game of Towers against the computer, started from the lobby and played by clicking
only what the board highlights; then its result, replay and record."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, keys, play_by_clicking, wait_for_moves, wait_for_turn

#: a game against the greedy computer ends in well under this many of our moves (rule 8.2's
#: no-progress draw at 100 moves ends it in any case)
MAX_TURNS = 150


def start_from_lobby(page: Any, game: str, seats: list[str]) -> str:
    """Fill the lobby's form and start: returns the room the page went to."""
    page.goto("/")
    page.select_option("#game", game)  # the lobby's form: every choice of seats
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat-{seat}", kind)
    page.locator("#create").click()
    page.wait_for_url("**/rooms/*")
    return page.url.rsplit("/", 1)[-1]


def test_a_whole_towers_game_against_the_computer_by_clicking(
    page: Any, web_server: Server, screenshots: Path, tmp_path: Path
) -> None:
    room = start_from_lobby(page, "towers", ["here", "computer:easy"])
    rng = random.Random(11)
    turns = 0
    while wait_for_turn(page) != "finished":
        before = int(page.evaluate(f"() => Number({PLAY}.moves)"))
        play_by_clicking(page, rng)
        wait_for_moves(page, before + 1)
        turns += 1
        assert turns < MAX_TURNS, "the game did not end"
    banner = page.locator("#banner").inner_text()
    seen = web_server.state(room)
    assert seen["status"] == "finished"
    winner = seen["view"]["seat_names"][seen["view"]["result"]["winners"][0]]
    assert banner.startswith(f"{winner} wins"), banner
    assert page.locator("#moves li").count() == len(seen["log"])
    assert not keys(page, "bl-movable") and page.locator("#notation").count() == 0
    page.screenshot(path=str(screenshots / "towers-finished.png"), full_page=True)

    # the record downloads as the file `boardlab replay` reads
    with page.expect_download() as download:
        page.locator("#download").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["game"] == "towers" and len(record["moves"]) == len(seen["log"])

    # the replay: back to the start, where the set-up stands again, then one move on
    page.locator("#replay-start").click()
    page.wait_for_function(f"() => {PLAY}.mode === 'replay'")
    assert page.locator("#banner").inner_text() == "Replay: the start"
    assert page.locator('#board [data-key="b7"]').get_attribute("data-top") == "W"
    assert page.locator('#board [data-key="b7"]').get_attribute("data-height") == "2"
    page.locator("#replay-forward").click()
    page.wait_for_function("() => document.getElementById('replay-position')?.textContent.startsWith('move 1 /')")
    assert page.locator("#moves li.current").get_attribute("data-number") == "1"
    page.keyboard.press("End")
    page.wait_for_function(f"() => {PLAY}.mode === 'live'")
    assert page.locator("#banner").inner_text() == banner

    # the lobby lists the game among the finished ones, as this browser's
    page.goto("/")
    mine = page.locator(f'#rooms .room.mine[data-room="{room}"]')
    mine.wait_for()
    winner_name = seen["seats"][seen["view"]["result"]["winners"][0]]["name"]
    assert mine.locator("a").inner_text() == "Replay: Towers" and f"{winner_name} won" in mine.inner_text()
