"""The lessons and rules figures on the server (no browser): the lesson API, the lesson page, the
Learn links, every position block of the rules documents, and the text boards of ``boardlab rules``."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message=".*install `httpx2`.*")

from boardlab.cli import main  # noqa: E402
from boardlab.learn import LessonError, load_lesson  # noqa: E402
from boardlab.learn.documents import split_rules  # noqa: E402
from boardlab.learn.figures import figure_html, figures, parse_figure, split_document  # noqa: E402
from boardlab.server.settings import STATIC_DIR  # noqa: E402
from boardlab.server.web import render_rules  # noqa: E402
from tests.server.harness import Harness, make_harness  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
GAMES = ["towers", "sovereign", "overseer", "territories", "honor"]


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Harness]:
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, static_dir=STATIC_DIR, rules_dir=RULES) as harness:
        yield harness


def test_the_lesson_api_gives_each_step_as_a_state_message(web: Harness) -> None:
    lesson = web.client.get("/api/games/towers/lesson").json()
    assert lesson["title"] == "Learn Towers" and len(lesson["steps"]) == 8
    assert lesson["practice"] == {"level": "beginner", "seats": ["here", "computer:beginner"], "undo": "own"}
    first = lesson["steps"][0]
    assert first["rule"] == "4.2" and first["seat"] == 0
    state = first["state"]
    assert state["view"]["format"] == "boardlab-view/1" and state["status"] == "playing"
    assert {"type": "build", "notation": "b7+", "square": "b7"} in state["legal_moves"]


def test_trying_moves(web: Harness) -> None:
    url = "/api/games/towers/lesson/steps/2/try"
    refused = web.client.post(url, json={"move": "d4+"}).json()
    assert refused == {"outcome": "illegal", "message": "d4+: cannot build on a castle (rules 4.1)", "move": None, "state": None}
    missed = web.client.post(url, json={"move": "c4N"}).json()
    assert missed["outcome"] == "not_done" and "that is a push" in missed["message"]
    assert missed["state"]["legal_moves"] == []  # the position after shows, but takes no move
    done = web.client.post(url, json={"move": "c4+"}).json()
    assert done["outcome"] == "done" and done["move"]["notation"] == "c4+"
    assert done["state"]["view"]["board"]["stacks"][3][2] == "BWW"


def test_lesson_errors_have_codes(web: Harness) -> None:
    assert web.client.get("/api/games/chess/lesson").json()["error"]["code"] == "unknown_game"
    answer = web.client.post("/api/games/towers/lesson/steps/9/try", json={"move": "b7+"})
    assert answer.status_code == 404 and "steps 1-8" in answer.json()["error"]["message"]
    assert web.client.post("/api/games/towers/lesson/steps/1/try", json={"move": ""}).status_code == 422
    assert web.client.post("/api/games/towers/lesson/steps/1/try", json={"move": "b7+", "x": 1}).status_code == 422


def test_the_lesson_page_and_the_learn_links(web: Harness) -> None:
    page = web.client.get("/learn/towers")
    assert page.status_code == 200 and '<script type="module" src="/js/learn.js">' in page.text
    assert web.client.get("/js/learn.js").status_code == 200 and web.client.get("/css/learn.css").status_code == 200
    catalog = {entry["id"]: entry for entry in web.client.get("/api/games").json()}
    for game_id in GAMES:
        assert catalog[game_id]["lesson_page"] == f"/learn/{game_id}"
    assert "lesson_page" in web.client.get("/js/lobby.js").text
    rules = web.client.get("/rules/towers").text
    assert 'href="/learn/towers"' in rules and "/js/rules.js" in rules


def test_the_rules_for_players_say_which_section_numbers_are_in_the_part_for_programs(web: Harness) -> None:
    # the numbers are the ones code and tests cite, so the players' page skips those of the
    # sections for programs; its contents say where they went
    towers = web.client.get("/rules/towers").text
    assert "For programs: notation, positions and encodings (sections 9, 10, 12 and 13)" in towers
    territories = web.client.get("/rules/territories").text
    assert "(sections R10, R11 and R14)" in territories


@pytest.mark.parametrize("game_id", GAMES)
def test_every_embedded_position_loads_and_its_move_is_legal(game_id: str) -> None:
    found = list(figures((RULES / f"{game_id}.md").read_text(encoding="utf-8")))
    assert found, f"docs/rules/{game_id}.md embeds no position"
    for figure in found:
        assert figure.game_id == game_id
        state = figure.state()  # LessonError names the line
        if figure.move:
            assert figure.move_json(state) is not None


def test_the_rules_page_draws_figures_with_their_view() -> None:
    players, _ = split_rules((RULES / "towers.md").read_text(encoding="utf-8"))
    _, body, _ = render_rules(players)
    assert body.count('<figure class="rules-position" data-game="towers"') == len(list(figures(players))) >= 8
    assert "&quot;notation&quot;: &quot;c3E&quot;" in body  # the move, for the renderer to show
    assert "```position" not in body and "<code" in body  # other code blocks stay code


def test_a_broken_block_is_an_error_in_place_never_hidden() -> None:
    html = figure_html("position towers", "-,-,- W\n", 12)
    assert html is not None and "cannot be drawn" in html and "line 12" in html
    assert figure_html("python", "print(1)\n", 3) is None
    with pytest.raises(LessonError, match="line 4: 'colour: red'"):
        parse_figure("towers", "-,WW W\ncolour: red\n", 4)
    position = "-,-,-,-,-,-,-/-,-,-,C,-,-,BB/-,-,-,-,-,-,-/-,C,-,C,-,C,-/-,-,WWW,-,-,-,-/-,-,-,C,-,-,-/BB,-,-,-,-,-,- W"
    figure = parse_figure("towers", f"{position}\nmove: d4+\n", 5)
    with pytest.raises(LessonError, match=r"line 5: the move 'd4\+' is not legal"):
        figure.move_json(figure.state())


def test_split_document_keeps_the_text_around_each_figure() -> None:
    text = "# T\n\nbefore\n\n```position towers\nX W\n```\n\nafter\n\n```\ncode\n```\n"
    parts = split_document(text)
    assert [type(part).__name__ for part in parts] == ["str", "Figure", "str"]
    assert "before" in parts[0] and "after" in parts[2] and "code" in parts[2]


def test_boardlab_rules_prints_each_position_as_the_text_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "towers"]) == 0
    out = capsys.readouterr().out
    assert "→ c3E" in out and "WWWWW" in out and "BBBB" in out
    assert "```position" not in out
    assert main(["rules", "towers", "--plain"]) == 0
    assert "```position towers" in capsys.readouterr().out  # the source, unchanged


def test_each_lesson_step_position_is_a_real_position_of_its_game() -> None:
    # the lessons and the rules figures share one position format: the game's own
    for game_id in GAMES:
        lesson = load_lesson(game_id)
        for index in range(len(lesson.steps)):
            state = lesson.state(index)
            assert lesson.game().state_from_position(state.position()).position() == state.position()


#: the sections of each game's rules for players that draw a board: the setup and every kind of move
DRAWN_SECTIONS = {
    "towers": ["## 2. Setup", "## 4. Building", "## 5. Pushing", "## 6. Castles and crowns", "## 7. Winning"],
    "sovereign": ["### 1.2 Setup", "### 1.4 Climbing", "### 1.5 Sovereign and Diplomat", "### 1.6 Contractor",
                  "### 1.7 Consultant", "### 1.9 Sovereign safety", "### 1.10 Winning"],
    "overseer": ["## 1. The board", "## 3. The pieces", "## 5. Setup", "## 7. The end of the game"],
    "territories": ["## R2 The board", "## R3 Setup", "## R6 Building", "## R9 End of the game"],
    "honor": ["## 3. The table and the physics world", "## 4. Placing a piece", "## 5. Resolution: settle, collapse, elimination",
              "## 6. Elimination", "## 7. Turns", "## 8. The end"],
}


def _section(document: str, heading: str) -> str:
    start = document.index(heading)
    level = heading.split(" ")[0]
    following = re.search(rf"^#{{1,{len(level)}}} ", document[start + len(heading):], re.MULTILINE)
    return document[start : start + len(heading) + (following.start() if following else len(document))]


@pytest.mark.parametrize("game_id", sorted(DRAWN_SECTIONS))
def test_the_rules_for_players_draw_the_setup_and_each_kind_of_move_as_a_board(game_id: str) -> None:
    players, for_programs = split_rules((RULES / f"{game_id}.md").read_text(encoding="utf-8"))
    assert for_programs is not None and "Action encoding" in for_programs and "Action encoding" not in players
    # no drawing in characters is left for players: every code block of their part is a board
    fences = re.findall(r"^```(\S*)", players, re.MULTILINE)
    openings = fences[::2]
    assert openings and all(info == "position" for info in openings), openings
    for heading in DRAWN_SECTIONS[game_id]:
        assert "```position" in _section(players, heading), f"{game_id}: {heading} draws no board"


def test_honors_rules_for_players_draw_each_phase_a_player_meets_and_the_endings() -> None:
    players, _ = split_rules((RULES / "honor.md").read_text(encoding="utf-8"))
    states = [figure.state() for figure in figures(players)]
    boards = [state.view(None)["board"] for state in states]
    # choosing, bidding, holding a pushed piece, placing, and a finished game: each a real board
    assert {board["phase"] for board in boards} == {"CHOOSE", "AUCTION", "PUSH", "PLACE", "OVER"}
    assert any(board["phase"] == "CHOOSE" and not board["table"] and board["placement_index"] == 0 for board in boards)
    assert any(board["auction"] and board["auction"]["passed"] for board in boards)  # a raise and a pass
    assert any(board["push"] and board["push"]["passes"] >= 1 for board in boards)  # a piece passed on for a fee
    # a collapse that puts one player out while the others play on (rules 5.2, 6.1)
    assert any(
        not state.is_over() and not all(board["standing"]) and board["last"]["collapses"]
        for state, board in zip(states, boards, strict=True)
    )
    assert {"last_standing", "all_placed"} <= {state.result().code for state in states if state.is_over()}


def test_a_document_without_a_part_for_programs_is_all_for_players() -> None:
    text = "# T\n\n## 1. Rules\n\n```\n# For programs inside a code block\n```\n"
    assert split_rules(text) == (text, None)
    players, programs = split_rules(text + "\n# For programs: notation\n\n## 9. Notation\n")
    assert players.endswith("```\n") and programs is not None and programs.startswith("# For programs: notation")
