"""An install that left the kernels uncompiled (no C compiler) is said once, at the start of every
``boardlab`` command, where the person sees it (pip shows the build's warning only with -v);
not when pure Python was asked for, nor when the kernels run compiled."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab import compiled
from boardlab.cli import main


def kernels(reason: str) -> list[compiled.Kernel]:
    return [compiled.Kernel(f"boardlab.games.g{i}.kernel", Path(f"g{i}/kernel.py"), None, not reason, reason) for i in range(5)]


@pytest.mark.parametrize(("reason", "warned"), [("not compiled", True), ("BOARDLAB_PURE=1", False), ("", False)])
def test_uncompiled_kernels_are_said_once_at_the_start(
    reason: str, warned: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(compiled, "kernels", lambda: kernels(reason))
    assert main(["games"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert err.count("kernels are not compiled") == (1 if warned else 0), err
    if warned:
        assert "5 of 5 kernels are not compiled" in err and "gcc" in err
