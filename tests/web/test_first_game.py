"""A newcomer's first game, the small things: the lobby offers the simplest
game first and then the last one started; the banner names an unnamed player once; the invite
link shows whole in the side panel; the Play panel says what the wait is for; Honor's score
line stops marking a turn once the game is over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room


def test_a_first_visit_offers_towers_and_then_the_game_last_started(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#create")
    assert page.locator("#game").input_value() == "towers"
    assert page.locator("#create").inner_text() == "Start Towers"

    page.select_option("#game", "overseer")
    page.wait_for_function("document.querySelector('#create')?.textContent === 'Start Overseer'")
    page.select_option("#seat-1", "here")
    page.locator("#create").click()
    page.wait_for_url("**/rooms/*")
    page.goto("/")
    page.wait_for_selector("#create")
    assert page.locator("#game").input_value() == "overseer"


def test_an_unnamed_player_is_named_once_in_the_banner(new_page: Any, web_server: Server) -> None:
    # this browser holds Black only; White, at another screen, decides first
    unnamed = web_server.create("towers", ["here", "here"])
    page = new_page()
    hold_seats(page, unnamed["room"], "towers", unnamed["token"], [1])
    open_room(page, unnamed["room"])
    assert page.locator("#banner").inner_text() == "Waiting for White"

    named = web_server.create("towers", ["here", "here"], names=["Ann", "Bea"])
    page = new_page()
    hold_seats(page, named["room"], "towers", named["token"], [1])
    open_room(page, named["room"])
    assert page.locator("#banner").inner_text() == "Waiting for White (Ann)"


def _waiting_for_a_guest(page: Any, web_server: Server) -> str:
    """A room whose Black is invited and not there yet, opened by its creator; returns the link."""
    created = web_server.create("towers", ["here", "invite"])
    room = created["room"]
    hold_seats(page, room, "towers", created["token"], [0])
    page.evaluate(
        """([room, invites]) => {
            const data = JSON.parse(localStorage.getItem("boardlab.rooms"));
            data[room].invites = invites;
            localStorage.setItem("boardlab.rooms", JSON.stringify(data));
        }""",
        [room, created["invites"]],
    )
    page.goto(f"/rooms/{room}")
    page.wait_for_function(f"() => {PLAY}.status === 'waiting' && {PLAY}.mode === 'live'")
    link = created["invites"][0]["link"]
    return f"{web_server.url}{link}" if link.startswith("/") else link


def test_the_invite_link_in_the_side_panel_shows_whole(page: Any, web_server: Server, screenshots: Path) -> None:
    link = _waiting_for_a_guest(page, web_server)
    page.screenshot(path=str(screenshots / "towers-waiting-for-a-guest.png"))
    field = page.locator("#invites .invite-link")
    assert field.input_value() == link
    # nothing of it is scrolled out of sight, and it stays inside the panel
    sizes = field.evaluate("f => [f.scrollWidth, f.clientWidth, f.scrollHeight, f.clientHeight]")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3] + 1, sizes
    box, panel = field.bounding_box(), page.locator("#invites").bounding_box()
    assert box["x"] >= panel["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"] + 0.5


def test_the_play_panel_says_the_game_waits_for_the_guest(page: Any, web_server: Server) -> None:
    _waiting_for_a_guest(page, web_server)
    note = page.locator("#actions #waiting-note")
    assert note.is_visible()
    text = note.inner_text()
    assert text.startswith("Waiting for your guest to join") and "invite link" in text


def test_honors_score_line_marks_no_turn_once_the_game_is_over(page: Any, web_server: Server) -> None:
    created = web_server.create("honor", ["here", "here"])
    room, token, state = created["room"], created["token"], created["state"]
    resign = next(move for move in state["legal_moves"] if move["type"] == "resign")
    web_server.play(room, token, resign["notation"], state["ply"])
    hold_seats(page, room, "honor", token, [0, 1])
    open_room(page, room)
    page.wait_for_function(f"() => {PLAY}.status === 'finished'")
    score = page.locator("#board .honor-score")
    assert score.is_visible()
    assert "(turn)" not in score.inner_text()
    # the banner says what happened, in words: not the rule the game then applied ("last tower
    # standing (rule 8.1)", which read as if Red's tower had fallen)
    banner = page.locator("#banner").inner_text()
    assert banner == "Blue wins: Red resigned", banner


def test_the_lobby_lists_this_browsers_unfinished_games_to_go_back_to(page: Any, web_server: Server) -> None:
    playing = web_server.create("towers", ["here", "computer:beginner"])
    finished = web_server.create("overseer", ["here", "here"])
    resigned = web_server.client.post(f"/api/rooms/{finished['room']}/resign", json={"seat": 0},
                                      headers={"Authorization": f"Bearer {finished['token']}"})
    assert resigned.status_code == 200, resigned.text
    hold_seats(page, playing["room"], "towers", playing["token"], [0])
    page.evaluate(
        """([room, token]) => {
            const data = JSON.parse(localStorage.getItem("boardlab.rooms"));
            data[room] = {game: "overseer", identities: [{token, seats: [0, 1]}], invites: [], created: Date.now()};
            localStorage.setItem("boardlab.rooms", JSON.stringify(data));
        }""",
        [finished["room"], finished["token"]],
    )
    page.goto("/")
    mine = page.locator("#my-games")
    mine.wait_for()
    items = page.locator("#my-games-list li")
    assert items.count() == 1  # the finished game is not one to go back to
    item = items.first
    assert item.get_attribute("data-room") == playing["room"]
    assert "Towers" in item.inner_text() and "against Computer (beginner)" in item.inner_text()
    assert item.locator("a").get_attribute("href") == f"/rooms/{playing['room']}"


def test_the_lobbys_rule_variants_wait_folded_in_words_and_only_a_changed_one_is_sent(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#create")
    page.select_option("#game", "territories")
    page.wait_for_function("document.querySelector('#create')?.textContent === 'Start Territories'")
    # a first game needs no variant: they are folded away, the rules as written
    assert not page.locator("#rule-variants").evaluate("details => details.open")
    assert not page.locator("#option-bank_trade").is_visible()
    page.locator("#rule-variants summary").click()
    # choices and defaults in words, not the options' identifiers
    choices = page.locator("#option-lose_all option").all_inner_texts()
    assert choices == ["resources", "resources and territories"]
    extent = page.locator("#option-expand_max_extent").locator("xpath=..").locator(".help").inner_text()
    assert extent.endswith("(default: none)"), extent
    assert page.locator("#option-expand_max_extent").get_attribute("placeholder") == "none"
    # a number's box keeps to the option's bounds (target_points: 3 to 25)
    target = page.locator("#option-target_points")
    assert (target.get_attribute("min"), target.get_attribute("max")) == ("3", "25")
    page.select_option("#option-bank_trade", "mixed4")
    page.select_option("#seat-1", "here")
    with page.expect_request(lambda request: request.url.endswith("/api/rooms") and request.method == "POST") as sent:
        page.locator("#create").click()
    # the empty extent box is the default (none), so only the changed variant travels
    assert sent.value.post_data_json["options"] == {"bank_trade": "mixed4"}
    page.wait_for_url("**/rooms/*")
