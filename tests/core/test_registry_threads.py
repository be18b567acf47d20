"""Game discovery from many threads at once (the server's catalog route runs in a thread pool):
every caller sees every game, and a game that fails to import is an error, not a shorter list."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.plugins.site import PEBBLES_PROJECT, environment, install_project, write_distribution

PRODUCT_GAMES = ["honor", "overseer", "sovereign", "territories", "towers"]


def run_fresh(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a new interpreter, where nothing has imported the games yet."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def test_sixteen_threads_on_a_fresh_import_all_see_every_game() -> None:
    done = run_fresh(
        """
        import json, threading
        from boardlab.core.registry import game_ids

        barrier = threading.Barrier(16)
        seen = []

        def ask():
            barrier.wait()
            seen.append(game_ids())

        threads = [threading.Thread(target=ask) for _ in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(json.dumps(seen))
        """
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert len(seen) == 16
    assert all(ids == PRODUCT_GAMES for ids in seen), seen


def test_a_game_that_fails_to_import_fails_every_call() -> None:
    done = run_fresh(
        """
        import sys
        sys.modules["boardlab.games.honor"] = None  # its import now fails
        from boardlab.core.registry import game_ids

        for attempt in range(2):
            try:
                print("listed", game_ids())
            except ImportError as exc:
                print("refused", exc)
        """
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("refused") and "boardlab.games.honor" in line for line in lines), lines


def test_threads_on_a_fresh_import_all_see_the_plugins_and_the_same_failure(tmp_path: Path) -> None:
    install_project(PEBBLES_PROJECT, tmp_path)
    (tmp_path / "broken_game_pkg.py").write_text("raise ImportError('needs pymunk 99')\n", encoding="utf-8")
    write_distribution(tmp_path, "broken-dist", "0.3", {"broken": "broken_game_pkg"})
    code = """
        import json, threading
        from boardlab.core.registry import game_ids, plugin_failures

        barrier = threading.Barrier(8)
        seen = []

        def ask():
            barrier.wait()
            seen.append([game_ids(), [failure.name for failure in plugin_failures()]])

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(json.dumps(seen))
        """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, env=environment(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen == [[sorted([*PRODUCT_GAMES, "pebbles"]), ["broken"]]] * 8
