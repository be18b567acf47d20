"""``boardlab serve`` refuses bad settings with an error naming them and status 2, before it listens."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.cli import main
from tests.support.serve import free_port


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
