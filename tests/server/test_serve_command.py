"""``boardlab serve`` refuses bad settings with an error naming them and status 2, before it listens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardlab.cli import build_parser, main
from tests.support.serve import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--database-url", "mysql://user@host/db"], "postgresql://"),
        (["--database-url", "not a url"], "--database-url"),
        (["--port", "70000"], "--port 70000"),
        (["--workers", "0"], "--workers 0"),
        (["--gc-rescan-seconds", "0"], "--gc-rescan-seconds 0"),
        (["--idle-room-seconds", "-1"], "--idle-room-seconds -1"),
    ],
)
def test_bad_settings_are_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], words: str
) -> None:
    assert main(["serve", "--data-dir", str(tmp_path), *arguments]) == 2
    error = " ".join(capsys.readouterr().err.split())  # the console wraps long lines
    assert error.startswith("error:") and words in error


def test_a_database_that_cannot_be_reached_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://nobody@127.0.0.1:{free_port()}/nothing"
    assert main(["serve", "--data-dir", str(tmp_path), "--database-url", url]) == 2
    assert "cannot open the database" in capsys.readouterr().err


def test_every_flag_in_the_tables_of_docs_server_is_a_serve_flag() -> None:
    """The operator's tables in docs/server.md are the settings' reference: a flag they name
    that the command refuses leaves a limit nobody can change."""
    documented = set(re.findall(r"^\| `(--[a-z-]+)", (ROOT / "docs" / "server.md").read_text(), flags=re.MULTILINE))
    assert "--max-spectators-per-room" in documented
    serve = next(
        action.choices["serve"] for action in build_parser()._actions if isinstance(action.choices, dict)  # type: ignore[union-attr]
    )
    offered = {option for action in serve._actions for option in action.option_strings}
    assert documented - offered == set()
    namespace = build_parser().parse_args(["serve", "--max-spectators-per-room", "3"])
    assert namespace.max_spectators_per_room == 3
