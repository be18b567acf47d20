"""The example plugin package (tests/plugin_game) installed for these tests only (see site.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugins.site import PEBBLES_PROJECT, install_project, installed


@pytest.fixture(scope="session")
def pebbles_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding an installation of boardlab-pebbles (made once per run)."""
    site = tmp_path_factory.mktemp("pebbles-site")
    install_project(PEBBLES_PROJECT, site)
    return site


@pytest.fixture
def pebbles(pebbles_site: Path) -> Iterator[Path]:
    """boardlab-pebbles installed in this interpreter for one test; yields its site folder."""
    with installed(pebbles_site):
        yield pebbles_site
