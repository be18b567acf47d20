"""Session-wide test set-up.

* The test-only games join the registry for this session only.
* Hypothesis runs without per-example deadlines: CI machines are shared and slow
  (2 cores), and a deadline there reports the machine, not the code. Its profile is ``ci``,
  where each property test tries a share of its budget, or ``full`` for a run that selects
  the slow tests or names it (``--hypothesis-profile=full``): tests/support/budgets.py.
* Tests marked ``slow`` (strength matches, long runs; kept out of CI) get an hour
  instead of the 300 s per-test timeout that stops a hung test in CI.
"""

import pytest
from hypothesis import settings

from tests.conformance.testgames import register_test_games
from tests.support.budgets import CI_PROFILE, FULL_PROFILE, use_profile

SLOW_TEST_TIMEOUT_S = 3600

settings.register_profile(CI_PROFILE, deadline=None, print_blob=True)
settings.register_profile(FULL_PROFILE, deadline=None, print_blob=True)
use_profile(CI_PROFILE)

register_test_games()


def pytest_configure(config: pytest.Config) -> None:
    # the slow run (`-m slow`), or a run that names the full profile, tries the full budgets
    slow_run = (config.option.markexpr or "").strip() == "slow"
    if slow_run or config.getoption("hypothesis_profile", None) == FULL_PROFILE:
        use_profile(FULL_PROFILE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TEST_TIMEOUT_S))
