"""The server's settings: one frozen value made by ``boardlab serve`` (or a test) and injected.

Nothing in the server reads the environment or a global; :func:`create_app` takes a
:class:`Settings` and everything else is built from it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import OptionError
from .web import find_rules_dir

#: request bodies larger than this are refused before they are parsed (a move is a few bytes)
MAX_BODY_BYTES = 64 * 1024
#: the SQLite file inside the data folder
SQLITE_FILE = "boardlab.sqlite3"
#: where the browser pages live (docs/web.md); served at ``/`` when present
STATIC_DIR = Path(__file__).parent / "static"


#: what an acknowledged change survives: a crash of the ``machine`` (or a power cut), or only
#: of the server ``process``, in exchange for commits that do not wait for the disk (storage.py)
DURABILITIES = ("machine", "process")
DEFAULT_DURABILITY = "machine"


#: a room's seed: Honor publishes a SHA-256 commitment to its 256-bit seed (rule 11.5), which
#: is only as strong as the seed; storage keeps seeds of any size (storage.py, ``seed_text``)
SEED_BITS = 256


def _new_seed() -> int:
    return secrets.randbits(SEED_BITS)


@dataclass(frozen=True)
class Settings:
    """How one server runs.

    ``database_url`` selects the storage: None keeps a SQLite file in ``data_dir``;
    ``postgresql://...`` (or ``postgresql+psycopg://...``) uses PostgreSQL through psycopg 3.
    ``computer_workers`` is the size of the process pool the computer thinks in; 0 thinks
    in threads instead (tests: no process start-up, the same code path otherwise).
    ``think_grace_seconds`` is added to a level's think time before the server gives up on
    a search and plays a fallback move. ``static_dir`` holds the browser pages (None: the API
    only); ``rules_dir`` the rules documents the pages show (default: the checkout's
    docs/rules, else the installed copy; None: none). ``seed_source`` and ``clock`` are
    injected by tests.

    Fairness (docs/server.md, "Deployment"): ``max_computer_only_rooms`` rooms of computers
    only may play at once, ``max_computer_only_rooms_per_address`` of them for one client
    address, and a new one is refused beyond either, or while more than
    ``max_queued_searches`` searches wait for a worker; one that nobody has watched or asked
    for in ``unwatched_computer_room_seconds`` stops thinking and leaves memory (its next
    visitor resumes it, within the same limits); a clock under ``min_move_seconds`` is refused.

    Limits per client address (0: none): ``rooms_per_minute`` new rooms, and ``rooms_per_day``
    of them in a day (storage keeps every room; counted in storage as well, for every process
    on it),
    ``moves_per_minute`` actions in rooms (moves, undo, resign, draw, hint, join),
    ``websockets_per_minute`` new WebSockets, ``messages_per_minute`` messages on its
    WebSockets together (each socket besides at most ``messages_per_socket_per_minute``),
    ``analyses_per_minute`` requests for a game's
    analysis, ``reads_per_minute`` every other reading (a listing, a lesson, a page, a file),
    ``max_open_per_address`` requests and
    WebSockets open at once. ``trusted_proxies``: peers whose ``X-Forwarded-For`` (its last
    entry) names the client.

    Designers (designers.py): ``admin_key``, ``local_admin``; the Lab's share per designer:
    ``lab_games_per_designer``, ``lab_cpu_minutes_per_designer``, ``lab_decision_seconds``.

    ``idle_room_seconds``: a room nobody has used for that long (unwatched, no computer
    thinking, no clock running) leaves memory and is loaded again on first use; start-up loads
    only the unfinished rooms changed within it (0: rooms stay, and start-up loads them all).
    """

    data_dir: Path = Path("boardlab-data")
    database_url: str | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    computer_workers: int = 2
    think_grace_seconds: float = 5.0
    static_dir: Path | None = STATIC_DIR
    rules_dir: Path | None = field(default_factory=find_rules_dir)
    rooms_listed: int = 100
    max_computer_only_rooms: int = 4
    #: of those, what one client address may have playing (0: no share, only the cap above)
    max_computer_only_rooms_per_address: int = 1
    #: a room of computers only that nobody watched or asked for this long stops thinking and
    #: leaves memory, giving its place back (0: such rooms play on to their end)
    unwatched_computer_room_seconds: float = 120.0
    max_queued_searches: int = 200
    #: searches one client address may have waiting for the computer; an action that would
    #: queue another is refused (429) until they are answered (0: no bound)
    max_queued_per_address: int = 16
    #: spectators one room's WebSocket may have at once; its players are always let in (0: no cap)
    max_spectators_per_room: int = 200
    min_move_seconds: float = 5.0
    rooms_per_minute: int = 20
    rooms_per_day: int = 300
    moves_per_minute: int = 240
    websockets_per_minute: int = 60
    messages_per_minute: int = 600
    messages_per_socket_per_minute: int = 30
    analyses_per_minute: int = 12
    reads_per_minute: int = 600
    max_open_per_address: int = 64
    trusted_proxies: tuple[str, ...] = ()
    idle_room_seconds: float = 900.0
    #: a request body not all sent within this many seconds is refused (0: no limit)
    body_seconds: float = 10.0
    #: the admin key (None: the one in ``data_dir/admin.key``, made there on the first start)
    admin_key: str | None = field(default=None, repr=False, compare=False)
    #: a browser on this computer is the admin without a key (designers.py; ``boardlab serve``
    #: sets it when it listens on the loopback interface only, with no trusted proxy)
    local_admin: bool = False
    #: per designer: the games and the CPU their queued Lab studies may ask; the most CPU one
    #: decision of a Lab study may take (labprice.py)
    lab_games_per_designer: int = 2400
    lab_cpu_minutes_per_designer: float = 240.0
    lab_decision_seconds: float = 10.0
    seed_source: Callable[[], int] = field(default=_new_seed, compare=False)
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)

    def storage_url(self) -> str:
        """The SQLAlchemy URL: the SQLite file in ``data_dir`` by default; PostgreSQL URLs are
        given the psycopg 3 driver when they name none."""
        if self.database_url is None:
            return f"sqlite:///{(self.data_dir / SQLITE_FILE).resolve()}"
        return normalize_database_url(self.database_url)


def normalize_database_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://`` (psycopg 3);
    ``sqlite:///`` passes; anything else is refused with OptionError naming what is accepted."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise OptionError(f"--database-url {url!r}: expected postgresql://USER@HOST/DB or sqlite:///FILE")
    scheme = scheme.lower()
    if scheme in ("postgresql", "postgres", "postgresql+psycopg"):
        return f"postgresql+psycopg://{rest}"
    if scheme == "sqlite":
        return url
    raise OptionError(
        f"--database-url: the scheme {scheme!r} is not supported; use postgresql://... (psycopg 3) or sqlite:///FILE"
    )


__all__ = ["MAX_BODY_BYTES", "SEED_BITS", "STATIC_DIR", "Settings", "normalize_database_url"]
