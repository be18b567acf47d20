"""bench/time_split.py sorts perf's samples into kinds of work (perf itself is not needed here)."""

from __future__ import annotations

import pytest

from tests.support.bench import load_bench

time_split = load_bench("time_split")

#: the shape of `perf report --no-children --sort dso,sym -g none --stdio`
REPORT = """\
# Samples: 9K of event 'cpu-clock:pppH'
#
    25.25%  libpython3.11.so.1.0                           [.] _PyEval_EvalFrameDefault
    13.17%  kernel__mypyc.cpython-311-x86_64-linux-gnu.so  [.] CPyDef_boardlab___games___towers___kernel___legal_moves
     5.46%  kernel__mypyc.cpython-311-x86_64-linux-gnu.so  [.] CPyList_GetItem
     3.77%  libpython3.11.so.1.0                           [.] list_dealloc
     2.81%  libpython3.11.so.1.0                           [.] _Py_dict_lookup
     3.90%  libpython3.11.so.1.0                           [.] gc_collect_main
     1.69%  libpython3.11.so.1.0                           [.] visit_decref
     0.62%  libpython3.11.so.1.0                           [.] tuplehash
     0.44%  libpython3.11.so.1.0                           [.] _PyEvalFramePushAndInit
"""


def test_samples_are_sorted_by_kind_of_work() -> None:
    shares = time_split.split(REPORT)
    assert shares["interpreter"] == pytest.approx(25.25 + 2.81 + 0.44)
    assert shares["kernels"] == pytest.approx(13.17 + 5.46)
    assert shares["objects"] == pytest.approx(3.77)
    assert shares["collector"] == pytest.approx(3.90 + 1.69)
    assert shares["other"] == pytest.approx(0.62)


def test_a_kernel_helper_outside_the_kernel_library_still_counts_as_kernel_work() -> None:
    # mypyc's runtime helpers (CPy*) may be inlined or linked anywhere; CPython's own object
    # work counts as objects
    assert time_split.kind_of("libpython3.11.so.1.0", "CPyTagged_Add") == "kernels"
    assert time_split.kind_of("libpython3.11.so.1.0", "list_dealloc") == "objects"
