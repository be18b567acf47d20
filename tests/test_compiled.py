"""The compiled kernels against their pure-Python source, and the switch between them.

* Differential: every registered game plays seeded random games and seeded MCTS games once
  as installed (compiled) and once with ``BOARDLAB_PURE=1``, each in a subprocess; the move
  sequences, the legal moves offered at each ply, the positions and the results must be
  identical. Skipped when no kernel is compiled (then both runs would be pure).
* The switch: ``BOARDLAB_PURE=1`` imports every kernel's ``.py``; a kernel whose source is
  newer than its extension runs pure, with a warning (a throwaway package built here).
* The tests that can tell a pure kernel from a compiled one (each kernel's own tests, perft,
  the random-game invariants) once more in pure Python when the main run is compiled.

Run as a script (``python -m tests.test_compiled``) it prints the games' transcript as JSON:
that is what each subprocess does.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.kernels import kernels_environment

ROOT = Path(__file__).resolve().parents[1]

#: per game: how many random games and MCTS games, and the MCTS budget per decision
RANDOM_GAMES = 3
MCTS_GAMES = 2
MCTS_SPEC = "mcts:iterations=24"
#: Honor resolves real physics each move: fewer, shorter games keep the test under a minute
SLOW_GAMES = {"honor": (1, 1, "mcts:iterations=4")}
#: a random game stops here if it has not ended (the transcript still covers every ply)
RANDOM_PLY_LIMIT = 400
#: the tests run once more in pure Python: each kernel's own tests (against a reference or the
#: kernel's source), perft (every legal move counted from fixed positions) and the random-game
#: invariants. The other rules tests reach the kernels only through these same functions, and
#: the differential games compare whole games compiled and pure, ply by ply.
PURE_RERUN_PATTERNS = (
    "tests/*/test_*_kernel.py", "tests/*/test_*_perft.py", "tests/*/test_*_invariants.py",
    # the core's kernel (State and the progress tracker): its trail and its tracker
    "tests/core/test_state_trail.py", "tests/core/test_progress.py",
)
PURE_RERUN = sorted(str(path.relative_to(ROOT)) for pattern in PURE_RERUN_PATTERNS for path in ROOT.glob(pattern))


# --- the transcript a subprocess prints ---------------------------------------------------------
def _digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]


def random_game(game: Any, seed: int) -> dict[str, Any]:
    """A seeded random game: per ply the legal moves' digest, the move and the position."""
    from boardlab.agents.search import pick_random
    from boardlab.core import CHANCE

    rng = random.Random(seed)
    state = game.new_state(seed)
    plies: list[list[str]] = []
    while not state.is_over() and state.ply < RANDOM_PLY_LIMIT:
        if state.current_player() == CHANCE:
            offered, move = "chance", state.sample_chance(rng)
        else:
            legal = state.legal_moves()
            offered, move = _digest([str(m) for m in legal]), pick_random(rng, legal)
        state.apply(move)
        plies.append([offered, str(move), state.position()])
    return {"plies": plies, "result": repr(state.result()), "returns": list(state.returns())}


def mcts_game(game: Any, seed: int, spec: str) -> dict[str, Any]:
    """A seeded game of MCTS against itself (iteration budgets: no clock in it)."""
    from boardlab.agents import make_agent
    from boardlab.core.match import Match

    agents = [make_agent(spec, seed=seed * 10 + seat) for seat in range(game.num_players)]
    match = Match(game, agents, seed=seed)
    result = match.play_out()
    replay = game.new_state(seed)
    plies: list[list[str]] = []
    for turn in match.log():
        assert turn.move is not None
        replay.apply(turn.move)
        plies.append([turn.notation, replay.position()])
    return {"plies": plies, "result": repr(result)}


def transcript() -> dict[str, Any]:
    """Every registered game's seeded games, and which kernels ran compiled."""
    import boardlab
    from boardlab import compiled

    games: dict[str, Any] = {}
    for game_id in boardlab.game_ids():
        game = boardlab.load(game_id)
        began = time.perf_counter()
        random_games, mcts_games, spec = SLOW_GAMES.get(game_id, (RANDOM_GAMES, MCTS_GAMES, MCTS_SPEC))
        games[game_id] = {
            "random": [random_game(game, seed) for seed in range(1, random_games + 1)],
            "mcts": [mcts_game(game, seed, spec) for seed in range(1, mcts_games + 1)],
        }
        print(f"{game_id}: {time.perf_counter() - began:.1f} s", file=sys.stderr)
    kernels = {kernel.module: kernel.compiled for kernel in compiled.kernels()}
    return {"kernels": kernels, "games": games}


# --- the tests ---------------------------------------------------------------------------------
def _run_transcript(pure: bool) -> dict[str, Any]:
    ran = subprocess.run(
        [sys.executable, "-m", "tests.test_compiled"],
        cwd=ROOT, env=kernels_environment(pure), capture_output=True, text=True, timeout=600,
    )
    assert ran.returncode == 0, ran.stderr[-4000:]
    return json.loads(ran.stdout)


def _compiled_kernels() -> list[str]:
    from boardlab import compiled

    return [kernel.module for kernel in compiled.kernels() if kernel.extension is not None]


needs_compiled = pytest.mark.skipif(
    not _compiled_kernels(), reason="no kernel is compiled here (a pure-Python install): compiled and pure are the same code"
)


def _first_difference(compiled: Any, pure: Any, where: str = "") -> str | None:
    if type(compiled) is not type(pure) or (not isinstance(compiled, (dict, list)) and compiled != pure):
        return f"{where}: compiled {compiled!r:.300} / pure {pure!r:.300}"
    if isinstance(compiled, dict):
        for key in sorted(set(compiled) | set(pure)):
            found = _first_difference(compiled.get(key), pure.get(key), f"{where}/{key}")
            if found:
                return found
    elif isinstance(compiled, list):
        for index, (a, b) in enumerate(zip(compiled, pure)):
            found = _first_difference(a, b, f"{where}[{index}]")
            if found:
                return found
        if len(compiled) != len(pure):
            return f"{where}: {len(compiled)} entries compiled, {len(pure)} pure"
    return None


@needs_compiled
def test_compiled_and_pure_play_the_same_games() -> None:
    began = time.perf_counter()
    compiled = _run_transcript(pure=False)
    pure = _run_transcript(pure=True)
    assert compiled["kernels"] and all(compiled["kernels"].values()), f"not every kernel ran compiled: {compiled['kernels']}"
    assert not any(pure["kernels"].values()), f"BOARDLAB_PURE=1 still ran compiled kernels: {pure['kernels']}"
    assert set(compiled["games"]) == set(pure["games"])
    for game_id in compiled["games"]:
        difference = _first_difference(compiled["games"][game_id], pure["games"][game_id], game_id)
        assert difference is None, f"compiled and pure differ at {difference}"
    print(f"differential games: {time.perf_counter() - began:.1f} s")


def _import_files(code_environment: dict[str, str]) -> dict[str, str]:
    """Each kernel's module file when imported under ``code_environment``."""
    probe = textwrap.dedent(
        """
        import importlib, json
        from boardlab import compiled
        print(json.dumps({k.module: importlib.import_module(k.module).__file__ for k in compiled.kernels()}))
        """
    )
    ran = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=code_environment, capture_output=True, text=True, timeout=300
    )
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


@needs_compiled
def test_pure_switch_imports_every_kernel_from_its_source() -> None:
    pure = _import_files(kernels_environment(pure=True))
    assert pure and all(path.endswith(".py") for path in pure.values()), pure
    compiled = _import_files(kernels_environment(pure=False))
    assert all(not path.endswith(".py") for path in compiled.values()), compiled


def test_version_says_which_kernels_run() -> None:
    from boardlab import compiled

    ran = subprocess.run(
        [sys.executable, "-m", "boardlab", "--version"], cwd=ROOT, env=kernels_environment(pure=True),
        capture_output=True, text=True, timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    expected = "BOARDLAB_PURE=1" if compiled.kernel_sources() else "no kernels"
    assert " ".join(ran.stdout.split()).startswith("boardlab ") and expected in ran.stdout


# --- the switch on a throwaway package, built here ----------------------------------------------
def _fake_package(where: Path) -> Path:
    """A package ``boardlab`` with the real compiled.py and __init__ replaced by a minimal one,
    and one kernel whose "extension" is a copy of a real extension module (never imported)."""
    package = where / "boardlab"
    (package / "toy").mkdir(parents=True)
    shutil.copy(ROOT / "boardlab" / "compiled.py", package / "compiled.py")
    (package / "__init__.py").write_text("from . import compiled\ncompiled.install()\n")
    (package / "toy" / "__init__.py").write_text("")
    (package / "toy" / "kernel.py").write_text("FLAVOUR = 'pure'\n")
    return package


def _write_extension(kernel: Path) -> Path:
    """A stand-in for the compiled kernel: a real extension file (the finder decides before
    anything loads it) that, if imported, fails loudly."""
    import importlib.machinery

    extension = kernel.with_name("kernel" + importlib.machinery.EXTENSION_SUFFIXES[0])
    extension.write_bytes(b"not a shared library: the finder must not let Python load this")
    return extension


def _flavour(where: Path, pure: bool) -> subprocess.CompletedProcess[str]:
    environment = kernels_environment(pure) | {"PYTHONPATH": str(where)}
    probe = "import boardlab.toy.kernel as k; from boardlab import compiled; print(k.FLAVOUR, compiled.summary())"
    return subprocess.run([sys.executable, "-c", probe], cwd=where, env=environment, capture_output=True, text=True, timeout=120)


def test_pure_variable_and_a_stale_extension_run_the_source(tmp_path: Path) -> None:
    kernel = _fake_package(tmp_path) / "toy" / "kernel.py"
    extension = _write_extension(kernel)
    old = time.time() - 60
    os.utime(kernel, (old, old))  # the extension is newer than its source: it is imported ...
    fresh = _flavour(tmp_path, pure=False)
    assert fresh.returncode != 0 and "ImportError" in fresh.stderr  # ... (here it is no real library)

    forced = _flavour(tmp_path, pure=True)
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout.split() == ["pure", "pure", "Python:", "BOARDLAB_PURE=1"]

    new = time.time() + 60
    os.utime(kernel, (new, new))  # the source edited after the build
    stale = _flavour(tmp_path, pure=False)
    assert stale.returncode == 0, stale.stderr
    assert stale.stdout.startswith("pure compiled: 0 of 1 kernels; pure: boardlab.toy.kernel (edited since the build)")
    assert "StaleKernelWarning" in stale.stderr and str(kernel) in stale.stderr and "install" in stale.stderr
    assert extension.exists()


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        ({}, "compiled: 2 of 2 kernels"),  # a record from before levels were kept: -O3
        ({"-O": "3"}, "compiled: 2 of 2 kernels"),
        ({"-O": "0"}, "compiled at -O0, slower than the default -O3: 2 of 2 kernels"),
    ],
)
def test_the_version_line_says_when_the_kernels_were_built_below_the_default_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: dict[str, str], line: str
) -> None:
    from boardlab import compiled

    record = tmp_path / "kernels-built.json"
    record.write_text(json.dumps({"boardlab.toy.kernel": {"toy/kernel.py": "0" * 64}, **entry}))
    monkeypatch.setattr(compiled, "BUILD_RECORD", record)
    report = [compiled.Kernel(f"boardlab.{name}.kernel", tmp_path / name, tmp_path / f"{name}.so", True) for name in ("a", "b")]
    assert compiled.summary(report) == line


def test_the_build_record_decides_staleness_over_file_times(tmp_path: Path) -> None:
    """An installed wheel writes files in any order: with a record of the sources' hashes, an
    unchanged source newer than its extension still runs compiled; a changed one does not."""
    package = _fake_package(tmp_path)
    kernel = package / "toy" / "kernel.py"
    _write_extension(kernel)
    later = time.time() + 60
    os.utime(kernel, (later, later))
    record = {"boardlab.toy.kernel": {"toy/kernel.py": hashlib.sha256(kernel.read_bytes()).hexdigest()}}
    (package / "kernels-built.json").write_text(json.dumps(record))
    unchanged = _flavour(tmp_path, pure=False)
    assert unchanged.returncode != 0 and "ImportError" in unchanged.stderr  # the extension is chosen
    kernel.write_text("FLAVOUR = 'edited'\n")
    edited = _flavour(tmp_path, pure=False)
    assert edited.returncode == 0 and edited.stdout.startswith("edited "), edited.stderr


def test_a_kernel_compiled_with_the_cores_is_stale_with_it(tmp_path: Path) -> None:
    """Kernels compiled in one group with the core's (a compiled state class derives from its
    State) run compiled or pure together: the build record of each names every member's sources,
    so an edit to one member makes all of them pure (a pure core State under a compiled subclass
    would be two classes of one name)."""
    package = _fake_package(tmp_path)
    (package / "other").mkdir()
    (package / "other" / "__init__.py").write_text("")
    members = [package / "toy" / "kernel.py", package / "other" / "kernel.py"]
    members[1].write_text("FLAVOUR = 'pure'\n")
    for kernel in members:
        _write_extension(kernel)
    sources = {str(k.relative_to(package)): hashlib.sha256(k.read_bytes()).hexdigest() for k in members}
    record = {"boardlab.toy.kernel": sources, "boardlab.other.kernel": sources}
    (package / "kernels-built.json").write_text(json.dumps(record))
    members[1].write_text("FLAVOUR = 'edited'\n")
    ran = _flavour(tmp_path, pure=False)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[0] == "pure" and "compiled: 0 of 2 kernels" in ran.stdout


def test_the_build_record_groups_the_kernels_that_use_the_cores_state() -> None:
    """The installed record (setup.py writes it): every kernel that imports the core's State is
    recorded with the sources of the whole group, the core's kernel among them."""
    record_path = ROOT / "boardlab" / "kernels-built.json"
    if not record_path.is_file():
        pytest.skip("no build record: nothing is compiled here")
    record = json.loads(record_path.read_text())
    if "boardlab.core.kernel" not in record:
        pytest.skip("the core's kernel is not compiled here")
    group = record["boardlab.core.kernel"]
    members = [module for module, sources in record.items() if "core/kernel.py" in sources]
    assert "boardlab.agents.kernel" in members
    for module in members:
        assert record[module] == group, module
        assert module.removeprefix("boardlab.").replace(".", "/") + ".py" in group


# --- the kernels' tests once more in pure Python ------------------------------------------------
def test_every_kernel_has_its_tests_in_the_pure_rerun() -> None:
    from boardlab import compiled

    for kernel in compiled.kernels():
        package = kernel.module.split(".")[-2]  # boardlab.games.towers.kernel -> towers
        assert any(path.endswith(f"_{package}_kernel.py") for path in PURE_RERUN), (kernel.module, PURE_RERUN)
    assert any(path.endswith("_perft.py") for path in PURE_RERUN) and any(path.endswith("_invariants.py") for path in PURE_RERUN)


@needs_compiled
@pytest.mark.timeout(1800)
def test_kernel_tests_pass_in_pure_python() -> None:
    """CI runs the suite compiled; the kernels' tests, perft and the invariants also pure."""
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-m", "not slow", "-p", "no:cacheprovider", "-p", "no:xdist",
         *PURE_RERUN],
        cwd=ROOT, env=kernels_environment(pure=True), capture_output=True, text=True, timeout=1800,
    )
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]


if __name__ == "__main__":
    json.dump(transcript(), sys.stdout)
