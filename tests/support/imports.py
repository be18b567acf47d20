"""Reading a module's imports from its source, for the tests that hold the package's layering."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Set


def runtime_imports(tree: ast.Module) -> list[tuple[ast.AST, bool]]:
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


def import_cycle(graph: Mapping[str, Set[str]]) -> list[str] | None:
    """A cycle in ``graph`` (module -> the modules it imports) as a path that ends where it
    starts, or None when there is none."""
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target):], target] if target in path else [module, target]
            if state.get(target) is None:
                cycle = visit(target, [*path, target])
                if cycle is not None:
                    return cycle
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module, [module])
            if cycle is not None:
                return cycle
    return None
