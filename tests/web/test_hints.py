"""The play page's hint in words a player reads: a sentence whatever the move's words (the log's
third person, "proposes a trade", or a bare notation), the whole trade where its move names
it, and "highlighted on the board" only where the board shows the move. And the replay's move
list: a move clicked there leaves the window where it was."""

from __future__ import annotations

import json
import random
from typing import Any

from boardlab.core.registry import load
from boardlab.games.territories.moves import ProposeTrade
from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, keys, open_room, wait_for_turn

SENTENCE = "The engine suggests this move: "


def hint_sentence(page: Any) -> tuple[str, str]:
    """Ask for a hint; the sentence shown and its move's words."""
    page.locator("#hint").click()
    text = page.locator("#hint-text")
    text.wait_for(timeout=60_000)
    return text.inner_text(), text.locator("strong").inner_text()


def answer_hints_with(page: Any, move: str, text: str) -> None:
    """The server's hint answered with ``move`` (its words ``text``) for the page's position: the
    engine's own choice depends on the room's seed, which no test picks."""

    def fulfil(route: Any) -> None:
        revision = int(page.evaluate(f"() => Number({PLAY}.revision)"))
        body = {"room": "", "seat": 0, "ply": 0, "revision": revision, "move": move, "text": text, "agent": ""}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/api/rooms/*/hint", fulfil)


def to_a_trade(server: Server, room: str, token: str) -> dict[str, Any]:
    """The first legal moves until the seat on turn may propose a trade (R8.2); its state."""
    state = server.state(room, token)
    for _ in range(400):
        if any(move["type"] == "propose_trade" for move in state["legal_moves"]):
            return state
        state = server.play(room, token, state["legal_moves"][0]["notation"], state["ply"])
    raise AssertionError("no trade proposal became possible in 400 moves")


def test_a_territories_trade_hint_reads_as_a_sentence_names_the_trade_and_claims_no_highlight(
    page: Any, web_server: Server
) -> None:
    created = web_server.create("territories", ["here", "here"])  # people at one screen: hints offered
    room, token = created["room"], created["token"]
    state = to_a_trade(web_server, room, token)
    # the seat deciding alone: with both, the page may first ask to hand the screen over
    hold_seats(page, room, "territories", token, [state["view"]["to_move"]])
    open_room(page, room)
    assert wait_for_turn(page) == "playing"

    # the announcement: its words are the log's, and no mark on the board singles it out
    words = load("territories").new_state(1).move_text(ProposeTrade(), state["view"]["to_move"])
    answer_hints_with(page, "propose", words)
    sentence, shown = hint_sentence(page)
    assert shown == words == "proposes a trade"
    assert sentence.startswith(SENTENCE + words + ".")
    assert "suggests proposes" not in sentence and "highlighted" not in sentence
    page.unroute("**/api/rooms/*/hint")

    # announced: the engine's proposal itself, in full (what is given, for what)
    state = web_server.play(room, token, "propose", state["ply"])
    page.wait_for_function(f"r => Number({PLAY}.revision) === r", arg=state["revision"])
    sentence, shown = hint_sentence(page)
    assert shown.startswith("offers ") and " for " in shown, sentence
    assert sentence.startswith(SENTENCE + shown + "."), sentence
    assert "suggests offers" not in sentence and "highlighted" not in sentence
    page.locator("#hint-play").click()
    page.wait_for_function(f"r => Number({PLAY}.revision) > r", arg=state["revision"])
    assert web_server.state(room, token)["log"][-1]["text"] == shown


def test_an_honor_pass_hint_reads_as_a_sentence_and_says_highlighted_only_where_the_board_marks_it(
    page: Any, web_server: Server
) -> None:
    created = web_server.create("honor", ["here", "here"])
    room, token = created["room"], created["token"]
    build = next(move for move in created["state"]["legal_moves"] if move["type"] == "build")
    state = web_server.play(room, token, build["notation"], created["state"]["ply"])
    assert any(move["notation"] == "pass" for move in state["legal_moves"])  # an auction: bid or pass
    after = load("honor").new_state(1).preview(build["notation"])
    passing = next(move for move in after.legal_moves() if str(move) == "pass")
    words = after.move_text(passing, 1)
    hold_seats(page, room, "honor", token, [1])
    open_room(page, room)
    assert wait_for_turn(page) == "playing"

    answer_hints_with(page, "pass", words)
    sentence, shown = hint_sentence(page)
    assert shown == words == "pass"
    assert sentence.startswith(SENTENCE + "pass")
    # the claim and the board agree: the Pass button is the one marked, or nothing is said
    marked = page.locator('#board [data-key="pass"].bl-movable, #board [data-key="pass"].bl-target').count()
    assert ("(highlighted on the board)" in sentence) == (marked == 1), sentence
    assert marked == 1


def test_a_towers_hint_still_says_it_is_highlighted(page: Any, web_server: Server) -> None:
    created = web_server.create("towers", ["here", "computer:easy"])
    room, token = created["room"], created["token"]
    hold_seats(page, room, "towers", token, [0])
    open_room(page, room)
    assert wait_for_turn(page) == "playing"
    sentence, shown = hint_sentence(page)
    assert sentence.startswith(f"{SENTENCE}{shown} (highlighted on the board).")
    assert len(keys(page, "bl-target")) == 1


def test_clicking_a_move_of_the_replay_list_leaves_the_window_where_it_was(page: Any, web_server: Server) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    created = web_server.create("overseer", ["here", "here"])
    room, token = created["room"], created["token"]
    state = created["state"]
    rng = random.Random(3)
    for _ in range(40):
        state = web_server.play(room, token, rng.choice(state["legal_moves"])["notation"], state["ply"])
        if state["status"] != "playing":
            break
    else:
        resigned = web_server.client.post(f"/api/rooms/{room}/resign", json={}, headers={"Authorization": f"Bearer {token}"})
        assert resigned.status_code == 200, resigned.text
    hold_seats(page, room, "overseer", token, [0, 1])
    open_room(page, room)
    page.locator("#analysis-graph").wait_for(timeout=120_000)
    page.locator("#playtest form").first.wait_for()  # the panels above the list are all drawn
    # the list in sight, as a person who scrolled down to it sees it
    page.evaluate("() => window.scrollTo(0, document.getElementById('moves').getBoundingClientRect().top + scrollY - 300)")
    page.wait_for_timeout(200)
    before = page.evaluate("scrollY")
    assert before > 0
    item = page.locator('#moves li[data-number="14"]')
    assert item.is_visible()
    page.evaluate("""() => { window.scrolledTo = []; addEventListener("scroll", () => window.scrolledTo.push(scrollY)); }""")
    item.click()
    page.wait_for_function("() => document.getElementById('replay-position')?.textContent.startsWith('move 14 /')")
    page.wait_for_timeout(300)
    # the window may move by what the replay's controls add above the list, never by a page's
    # height: the move clicked stays where the person clicked it
    assert abs(page.evaluate("scrollY") - before) < 100, page.evaluate("window.scrolledTo")
    box = page.locator('#moves li[data-number="14"]').bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800
