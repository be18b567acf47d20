"""Every game folder follows the one layout of docs/api.md ("Adding a game") and its
vocabulary ("Names: one concept, one name").

Checked from the source, so a new game is held to it as soon as its folder exists:
the required modules, imports of the core only, no import cycles between a game's
modules, and no imports inside functions except of optional heavy extras. Then the
names: the same class, function and module names, with the same parameters, for the
same concept in every game.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import boardlab.games
from boardlab.core import Agent, Game, State, game_class
from tests.support.imports import import_cycle, runtime_imports

GAMES_DIR = Path(boardlab.games.__file__).parent
PYPROJECT = GAMES_DIR.parents[1] / "pyproject.toml"
GAME_DIRS = sorted(p for p in GAMES_DIR.iterdir() if p.is_dir() and (p / "__init__.py").exists())
REQUIRED = (
    "__init__.py", "game.py", "rules.py", "moves.py", "state.py", "position.py", "view.py", "render.py", "encoding.py",
    "evaluation.py", "legality.py",
)
#: third-party packages a game may import lazily (optional extras)
LAZY_EXTRAS = {"pymunk", "matplotlib", "PIL", "numpy"}


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
        for node, in_function in runtime_imports(ast.parse(path.read_text())):
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
        for node, _ in runtime_imports(ast.parse(path.read_text())):
            graph[module].update(t for t in _sibling_targets(node, module, folder) if t != module)
    graph.pop("__init__", None)
    for targets in graph.values():
        targets.discard("__init__")
    cycle = import_cycle(graph)
    assert cycle is None, f"{folder.name}: import cycle {' -> '.join(cycle or [])}"
    importers_of_state = sorted(m for m, targets in graph.items() if "state" in targets and m != "game")
    assert not importers_of_state, (
        f"{folder.name}: {importers_of_state} import state.py at run time; only game.py may "
        "(use `if TYPE_CHECKING:` for type names)"
    )


# --- names: one concept, one name (docs/api.md) -----------------------------------------
API_DOCUMENT = GAMES_DIR.parents[1] / "docs" / "api.md"
NAMES_SECTION = "## Names: one concept, one name"


@dataclasses.dataclass(frozen=True)
class NameRow:
    """One row of docs/api.md's names table: what the module of every game must define."""

    concept: str
    module: str  # the module's name, without .py
    kind: str  # "class", "constant" or "function"
    name: str  # with <Name> standing for the game's title
    parameters: tuple[str, ...]  # a function's, in order
    applies: str  # "every game", "hidden information only" or "where the game has them"
    old: frozenset[str]  # the names it had before, which no module may define again


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (an escaped ``\\|`` stays inside its cell)."""
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _name_row(cells: list[str]) -> NameRow:
    concept, module, signature, was = cells
    first = re.findall(r"`([^`]+)`", signature)[0]
    if first.startswith("class "):
        kind, name, parameters = "class", first.removeprefix("class ").split("(")[0].strip(), ()
    elif "(" in first:
        found = re.match(r"(\w+)\(([^)]*)\)", first)
        assert found, f"docs/api.md, names table: cannot read the signature {first!r}"
        kind, name = "function", found.group(1)
        parameters = tuple(part.strip() for part in found.group(2).split(",") if part.strip())
    else:
        kind, name, parameters = "constant", first.split(":")[0].strip(), ()
    applies = next((rule for rule in ("hidden information only", "where the game has them") if rule in signature),
                   "every game")
    old = frozenset(code for code in re.findall(r"`([^`]+)`", was) if code.isidentifier())
    return NameRow(concept, module.strip("`").removesuffix(".py"), kind, name, parameters, applies, old)


def read_names_table(text: str) -> list[NameRow]:
    """The rows of the names table in docs/api.md's text."""
    section = text.split(NAMES_SECTION, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    return [_name_row(_cells(line)) for line in lines[2:]]  # after the header and its rule


NAMES = read_names_table(API_DOCUMENT.read_text(encoding="utf-8"))
#: each concept's function: (module, name, its parameters in order)
FUNCTIONS = tuple((row.module, row.name, row.parameters) for row in NAMES if row.kind == "function")
#: names the games used for these concepts before they shared one vocabulary
OLD_DIALECT = frozenset().union(*(row.old for row in NAMES))


def test_the_names_table_is_read_whole() -> None:
    # a change of the table's layout must fail here, not leave the checks below with nothing to check
    kinds = [row.kind for row in NAMES]
    assert kinds.count("class") == 4 and kinds.count("constant") == 1 and kinds.count("function") >= 10, NAMES
    assert ("moves", "parse_move_text", ("text",)) in FUNCTIONS
    assert ("view", "resample_state", ("state", "player", "rng")) in FUNCTIONS
    assert {"parse_notation", "ENDING_CODES", "hidden_codes", "seed_secrets"} <= OLD_DIALECT
    assert {row.applies for row in NAMES} == {"every game", "hidden information only", "where the game has them"}
    assert not {row.name for row in NAMES} & OLD_DIALECT


def _title(folder: Path) -> str:
    """The prefix of a game's class names: its id in title case (``towers`` -> ``Towers``)."""
    return "".join(part.title() for part in folder.name.split("_"))


def _module(folder: Path, name: str) -> ModuleType:
    return importlib.import_module(f"boardlab.games.{folder.name}.{name}")


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_the_classes_are_named_after_the_game(folder: Path) -> None:
    title = _title(folder)
    game = game_class(folder.name)
    assert game.__name__ == f"{title}Game" and game.__module__.endswith(".game"), game
    assert game.state_class.__name__ == f"{title}State" and issubclass(game.state_class, State)
    if game.state_class.__module__.endswith(".kernel"):
        # a state compiled with the core's State (docs/api.md) lives in its game's kernel and
        # state.py re-exports it; it applies, undoes and copies its own way, with no declaration
        assert vars(_module(folder, "state"))[f"{title}State"] is game.state_class
        assert game.state_class.state_fields is None
    else:
        assert game.state_class.__module__.endswith(".state")
        assert game.state_class.state_fields is not None, f"{title}State declares its fields (StateFields)"
    rules = getattr(_module(folder, "rules"), f"{title}Rules")
    assert game.rules_class is rules, f"{title}Game.rules_class is {title}Rules"
    assert game.action_encoding_class is getattr(_module(folder, "encoding"), f"{title}Actions")
    assert game.observation_encoding_class is getattr(_module(folder, "encoding"), f"{title}Observation")
    assert game.view_renderer is _module(folder, "render").render_view, "Game.view_renderer is render.render_view"
    if (folder / "render_image.py").exists():
        assert game.image_renderer is _module(folder, "render_image").render_png, "Game.image_renderer is render_png"
    position = getattr(_module(folder, "position"), f"{title}Position")
    assert dataclasses.is_dataclass(position) and position.__dataclass_params__.frozen, (
        f"{title}Position is a frozen dataclass: the parsed position, before any state exists"
    )


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_the_game_and_its_agents_are_declared_as_entry_points(folder: Path) -> None:
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["entry-points"]
    module = f"boardlab.games.{folder.name}"
    assert declared["boardlab.games"].get(folder.name) == f"{module}.game:{_title(folder)}Game", (
        f"pyproject.toml declares no entry point {folder.name} = \"{module}.game:{_title(folder)}Game\" "
        "in boardlab.games: the registry finds games only there"
    )
    if (folder / "agent.py").exists():
        agents = [value for name, value in inspect.getmembers(_module(folder, "agent"), inspect.isclass)
                  if issubclass(value, Agent) and value.__module__ == f"{module}.agent" and "name" in vars(value)]
        assert agents, f"{folder.name}/agent.py defines no agent"
        for agent in agents:
            assert declared["boardlab.agents"].get(agent.name) == f"{module}.agent:{agent.__name__}", (
                f"pyproject.toml does not declare the agent {agent.name!r} in boardlab.agents"
            )


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_rules_are_built_one_way(folder: Path) -> None:
    rules = getattr(_module(folder, "rules"), f"{_title(folder)}Rules")
    parameters = list(inspect.signature(rules.from_options).parameters)
    assert parameters == ["players", "options"], f"{rules.__name__}.from_options{tuple(parameters)}"
    game = game_class(folder.name)()
    assert isinstance(game.rules, rules)
    assert type(game).rules_class.from_options(game.num_players, game.options) == game.rules


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_the_ending_codes_are_one_declared_set(folder: Path) -> None:
    codes = _module(folder, "rules").RESULT_CODES
    assert isinstance(codes, tuple) and codes and len(set(codes)) == len(codes)
    assert all(isinstance(code, str) and code.isidentifier() for code in codes)
    assert game_class(folder.name).result_codes is codes, "Game.result_codes is rules.RESULT_CODES itself"
    for path in folder.glob("*.py"):
        if path.name != "rules.py":
            assert "RESULT_CODES =" not in path.read_text(), f"{path.name} declares ending codes: rules.py does"


def _applies(row: NameRow, folder: Path) -> bool:
    if row.applies == "hidden information only":
        return game_class(folder.name).has_hidden_information
    if row.applies == "where the game has them":
        return hasattr(_module(folder, row.module), row.name)
    return True


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
@pytest.mark.parametrize("row", NAMES, ids=lambda row: row.name.replace("<Name>", ""))
def test_each_concept_has_one_name_and_signature(folder: Path, row: NameRow) -> None:
    if not _applies(row, folder):
        return
    name = row.name.replace("<Name>", _title(folder))
    found = getattr(_module(folder, row.module), name, None)
    assert found is not None, f"{folder.name}/{row.module}.py has no {name} ({row.concept}; docs/api.md, 'Names')"
    if row.kind == "class":
        # (a state compiled with the core is defined in the game's kernel and re-exported)
        home = found.__module__ if isinstance(found, type) else ""
        assert home.endswith(f".{row.module}") or (row.module == "state" and home.endswith(".kernel")), found
    elif row.kind == "function":
        assert callable(found), f"{folder.name}/{row.module}.py: {name} is not a function"
        parameters = tuple(inspect.signature(found).parameters)
        assert parameters == row.parameters, (
            f"{folder.name}: {name}{parameters}, expected {name}{row.parameters} (docs/api.md, 'Names')"
        )


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_the_package_exports_the_vocabulary(folder: Path) -> None:
    title = _title(folder)
    package = importlib.import_module(f"boardlab.games.{folder.name}")
    expected = {f"{title}{kind}" for kind in ("Game", "State", "Rules", "Position")}
    expected |= {name for module, name, _ in FUNCTIONS if module != "view" and name != "parse_marks"} | {"RESULT_CODES"}
    missing = expected - set(package.__all__)
    assert not missing, f"boardlab.games.{folder.name} does not export {sorted(missing)}"
    assert issubclass(package.__dict__[f"{title}Game"], Game)


@pytest.mark.parametrize("folder", GAME_DIRS, ids=lambda p: p.name)
def test_no_module_keeps_an_old_name(folder: Path) -> None:
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text())
        defined = {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        defined |= {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets
                    if isinstance(t, ast.Name)}
        old = (defined | {path.stem}) & OLD_DIALECT
        assert not old, f"{folder.name}/{path.name}: {sorted(old)}; the vocabulary of docs/api.md names these otherwise"
