"""Which kernels run compiled, and the switch that runs them all as pure Python.

The kernels are the modules named ``kernel.py`` under ``boardlab/``; the build compiles each
with mypyc into an extension beside it (setup.py, docs/speed.md). Python would import the
extension in preference to the ``.py``. :func:`install`, which ``boardlab/__init__.py`` calls
first, puts a finder ahead of the normal import that imports the ``.py`` instead when

* ``BOARDLAB_PURE=1`` is set (for every kernel: debugging, the differential test), or
* the kernel's sources changed since the build (an edited checkout; one warning per kernel,
  naming it). The build records the SHA-256 of each kernel and of the boardlab modules it
  imports in ``kernels-built.json``; an extension without a record (compiled by hand with
  ``python -m mypyc``) is stale when its ``.py`` is newer. The kernels compiled in one group
  with the core's State (setup.py) are recorded with the sources of the whole group, so they
  run compiled or pure together: a pure State under a compiled subclass would be two classes.

:func:`kernels` reports each kernel's state and :func:`summary` the line ``boardlab
--version`` prints. Standard library only: the core must import without anything else.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

PURE_VARIABLE = "BOARDLAB_PURE"
PACKAGE = Path(__file__).resolve().parent
#: what the build writes beside this module (setup.py's BUILD_RECORD)
BUILD_RECORD = PACKAGE / "kernels-built.json"
#: the record's entry for the C optimisation level of the build (setup.py's OPT_LEVEL_KEY), and
#: the level of a build that names none
OPT_LEVEL_KEY = "-O"
DEFAULT_OPT_LEVEL = "3"
KERNEL_STEM = "kernel"
#: folders of the package that hold no Python modules
_NOT_MODULES = {"__pycache__", "static", "templates", "web"}


class StaleKernelWarning(UserWarning):
    """A kernel's compiled extension is older than its source: the source runs instead."""


def pure_forced() -> bool:
    """Whether ``BOARDLAB_PURE`` asks for pure Python (set and not empty or 0)."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


@dataclass(frozen=True)
class Kernel:
    """One kernel: its module, source, extension (if built) and whether it runs compiled."""

    module: str
    source: Path
    extension: Path | None
    compiled: bool
    #: why it runs pure: "BOARDLAB_PURE=1", "not compiled" or "edited since the build"
    reason: str = ""


def extension_beside(source: Path) -> Path | None:
    """The compiled extension built from ``source`` for this interpreter, if there is one."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.is_file():
            return candidate
    return None


def _build_record() -> dict[str, Any]:
    try:
        record = json.loads(BUILD_RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def built_opt_level() -> str:
    """The C optimisation level the kernels were compiled at (``BOARDLAB_OPT_LEVEL`` at build
    time): ``"3"`` unless the build record says otherwise."""
    level = _build_record().get(OPT_LEVEL_KEY)
    return level if isinstance(level, str) and level else DEFAULT_OPT_LEVEL


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def is_stale(module: str, source: Path, extension: Path) -> bool:
    """Whether ``extension`` was built from other sources than those here now."""
    recorded = _build_record().get(module)
    if isinstance(recorded, dict) and recorded:
        return any(_digest(PACKAGE / name) != digest for name, digest in recorded.items())
    return source.stat().st_mtime > extension.stat().st_mtime


def _pure_reason(module: str, source: Path, extension: Path | None) -> str:
    """Why the kernel runs as its ``.py`` (empty: it runs compiled)."""
    if pure_forced():
        return f"{PURE_VARIABLE}=1"
    if extension is None:
        return "not compiled"
    if is_stale(module, source, extension):
        return "edited since the build"
    return ""


def _module_name(source: Path) -> str:
    return ".".join((PACKAGE.name, *source.relative_to(PACKAGE).with_suffix("").parts))


def kernel_sources() -> list[Path]:
    """Every ``kernel.py`` of the package, sorted by path."""
    found: list[Path] = []
    for folder, subfolders, files in os.walk(PACKAGE):
        subfolders[:] = sorted(name for name in subfolders if name not in _NOT_MODULES)
        if f"{KERNEL_STEM}.py" in files:
            found.append(Path(folder) / f"{KERNEL_STEM}.py")
    return sorted(found)


def kernels() -> list[Kernel]:
    """Every kernel and how it runs: as imported, or as it would be imported now."""
    report: list[Kernel] = []
    for source in kernel_sources():
        module = _module_name(source)
        extension = extension_beside(source)
        loaded = sys.modules.get(module)
        if loaded is not None and getattr(loaded, "__file__", None):
            compiled = not str(loaded.__file__).endswith(".py")
            reason = "" if compiled else (_pure_reason(module, source, extension) or "imported from source")
        else:
            reason = _pure_reason(module, source, extension)
            compiled = not reason
        report.append(Kernel(module, source, extension, compiled, reason))
    return report


def summary(report: Sequence[Kernel] | None = None) -> str:
    """``compiled: 6 of 6 kernels``, ``pure Python: BOARDLAB_PURE=1``, ``pure Python: not
    compiled``, or ``compiled: 5 of 6 kernels; pure: boardlab.games.sovereign.kernel (edited since the build)``;
    a build at another level than -O3 says so (``compiled at -O0, slower than the default -O3: 6 of 6 kernels``)."""
    report = kernels() if report is None else list(report)
    if not report:
        return "pure Python: no kernels"
    compiled = [kernel for kernel in report if kernel.compiled]
    reasons = {kernel.reason for kernel in report}
    if not compiled and len(reasons) == 1 and reasons <= {f"{PURE_VARIABLE}=1", "not compiled"}:
        return f"pure Python: {reasons.pop()}"
    level = built_opt_level()
    # a build at a lower level (for checking what ships, not for play) is slower, and says so
    built = "compiled" if level == DEFAULT_OPT_LEVEL else f"compiled at -O{level}, slower than the default -O{DEFAULT_OPT_LEVEL}"
    line = f"{built}: {len(compiled)} of {len(report)} kernels"
    pure = [f"{kernel.module} ({kernel.reason})" for kernel in report if not kernel.compiled]
    return f"{line}; pure: {', '.join(pure)}" if pure else line


def pure_source(kernel: ModuleType) -> ModuleType:
    """``kernel``'s ``.py`` executed as plain Python under a private name, whether or not the
    imported ``kernel`` runs compiled: what a test holds the imported kernel to, in one process."""
    source = Path(kernel.__file__ or "").with_name(f"{KERNEL_STEM}.py")
    spec = importlib.util.spec_from_file_location(f"{kernel.__name__}_pure_source", source)
    if spec is None or spec.loader is None:
        raise ImportError(f"no Python source beside {kernel.__name__} ({source})")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class PureKernelFinder(MetaPathFinder):
    """Imports a kernel's ``.py`` where its extension must not run (pure forced, or stale)."""

    def __init__(self) -> None:
        self.warned: set[str] = set()

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not (fullname.startswith(f"{PACKAGE.name}.") and fullname.rpartition(".")[2] == KERNEL_STEM):
            return None
        for folder in path or ():
            source = Path(folder) / f"{KERNEL_STEM}.py"
            if not source.is_file():
                continue
            extension = extension_beside(source)
            if extension is None:
                return None  # the normal import finds the .py
            if pure_forced():
                return importlib.util.spec_from_file_location(fullname, source)
            if is_stale(fullname, source, extension):
                self._warn_stale(fullname, source)
                return importlib.util.spec_from_file_location(fullname, source)
            return None
        return None

    def _warn_stale(self, fullname: str, source: Path) -> None:
        if fullname in self.warned:
            return
        self.warned.add(fullname)
        warnings.warn(
            f"{source} changed since it was compiled: running it as pure Python (slower). "
            'Re-run the install (pip install -e ".[dev]") to compile it again.',
            StaleKernelWarning,
            stacklevel=1,  # the importer's frame lies behind importlib's, at no fixed depth
        )


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, PureKernelFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, PureKernelFinder())
