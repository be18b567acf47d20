"""Session-wide test set-up.

* The test-only games join the registry for this session only.
* Hypothesis runs without per-example deadlines: CI machines are shared and slow
  (2 cores), and a deadline there reports the machine, not the code.
* Tests marked ``slow`` (strength matches, long runs; kept out of CI) get an hour
  instead of the 300 s per-test timeout that stops a hung test in CI.
"""

import pytest
from hypothesis import settings

from tests.conformance.testgames import register_test_games

SLOW_TEST_TIMEOUT_S = 3600

settings.register_profile("boardlab", deadline=None, print_blob=True)
settings.load_profile("boardlab")

register_test_games()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TEST_TIMEOUT_S))
