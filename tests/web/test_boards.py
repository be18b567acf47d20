"""Every game's page: a move made by clicking on each drawn board (clicking a piece highlights
exactly its legal moves), a move typed in notation, and a screenshot of every game's page
(artifacts/screenshots/<game>.png)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import Server
from tests.web.steps import CLICK_PATHS, PLAY, click_key, hold_seats, keys, moves_shown, open_room, wait_for_moves

#: moves played through the API before a board is looked at: the set-up done, some play
OPENING = {"towers": 6, "sovereign": 17, "overseer": 6, "territories": 0, "honor": 0}


def here_room(server: Server, game: str, moves: int = 0, players: int | None = None, seed: int = 1) -> dict[str, Any]:
    """A room of people sharing one screen, ``moves`` random legal moves into the game."""
    seats = ["here"] * (players or 2)
    created = server.create(game, seats, **({"players": players} if players else {}))
    state = created["state"]
    rng = random.Random(seed)
    for _ in range(moves):
        state = server.play(created["room"], created["token"], rng.choice(state["legal_moves"])["notation"], state["ply"])
    return {**created, "state": state, "seats": list(range(len(seats)))}


def enter(page: Any, game: str, created: dict[str, Any]) -> None:
    hold_seats(page, created["room"], game, created["token"], created["seats"])
    open_room(page, created["room"])


@pytest.mark.parametrize("game", ["towers", "sovereign", "overseer", "territories", "honor"])
def test_a_move_by_clicking_highlights_exactly_the_legal_moves(page: Any, web_server: Server, game: str) -> None:
    created = here_room(web_server, game, OPENING[game])
    enter(page, game, created)
    legal = created["state"]["legal_moves"]
    paths = [path for path in (CLICK_PATHS[game](move) for move in legal) if path]
    # before any click: every square a move starts from, and only those, is highlighted
    assert sorted(keys(page, "bl-movable")) == sorted({path[0] for path in paths})
    clicked: list[str] = []
    rng = random.Random(5)
    while True:
        kind = "bl-movable" if not clicked else "bl-target"
        following = [path for path in paths if path[: len(clicked)] == clicked and len(path) > len(clicked)]
        expected = sorted({path[len(clicked)] for path in following})
        # the board redraws after a click: give a loaded machine a moment before judging
        deadline = time.monotonic() + 5
        while sorted(keys(page, kind)) != expected and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        choices = keys(page, kind)
        assert sorted(choices) == expected, clicked
        clicked.append(rng.choice(choices))
        click_key(page, clicked[-1])
        if page.evaluate(f"() => {PLAY}.yourTurn") == "false" or moves_shown(page) > len(created["state"]["log"]):
            break
    wait_for_moves(page, len(created["state"]["log"]) + 1)
    # the move list may be drawn a moment after the page counts the move: wait for its last line
    stored = web_server.state(created["room"], created["token"])["log"][-1]["text"]
    page.wait_for_function(
        "text => { const items = document.querySelectorAll('#moves li .move-text');"
        " return items.length > 0 && items[items.length - 1].textContent === text; }",
        arg=stored,
    )
    played = page.locator("#moves li").last.locator(".move-text").inner_text()
    # the move list shows the move as people read it (Territories' "builds a Town at 1,3"), the
    # log's move its notation: the clicks made exactly that move
    last = web_server.state(created["room"], created["token"])["log"][-1]
    assert [CLICK_PATHS[game](move) for move in legal if last["move"]["notation"] == move["notation"]] == [clicked]
    assert last["text"] == played


def test_a_move_typed_in_notation_is_played_and_a_wrong_one_refused_with_the_reason(page: Any, web_server: Server) -> None:
    created = here_room(web_server, "towers")
    enter(page, "towers", created)
    page.fill("#notation", "d4+")
    page.press("#notation", "Enter")
    page.wait_for_selector("#alert:not([hidden])")
    assert "castle" in page.locator("#alert").inner_text()  # building on a castle is refused (rule 4.1)
    assert moves_shown(page) == 0
    page.fill("#notation", "  ")
    page.press("#notation", "Enter")  # an empty box: the refusal above is not its answer
    page.wait_for_function("() => document.querySelector('#alert').innerText.startsWith('Type a move first')")
    assert "castle" not in page.locator("#alert").inner_text() and moves_shown(page) == 0
    page.fill("#notation", "f1+")
    page.press("#notation", "Enter")
    wait_for_moves(page, 1)
    assert page.locator("#alert").is_hidden()
    assert page.locator('#board [data-key="f1"]').get_attribute("data-height") == "3"
    assert "Black" in page.locator("#banner").inner_text()


def test_take_back_against_the_computer(page: Any, web_server: Server) -> None:
    created = web_server.create("towers", ["here", "computer:easy"])
    hold_seats(page, created["room"], "towers", created["token"], [0])
    open_room(page, created["room"])
    click_key(page, "f1")
    click_key(page, "f1")
    wait_for_moves(page, 2)  # ours and the computer's reply, live
    page.wait_for_function(f"() => {PLAY}.yourTurn === 'true'")
    page.locator("#undo").click()
    page.wait_for_function(f"() => {PLAY}.moves === '0'")
    assert page.locator('#board [data-key="f1"]').get_attribute("data-height") == "2"


# --- screenshots ---------------------------------------------------------------------------
SCREENS = [
    # (file, game, players, moves played first, seats, what to click before the picture)
    ("towers", "towers", None, OPENING["towers"], None, 1),
    ("towers-4-players", "towers", 4, 8, None, 1),
    ("sovereign", "sovereign", None, OPENING["sovereign"], None, 1),
    ("sovereign-setup", "sovereign", None, 3, None, 0),
    ("overseer", "overseer", None, OPENING["overseer"], None, 1),
    ("territories", "territories", None, 0, ["here", "computer:easy"], 0),
    ("honor", "honor", None, 0, ["here", "computer:easy"], 0),
]


@pytest.mark.parametrize(("name", "game", "players", "moves", "seats", "clicks"), SCREENS, ids=[screen[0] for screen in SCREENS])
def test_every_games_page_is_drawn(
    page: Any,
    web_server: Server,
    screenshots: Path,
    name: str,
    game: str,
    players: int | None,
    moves: int,
    seats: list[str] | None,
    clicks: int,
) -> None:
    if seats is None:
        created = here_room(web_server, game, moves, players)
    else:
        created = {**web_server.create(game, seats), "seats": [0]}
    enter(page, game, created)
    entry = web_server.client.get(f"/api/games/{game}").json()
    if entry["renderer"]:  # the game's own drawing, not the generic one
        assert page.locator("#board .generic").count() == 0
        assert page.locator("#board svg, #board canvas").count() >= 1
    else:  # the generic renderer until the game has its own: the position as text, moves as buttons
        assert page.locator("#board .generic-board").inner_text().strip()
        assert page.locator("#board .move-button").count() > 0
    for _ in range(clicks):
        click_key(page, keys(page, "bl-movable")[0])
    page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)


def test_the_lobby_and_a_rules_page_are_drawn(page: Any, screenshots: Path) -> None:
    page.goto("/")
    page.wait_for_selector(".game-card")
    assert page.locator(".game-card").count() == 5
    overseer = page.locator('.game-card[data-game="overseer"]')
    assert overseer.locator(".summary").inner_text() == "Chess on a round board, for two."  # its description's first sentence
    assert overseer.locator(".description").text_content().startswith("Chess on a round board")  # all of it, under About
    # each card says how its game plays in the game's own words: Honor's luck is a tremor, not dice or cards
    facts = {game: page.locator(f'.game-card[data-game="{game}"] .facts').inner_text()
             for game in ("honor", "territories", "overseer")}
    assert facts == {"honor": "2, 3 or 4 players · physics, a small tremor on every release",
                     "territories": "2 players · dice, hidden cards", "overseer": "2 players · no luck, nothing hidden"}
    page.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
    towers = page.locator('.game-card[data-game="towers"]')
    towers.locator("summary", has_text="About the game").click()
    towers.locator("a", has_text="The rules").click()
    page.wait_for_url("**/rules/towers")
    assert page.locator("h1").inner_text().startswith("Towers")
    page.screenshot(path=str(screenshots / "rules-towers.png"))


def test_a_draw_offered_and_accepted_on_a_shared_screen(page: Any, web_server: Server) -> None:
    created = here_room(web_server, "towers")
    enter(page, "towers", created)
    page.locator("#offer-draw").click()
    page.wait_for_selector("#accept-draw")
    assert page.locator("#accept-draw").inner_text() == "Accept the draw as Black"
    assert "offers a draw" in page.locator('#players [data-seat="0"]').inner_text()
    # the banner says it to the people who may answer it, not only a badge in the players' list
    assert page.locator("#banner").inner_text() == "White offers a draw: accept or decline it below"
    page.locator("#accept-draw").click()
    page.wait_for_function(f"() => {PLAY}.status === 'finished'")
    assert page.locator("#banner").inner_text().startswith("Draw")


def test_the_keyboard_chooses_a_move_too(page: Any, web_server: Server) -> None:
    created = here_room(web_server, "overseer")
    enter(page, "overseer", created)
    page.locator('#board [data-key="F1"]').focus()
    page.keyboard.press("Enter")
    assert set(keys(page, "bl-target")) == {"F3", "H3"}  # the Soldier's jumps over the Barricades (rule 3.2)
    page.keyboard.press("Escape")
    assert not keys(page, "bl-target") and "F1" in keys(page, "bl-movable")
    page.locator('#board [data-key="F1"]').focus()
    page.keyboard.press("Enter")
    page.locator('#board [data-key="H3"]').focus()
    page.keyboard.press(" ")
    wait_for_moves(page, 1)
    assert page.locator("#moves li .move-text").inner_text() == "F1-H3"


def test_the_player_who_offered_a_draw_is_told_it_was_declined(page: Any, web_server: Server) -> None:
    created = web_server.create("towers", ["here", "invite"])
    code = created["invites"][0]["code"]
    joined = web_server.client.post(f"/api/rooms/{created['room']}/join", json={"code": code, "name": "Bea"})
    assert joined.status_code == 200, joined.text
    hold_seats(page, created["room"], "towers", created["token"], [0])
    open_room(page, created["room"])
    page.locator("#offer-draw").click()
    page.wait_for_function("() => document.querySelector('#players [data-seat=\"0\"]')?.innerText.includes('offers a draw')")
    guest = {"Authorization": f"Bearer {joined.json()['token']}"}
    declined = web_server.client.post(f"/api/rooms/{created['room']}/draw", json={"action": "decline"}, headers=guest)
    assert declined.status_code == 200, declined.text
    note = page.locator("#draw-declined")
    note.wait_for()
    assert note.inner_text() == "Black (Bea) declined the draw."
    assert "declined the draw" in page.locator("#announcer").inner_text()  # read out as it comes
    page.locator("#offer-draw").wait_for()  # the game goes on: a draw may be offered again
