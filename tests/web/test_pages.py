"""The server's side of the browser pages (docs/web.md), without a browser: the app shell, each
game's renderer folder, the rules pages, the catalog's page fields, the replay route, and the
packaging that ships them."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

from boardlab.core.registry import game_ids, load
from boardlab.core.values import CHANCE
from boardlab.lab.ladder_docs import level_ratings
from boardlab.server.routers.catalog import START_SEED
from boardlab.server.settings import STATIC_DIR
from boardlab.server.web import find_rules_dir, first_paragraph_html, game_web_dir, render_rules
from tests.server.harness import Harness, make_harness

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
#: the games that draw their own board (each built-in game has a web folder with its renderer)
DRAWN = ("towers", "sovereign", "overseer", "territories", "honor")


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Harness]:
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, static_dir=STATIC_DIR, rules_dir=RULES) as harness:
        yield harness


def test_the_lobby_and_the_room_page_are_served(web: Harness) -> None:
    lobby = web.client.get("/")
    assert lobby.status_code == 200 and 'src="/js/lobby.js"' in lobby.text
    # a room's page is the play page whatever the room (the page asks the API), invite links too
    for path in ("/rooms/anything", "/rooms/abc?invite=XYZ"):
        page = web.client.get(path)
        assert page.status_code == 200 and 'src="/js/play.js"' in page.text
        assert page.headers["cache-control"] == "no-cache"
    script = web.client.get("/js/play.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]


def test_the_api_comes_before_the_pages(web: Harness) -> None:
    assert web.client.get("/api/rooms/nope").json()["error"]["code"] == "unknown_room"
    assert web.client.get("/api/nothing").json()["error"]["code"] == "not_found"


def test_a_games_web_folder_is_served_from_the_game_package(web: Harness) -> None:
    for game in DRAWN:
        response = web.client.get(f"/games/{game}/web/renderer.js")
        assert response.status_code == 200, game
        assert "javascript" in response.headers["content-type"]
        assert "export function mount" in response.text
        assert (game_web_dir(game) or Path()).parent.name == game


@pytest.mark.parametrize(
    "path",
    [
        "/games/towers/web/../game.py",
        "/games/towers/web/%2e%2e/game.py",
        "/games/towers/web/..%2Fgame.py",
        "/games/towers/web/",
        "/games/towers/web/missing.js",
        "/games/dicenim/web/renderer.js",  # a game without a web folder
    ],
)
def test_nothing_outside_a_web_folder_is_served(web: Harness, path: str) -> None:
    response = web.client.get(path)
    assert response.status_code == 404
    assert "Towers" not in response.text and "import" not in response.text


def test_an_unknown_games_web_file_names_the_games(web: Harness) -> None:
    response = web.client.get("/games/chess/web/renderer.js")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game" and "towers" in response.json()["error"]["message"]


def test_the_catalog_names_each_games_pages(web: Harness) -> None:
    games = {entry["id"]: entry for entry in web.client.get("/api/games").json()}
    for game in DRAWN:
        entry = games[game]
        assert entry["renderer"] == f"/games/{game}/web/renderer.js"
        assert entry["stylesheet"] == f"/games/{game}/web/renderer.css"
        assert entry["rules_page"] == f"/rules/{game}"
        assert entry["description"] and "<p>" not in entry["description"]
    # a game's own paragraph for the lobby wins over the rules' first one
    assert games["towers"]["description"].startswith("Build and push stacks")
    # a game without a web folder or rules document: the generic renderer, its summary
    assert games["dicenim"]["renderer"] is None and games["dicenim"]["rules_page"] is None
    assert games["dicenim"]["description"] == games["dicenim"]["summary"]


def test_one_games_entry_has_the_same_page_fields(web: Harness) -> None:
    entry = web.client.get("/api/games/overseer").json()
    assert entry["renderer"] == "/games/overseer/web/renderer.js" and entry["rules_page"] == "/rules/overseer"


def test_a_rules_page_is_the_document_as_html_with_its_contents(web: Harness) -> None:
    response = web.client.get("/rules/towers")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "<h1 id=" in page and "Towers: the rules as boardlab plays them" in page
    assert '<a href="#1-board-and-pieces">1. Board and pieces</a>' in page  # the contents link to the headings
    assert "<table>" in page  # the layouts table of rule 2.4
    assert 'href="/?game=towers#new-game"' in page


def test_a_rules_picture_is_served_from_the_rules_folder(web: Harness) -> None:
    page = web.client.get("/rules/honor").text
    assert 'src="/rules/files/honor-pieces.png"' in page
    picture = web.client.get("/rules/files/honor-pieces.png")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
    for name in ("towers.md", "..%2Fserver.md", ".hidden.png"):
        assert web.client.get(f"/rules/files/{name}").status_code == 404


def test_an_unknown_games_rules_page_is_a_404_page(web: Harness) -> None:
    response = web.client.get("/rules/chess")
    assert response.status_code == 404 and "unknown game" in response.text


def test_without_the_rules_documents_the_page_says_where_they_are(tmp_path: Path) -> None:
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, static_dir=STATIC_DIR, rules_dir=None) as web:
        response = web.client.get("/rules/towers")
        assert response.status_code == 404 and "docs/rules/towers.md" in response.text
        entry = web.client.get("/api/games/towers").json()
        assert entry["rules_page"] is None
        assert entry["description"].startswith("Build and push stacks")  # the web folder's own paragraph


def test_the_rules_are_found_in_the_checkout_or_the_installation(tmp_path: Path) -> None:
    assert find_rules_dir() == RULES
    installed = tmp_path / "share" / "boardlab" / "rules"
    installed.mkdir(parents=True)
    assert find_rules_dir([tmp_path / "missing", installed]) is None  # a folder without documents
    (installed / "towers.md").write_text("# Towers\n", encoding="utf-8")
    assert find_rules_dir([tmp_path / "missing", installed]) == installed


def test_markdown_is_rendered_without_passing_raw_html() -> None:
    title, body, contents = render_rules("# T\n\n<script>alert(1)</script>\n\n## A b\n\n[x](towers.md) ![p](pic.png)\n")
    assert title == "T" and contents == [("a-b", "A b")]
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert 'href="/rules/towers"' in body and 'src="/rules/files/pic.png"' in body
    assert first_paragraph_html("# Title\n\nOne *two*\nthree.\n\nNext.") == "One <em>two</em>\nthree."


def test_the_room_page_needs_no_internet() -> None:
    """Nothing the pages load comes from another host."""
    renderer_files = (path for game in game_ids() if (folder := game_web_dir(game)) for path in folder.rglob("*.*"))
    files = [*STATIC_DIR.rglob("*.*"), *renderer_files]
    for path in files:
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text, path


# --- the replay route -------------------------------------------------------------------------
def finished_towers(web: Harness) -> tuple[str, str | None, list[dict[str, Any]]]:
    """A Towers room with three moves, then resigned."""
    room = web.create("towers", ["here", "here"])
    state = room.state
    for _ in range(3):
        state = web.move(room.room, room.token, state["legal_moves"][0]["notation"], state["ply"]).json()
    assert web.act(room.room, room.token, "resign").status_code == 200
    return room.room, room.token, state["log"]


def test_the_replay_shows_the_view_after_any_move_of_a_finished_game(web: Harness) -> None:
    room = web.create("towers", ["here", "here"])
    refused = web.client.get(f"/api/rooms/{room.room}/replay", params={"move": 0})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_not_over"
    room_id, token, _log = finished_towers(web)
    start = web.client.get(f"/api/rooms/{room_id}/replay", params={"move": 0}).json()
    assert start["move"] == 0 and start["moves"] == 3 and start["view"]["ply"] == 0
    assert start["view"]["board"]["stacks"][0][1] == "WW"  # b7 before White's first move
    second = web.client.get(f"/api/rooms/{room_id}/replay", params={"move": 2}).json()
    assert second["view"]["ply"] == 2 and second["view"]["to_move"] == 0
    # the last view shows the match's own ending (here a resignation), as the live page did
    end = web.client.get(f"/api/rooms/{room_id}/replay", params={"move": 3}, headers={"Authorization": f"Bearer {token}"}).json()
    assert end["view"]["over"] and end["view"]["result"]["code"] == "resign"
    assert end["view"]["board"] == web.state(room_id, token)["view"]["board"]


@pytest.mark.parametrize("move", ["4", "-1", "x"])
def test_a_replay_of_a_move_that_does_not_exist_is_refused(web: Harness, move: str) -> None:
    room_id, _token, _log = finished_towers(web)
    response = web.client.get(f"/api/rooms/{room_id}/replay", params={"move": move})
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_request"


# --- packaging ----------------------------------------------------------------------------------
def test_a_built_package_ships_the_pages_the_renderers_and_the_rules() -> None:
    """pyproject.toml's package-data covers every file of static/, templates/ and each game's web/
    folder, and its data-files every rules document (and picture)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    patterns = config["package-data"]["boardlab"]
    package = ROOT / "boardlab"
    shipped = [
        path.relative_to(package).as_posix()
        for folder in [package / "server" / "static", package / "server" / "templates", *package.glob("games/*/web")]
        for path in folder.rglob("*")
        if path.is_file()
    ]
    assert shipped
    for name in shipped:
        assert any(_matches(name, pattern) for pattern in patterns), f"{name} would not ship"
    rules = config["data-files"]["share/boardlab/rules"]
    for path in RULES.iterdir():
        assert any(fnmatch(path.relative_to(ROOT).as_posix(), pattern) for pattern in rules), f"{path.name} would not ship"


def _matches(name: str, pattern: str) -> bool:
    """setuptools' glob, near enough: ``**/`` spans zero or more folders (fnmatch's ``*`` spans any)."""
    return fnmatch(name, pattern) or fnmatch(name, pattern.replace("**/", ""))


# --- what the lobby draws and says of each game -------------------------------------------------
@pytest.mark.parametrize("game_id", ["towers", "territories", "honor"])
def test_a_games_start_is_the_spectators_view_with_its_opening_chance_dealt(web: Harness, game_id: str) -> None:
    response = web.client.get(f"/api/games/{game_id}/start")
    assert response.status_code == 200, response.text
    message = response.json()
    game = load(game_id)
    state = game.new_state(START_SEED)
    while state.current_player() == CHANCE:  # Territories' deals and seat draw: no one decides before them
        state.apply(state.sample_chance())
    assert message["type"] == "state" and message["seat"] is None and message["legal_moves"] == []
    assert message["view"] == json.loads(json.dumps(state.view(None)))  # a spectator's: no hand shows
    assert message["to_move"] == state.current_player() >= 0
    assert web.client.get("/api/games/chess/start").json()["error"]["code"] == "unknown_game"


def test_each_level_says_how_long_it_thinks_where_it_was_measured(web: Harness) -> None:
    towers = web.client.get("/api/games/towers").json()
    measured = level_ratings(load("towers"))
    for entry in towers["levels"]:
        found = measured.get(entry["level"])
        assert entry["seconds_typical"] == (None if found is None else found["cpu_median"])
        assert entry["seconds_longest"] == (None if found is None else found["cpu_max"])
    assert any(entry["seconds_typical"] for entry in towers["levels"])  # Towers' ladder was measured


def test_the_rules_page_is_for_players_and_the_notation_has_a_page_for_programs(web: Harness) -> None:
    players = web.client.get("/rules/towers")
    assert players.status_code == 200
    assert "4. Building" in players.text and "Action encoding" not in players.text and "Position string" not in players.text
    assert 'href="/rules/towers/programs"' in players.text
    programs = web.client.get("/rules/towers/programs")
    assert programs.status_code == 200 and programs.headers["cache-control"] == "no-cache"
    assert "<title>Towers for programs: notation, positions and encodings · boardlab</title>" in programs.text
    assert "13. Action encoding" in programs.text and "9. Notation" in programs.text and "4. Building" not in programs.text
    assert 'href="/rules/towers"' in programs.text  # back to the rules
    assert web.client.get("/rules/chess/programs").status_code == 404
