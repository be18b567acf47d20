"""The CLI and the lab reach games only through the protocol (DEVELOPERS.md: dependencies
point inward), and the core's records need the standard library only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("folder", ["cli", "lab"])
def test_cli_and_lab_never_import_a_game(folder: str) -> None:
    for path in sorted((PACKAGE / folder).glob("*.py")):
        games = {m for m in imported_modules(path) if m.startswith("boardlab.games")}
        assert not games, f"{path.name} imports {games}: use boardlab.load and the State protocol"


def test_records_need_only_the_standard_library_and_the_core() -> None:
    modules = imported_modules(PACKAGE / "core" / "records.py")
    outside = {m for m in modules if m.startswith("boardlab") and not m.startswith("boardlab.core")}
    assert not outside
    assert not {m for m in modules if m.split(".")[0] in {"rich", "numpy", "pymunk", "matplotlib"}}


def test_the_resolver_sees_relative_imports() -> None:
    # the check above must be able to fail: play.py imports the agents package relatively
    assert "boardlab.agents" in imported_modules(PACKAGE / "cli" / "play.py")
