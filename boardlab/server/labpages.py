"""A study's report page, rendered once per version of its ``report.json`` and kept: drawing
it (tables and matplotlib's plots: docs/lab.md says its cost) takes CPU in a thread that
holds the interpreter's lock while it draws, so a designer reloading the page would slow every
room's requests on the same process. A report changes only when its study plays more games
(the file is written anew), so a kept page is keyed by the file's modification time and size.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

#: how many studies' report pages are kept (a page is HTML with its plots inline as SVG)
PAGES_KEPT = 16


class ReportPages:
    """The latest report pages drawn, each for one version of its study's ``report.json``."""

    def __init__(self, kept: int = PAGES_KEPT) -> None:
        self.kept = kept
        self._pages: OrderedDict[str, tuple[tuple[int, int], str]] = OrderedDict()
        self._lock = threading.Lock()
        #: how many pages were drawn (not served from those kept): what the tests count
        self.drawn = 0

    def page(self, study_id: str, report_file: Path, draw: Callable[[str], str]) -> str:
        """The page of ``report_file`` (``draw`` makes it from the file's text), drawn again
        only when the file changed since it was last drawn. OSError when the file is unreadable."""
        stat = report_file.stat()
        version = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            kept = self._pages.get(study_id)
            if kept is not None and kept[0] == version:
                self._pages.move_to_end(study_id)
                return kept[1]
        page = draw(report_file.read_text(encoding="utf-8"))
        with self._lock:
            self.drawn += 1
            self._pages[study_id] = (version, page)
            self._pages.move_to_end(study_id)
            while len(self._pages) > self.kept:
                self._pages.popitem(last=False)
        return page

    def forget(self, study_id: str) -> None:
        """Drop a deleted study's page."""
        with self._lock:
            self._pages.pop(study_id, None)
