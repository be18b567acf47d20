"""Session-wide test set-up: the test-only games join the registry for this session only."""

from tests.conformance.testgames import register_test_games

register_test_games()
