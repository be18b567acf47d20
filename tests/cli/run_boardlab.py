"""``python -m tests.cli.run_boardlab ARGS``: the boardlab command with the test-only games registered.

The CLI tests run the real command in a subprocess; this launcher only adds
the test game ``dicenim`` first, so the tests do not depend on which product
games have landed.
"""

import sys

from boardlab.cli import main
from tests.conformance.testgames import register_test_games

register_test_games()
sys.exit(main())
