"""Where the CPU goes in the measured loops of bench/speed.py, by kind of work (Linux ``perf``).

    python bench/time_split.py                                   # the rows docs/speed.md reports
    python bench/time_split.py --runs towers:random,towers:start --seconds 6 --json

Each run plays one of bench/speed.py's measurements in a process of its own under
``perf record`` (random play, or the ``mcts`` search from the start or from mid-game
positions) and sorts the samples by the function they fell in:

* **interpreter**: CPython's bytecode loop and what only interpreted code needs (frames,
  attribute and method lookup by name, Python-level calls): the part a compiler of the
  remaining Python code (the states' ``apply``, the protocol's glue, the bench's loop) could
  remove at best;
* **kernels**: the compiled kernels (mypyc's functions and helpers);
* **objects**: allocating, copying and freeing lists, tuples, dicts and numbers, which compiled
  code pays alike while the states are made of Python objects;
* **collector**: the cyclic garbage collector;
* **other**: the rest of CPython and the C library (hashing, comparisons, the random module).

The last column, ``1 / (1 - interpreter)``, is the most that removing the interpreter's share
entirely could multiply the rate by: an upper bound, since compiled glue still costs
something. Shares, unlike rates, hardly move with the machine's load; the rate is printed for
orientation only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: the rows docs/speed.md reports: Towers' random play and the four games' searches
DEFAULT_RUNS = (
    "towers:random", "towers:start", "towers:mid", "sovereign:start", "sovereign:mid",
    "overseer:start", "overseer:mid", "territories:start", "territories:mid",
)
MODES = ("random", "start", "mid")

#: symbol name fragments of each kind of work, checked in this order (the first match counts)
COLLECTOR = ("gc_collect", "visit_decref", "visit_reachable", "_traverse", "subtract_refs", "move_unreachable",
             "update_refs", "deduce_unreachable")
INTERPRETER = ("_PyEval", "initialize_locals", "_PyFrame_", "frame_dealloc", "_PyObject_GetMethod",
               "_PyType_Lookup", "_Py_dict_lookup", "unicodekeys_lookup", "GenericGetAttr", "PyObject_GetAttr",
               "_PyObject_LookupAttr", "_PyFunction_Vectorcall", "method_vectorcall", "_PyObject_MakeTpCall",
               "_PyObject_Call", "PyObject_Vectorcall", "member_get", "property_descr_get", "getset_get",
               "slot_tp_", "_PyThreadState_PushFrame", "_PyThreadState_PopFrame")
OBJECTS = ("alloc", "dealloc", "Malloc", "Free", "Realloc", "PyList_New", "list_copy", "list_resize", "PyList_Append",
           "PyTuple_New", "tuple_alloc", "list_slice", "PyTuple_GetSlice", "tupleconcat", "GC_UnTrack", "GC_Track",
           "NewReference", "PyFloat_From", "PyLong_From",
           "_PyLong_New", "dict_new", "new_keys_object", "PyDict_New", "insertdict", "PyDict_Copy")

#: the measured loop, run under perf in a child process; prints the rate
CHILD = """
import random, sys
sys.path.insert(0, {bench!r})
import speed
from boardlab.core.registry import game_class
game = game_class({game!r})()
if {mode!r} == "random":
    rate = speed.measure_random_play(game, {seconds}, random.Random(1))[0]
elif {mode!r} == "start":
    rate = speed.measure_mcts(game, "mcts", {seconds}, random.Random(2))[0]
else:
    positions = speed.sample_positions(game, 1.0, random.Random(3))
    rate = speed.measure_mid_game_mcts(game, "mcts", {seconds}, positions, random.Random(4))
print(rate)
"""


def kind_of(shared_object: str, symbol: str) -> str:
    if "mypyc" in shared_object or symbol.startswith("CPy"):
        return "kernels"
    for kind, fragments in (("collector", COLLECTOR), ("interpreter", INTERPRETER), ("objects", OBJECTS)):
        if any(fragment in symbol for fragment in fragments):
            return kind
    return "other"


REPORT_LINE = re.compile(r"\s*([\d.]+)%\s+(\S+)\s+\[.\]\s+(\S+)")


def split(report: str) -> dict[str, float]:
    """Per kind of work, the percentage of samples in ``perf report --sort dso,sym`` output."""
    shares = dict.fromkeys(("interpreter", "kernels", "objects", "collector", "other"), 0.0)
    for line in report.splitlines():
        match = REPORT_LINE.match(line)
        if match:
            shares[kind_of(match.group(2), match.group(3))] += float(match.group(1))
    return shares


def measure(game: str, mode: str, seconds: float, workdir: Path) -> dict[str, object]:
    data = workdir / f"{game}-{mode}.data"
    child = CHILD.format(bench=str(Path(__file__).resolve().parent), game=game, mode=mode, seconds=seconds)
    recorded = subprocess.run(
        ["perf", "record", "-q", "-F", "1999", "-o", str(data), sys.executable, "-c", child],
        capture_output=True, text=True, check=False,
    )
    if recorded.returncode != 0:
        raise SystemExit(f"perf record failed for {game}:{mode}: {recorded.stderr.strip()[-500:]}")
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--no-children", "--sort", "dso,sym", "-g", "none", "--stdio"],
        capture_output=True, text=True, check=True,
    ).stdout
    shares = split(report)
    interpreter = shares["interpreter"] / 100
    return {
        "game": game, "mode": mode, "rate": float(recorded.stdout.strip().splitlines()[-1]),
        "shares": {kind: round(value, 1) for kind, value in shares.items()},
        "bound": round(1 / (1 - interpreter), 2) if interpreter < 1 else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", default=",".join(DEFAULT_RUNS), help="GAME:MODE,... with MODE random, start or mid")
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds each measurement runs (default 6)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if shutil.which("perf") is None:
        raise SystemExit("this bench needs Linux perf (the linux-perf package) on the PATH")
    runs = []
    for run in args.runs.split(","):
        game, _, mode = run.partition(":")
        if mode not in MODES:
            raise SystemExit(f"{run!r}: expected GAME:MODE with MODE one of {', '.join(MODES)}")
        runs.append((game, mode))
    with tempfile.TemporaryDirectory() as workdir:
        rows = [measure(game, mode, args.seconds, Path(workdir)) for game, mode in runs]
    if args.json:
        print(json.dumps({"load": os.getloadavg(), "rows": rows}, indent=1))
        return
    print("| game | loop | rate (/s) | interpreter | kernels | objects | collector | other | 1 / (1 - interpreter) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        shares = row["shares"]
        assert isinstance(shares, dict)
        cells = " | ".join(f"{shares[kind]:.1f}%" for kind in ("interpreter", "kernels", "objects", "collector", "other"))
        print(f"| {row['game']} | {row['mode']} | {row['rate']:,.0f} | {cells} | {row['bound']}x |")
    print(f"load average at the end: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
