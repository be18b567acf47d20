"""Installed from a built wheel, not a checkout: the rules documents, the pages, the lessons and
the ladders ship with the package, so `boardlab rules`, `boardlab play` and `boardlab serve`
work from a fresh virtual environment that holds the wheel and nothing of the source tree.

The environment installs the wheel alone, offline, and borrows the dependencies the running
interpreter sees (its own site-packages folders, named in a ``.pth`` file): those of the base
Python when the tests run there, those of a virtual environment when they run in one. A
``--system-site-packages`` environment would see the *base* interpreter's folders only, and
miss everything installed into a virtual environment. The tests check that boardlab itself is
imported from the wheel, not from the checkout."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import httpx
import pytest
from packaging.requirements import Requirement

from tests.support.kernels import kernels_environment
from tests.support.serve import serve_process

ROOT = Path(__file__).resolve().parents[2]
#: what a build must not copy: version control, caches, outputs of runs
LEFT_OUT = shutil.ignore_patterns(
    ".git", ".tune", ".whl", ".cache", "artifacts", "build", "dist", "*.egg-info", "__pycache__",
    ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache", "boardlab-data", ".venv", "venv", "ladder-runs",
)


#: wheels built from this tree, by the digest of what they were built from: .ci/run runs these
#: tests twice (here, then from a fresh virtual environment), and the second run installs the
#: wheel the first built from the same files instead of compiling the kernels again
WHEEL_CACHE = ROOT / "build" / "test-wheels"
WHEELS_KEPT = 3
#: the kernels' C optimisation level (setup.py): these tests check what the wheel ships, not how
#: fast its kernels run, and -O0 builds faster (docs/testing.md)
WHEEL_OPT_LEVEL = "0"
#: one worker runs these tests (pytest-xdist): the environment is made once, the wheel built once
pytestmark = pytest.mark.xdist_group("wheel")


#: what a build makes anew (the compiled kernels beside their sources, and the record of them):
#: not what a wheel depends on
BUILD_OUTPUTS = {".so", ".pyd"}
BUILD_RECORD = "kernels-built.json"


def source_digest(source: Path) -> str:
    """What a wheel built from ``source`` by this interpreter depends on: every source file's
    path and bytes, the Python version, the platform and the optimisation level."""
    digest = hashlib.sha256(f"{sys.version}|{sysconfig.get_platform()}|-O{WHEEL_OPT_LEVEL}".encode())
    files = (p for p in source.rglob("*") if p.is_file() and p.suffix not in BUILD_OUTPUTS and p.name != BUILD_RECORD)
    for path in sorted(files):
        digest.update(path.relative_to(source).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def build_requirements_met(source: Path) -> bool:
    """Whether this interpreter has every package ``source``'s pyproject.toml builds with, each
    in a version its requirement allows."""
    requires = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    for line in requires:
        requirement = Requirement(line)
        try:
            installed = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(installed, prereleases=True):
            return False
    return True


def build_wheel(source: Path, work: Path) -> Path:
    """The boardlab wheel of ``source``: the one built before from the same files, else a new
    one, kept for the next run."""
    cached = WHEEL_CACHE / source_digest(source)
    found = sorted(cached.glob("boardlab-*.whl"))
    if found:
        return found[0]
    wheels = work / "wheels"
    # offline where the build requirements installed here meet pyproject.toml's [build-system]
    # (setuptools, wheel, and mypy for the kernels); where one is missing or too old (Python 3.12's
    # venvs have no setuptools, 3.11's an old one; a venv holding only the web extras has no mypy),
    # pip fetches them, as `pip install` itself does
    isolation = ["--no-build-isolation"] if build_requirements_met(source) else []
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "--quiet", "-w", str(wheels), str(source)],
        # built as it ships, compiled, whatever this run asks for: the cache would otherwise keep a
        # pure wheel from a `BOARDLAB_PURE=1` run for every later run of these files
        check=True, cwd=work, timeout=600, env={**kernels_environment(pure=False), "BOARDLAB_OPT_LEVEL": WHEEL_OPT_LEVEL},
    )
    (wheel,) = wheels.glob("boardlab-*.whl")
    # kept under a temporary name first: another run reading the cache never sees half a file
    staging = WHEEL_CACHE / f".{cached.name}-{os.getpid()}"
    staging.mkdir(parents=True, exist_ok=True)
    shutil.copy2(wheel, staging / wheel.name)
    try:
        staging.rename(cached)
    except OSError:  # another run kept the same wheel first
        shutil.rmtree(staging, ignore_errors=True)
    kept = sorted((folder for folder in WHEEL_CACHE.iterdir() if not folder.name.startswith(".")),
                  key=lambda folder: folder.stat().st_mtime)
    for old in kept[:-WHEELS_KEPT]:  # wheels of sources edited since
        shutil.rmtree(old, ignore_errors=True)
    return wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh virtual environment with the boardlab wheel built from this tree."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=LEFT_OUT)
    wheel = build_wheel(source, work)
    environment = work / "env"
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(environment)
    python = environment / "bin" / "python"
    borrow_installed_packages(python)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        check=True, cwd=work, timeout=600,
    )
    return python


def installed_package_folders() -> list[str]:
    """The site-packages folders the running interpreter imports from, in its order, without the
    checkout itself (an editable install of boardlab adds it, and the wheel must not see it)."""
    folders = [*site.getsitepackages(), site.getusersitepackages(), *sys.path]
    kept: list[str] = []
    for folder in folders:
        path = Path(folder)
        if path.name not in ("site-packages", "dist-packages") or not path.is_dir() or folder in kept:
            continue
        kept.append(folder)
    return kept


def borrow_installed_packages(python: Path) -> None:
    """Make ``python``'s environment import the dependencies installed for this interpreter: a
    ``.pth`` file in its site-packages lists their folders, after its own (the wheel's) folder.
    A folder added by a ``.pth`` line is not scanned for ``.pth`` files of its own, so an editable
    install of boardlab there (a path or finder in a ``.pth``) does not reach the new environment."""
    own = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout.strip()
    (Path(own) / "_borrowed_dependencies.pth").write_text(
        "".join(f"{folder}\n" for folder in installed_package_folders()), encoding="utf-8"
    )


def run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [str(python), *args], cwd=cwd, env=environment, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL
    )


def test_boardlab_comes_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    where = run(installed, "-c", "import boardlab; print(boardlab.__file__)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(installed.parents[1]), where.stdout
    assert not Path(where.stdout.strip()).is_relative_to(ROOT)


def test_the_wheels_own_metadata_declares_the_games_and_agents(installed: Path, tmp_path: Path) -> None:
    # the registries find boardlab's games and agents only through entry points: the wheel's
    # metadata (the first boardlab on the path) must carry them, not only the borrowed install's
    script = (
        "import importlib.metadata as m, json, boardlab; d = m.distribution('boardlab'); "
        "print(json.dumps([str(d.locate_file('')), sorted(p.name for p in d.entry_points.select(group='boardlab.games')), "
        "sorted(p.name for p in d.entry_points.select(group='boardlab.agents')), boardlab.game_ids()]))"
    )
    shown = run(installed, "-c", script, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    location, games, agents, ids = json.loads(shown.stdout)
    assert Path(location).is_relative_to(installed.parents[1]), location
    assert games == ids == ["honor", "overseer", "sovereign", "territories", "towers"]
    assert {"alphabeta", "greedy", "honor", "ismcts", "mcts", "random"} <= set(agents)


def test_the_wheel_runs_its_kernels_compiled_where_this_checkout_does(installed: Path, tmp_path: Path) -> None:
    """The wheel is built with the same compiler as this checkout's install (docs/speed.md): when
    the checkout runs its kernels compiled, the wheel's must be compiled too, and from its own files."""
    from boardlab import compiled

    kernels = compiled.kernels()
    if not kernels or not all(kernel.compiled for kernel in kernels):
        pytest.skip("this checkout runs pure Python kernels: the wheel may too")
    version = run(installed, "-m", "boardlab", "--version", cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    # built at the tests' level (BOARDLAB_OPT_LEVEL), which the build record keeps and the line says
    assert f"compiled at -O{WHEEL_OPT_LEVEL}, slower than the default -O3: {len(kernels)} of {len(kernels)} kernels" in (
        version.stdout
    ), version.stdout
    extension = run(installed, "-c", "import boardlab.games.towers.kernel as k; print(k.__file__)", cwd=tmp_path)
    assert extension.stdout.strip().endswith(".so") and Path(extension.stdout.strip()).is_relative_to(installed.parents[1])


def test_the_rules_ship_with_the_package(installed: Path, tmp_path: Path) -> None:
    shown = run(installed, "-m", "boardlab", "rules", "towers", "--plain", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    document = [line for line in (ROOT / "docs" / "rules" / "towers.md").read_text(encoding="utf-8").splitlines() if line]
    assert document[0] in shown.stdout and document[-1] in shown.stdout  # the whole document, not a notice


def test_the_fitted_weights_ship_with_the_wheel(installed: Path, tmp_path: Path) -> None:
    """Each game's judge (evaluation.json) and Sovereign's search weights (search-evaluation.json,
    its expert's) are package data: left out of the wheel, the analysis and those levels would
    judge by hand without a word."""
    script = (
        "import json, boardlab; from boardlab.core.fitted import shipped_evaluation, shipped_path, SEARCH_FILE_NAME; "
        "games = {g: boardlab.load(g) for g in boardlab.game_ids()}; "
        "print(json.dumps([{g: shipped_evaluation(game) is not None for g, game in games.items()}, "
        "shipped_evaluation(games['sovereign'], SEARCH_FILE_NAME) is not None, "
        "str(shipped_path(games['sovereign'], SEARCH_FILE_NAME))]))"
    )
    shown = run(installed, "-c", script, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    judges, search, path = json.loads(shown.stdout)
    assert judges == dict.fromkeys(["honor", "overseer", "sovereign", "territories", "towers"], True)
    assert search and Path(path).is_relative_to(installed.parents[1]), path


def test_a_game_plays_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    played = run(installed, "-m", "boardlab", "play", "towers", "--players", "beginner,easy", "--seed", "1", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Game over" in played.stdout


def test_the_server_serves_its_pages_rules_and_lessons_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    with (
        serve_process(tmp_path / "data", tmp_path / "serve.log", python=str(installed)) as (url, _process),
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        assert "towers" in [game["id"] for game in client.get("/api/games").json()]
        assert client.get("/").status_code == 200
        rules = client.get("/rules/towers")
        assert rules.status_code == 200 and "Towers" in rules.text
        lesson = client.get("/api/games/towers/lesson")
        assert lesson.status_code == 200 and lesson.json()["steps"]
