"""The pages for people who use a keyboard or a screen reader.

axe-core (Deque's automated accessibility checks, from the npm registry) runs inside Chromium
over the lobby, a game page of every game, the replay of a finished game and every rules page,
at a desktop's width and a phone's: no violation of impact "serious" or "critical" is allowed.
axe-core is installed by the fixture itself (``npm install`` into the ignored ``.cache/`` folder,
once) and injected into each page by Playwright; it is never copied into the repository.
Beyond what axe can see: a move is made with the keyboard alone, the keyboard's place survives
each redraw, and moves are read out through a live region.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import boardlab
from tests.web.browser import Server
from tests.web.conftest import STEP_MS
from tests.web.steps import hold_seats, open_room, wait_for_moves
from tests.web.test_phone import PHONE, open_game

ROOT = Path(__file__).resolve().parents[2]
#: the axe-core release the checks were written against (its rules change between releases)
AXE_VERSION = "4.10.3"
AXE_FOLDER = ROOT / ".cache" / "web-tests"
AXE_SCRIPT = AXE_FOLDER / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
GAMES = ["towers", "sovereign", "overseer", "territories", "honor"]

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": " + n.failureSummary.replace(/\\s+/g, " ").slice(0, 160)),
  }));
}"""


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: the accessibility checks need npm to fetch axe-core")
    pytest.skip(f"{reason}: the accessibility checks are skipped here")


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe.min.js, installed from the npm registry on first use (a few seconds) and kept in
    ``.cache/web-tests`` (ignored by git) for later runs."""
    if not AXE_SCRIPT.exists() or f'"version": "{AXE_VERSION}"' not in (AXE_SCRIPT.parent / "package.json").read_text():
        npm = shutil.which("npm")
        if npm is None:
            _unavailable("npm is not installed")
        AXE_FOLDER.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--prefix", str(AXE_FOLDER), "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
             f"axe-core@{AXE_VERSION}"],
            capture_output=True, text=True, timeout=300,
        )
        if done.returncode != 0 or not AXE_SCRIPT.exists():
            _unavailable(f"npm install axe-core@{AXE_VERSION} failed: {done.stderr.strip()[-300:]}")
    return AXE_SCRIPT


@pytest.fixture(params=["desktop", "phone"])
def checked_page(request: pytest.FixtureRequest, chromium: Any, web_server: Server, axe_script: Path) -> Iterator[Any]:
    """A page with axe-core loaded before the page's own scripts (an init script is not subject to
    the page's Content-Security-Policy, which would refuse an injected script tag)."""
    viewport = DESKTOP if request.param == "desktop" else PHONE
    context = chromium.new_context(viewport=viewport, base_url=web_server.url, is_mobile=request.param == "phone")
    context.set_default_timeout(STEP_MS)
    context.add_init_script(path=str(axe_script))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"errors in the page's scripts: {errors}"


def assert_no_serious_violations(page: Any, what: str) -> None:
    violations = page.evaluate(RUN_AXE)
    serious = [v for v in violations if v["impact"] in ("serious", "critical")]
    lines = [f"{v['impact']} {v['id']} ({v['help']}): " + "; ".join(v["nodes"]) for v in serious]
    assert not serious, f"axe-core on {what}:\n" + "\n".join(lines)


def test_the_lobby(checked_page: Any) -> None:
    checked_page.goto("/")
    checked_page.wait_for_selector("#create-form select")
    assert_no_serious_violations(checked_page, "the lobby")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page(checked_page: Any, web_server: Server, game: str) -> None:
    open_game(checked_page, web_server, game)
    assert_no_serious_violations(checked_page, f"the {game} page")


def test_the_replay_of_a_finished_game(checked_page: Any, web_server: Server) -> None:
    created = web_server.create("territories", ["here", "here"])
    resigned = web_server.client.post(f"/api/rooms/{created['room']}/resign", json={"seat": 0},
                                      headers={"Authorization": f"Bearer {created['token']}"})
    assert resigned.status_code == 200, resigned.text
    hold_seats(checked_page, created["room"], "territories", created["token"], [0, 1])
    open_room(checked_page, created["room"])
    checked_page.wait_for_selector("#replay:not([hidden])")
    assert_no_serious_violations(checked_page, "the replay")


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page(checked_page: Any, game: str) -> None:
    checked_page.goto(f"/rules/{game}")
    checked_page.wait_for_selector(".rules-document")
    checked_page.wait_for_load_state("networkidle")  # the figures are drawn by the page's script
    assert_no_serious_violations(checked_page, f"the {game} rules")


def test_a_move_is_made_with_the_keyboard_alone_and_focus_stays_on_the_board(page: Any, web_server: Server) -> None:
    # Towers: a build is the same stack twice (rules 4); Tab reaches the squares, Enter clicks
    created = web_server.create("towers", ["here", "here"])
    hold_seats(page, created["room"], "towers", created["token"], [0, 1])
    open_room(page, created["room"])
    page.wait_for_selector("#board [data-key].bl-movable")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#board [data-key].bl-movable')"):
            break
    else:
        raise AssertionError("Tab never reached a square that can move")
    square = page.evaluate("() => document.activeElement.dataset.key")
    page.keyboard.press("Enter")
    # the board was drawn again with the square selected: the keyboard is still on that square
    page.wait_for_selector(f'#board [data-key="{square}"].bl-selected')
    assert page.evaluate("() => document.activeElement.dataset.key") == square
    page.keyboard.press("Enter")
    wait_for_moves(page, 1)
    assert web_server.state(created["room"], created["token"])["log"][-1]["text"] == f"{square}+"


def test_moves_are_read_out_in_a_live_region(new_page: Any, web_server: Server) -> None:
    created = web_server.create("towers", ["here", "invite"])
    invite = {"code": created["invites"][0]["code"], "name": "Bea"}
    joined = web_server.client.post(f"/api/rooms/{created['room']}/join", json=invite)
    assert joined.status_code == 200, joined.text
    page = new_page()
    hold_seats(page, created["room"], "towers", created["token"], [0])
    open_room(page, created["room"])
    region = page.locator("#announcer")
    assert region.get_attribute("aria-live") == "polite"
    assert region.inner_text() == ""  # opening the page reads out nothing old
    state = web_server.state(created["room"], created["token"])
    first = state["legal_moves"][0]["text"]
    web_server.play(created["room"], created["token"], first, state["ply"])
    other = web_server.state(created["room"], joined.json()["token"])
    reply = other["legal_moves"][0]["text"]
    web_server.play(created["room"], joined.json()["token"], reply, other["ply"])
    wait_for_moves(page, 2)
    page.wait_for_function("text => document.getElementById('announcer').textContent.includes(text)", arg=f"Black (Bea): {reply}")
    # colour is not all a square says: its label names the stack, bottom to top
    labels = page.eval_on_selector_all("#board [data-key]", "nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert all(labels) and any("height" in label for label in labels)
    assert boardlab.load("towers").name in page.locator("h1").inner_text()
