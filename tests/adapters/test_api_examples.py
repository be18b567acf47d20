"""docs/api.md's examples run as written: a reader copies them first, and an example that fails
teaches nothing. The first ones build on one another (a state, a match, its record, the lab);
the adapters' (encodings, OpenSpiel, PettingZoo) stand alone."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", API.read_text(), re.S)
EXAMPLES = [block for block in BLOCKS if "encoding" in block or "pyspiel" in block or "pettingzoo" in block]
#: the others, in the document's order: the match of one is the record of the next
CHAINED = [block for block in BLOCKS if block not in EXAMPLES]


def test_the_examples_are_found() -> None:
    assert len(EXAMPLES) == 3 and len(CHAINED) == 4


def test_the_core_examples_run_as_written_one_after_another(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)  # they write game.json and runs/ where they run
    try:
        names: dict[str, object] = {}
        for number, example in enumerate(CHAINED, start=1):
            try:
                exec(compile(example, f"{API} (core example {number})", "exec"), names)
            except Exception as exc:  # the example and its error, not the test's frames
                pytest.fail(f"docs/api.md core example {number} fails: {type(exc).__name__}: {exc}\n{example}")
    finally:
        os.chdir(here)
    capsys.readouterr()
    assert (tmp_path / "game.json").is_file() and (tmp_path / "runs" / "records").is_dir()


@pytest.mark.parametrize("code", EXAMPLES, ids=["encodings", "openspiel", "pettingzoo"])
def test_an_adapter_example_runs(code: str) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    exec(compile(code, str(API), "exec"), {})
