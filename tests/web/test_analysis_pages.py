"""The engine in the browser: a finished game's replay shows the analysis (a graph of each
seat's chances to click through, the moves that lost the most), stepped through by keys as
quickly as they are pressed, and a game against the computer has a Hint button that lights up
the engine's move on the board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.browser import Server
from tests.web.steps import PLAY, hold_seats, keys, open_room, wait_for_moves, wait_for_turn

#: moves of the finished game: each side plays its first legal move this many times in all
MOVES = 8


def finished_towers(web_server: Server) -> tuple[str, str]:
    created = web_server.create("towers", ["here", "here"])
    room, token = created["room"], created["token"]
    state = created["state"]
    for _ in range(MOVES):
        state = web_server.play(room, token, state["legal_moves"][0]["notation"], state["ply"])
    resigned = web_server.client.post(f"/api/rooms/{room}/resign", json={}, headers={"Authorization": f"Bearer {token}"})
    assert resigned.status_code == 200, resigned.text
    return room, token


def test_the_replay_graph_shows_the_position_clicked(page: Any, web_server: Server, screenshots: Path) -> None:
    room, token = finished_towers(web_server)
    hold_seats(page, room, "towers", token, [0, 1])
    open_room(page, room)
    graph = page.locator("#analysis-graph")
    graph.wait_for()
    # a line per seat, named in the legend (not by colour alone), one click target per position
    assert graph.locator("polyline.analysis-line").count() == 2
    assert page.locator(".analysis-legend").inner_text().split() == ["White", "Black"]
    assert graph.locator("rect.analysis-point").count() == MOVES + 1
    assert page.locator("#analysis-now").inner_text().startswith(f"After move {MOVES}: White ")
    # a move that lost the most is marked "?" on a row of its own, never over the axis' words
    # (the last one once covered "move 24")
    overlaps = page.evaluate("""() => {
      const words = [...document.querySelectorAll('#analysis-graph text')]
        .filter((t) => /^(start|move \\d+)$/.test(t.textContent));
      const marks = [...document.querySelectorAll('#analysis-graph .analysis-worst-mark')];
      const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      return marks.filter((m) => words.some((w) => meet(m.getBoundingClientRect(), w.getBoundingClientRect()))).length;
    }""")
    assert overlaps == 0
    final_board = page.locator("#board").inner_html()

    graph.locator('rect.analysis-point[data-move="1"]').click()
    page.wait_for_function("() => document.getElementById('replay-position')?.textContent.startsWith('move 1 /')")
    page.wait_for_function(f"() => {PLAY}.mode === 'replay'")
    assert page.locator("#banner").inner_text().startswith(f"Replay: after move 1 of {MOVES}")
    assert page.locator("#board").inner_html() != final_board
    now = page.locator("#analysis-now").inner_text()
    assert now.startswith("After move 1: White ") and "Next, Black played" in now
    assert page.locator('#analysis-graph rect.analysis-point.current').get_attribute("data-move") == "1"

    # the start, from the graph too; then a move that lost the most, which shows where it was played
    graph.locator('rect.analysis-point[data-move="0"]').click()
    page.wait_for_function("() => document.getElementById('banner')?.textContent === 'Replay: the start'")
    worst = page.locator("#analysis-worst button")
    if worst.count():
        number = int(worst.first.get_attribute("data-move"))
        worst.first.click()
        shown = "n => document.getElementById('replay-position').textContent.startsWith('move ' + n + ' /')"
        page.wait_for_function(shown, arg=number)
        assert "the engine preferred" in page.locator("#analysis-now").inner_text()
    page.screenshot(path=str(screenshots / "towers-analysis.png"), full_page=True)


def test_a_hint_lights_up_the_engines_move_and_plays_it(page: Any, web_server: Server, screenshots: Path) -> None:
    created = web_server.create("towers", ["here", "computer:easy"])
    room, token = created["room"], created["token"]
    legal = [move["notation"] for move in created["state"]["legal_moves"]]
    hold_seats(page, room, "towers", token, [0])
    open_room(page, room)
    assert wait_for_turn(page) == "playing"
    page.locator("#hint").click()
    text = page.locator("#hint-text")
    text.wait_for()
    hinted = text.locator("strong").inner_text()
    assert hinted in legal and "highlighted on the board" in text.inner_text()
    # the board shows the move alone: its first click selected, its last one the only target
    assert len(page.locator("#board .bl-selected").all()) >= 1
    assert len(keys(page, "bl-target")) == 1
    page.screenshot(path=str(screenshots / "towers-hint.png"), full_page=True)
    page.locator("#hint-play").click()
    wait_for_moves(page, 1)
    assert web_server.state(room)["log"][0]["text"] == hinted
    # the hint was for that position only: it is gone once the position moved on
    wait_for_turn(page)
    assert page.locator("#hint-text").count() == 0


def test_a_game_resigned_before_any_move_asks_for_no_analysis_and_says_so(page: Any, web_server: Server) -> None:
    created = web_server.create("territories", ["here", "here"])  # its opening deals are chance turns in the log
    room, token = created["room"], created["token"]
    resigned = web_server.client.post(f"/api/rooms/{room}/resign", json={}, headers={"Authorization": f"Bearer {token}"})
    assert resigned.status_code == 200, resigned.text
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/analysis") else None)
    hold_seats(page, room, "territories", token, [0, 1])
    open_room(page, room)
    page.wait_for_selector("#analysis-none")
    # "the start: White 0%" read as if the opening had been lost: no chances for a game nobody played
    assert page.locator("#analysis").inner_text().endswith("No move was played, so there is nothing to analyse.")
    assert page.locator("#analysis-graph").count() == 0 and asked == []


def test_keys_pressed_quickly_through_a_replay_each_count_and_ask_one_view_at_a_time(page: Any, web_server: Server) -> None:
    room, token = finished_towers(web_server)
    hold_seats(page, room, "towers", token, [0, 1])
    asked: list[int] = []
    page.on("response", lambda response: asked.append(response.status) if "/replay?" in response.url else None)
    open_room(page, room)
    page.locator("#analysis-graph").wait_for()
    page.locator('#analysis-graph rect.analysis-point[data-move="0"]').click()
    page.wait_for_function("() => document.getElementById('banner')?.textContent === 'Replay: the start'")
    start_requests = len(asked)
    # six presses before the first view can come back: each one counts
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('replay-position')?.textContent.startsWith('move 6 /')")
    assert page.locator("#banner").inner_text().startswith(f"Replay: after move 6 of {MOVES}")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.getElementById('replay-position')?.textContent.startsWith('move 5 /')")
    # never more than one view asked at once, so never refused for asking too many (429)
    assert 429 not in asked, asked
    assert 2 <= len(asked) - start_requests <= 7, asked
    assert not page.locator("#replay .alert").count()
