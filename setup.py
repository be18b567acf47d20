"""Build boardlab, compiling its kernels with mypyc (the metadata is in pyproject.toml).

The modules compiled are exactly the files named ``kernel.py`` under ``boardlab/``: flat,
fully typed functions that mypyc turns into C extensions placed beside the ``.py``, which
stays in the package as the one source of the rules (``boardlab.compiled`` falls back to
it). Both ``pip install -e .`` and ``pip wheel .`` compile them.

* ``BOARDLAB_PURE=1`` at build time: nothing is compiled.
* ``BOARDLAB_OPT_LEVEL=0`` (1, 2; 3 when unset): the C compiler's optimisation level for the
  kernels. 0 builds faster and runs them much slower (docs/speed.md has the figures): for a
  build that checks what ships, not how fast (the wheel's tests).
* No mypyc, or no working C compiler: the install goes on in pure Python, with a warning.
* A kernel that fails mypy's check fails the build with mypy's messages: that is a bug.

A successful build also writes ``boardlab/kernels-built.json``: the SHA-256 of each
compiled kernel's source and of the boardlab modules it imports (mypyc inlines their
``Final`` constants), so that the runtime can tell an extension built from other sources.

The core's kernel (``boardlab/core/kernel.py``, the ``State`` base class) and every kernel that
imports it (a game whose state class is compiled, the search) are compiled as one group, into
one shared library: mypyc builds a native class that derives from a native class of another
group without running its constructor (mypyc 2.4), and the group's members call each other's
methods directly. A group is stale as a whole: the record of each member names the sources of
all of them.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

ROOT = Path(__file__).resolve().parent
PACKAGE = "boardlab"
KERNEL_FILE = "kernel.py"
#: written beside the package's modules; boardlab.compiled reads it
BUILD_RECORD = "kernels-built.json"
PURE_VARIABLE = "BOARDLAB_PURE"
OPT_LEVEL_VARIABLE = "BOARDLAB_OPT_LEVEL"
OPT_LEVELS = ("0", "1", "2", "3")
DEFAULT_OPT_LEVEL = "3"
#: the build record's entry for the level the kernels were compiled at (boardlab.compiled reads it)
OPT_LEVEL_KEY = "-O"
#: the commands that build no code (pip runs them to read the project's metadata)
METADATA_COMMANDS = {"egg_info", "dist_info", "sdist"}
#: mypy options for the kernels: the team's convention (``mypy --strict --follow-imports=silent``)
MYPY_OPTIONS = ["--strict", "--follow-imports=silent"]
#: the extensions mypyc made of the kernels in this build process, by level and kernels: setuptools
#: finalizes build_ext more than once in one build (an editable install first lists the sources
#: for its manifest), and translating the kernels again would double mypyc's part of the build
TRANSLATED: dict[tuple[str, tuple[str, ...]], list[Extension]] = {}
#: run in a child interpreter: mypyc's translation, its extensions pickled to the file named on
#: the command line. The child ends with os._exit: a normal exit tears down mypy's graph of every
#: module it read, which is slow (docs/speed.md).
TRANSLATE_IN_CHILD = """
import os, pickle, sys
request = pickle.load(sys.stdin.buffer)
sys.path[:] = request["path"]
from mypyc.build import mypycify
try:
    extensions = mypycify(request["args"], opt_level=request["opt_level"], separate=request["separate"],
                          target_dir=request["target_dir"])
    status = 0
except SystemExit as exc:
    status = exc.code if isinstance(exc.code, int) else 1
else:
    with open(sys.argv[1], "wb") as out:
        pickle.dump(extensions, out)
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
"""


def pure_requested() -> bool:
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def opt_level() -> str:
    """The C optimisation level the kernels are compiled at: ``BOARDLAB_OPT_LEVEL``, else the default."""
    level = os.environ.get(OPT_LEVEL_VARIABLE, "").strip() or DEFAULT_OPT_LEVEL
    if level not in OPT_LEVELS:
        allowed = ", ".join(OPT_LEVELS)
        raise SystemExit(f"boardlab: {OPT_LEVEL_VARIABLE}={level!r} is not an optimisation level; use one of {allowed}")
    return level


def kernel_paths() -> list[str]:
    """Every ``boardlab/**/kernel.py``, relative to the project root, sorted."""
    return sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / PACKAGE).rglob(KERNEL_FILE)
        if "__pycache__" not in path.parts
    )


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


#: the core's kernel: the State base class that compiled game states derive from
CORE_KERNEL = f"{PACKAGE}/core/{KERNEL_FILE}"
#: the name of the shared library of the core's kernel and those that import it
NATIVE_GROUP = f"{PACKAGE}.native"
#: the modules through which a kernel reaches the core's State
STATE_MODULES = (f"{PACKAGE}/core/state.py", CORE_KERNEL, f"{PACKAGE}/core/progress.py")


def native_group(paths: list[str]) -> list[str]:
    """The kernels compiled together with the core's: itself and every kernel that imports it
    (through boardlab.core.state or .progress); empty when there is no core kernel."""
    if CORE_KERNEL not in paths:
        return []
    return [path for path in paths if path == CORE_KERNEL or set(imported_sources(path)) & set(STATE_MODULES)]


def imported_sources(path: str) -> list[str]:
    """The kernel and the boardlab modules it imports directly, as paths relative to the root."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)
    package = module_name(path).split(".")[:-1]
    targets: list[list[str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.extend(alias.name.split(".") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            targets.append(module)
            # `from . import board` names a module, `from .board import SIZE` a constant
            targets.extend([*module, alias.name] for alias in node.names)
    found = {path}
    for parts in targets:
        if not parts or parts[0] != PACKAGE:
            continue
        for candidate in (ROOT.joinpath(*parts).with_suffix(".py"), ROOT.joinpath(*parts, "__init__.py")):
            if candidate.is_file():
                found.add(candidate.relative_to(ROOT).as_posix())
    return sorted(found)


def build_record(paths: list[str]) -> dict[str, dict[str, str]]:
    """Per compiled kernel module: SHA-256 of each source it was compiled from (paths
    relative to the package folder); a member of the native group names the sources of all
    its members, so that an edit to any of them makes the whole group stale."""
    group = native_group(paths)
    group_sources = sorted({source for path in group for source in imported_sources(path)})
    record: dict[str, dict[str, str]] = {}
    for path in paths:
        record[module_name(path)] = {
            source.removeprefix(f"{PACKAGE}/"): hashlib.sha256((ROOT / source).read_bytes()).hexdigest()
            for source in (group_sources if path in group else imported_sources(path))
        }
    return record


def warn(message: str) -> None:
    # pip shows a build's output only with -v; `boardlab --version` says what runs in any case
    print(f"\nWARNING (boardlab): {message}\n", file=sys.stderr, flush=True)


class BuildKernels(build_ext):
    """build_ext that compiles the kernels with mypyc when the build runs (not when setup.py
    is read for metadata), and falls back to pure Python where they cannot be compiled."""

    def finalize_options(self) -> None:
        # mypyc's extensions must be in place before setuptools prepares each one here
        self.set_undefined_options("build", ("build_temp", "build_temp"))
        self.kernels = kernel_paths()
        if set(self.distribution.commands) <= METADATA_COMMANDS:
            # pip's metadata steps finalize this command too (to list the sources), in processes
            # of their own before the build: no need to check and translate the kernels there
            self.pure_reason: str | None = "only the metadata is built"
        else:
            self.pure_reason = self._generate_c()
        super().finalize_options()

    def _generate_c(self) -> str | None:
        """Type-check the kernels and write their C; the reason they stay pure Python, if so."""
        if not self.kernels:
            return "there are no kernels"
        if pure_requested():
            return f"{PURE_VARIABLE} is set"
        if importlib.util.find_spec("mypyc") is None:
            warn("mypyc is not installed; the kernels run as pure Python (slower). Install mypy and reinstall.")
            return "mypyc is not installed"
        level = opt_level()
        translated = TRANSLATED.get((level, tuple(self.kernels)))
        if translated is None:
            translated = TRANSLATED[level, tuple(self.kernels)] = self._translate(level)
        self.distribution.ext_modules = copy.deepcopy(translated)
        return None

    def _translate(self, level: str) -> list[Extension]:
        """mypyc's extensions of the kernels, translated in a child interpreter."""
        # the generated C and mypy's cache stay together: mypyc skips writing C it finds cached
        target = os.path.join(self.build_temp, "mypyc")
        print(f"boardlab: compiling {len(self.kernels)} kernels with mypyc at -O{level}: {', '.join(self.kernels)}")
        group = native_group(self.kernels)
        request = {
            "path": sys.path,
            "args": [*MYPY_OPTIONS, f"--cache-dir={os.path.join(target, 'mypy-cache')}", *self.kernels],
            "opt_level": level,
            # the native group shares one library; every other kernel has its own pair of
            # extensions in its own package folder
            "separate": [(group, NATIVE_GROUP)] if group else True,
            "target_dir": target,
        }
        sys.stdout.flush()
        with tempfile.TemporaryDirectory() as scratch:
            result = Path(scratch) / "extensions.pickle"
            child = subprocess.run(
                [sys.executable, "-c", TRANSLATE_IN_CHILD, str(result)], input=pickle.dumps(request), check=False
            )
            if child.returncode != 0:
                raise SystemExit(
                    f"boardlab: mypyc could not translate the kernels (its messages above; exit status "
                    f"{child.returncode}). A kernel must pass `mypy {' '.join(MYPY_OPTIONS)}`: fix it."
                )
            extensions: list[Extension] = pickle.loads(result.read_bytes())
        return extensions

    def run(self) -> None:
        if self.pure_reason is not None:
            print(f"boardlab: the kernels are not compiled ({self.pure_reason}): pure Python")
            self._build_nothing()
            return
        self.parallel = self.parallel or True  # one compiler per core: each kernel is its own C file
        editable = self.inplace
        try:
            super().run()
        except (CCompilerError, BaseError) as exc:
            self._remove_built()
            self.inplace = editable  # setuptools leaves it off when the build raises
            warn(
                f"compiling the kernels failed ({type(exc).__name__}: {exc}); they run as pure Python "
                "(slower). Install a C compiler and the Python headers (gcc, python3-dev) and reinstall."
            )
            self._build_nothing()
            return
        self._write_record({**build_record(self.kernels), OPT_LEVEL_KEY: opt_level()})
        if self.inplace:
            self._remove_ungrouped_libraries()

    def _remove_ungrouped_libraries(self) -> None:
        """A kernel of the native group is built into the group's library: the library of its own
        that a build from before it joined the group left beside it is removed (never loaded)."""
        for path in native_group(self.kernels):
            for built in (ROOT / path).parent.iterdir():
                if built.name.split(".")[0] == "kernel__mypyc" and any(
                    built.name.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
                ):
                    print(f"boardlab: removing {built.relative_to(ROOT)} (built before the kernel joined {NATIVE_GROUP})")
                    built.unlink()

    def _record_path(self) -> Path:
        return (ROOT if self.inplace else Path(self.build_lib)) / PACKAGE / BUILD_RECORD

    def _write_record(self, record: dict[str, dict[str, str] | str]) -> None:
        where = self._record_path()
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")

    def _remove_built(self) -> None:
        """Remove what a failed build left (a kernel's stub without its library would not import)."""
        for extension in self.extensions:
            Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)

    def _build_nothing(self) -> None:
        """No extensions; in an editable install, also remove those of an earlier build from the
        source tree, which would otherwise still be imported."""
        self.extensions = []
        if not self.inplace:
            return
        self._record_path().unlink(missing_ok=True)
        group_library = NATIVE_GROUP.rpartition(".")[2] + "__mypyc"
        for folder in sorted({(ROOT / path).parent for path in self.kernels} | {ROOT / PACKAGE}):
            for built in folder.iterdir():
                stem = built.name.split(".")[0]
                if stem in ("kernel", "kernel__mypyc", group_library) and any(
                    built.name.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
                ):
                    print(f"boardlab: removing {built.relative_to(ROOT)} (an earlier build's)")
                    built.unlink()


# Named placeholders until BuildKernels replaces them with mypyc's extensions: they make
# setuptools run build_ext and give the wheel its platform tag.
setup(
    ext_modules=[Extension(module_name(path), sources=[path]) for path in kernel_paths()],
    cmdclass={"build_ext": BuildKernels},
)
