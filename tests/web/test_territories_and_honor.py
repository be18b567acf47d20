"""The two games with their own controls: Territories' hidden hands seen from two browsers (neither
page holds a card of the other's hand, only its backs) and its forms; Honor's placement by
dragging the piece in hand, and the settle animated from the view's physics frames."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, open_room, steady_box, wait_for_moves


def two_seats(server: Server, game: str, **fields: Any) -> tuple[str, list[str]]:
    """A room whose two seats are two people: the creator's token and the invited guest's."""
    created = server.create(game, ["here", "invite"], **fields)
    joined = server.client.post(f"/api/rooms/{created['room']}/join", json={"code": created["invites"][0]["code"], "name": "Bea"})
    assert joined.status_code == 200, joined.text
    return created["room"], [created["token"], joined.json()["token"]]


def hand(server: Server, room: str, token: str, seat: int) -> list[str]:
    """The territory cards ``seat`` holds, as its own view shows them."""
    return list(server.state(room, token)["view"]["board"]["seats"][seat]["territories"])


def test_two_seats_of_territories_never_see_each_others_hand(
    new_page: Callable[[], Any], web_server: Server, screenshots: Path
) -> None:
    room, tokens = two_seats(web_server, "territories")
    rng = random.Random(7)
    # played through the API until both hands hold cards the other has not seen: buying cards from
    # the bank (4X>T) and the roller's draw on a 7 are the ways in
    for _ in range(4000):
        views = [web_server.state(room, token) for token in tokens]
        hidden = [
            set(hand(web_server, room, tokens[seat], seat)) - set(views[1 - seat]["view"]["board"]["seats"][seat]["territories"])
            for seat in (0, 1)
        ]
        if all(hidden) and views[0]["view"]["to_move"] is not None:
            break
        seat = views[0]["view"]["to_move"]
        state = views[seat]
        moves = state["legal_moves"]
        buy = [move for move in moves if move["type"] == "bank_trade" and move["get"] == "T"]
        build = [move for move in moves if move["type"] == "build"]
        quiet = [m for m in moves if m["type"] not in ("propose_trade", "announce")]
        move = (buy or build or quiet or moves)[0] if rng.random() < 0.8 else rng.choice(moves)
        web_server.play(room, tokens[seat], move["notation"], state["ply"])
    else:
        raise AssertionError("the hands never both held a hidden card")

    pages = []
    for seat in (0, 1):
        page = new_page()
        hold_seats(page, room, "territories", tokens[seat], [seat])
        open_room(page, room)
        page.wait_for_selector("#board .terr-board")
        pages.append(page)
    for seat, page in enumerate(pages):
        other = 1 - seat
        source = page.content()
        for card in hidden[other]:
            # the card's code as a word anywhere in the page: text, attributes, the move list
            found = re.search(rf"(?<![0-9A-Za-z]){card}(?![0-9A-Za-z])", source)
            assert not found, f"seat {seat}'s page holds {card} of the other hand"
        # the other hand is drawn as card backs, one per card this seat has not seen
        backs = page.locator(f'#board .terr-hand[data-seat="{other}"] .terr-back').count()
        assert backs == len(hidden[other])
        # and this seat's own cards face up
        own_cards = f'#board .terr-hand[data-seat="{seat}"] [data-card]'
        own = set(page.eval_on_selector_all(own_cards, "nodes => nodes.map(n => n.dataset.card)"))
        assert own == set(hand(web_server, room, tokens[seat], seat))
        page.screenshot(path=str(screenshots / f"territories-{['white', 'black'][seat]}.png"), full_page=True)


def to_a_trade(server: Server, room: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """Play the first legal moves until the player on turn may propose a trade (R8.2); that
    seat and its state."""
    for _ in range(400):
        state = server.state(room, tokens[0])
        seat = state["view"]["to_move"]
        state = server.state(room, tokens[seat])
        if any(move["type"] == "propose_trade" for move in state["legal_moves"]):
            return seat, state
        server.play(room, tokens[seat], state["legal_moves"][0]["notation"], state["ply"])
    raise AssertionError("no trade proposal became possible in 400 moves")


SUIT_INDEX = {"H": 0, "S": 1, "C": 2, "D": 3}


def step_up(page: Any, side: int, letters: str) -> None:
    """Press + on the proposal form's given (side 0) or wanted (side 1) suits, once per letter."""
    for letter in letters:
        steppers = page.locator("#board .terr-compose .terr-steppers").nth(side)
        steppers.locator(".terr-step").nth(2 * SUIT_INDEX[letter] + 1).click()


def test_a_territories_trade_offer_is_composed_sent_whole_and_answered_by_the_other_seat(
    new_page: Callable[[], Any], web_server: Server
) -> None:
    room, tokens = two_seats(web_server, "territories")
    seat, state = to_a_trade(web_server, room, tokens)
    proposer, responder = new_page(), new_page()
    for page, who in ((proposer, seat), (responder, 1 - seat)):
        hold_seats(page, room, "territories", tokens[who], [who])
        open_room(page, room)
    # "Propose a trade…" opens a form and sends nothing (R8.2's announcement commits)
    proposer.locator("#board .terr-compose-open").click()
    proposer.wait_for_selector("#board form.terr-compose")
    assert web_server.state(room, tokens[seat])["ply"] == state["ply"]
    assert proposer.locator("#terr-send-proposal").is_disabled()
    offer = one_offer(state)
    step_up(proposer, 0, offer["give"])
    step_up(proposer, 1, offer["get"])
    proposer.locator("#terr-send-proposal").click()
    # the other browser sees the offer live and answers it by clicking
    responder.wait_for_selector('#board [data-key="acc"]')
    assert "offers" in responder.locator("#board .terr-offer").inner_text()
    moves = int(responder.evaluate(f"() => Number({PLAY}.moves)"))
    responder.locator('#board [data-key="rej"]').click()
    wait_for_moves(proposer, moves + 1)
    log = web_server.state(room, tokens[0])["log"]
    assert [entry["move"]["notation"] for entry in log[-3:]] == ["propose", offer["notation"], "rej"]
    assert [entry["text"] for entry in log[-3:]][::2] == ["proposes a trade", "rejects the trade"], "in words (R11.1)"


def one_offer(state: dict[str, Any]) -> dict[str, Any]:
    """A proposal R8.2 allows in ``state``: one resource the proposer holds for one of another
    kind the opponent holds (announcing to ask the server for its list would commit the player)."""
    board = state["view"]["board"]
    seat = state["view"]["to_move"]
    mine, theirs = board["seats"][seat]["resources"], board["seats"][1 - seat]["resources"]
    give, get = next((g, w) for g in "HSCD" for w in "HSCD" if mine[g] and theirs[w] and g != w)
    return {"give": give, "get": get, "notation": f"offer({give}:{get})"}


def test_a_composed_proposal_can_be_cancelled_and_an_impossible_one_is_not_sent(
    new_page: Callable[[], Any], web_server: Server
) -> None:
    room, tokens = two_seats(web_server, "territories")
    seat, state = to_a_trade(web_server, room, tokens)
    page = new_page()
    hold_seats(page, room, "territories", tokens[seat], [seat])
    open_room(page, room)
    page.locator("#board .terr-compose-open").click()
    mine = state["view"]["board"]["seats"][seat]["resources"]
    suit = next(s for s in "HSCD" if mine[s])
    step_up(page, 0, suit)
    # a suit on both sides is refused before anything is sent (R8.2)
    theirs = state["view"]["board"]["seats"][1 - seat]["resources"]
    if theirs[suit]:
        step_up(page, 1, suit)
        assert "both sides" in page.locator("#board .terr-problem").inner_text()
        assert page.locator("#terr-send-proposal").is_disabled()
    # everything it holds plus one more cannot be given: + stops at the holding
    plus = page.locator("#board .terr-compose .terr-steppers").nth(0).locator(".terr-step").nth(2 * SUIT_INDEX[suit] + 1)
    for _ in range(mine[suit] - 1):
        plus.click()
    assert plus.is_disabled()
    page.locator("#terr-cancel-proposal").click()
    assert page.locator("#board form.terr-compose").count() == 0
    after = web_server.state(room, tokens[seat])
    assert after["ply"] == state["ply"] and after["view"]["board"]["phase"] == "main"
    assert any(move["type"] == "propose_trade" for move in after["legal_moves"])


def honor_slab_in_hand(page: Any, web_server: Server) -> tuple[str, str]:
    """An Honor room of two people at this screen, Red holding the slab it won unopposed, open
    in ``page``: its id and token."""
    created = web_server.create("honor", ["here", "here"])
    room, token = created["room"], created["token"]
    state = created["state"]
    for text in ("build SL1 0", "pass"):
        state = web_server.play(room, token, text, state["ply"])
    hold_seats(page, room, "honor", token, [0, 1])
    open_room(page, room)
    return room, token


def test_an_honor_piece_is_placed_by_dragging_and_its_fall_animated(page: Any, web_server: Server, screenshots: Path) -> None:
    room, token = honor_slab_in_hand(page, web_server)
    page.wait_for_function("() => document.getElementById('connection')?.dataset.state === 'open'")
    box = steady_box(page, "#board [data-hand]")
    hand = page.locator("#board [data-hand]")
    start = float(hand.get_attribute("data-x") or "nan")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 90, box["y"] + box["height"] / 2, steps=6)
    aimed = float(hand.get_attribute("data-x") or "nan")
    assert aimed < start - 5, "the piece follows the pointer"
    page.screenshot(path=str(screenshots / "honor-placing.png"), full_page=True)
    page.mouse.up()  # letting go releases it
    wait_for_moves(page, 3)
    log = web_server.state(room, token)["log"]
    assert log[2]["move"]["notation"] == f"rel {aimed:.2f} 0.0 0.05"
    assert re.fullmatch(r"release the slab, [0-9.]+ cm left of the middle of its zone", log[2]["text"]), (
        "the move list reads the release in words")
    slab = [piece for piece in web_server.state(room, token)["view"]["board"]["table"] if piece["pid"] == "SL1"]
    assert slab and slab[0]["owner"] == 0 and abs(slab[0]["x"] - aimed) < 1.5  # the tremor moves it a little

    # Blue's column is placed while the page watches: the page plays the settle from the frames
    state = web_server.state(room, token)
    for text in ("build CO1 0", "pass"):
        state = web_server.play(room, token, text, state["ply"])
    page.wait_for_selector("#board [data-hand]")
    page.locator("#board [data-hand]").focus()
    page.keyboard.press("Shift+ArrowRight")  # the keyboard moves the piece too: 1 cm
    page.keyboard.press("Enter")
    wait_for_moves(page, 7)
    frames = web_server.state(room, token)["view"]["board"]["frames"]
    assert frames and "CO1" in frames["pids"] and len(frames["poses"]) > 2
    # the column falls from its release height during the animation, then rests on the table
    page.wait_for_function("() => document.querySelector('#board [data-pid=\"CO1\"]') !== null")
    page.wait_for_timeout(2500)
    assert web_server.state(room, token)["log"][6]["text"].startswith("release the column, ")


def test_a_counter_proposal_is_composed_and_sent_whole_by_the_responder(
    new_page: Callable[[], Any], web_server: Server
) -> None:
    # R8.3 (option counter_offers): the responder's counter is composed before `counter` commits it
    room, tokens = two_seats(web_server, "territories", options={"counter_offers": True})
    seat, state = to_a_trade(web_server, room, tokens)
    offer = one_offer(state)
    state = web_server.play(room, tokens[seat], "propose", state["ply"])
    state = web_server.play(room, tokens[seat], offer["notation"], state["ply"])
    answering = web_server.state(room, tokens[1 - seat])
    assert any(move["type"] == "propose_counter" for move in answering["legal_moves"])
    page = new_page()
    hold_seats(page, room, "territories", tokens[1 - seat], [1 - seat])
    open_room(page, room)
    page.locator('#board .terr-compose-open[data-announce="propose_counter"]').click()
    page.wait_for_selector('#board form.terr-compose[data-type="compose-counter"]')
    assert web_server.state(room, tokens[1 - seat])["ply"] == answering["ply"]
    counter = one_offer(answering)
    step_up(page, 0, counter["give"])
    step_up(page, 1, counter["get"])
    page.locator("#terr-send-proposal").click()
    wait_for_moves(page, len(answering["log"]) + 2)
    log = web_server.state(room, tokens[0])["log"]
    assert [entry["move"]["notation"] for entry in log[-2:]] == ["counter", counter["notation"].replace("offer", "counter")]
    assert log[-1]["text"].startswith("counters with "), "in words (R11.1)"


def test_an_honor_hint_takes_the_piece_in_the_hand_where_the_engine_would_release_it(
        page: Any, web_server: Server) -> None:
    room, token = honor_slab_in_hand(page, web_server)
    page.wait_for_selector("#board [data-hand]")
    page.locator("#hint").click()
    text = page.locator("#hint-text")
    text.wait_for(timeout=60_000)
    hinted = text.locator("strong").inner_text()
    assert re.fullmatch(r"release the slab, .*(its zone)", hinted), f"the hint reads in words, as the move list will: {hinted!r}"
    # a release is not chosen by clicks: the board shows it by moving the piece in the hand there
    assert "highlighted on the board" in text.inner_text()
    hand = page.locator("#board [data-hand]")
    x, rotation = float(hand.get_attribute("data-x") or "nan"), float(hand.get_attribute("data-rotation") or "nan")
    hand.focus()
    page.keyboard.press("Enter")  # dropping it there plays the hinted release
    wait_for_moves(page, 3)
    played = web_server.state(room, token)["log"][2]
    assert played["move"]["notation"] == f"rel {x:.2f} {rotation:.1f} 0.05"
    assert played["text"] == hinted, "the piece in the hand was where the hint said"


def test_a_territories_hint_to_propose_a_trade_lights_up_the_button_that_opens_the_form(
        page: Any, web_server: Server) -> None:
    created = web_server.create("territories", ["here", "here"])
    room, token = created["room"], created["token"]
    seat, state = to_a_trade(web_server, room, [token, token])
    # the engine's choice is its own: answered here, so that it is the move no click chooses
    page.route("**/hint", lambda route: route.fulfill(json={
        "room": room, "seat": seat, "ply": state["ply"], "revision": state["revision"], "move": "propose", "agent": "test"}))
    hold_seats(page, room, "territories", token, [seat])
    open_room(page, room)
    page.wait_for_selector("#board .terr-compose-open")
    assert page.locator("#board .terr-compose-open.bl-target").count() == 0
    page.locator("#hint").click()
    page.locator("#hint-text").wait_for()
    # the button wears the mark every clickable action wears, so the sentence claims no highlight
    assert "propose" in page.locator("#hint-text").inner_text()
    assert "highlighted" not in page.locator("#hint-text").inner_text()
    assert page.locator('#board .terr-compose-open.bl-target[data-announce="propose_trade"]').count() == 1


def test_a_resigned_territories_game_says_it_is_over_where_it_asked_for_a_decision(page: Any, web_server: Server) -> None:
    room, tokens = two_seats(web_server, "territories")
    resigned = web_server.client.post(f"/api/rooms/{room}/resign", json={}, headers={"Authorization": f"Bearer {tokens[0]}"})
    assert resigned.status_code == 200, resigned.text
    hold_seats(page, room, "territories", tokens[1], [1])
    open_room(page, room)
    page.wait_for_selector("#board .terr-decision")
    assert page.locator("#board .terr-decision").inner_text() == "The game is over."


#: the words of an element's text that the page breaks across lines (a word drawn in two places)
BROKEN_WORDS = """element => {
  const broken = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


def test_territories_building_legend_wraps_between_words_at_any_width(page: Any, web_server: Server) -> None:
    created = web_server.create("territories", ["here", "here"])
    hold_seats(page, created["room"], "territories", created["token"], [0, 1])
    for width in (1300, 1024, 800, 390):
        page.set_viewport_size({"width": width, "height": 900})
        open_room(page, created["room"])
        entries = page.locator(".terr-pieces li")
        assert entries.count() == 6
        broken = {entry.inner_text(): entry.evaluate(BROKEN_WORDS) for entry in entries.all()}
        assert {text: words for text, words in broken.items() if words} == {}, width
