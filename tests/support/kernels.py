"""Which kernels this run imports compiled."""

from __future__ import annotations

from types import ModuleType

import pytest


def runs_compiled(kernel: ModuleType) -> bool:
    """Whether ``kernel`` was imported from its compiled extension, not from its ``.py``."""
    return not (kernel.__file__ or "").endswith(".py")


def skip_unless_compiled(kernel: ModuleType) -> pytest.MarkDecorator:
    """Skip a test that holds ``kernel`` to its own source where the kernel *is* that source (a
    pure Python run, tests/test_compiled.py's rerun among them): the comparison could not fail."""
    return pytest.mark.skipif(
        not runs_compiled(kernel), reason=f"{kernel.__name__} runs as its own source here: nothing to compare"
    )
