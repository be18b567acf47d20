"""The CLI and the lab reach games only through the protocol (DEVELOPERS.md: dependencies
point inward), and the core's records need the standard library only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.imports import import_cycle, runtime_imports

PACKAGE = Path(__file__).resolve().parents[2] / "boardlab"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved against its package."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


#: every part of the package beside the games (core, agents, lab, server, CLI, adapters ...)
LAYERS = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file() and p.name != "games")


@pytest.mark.parametrize("folder", LAYERS)
def test_nothing_outside_the_games_imports_a_game(folder: str) -> None:
    # the games and their agents are found through their entry points (pyproject.toml)
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        games = {m for m in imported_modules(path) if m.startswith("boardlab.games")}
        assert not games, f"{path.relative_to(PACKAGE)} imports {games}: use boardlab.load and the State protocol"


def test_the_core_imports_nothing_of_boardlab_beyond_itself() -> None:
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        outside = {m for m in imported_modules(path) if m.startswith("boardlab") and not m.startswith("boardlab.core")}
        assert not outside, f"core/{path.name} imports {outside}: the core finds agents and games by entry point"


def test_the_core_modules_import_each_other_without_cycles() -> None:
    # imports under `if TYPE_CHECKING:` are for type names only and do not count; a late import
    # at the bottom of a module, or inside a function, does
    graph: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / "core").glob("*.py")):
        graph[path.stem] = set()
        for node, _ in runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module] if node.module else [alias.name for alias in node.names]
                graph[path.stem].update(t.split(".")[0] for t in targets if t.split(".")[0] != path.stem)
    graph.pop("__init__", None)
    cycle = import_cycle(graph)
    assert cycle is None, f"boardlab/core: import cycle {' -> '.join(cycle or [])}"


def test_records_need_only_the_standard_library_and_the_core() -> None:
    modules = imported_modules(PACKAGE / "core" / "records.py")
    outside = {m for m in modules if m.startswith("boardlab") and not m.startswith("boardlab.core")}
    assert not outside
    assert not {m for m in modules if m.split(".")[0] in {"rich", "numpy", "pymunk", "matplotlib"}}


def test_the_resolver_sees_relative_imports() -> None:
    # the check above must be able to fail: play.py imports the agents package relatively
    assert "boardlab.agents" in imported_modules(PACKAGE / "cli" / "play.py")
