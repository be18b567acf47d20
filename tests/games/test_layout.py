"""Every game folder follows the one layout of docs/api.md ("Adding a game").

Checked from the source, so a new game is held to it as soon as its folder exists:
the required modules, imports of the core only, no import cycles between a game's
modules, and no imports inside functions except of optional heavy extras.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import boardlab.games

GAMES_DIR = Path(boardlab.games.__file__).parent
GAME_DIRS = sorted(p for p in GAMES_DIR.iterdir() if p.is_dir() and (p / "__init__.py").exists())
REQUIRED = (
    "__init__.py", "game.py", "rules.py", "moves.py", "state.py", "position.py", "view.py", "render.py", "encoding.py",
)
#: third-party packages a game may import lazily (optional extras)
LAZY_EXTRAS = {"pymunk", "matplotlib", "PIL", "numpy"}


def _runtime_imports(tree: ast.Module) -> list[tuple[ast.AST, bool]]:
    """Every import node with whether it sits inside a function, skipping ``if TYPE_CHECKING:`` blocks."""
    found: list[tuple[ast.AST, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, in_function))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


def _sibling_targets(node: ast.AST, module: str, folder: Path) -> list[str]:
    """The sibling modules of ``folder`` an import node loads."""
    if isinstance(node, ast.ImportFrom) and node.level == 1:
        if node.module:
            return [node.module.split(".")[0]]
        return [alias.name for alias in node.names if (folder / f"{alias.name}.py").exists()]
    return []


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_the_game_has_the_required_modules(folder: Path) -> None:
    missing = [name for name in REQUIRED if not (folder / name).exists()]
    assert not missing, f"{folder.name} lacks {missing} (docs/api.md, 'Adding a game')"


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_imports_stay_inside_the_game_and_the_core(folder: Path) -> None:
    for path in sorted(folder.rglob("*.py")):
        for node, in_function in _runtime_imports(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("boardlab"):
                    assert name == "boardlab.core" or name.startswith("boardlab.core."), (
                        f"{path.relative_to(GAMES_DIR)} imports {name}: games depend on boardlab.core only"
                    )
            if in_function:
                top = {name.split(".")[0] for name in names}
                assert top and top <= LAZY_EXTRAS, (
                    f"{path.relative_to(GAMES_DIR)}:{node.lineno}: an import inside a function "
                    f"({ast.unparse(node)}); only optional extras ({sorted(LAZY_EXTRAS)}) may load lazily"
                )


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_the_game_modules_import_each_other_without_cycles(folder: Path) -> None:
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        module = path.stem
        graph[module] = set()
        for node, _ in _runtime_imports(ast.parse(path.read_text())):
            graph[module].update(t for t in _sibling_targets(node, module, folder) if t != module)
    graph.pop("__init__", None)
    for targets in graph.values():
        targets.discard("__init__")
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycle = path[path.index(target):] + [target] if target in path else [module, target]
                raise AssertionError(f"{folder.name}: import cycle {' -> '.join(cycle)}")
            if state.get(target) is None:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    importers_of_state = sorted(m for m, targets in graph.items() if "state" in targets and m != "game")
    assert not importers_of_state, (
        f"{folder.name}: {importers_of_state} import state.py at run time; only game.py may "
        "(use `if TYPE_CHECKING:` for type names)"
    )
