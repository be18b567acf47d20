"""docs/server.md documents every error code the server sends and every route it has."""

from __future__ import annotations

import re
from pathlib import Path

from boardlab.core.errors import ERROR_CLASSES
from boardlab.server import Settings, create_app
from boardlab.server.errors import ERROR_STATUS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "server.md").read_text(encoding="utf-8")


def test_every_error_code_has_a_status_and_a_line_in_the_docs() -> None:
    assert {cls.code for cls in ERROR_CLASSES} <= set(ERROR_STATUS)
    documented = dict(re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", DOC, flags=re.MULTILINE))
    assert {code: str(status) for code, status in ERROR_STATUS.items()} == documented


def test_every_route_is_in_the_docs(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, static_dir=None, computer_workers=0))
    # the WebSocket route is not in the OpenAPI schema
    named = {"{room_id}": "{room}", "{game_id}": "{game}", "{designer_id}": "{id}"}
    paths = set()
    for path in app.openapi()["paths"]:
        for parameter, shown in named.items():
            path = path.replace(parameter, shown)
        paths.add(path)
    assert len(paths) >= 21  # the rooms', games', lessons' and designers' routes at least
    for path in [*paths, "/api/rooms/{room}/live"]:
        assert f" {path}" in DOC or f" {path}?" in DOC, f"{path} is not in docs/server.md"
