"""Each game's lesson completed in the browser by clicking, as a newcomer would: a wrong
move first, whose explanation the page shows, then every step's solution clicked on the game's own
board; at the end the practice game is one click away. And the rules pages draw their positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardlab.learn import load_lesson
from boardlab.learn.documents import split_rules
from boardlab.learn.figures import figures
from tests.web.browser import Server
from tests.web.steps import CLICK_PATHS, click_key

LEARN = "document.getElementById('learn').dataset"
GAMES = ["towers", "sovereign", "overseer", "territories", "honor"]
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


def clicks(game_id: str, move: dict[str, Any]) -> list[str] | None:
    path = CLICK_PATHS[game_id](move)
    return [str(key) for key in path] if path else None


def wrong_clickable_move(game_id: str) -> tuple[dict[str, Any], str]:
    """A legal move of step 1 that misses its task and is chosen on the board, with the
    explanation the lesson gives for it."""
    lesson = load_lesson(game_id)
    for move in lesson.state(0).legal_moves():
        data = move.to_json()
        attempt = lesson.attempt(0, str(move))
        if attempt.outcome == "not_done" and clicks(game_id, data):
            return data, attempt.message
    raise AssertionError(f"{game_id}: step 1 has no wrong move to click")


def wait_for_outcome(page: Any, outcome: str) -> None:
    page.wait_for_function(f"o => {LEARN}.outcome === o && {LEARN}.busy === 'false'", arg=outcome)


def choose_on_board(page: Any, game_id: str, move: dict[str, Any]) -> None:
    """Click the move's path on the board (a chooser, where the clicks name several moves); a
    placement in Honor is dropped where the page holds it, the middle of the legal window."""
    if move["type"] == "release":
        page.locator("#honor-drop").click()
        return
    path = clicks(game_id, move)
    assert path, f"{move['notation']} is not chosen on the board"
    for key in path:
        click_key(page, key)
    if page.locator("#chooser").is_visible():
        page.locator("#chooser button", has_text=move["notation"]).first.click()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_lesson_completed_by_clicking(page: Any, web_server: Server, game_id: str) -> None:
    lesson = load_lesson(game_id)
    page.goto(f"/learn/{game_id}")
    page.wait_for_function(f"() => {LEARN}.mode === 'step'")
    assert page.locator("#lesson-title").inner_text() == lesson.title

    # a wrong move is answered with why it does not do the task, and can be tried again
    wrong, explanation = wrong_clickable_move(game_id)
    choose_on_board(page, game_id, wrong)
    wait_for_outcome(page, "not_done")
    assert page.locator("#feedback").inner_text() == explanation
    page.locator("#retry").click()
    wait_for_outcome(page, "")

    for index, step in enumerate(lesson.steps):
        page.wait_for_function(f"n => {LEARN}.step === String(n) && {LEARN}.outcome === ''", arg=step.number)
        assert page.locator("#step-task").inner_text() == step.task
        if game_id == "towers" and step.number == 2:
            # an illegal move, typed, gets the game's own refusal and the step stays
            page.locator("#notation").fill("d4+")
            page.locator("#notation").press("Enter")
            wait_for_outcome(page, "illegal")
            assert page.locator("#feedback").inner_text() == "d4+: cannot build on a castle (rules 4.1)"
        page.locator("#hint").click()
        assert page.locator("#hints li").first.inner_text() == step.hints[0]
        solution = lesson.state(index).parse_move(step.solution).to_json()
        choose_on_board(page, game_id, solution)
        wait_for_outcome(page, "done")
        assert page.locator("#feedback").inner_text() == f"{solution['notation']}: well done."
        page.locator("#next").click()

    page.wait_for_function(f"() => {LEARN}.mode === 'finished'")
    assert page.locator("#lesson-outro").inner_text() == lesson.outro
    assert page.locator("#progress li[data-state='done']").count() == len(lesson.steps)
    assert page.locator("#practice").is_enabled()


def test_practice_starts_a_game_against_the_beginner_with_hints_and_take_backs(page: Any, web_server: Server) -> None:
    page.goto("/learn/towers?step=8")
    page.wait_for_function(f"() => {LEARN}.mode === 'step'")
    page.locator("#show").click()  # the solution, shown and played
    wait_for_outcome(page, "done")
    assert page.locator("#feedback").inner_text() == "The solution: d5S."
    page.locator("#next").click()
    page.locator("#practice").click()
    page.wait_for_url("**/rooms/*")
    room = page.url.rsplit("/", 1)[-1]
    state = web_server.state(room)
    assert [seat["kind"] for seat in state["seats"]][1] == "computer"
    assert "beginner" in str(state["seats"][1])
    assert state["view"]["match"]["undo"] == "own"
    page.wait_for_function("() => document.getElementById('play')?.dataset.yourTurn === 'true'")
    assert page.locator("#hint").is_visible()  # hints are offered in a room without invited people


def test_the_lobby_and_the_rules_page_link_to_the_lesson_and_the_rules_draw_positions(page: Any) -> None:
    page.goto("/")
    learn = page.locator('a[data-learn="towers"]')
    learn.wait_for()
    assert learn.get_attribute("href") == "/learn/towers"
    page.goto("/rules/towers")
    page.wait_for_function("() => [...document.querySelectorAll('figure.rules-position')].every((f) => f.dataset.drawn)")
    assert page.locator("figure.rules-position").count() >= 8  # the setups, a build, the pushes, a crown, a win
    assert page.locator("#learn-link").is_visible()
    push = page.locator("figure.rules-position", has_text="The example of rule 5.3").first
    assert push.locator("svg").count() >= 1 and push.locator(".rules-position-text").is_hidden()
    # the move shown (c3E) is drawn as a hint is: c3 selected, d3 the target
    assert push.locator('[data-key="c3"].bl-selected').count() >= 1
    assert push.locator('[data-key="d3"].bl-target').count() >= 1


def test_a_step_is_one_tap_away(page: Any) -> None:
    page.goto("/learn/towers")
    page.wait_for_selector("#board [data-key].bl-movable")
    step = page.locator('#progress button[data-step="5"]')
    step.click()  # the step's pill is a button: tapped, it opens that step
    page.wait_for_function("() => document.getElementById('learn')?.dataset.step === '5'")
    assert step.get_attribute("aria-current") == "step"
    assert page.locator('#progress button[data-step="1"]').get_attribute("aria-current") is None


def test_honors_rules_page_draws_its_phases_and_endings_on_the_table(page: Any, screenshots: Path) -> None:
    players, _ = split_rules((RULES / "honor.md").read_text(encoding="utf-8"))
    blocks = list(figures(players))
    page.goto("/rules/honor")
    page.wait_for_function("() => [...document.querySelectorAll('figure.rules-position')].every((f) => f.dataset.drawn)")
    drawn = page.locator("figure.rules-position")
    assert drawn.count() == len(blocks) >= 9  # every block of the rules for players, none left as text
    assert page.locator(".rules-position-error").count() == 0
    for index in range(drawn.count()):  # the renderer's table, the text board hidden
        figure = drawn.nth(index)
        assert figure.locator("svg").count() >= 1 and figure.locator(".rules-position-text").is_hidden()
    auction = drawn.filter(has_text="auction for the long plank")
    assert "Auction for the long plank: high bid 2 by Blue; Red to bid or pass." in auction.inner_text()
    assert auction.locator("button", has_text="Pass (final)").count() == 1  # drawn as Red decides; nothing is sent
    push = drawn.filter(has_text="Blue pushed the roof RF1")
    assert "Red accepts it, or pays 2 tokens to pass it on" in push.inner_text()
    # the draw of rule 8.3: both towers of 15 pieces on the table
    draw = drawn.filter(has_text="(rule 8.3)")
    assert draw.locator("svg .honor-piece").count() == 30
    # a picture is no game: the seed a finished game reveals (rule 11.5) is not shown for one
    assert "SHA-256" not in draw.inner_text() and "Seed" not in draw.inner_text()
    page.screenshot(path=str(screenshots / "rules-honor.png"), full_page=True)
