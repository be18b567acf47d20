"""Which kernels this run imports compiled, and the environment of a process that imports them."""

from __future__ import annotations

import os
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


def kernels_environment(pure: bool) -> dict[str, str]:
    """This process's environment for a child that imports (or builds) the kernels compiled, or
    as pure Python with ``pure``, whatever this run itself was started with."""
    environment = {key: value for key, value in os.environ.items() if key != "BOARDLAB_PURE"}
    if pure:
        environment["BOARDLAB_PURE"] = "1"
    return environment
