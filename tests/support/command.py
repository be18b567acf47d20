"""The ``boardlab`` command (with the test game registered) in a process of its own, started
without paying for its imports each time.

Most of what starting ``python -m tests.cli.run_boardlab`` costs is importing boardlab's command,
and the CLI tests start it many times (docs/testing.md has the figures). Here
one *forkserver* (multiprocessing's) imports the command once per test worker and forks a child
for each run: a process of its own, with the run's working folder, environment, standard input
and exit status, as a subprocess has. What a fork cannot give, a fresh interpreter, is still
asked for where it matters: an environment that changes what boardlab does at import
(``BOARDLAB_PURE``) runs the real ``python -m tests.cli.run_boardlab``.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from boardlab.cli import main
from tests.conformance.testgames import register_test_games

register_test_games()

#: the module run with ``python -m`` when a fresh interpreter is needed
MODULE = "tests.cli.run_boardlab"
#: environment variables read when boardlab is imported: a run that sets one differently gets a
#: fresh interpreter
READ_AT_IMPORT = ("BOARDLAB_PURE",)

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload([__name__])


def _run_in_child(args: list[str], cwd: str, environment: dict[str, str], stdin: str, output: str, errors: str) -> None:
    """The child's whole life: the run's folder and environment, files for its three streams,
    the command, and its exit status as the process's."""
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(environment)
    for number, (path, flags) in enumerate(((stdin, os.O_RDONLY), (output, os.O_WRONLY), (errors, os.O_WRONLY))):
        opened = os.open(path, flags)
        os.dup2(opened, number)
        os.close(opened)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own stream
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    status: Any
    try:
        status = main(args)
    except SystemExit as exit_:
        status = exit_.code
    except KeyboardInterrupt:
        status = 130
    except BaseException:  # as the interpreter does: the traceback on stderr, status 1
        traceback.print_exc()
        status = 1
    if status is not None and not isinstance(status, int):
        print(status, file=sys.stderr)
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status or 0)


def _fresh_interpreter(environment: Mapping[str, str]) -> bool:
    """Whether ``environment`` changes what the forkserver saw when it imported boardlab (it
    started with this process's environment)."""
    return any(environment.get(name) != os.environ.get(name) for name in READ_AT_IMPORT)


def run_command(
    args: Sequence[str], *, cwd: Path, environment: dict[str, str], stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python -m tests.cli.run_boardlab ARGS`` in ``cwd`` with ``environment`` and ``stdin``:
    its exit status and what it printed, as :func:`subprocess.run` gives them (text)."""
    command = [sys.executable, "-m", MODULE, *args]
    if _fresh_interpreter(environment):
        return subprocess.run(command, input=stdin, capture_output=True, text=True, cwd=cwd, env=environment, timeout=timeout)
    with tempfile.TemporaryDirectory(prefix="boardlab-command-") as folder:
        streams = [Path(folder, name) for name in ("stdin", "stdout", "stderr")]
        streams[0].write_text(stdin, encoding="utf-8")
        for stream in streams[1:]:
            stream.touch()
        child = _context.Process(
            target=_run_in_child, args=(list(args), str(cwd), dict(environment), *map(str, streams)), daemon=False
        )
        child.start()
        child.join(timeout)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired(command, timeout)
        return subprocess.CompletedProcess(
            command, child.exitcode, streams[1].read_text(encoding="utf-8"), streams[2].read_text(encoding="utf-8")
        )
