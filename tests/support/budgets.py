"""How many examples a property test tries: a share of its full budget in CI, all of it in the
slow run.

tests/conftest.py loads one of two hypothesis profiles before any test module is imported:
``ci``, the default, where each test tries :data:`CI_SHARE` of its full budget, or ``full``, for
a run that selects the slow tests (``python -m pytest -m slow``) or asks for it
(``--hypothesis-profile=full``), where each tries its full budget and counts as ``slow``, so
that the slow run selects it. CI's examples are the start of the same search: they find the
common failures, the slow run the rare ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import settings

Test = TypeVar("Test", bound=Callable[..., Any])

#: the profile of the CI run and the profile of the slow run
CI_PROFILE = "ci"
FULL_PROFILE = "full"
#: the share of a test's full budget that CI tries, and the fewest examples it tries
CI_SHARE = 0.25
CI_MINIMUM = 10


_full = False


def use_profile(name: str) -> None:
    """Load the hypothesis profile ``name`` (:data:`CI_PROFILE` or :data:`FULL_PROFILE`) and the
    budgets that go with it; called before the test modules are imported."""
    global _full
    settings.load_profile(name)
    _full = name == FULL_PROFILE


def full_budgets() -> bool:
    """Whether this run tries the full budgets (the slow run's profile)."""
    return _full


def examples(full: int) -> int:
    """The examples to try of a test whose full budget is ``full``."""
    return full if full_budgets() else min(full, max(CI_MINIMUM, round(full * CI_SHARE)))


def budget(full: int, **options: Any) -> Callable[[Test], Test]:
    """``@settings(max_examples=...)`` for a test whose full budget is ``full`` examples (other
    settings passed on): CI tries :func:`examples`, the slow run all of them."""

    def apply(test: Test) -> Test:
        budgeted: Test = settings(max_examples=examples(full), **options)(test)
        return pytest.mark.slow(budgeted) if full_budgets() else budgeted

    return apply
