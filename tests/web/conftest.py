"""Fixtures of the browser tests: one ``boardlab serve`` and one Chromium for the session, a
fresh browser context (its own storage: a different person) per test.

Chromium comes from Debian (``.ci/run`` installs it); Playwright drives it through
``executable_path`` and never downloads a browser. CI fails without it; elsewhere the
browser tests are skipped with the reason.
"""

from __future__ import annotations

import os
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
#: rerun is listed in the summary ("R", and "rerun" in -ra's lines); failing twice fails the run
RERUNS = 1


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.flaky(reruns=RERUNS, reruns_delay=2))


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

    def open_page() -> Any:
        context = chromium.new_context(viewport={"width": 1280, "height": 900}, base_url=web_server.url)
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
