"""docs/api.md's examples run as written: a reader copies them first, and an example that
fails teaches nothing. The first four build on one another (a state, a match, its record,
the lab); the encodings' and the adapters' stand alone."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
#: the examples that share names: the match of the second is the record of the third
CHAINED = 4


def examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", API_DOC.read_text(), re.S)


def test_every_example_of_the_api_document_runs_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = examples()
    assert len(found) > CHAINED
    here = os.getcwd()
    os.chdir(tmp_path)  # they write game.json and runs/ where they run
    try:
        chained: dict[str, object] = {}
        for number, example in enumerate(found):
            try:
                exec(compile(example, f"docs/api.md example {number + 1}", "exec"), chained if number < CHAINED else {})
            except Exception as exc:  # the example and its error, not the test's frames
                pytest.fail(f"docs/api.md example {number + 1} fails: {type(exc).__name__}: {exc}\n{example}")
    finally:
        os.chdir(here)
    capsys.readouterr()
    assert (tmp_path / "game.json").is_file() and (tmp_path / "runs" / "records").is_dir()
