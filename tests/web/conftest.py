"""Fixtures of the browser tests: one ``boardlab serve`` and one Chromium for the session, a
fresh browser context (its own storage: a different person) per test.

Chromium comes from Debian (``.ci/run`` installs it); Playwright drives it through
``executable_path`` and never downloads a browser. CI fails without it; elsewhere the
browser tests are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# starlette's test client asks for httpx2; httpx (the web extra's) works the same for it
warnings.filterwarnings("ignore", message=".*install `httpx2`.*")

import tests.server.harness  # noqa: E402,F401  (imported here, under the filter above)
from tests.web.browser import CHROMIUM_FLAGS, SCREENSHOTS, Server, chromium_path, serving  # noqa: E402

#: how long a page may take for one step on a busy two-core machine
STEP_MS = 20_000
#: a browser test that fails runs once more (pytest-rerunfailures), as Playwright's own test
#: runner retries on CI: a page's timing on a loaded machine is not the product's behaviour. A
#: rerun is an "R" in the progress line and named under "rerun test summary info" (-raR in
#: pyproject.toml); failing twice fails the run
RERUNS = 1
#: the xdist group of the browser tests: one worker runs them all, with one server and one Chromium
BROWSER_GROUP = "browser"


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.flaky(reruns=RERUNS, reruns_delay=2))
            item.add_marker(pytest.mark.xdist_group(BROWSER_GROUP))


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: .ci/run installs Debian's chromium and the browser extra")
    pytest.skip(f"{reason}: the browser tests are skipped here")


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("serve")) as server:
        yield server


# package scope: Playwright's sync API keeps an event loop running in this thread until it
# stops, so tests that follow the browser's (asyncio.run) must find it stopped
@pytest.fixture(scope="package")
def chromium() -> Iterator[Any]:
    executable = chromium_path()
    if executable is None:
        _missing("Chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed (pip install -e '.[browser]')")
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
    try:
        yield browser
    finally:
        browser.close()
        playwright.stop()


@pytest.fixture
def new_page(chromium: Any, web_server: Server) -> Iterator[Callable[[], Any]]:
    """Open pages, each in a browser context of its own (two contexts: two people). A page's
    script errors, and anything its Content-Security-Policy blocks, fail the test."""
    contexts = []
    errors: list[str] = []

    def open_page(viewport: dict[str, int] | None = None, **options: Any) -> Any:
        """``viewport`` (a desktop's 1280 x 900 by default) and the context's other ``options``
        (a phone's ``is_mobile=True, has_touch=True``)."""
        context = chromium.new_context(viewport=viewport or {"width": 1280, "height": 900}, base_url=web_server.url, **options)
        context.set_default_timeout(STEP_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        # what the Content-Security-Policy blocks is only reported on the console
        page.on("console", lambda message: _blocked(message, errors))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"errors in the page's scripts: {errors}"


def _blocked(message: Any, errors: list[str]) -> None:
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(message.text)


@pytest.fixture
def page(new_page: Callable[[], Any]) -> Any:
    return new_page()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# --- axe-core ---------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
# axe-core (Deque's automated accessibility checks), from the npm registry: installed by the
# fixture below (``npm install`` into the ignored ``.cache/`` folder, once) and injected by
# Playwright into each page; never copied into the repository
#: the axe-core release the checks were written against (its rules change between releases)
AXE_VERSION = "4.14.1"
AXE_FOLDER = ROOT / ".cache" / "web-tests"
AXE_SCRIPT = AXE_FOLDER / "node_modules" / "axe-core" / "axe.min.js"

RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": " + n.failureSummary.replace(/\\s+/g, " ").slice(0, 160)),
  }));
}"""


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: the accessibility checks need npm to fetch axe-core")
    pytest.skip(f"{reason}: the accessibility checks are skipped here")


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe.min.js, installed from the npm registry on first use (a few seconds) and kept in
    ``.cache/web-tests`` (ignored by git) for later runs."""
    if not AXE_SCRIPT.exists() or f'"version": "{AXE_VERSION}"' not in (AXE_SCRIPT.parent / "package.json").read_text():
        npm = shutil.which("npm")
        if npm is None:
            _unavailable("npm is not installed")
        AXE_FOLDER.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--prefix", str(AXE_FOLDER), "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
             f"axe-core@{AXE_VERSION}"],
            capture_output=True, text=True, timeout=300,
        )
        if done.returncode != 0 or not AXE_SCRIPT.exists():
            _unavailable(f"npm install axe-core@{AXE_VERSION} failed: {done.stderr.strip()[-300:]}")
    return AXE_SCRIPT


def assert_no_serious_violations(page: Any, what: str) -> None:
    violations = page.evaluate(RUN_AXE)
    serious = [v for v in violations if v["impact"] in ("serious", "critical")]
    lines = [f"{v['impact']} {v['id']} ({v['help']}): " + "; ".join(v["nodes"]) for v in serious]
    assert not serious, f"axe-core on {what}:\n" + "\n".join(lines)
