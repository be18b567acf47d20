"""Session-wide test set-up.

* The test-only games join the registry for this session only.
* Hypothesis runs without per-example deadlines: CI machines are shared and slow
  (2 cores), and a deadline there reports the machine, not the code.
"""

from hypothesis import settings

from tests.conformance.testgames import register_test_games

settings.register_profile("boardlab", deadline=None, print_blob=True)
settings.load_profile("boardlab")

register_test_games()
