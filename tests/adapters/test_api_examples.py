"""The adapters' examples in docs/api.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"
EXAMPLES = [block for block in re.findall(r"```python\n(.*?)```", API.read_text(), re.S)
            if "encoding" in block or "pyspiel" in block or "pettingzoo" in block]


def test_the_examples_are_found() -> None:
    assert len(EXAMPLES) == 3


@pytest.mark.parametrize("code", EXAMPLES, ids=["encodings", "openspiel", "pettingzoo"])
def test_an_adapter_example_runs(code: str) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    exec(compile(code, str(API), "exec"), {})
