"""Installing game plugins for a test run, without a build: a folder laid out as ``pip install
--target`` leaves it (the packages, and a ``.dist-info`` with ``METADATA`` and
``entry_points.txt``), put on ``sys.path`` and, for the commands the tests start, on PYTHONPATH.

Why not pip: a clean clone runs ``python -m pytest`` with no build backend guaranteed in the
environment and no network, and a build writes into the source folder; importlib.metadata
reads exactly these files, so the registry sees what a real installation gives it.
tests/plugins/test_pebbles_plugin.py also installs the package with pip once, to show that
its pyproject.toml declares the same entry point.
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from boardlab.core.entry_points import AGENT_GROUP, GAME_GROUP
from boardlab.core.registry import refresh_plugins

#: the example game package (its own pyproject.toml, rules document and tests)
PEBBLES_PROJECT = Path(__file__).resolve().parents[1] / "plugin_game"
REPOSITORY = Path(__file__).resolve().parents[2]


def write_distribution(
    site: Path, name: str, version: str, games: Mapping[str, str], agents: Mapping[str, str] | None = None
) -> Path:
    """The ``.dist-info`` of distribution ``name`` declaring ``games`` and ``agents`` (entry-point
    name -> ``module:attribute``) in their groups; returns its folder."""
    folder = site / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = [f"[{GAME_GROUP}]", *(f"{game} = {target}" for game, target in games.items())]
    lines += [f"[{AGENT_GROUP}]", *(f"{agent} = {target}" for agent, target in (agents or {}).items())]
    (folder / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def install_project(project: Path, site: Path) -> None:
    """Lay out ``project`` (a folder with a setuptools pyproject.toml listing its packages) in
    ``site`` as an installation of it: its packages copied, its entry points declared."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    for package in meta["tool"]["setuptools"]["packages"]:
        shutil.copytree(project / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    declared = meta["project"].get("entry-points", {}).get(GAME_GROUP, {})
    write_distribution(site, meta["project"]["name"], meta["project"]["version"], declared)


@contextmanager
def installed(site: Path) -> Iterator[None]:
    """The distributions in ``site`` are installed in this interpreter while inside: on
    sys.path, the registry's plugins looked up again. Afterwards the path, the registry and
    the imported modules from ``site`` are as before."""
    sys.path.insert(0, str(site))
    try:
        refresh_plugins()
        yield
    finally:
        sys.path.remove(str(site))
        for name, module in list(sys.modules.items()):
            if str(getattr(module, "__file__", None) or "").startswith(str(site)):
                del sys.modules[name]
        refresh_plugins()


def environment(site: Path) -> dict[str, str]:
    """The environment of a command that sees the distributions in ``site`` (and the tests)."""
    env = dict(os.environ)
    parts = [str(site), str(REPOSITORY), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env
