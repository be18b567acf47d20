"""``boardlab serve``: run the game server (FastAPI under uvicorn) until interrupted."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import os
import signal
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

from .common import CliError

if TYPE_CHECKING:
    from ..server.collector import LongLivedFreezer

#: how long an idle HTTP connection stays open: long enough for a player's next move to reuse
#: it, short enough that idle connections do not pile up towards --max-connections
KEEP_ALIVE_SECONDS = 30
#: connections (and requests in progress) uvicorn serves at once; beyond it answers 503
MAX_CONNECTIONS = 2000
#: how long a request's head (its line and headers) may take to arrive, from its first byte
HEADER_SECONDS = 10.0
#: the environment variable that may hold the designers' admin key
ADMIN_KEY_VARIABLE = "BOARDLAB_ADMIN_KEY"
#: how often the garbage collector scans the whole heap again (server/collector.py): the
#: cycles that became garbage after they were frozen wait this long to be freed
GC_RESCAN_SECONDS = 600.0


def _defaults() -> Any:
    """The server's default settings, for the flags' defaults and help. Without the web extra
    there are none to show (serving then stops with the extra's name anyway)."""
    try:
        from ..server.settings import Settings
    except ImportError:
        return _NoDefaults()
    return Settings(rules_dir=None)


def _durabilities() -> tuple[tuple[str, ...] | None, str | None]:
    """The storage's durabilities and the default one (none to show without the web extra)."""
    try:
        from ..server.settings import DEFAULT_DURABILITY, DURABILITIES
    except ImportError:
        return None, None
    return DURABILITIES, DEFAULT_DURABILITY


class _NoDefaults:
    def __getattr__(self, name: str) -> Any:
        return None


def hold_sqlite_file(url: str) -> IO[str] | None:
    """Make sure this is the only ``boardlab serve`` on a SQLite file: an exclusive lock on a
    ``.lock`` file beside it, held while the process lives (the returned file; the system
    releases it when the process ends, even by SIGKILL). A second process would keep rooms
    in memory that the first one changes behind its back: several processes need PostgreSQL.
    None for PostgreSQL, an in-memory database, or a system without ``fcntl``."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    try:
        import fcntl
    except ImportError:  # not POSIX: no such lock, and the documentation's word must do
        return None
    path = Path(parsed.database)
    path.parent.mkdir(parents=True, exist_ok=True)
    # held open for the life of the process: the lock lasts as long as the file stays open
    holder = open(f"{path}.lock", "a+", encoding="utf-8")  # noqa: SIM115
    try:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder.seek(0)
        other = holder.read().strip() or "unknown"
        holder.close()
        raise CliError(
            f"another boardlab serve (process {other}) already serves the SQLite file {path}: SQLite serves "
            "one process. Stop it, give this one another --data-dir, or run every process on one "
            "PostgreSQL (--database-url postgresql://...) to serve from several"
        ) from None
    holder.seek(0)
    holder.truncate()
    holder.write(f"{os.getpid()}\n")
    holder.flush()
    return holder


def add_serve_parser(commands: Any) -> None:
    serve = commands.add_parser(
        "serve", help="run the game server: online rooms, the computer as an opponent (needs boardlab[web])"
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)"
    )
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--database-url",
        metavar="URL",
        help="postgresql://USER:PASSWORD@HOST/DB for a shared deployment (default: a SQLite file in --data-dir)",
    )
    serve.add_argument(
        "--data-dir", default="boardlab-data", metavar="DIR", help="where the SQLite file lives (default ./boardlab-data)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=max(1, min(4, os.cpu_count() or 1)),
        help="processes the computer thinks in (default: the cores, at most 4)",
    )
    fair = _defaults()
    serve.add_argument(
        "--max-computer-only-rooms",
        type=int,
        default=fair.max_computer_only_rooms,
        metavar="N",
        help=f"rooms of computers only playing at once; more are refused (default {fair.max_computer_only_rooms})",
    )
    serve.add_argument(
        "--max-computer-only-rooms-per-address",
        type=int,
        default=fair.max_computer_only_rooms_per_address,
        metavar="N",
        help=f"of those, what one client address may have playing (0: no share) "
        f"(default {fair.max_computer_only_rooms_per_address})",
    )
    serve.add_argument(
        "--unwatched-computer-room-seconds",
        type=float,
        default=fair.unwatched_computer_room_seconds,
        metavar="S",
        help="a room of computers only that nobody watched or asked for this long stops and leaves memory; "
        f"its next visitor resumes it (0: it plays on to its end) (default {fair.unwatched_computer_room_seconds:g})",
    )
    serve.add_argument(
        "--max-queued-searches",
        type=int,
        default=fair.max_queued_searches,
        metavar="N",
        help=f"searches waiting for a worker beyond which a computers-only room is refused (default {fair.max_queued_searches})",
    )
    serve.add_argument(
        "--max-queued-per-address",
        type=int,
        default=fair.max_queued_per_address,
        metavar="N",
        help=f"one client address's decisions waiting for the computer; an action that would queue more is "
        f"refused until they are answered (0: no bound) (default {fair.max_queued_per_address})",
    )
    serve.add_argument(
        "--max-spectators-per-room",
        type=int,
        default=fair.max_spectators_per_room,
        metavar="N",
        help=f"spectators on one room's WebSocket at once; its players are always let in (0: no cap) "
        f"(default {fair.max_spectators_per_room})",
    )
    serve.add_argument(
        "--min-move-seconds",
        type=float,
        default=fair.min_move_seconds,
        metavar="S",
        help=f"the shortest clock a room may ask for (default {fair.min_move_seconds} s)",
    )
    for name, attribute, what in (
        ("--rooms-per-minute", "rooms_per_minute", "new rooms per client address per minute"),
        ("--rooms-per-day", "rooms_per_day", "new rooms per client address in a day"),
        ("--moves-per-minute", "moves_per_minute", "moves and other actions in rooms per client address per minute"),
        ("--websockets-per-minute", "websockets_per_minute", "new WebSockets per client address per minute"),
        ("--messages-per-minute", "messages_per_minute", "messages on its WebSockets together per client address per minute"),
        ("--messages-per-socket-per-minute", "messages_per_socket_per_minute", "messages on one WebSocket per minute"),
        ("--analyses-per-minute", "analyses_per_minute", "requests for a finished game's analysis per client address per minute"),
        ("--reads-per-minute", "reads_per_minute", "other readings (listings, lessons, pages) per client address per minute"),
        ("--max-open-per-address", "max_open_per_address", "connections one client address holds open at once"),
    ):
        default = getattr(fair, attribute)
        serve.add_argument(name, type=int, default=default, metavar="N", help=f"{what}; 0: no limit (default {default})")
    serve.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="a reverse proxy's address: requests from it are counted against the last X-Forwarded-For entry "
        "(repeatable; default none)",
    )
    serve.add_argument(
        "--idle-room-seconds",
        type=float,
        default=fair.idle_room_seconds,
        metavar="S",
        help=f"a room unused this long leaves memory (storage keeps it; 0: never) (default {fair.idle_room_seconds})",
    )
    serve.add_argument(
        "--body-seconds",
        type=float,
        default=fair.body_seconds,
        metavar="S",
        help=f"a request body must be all sent within S seconds, else 408 (0: no limit) (default {fair.body_seconds})",
    )
    serve.add_argument(
        "--keep-alive-seconds",
        type=float,
        default=KEEP_ALIVE_SECONDS,
        metavar="S",
        help=f"how long an idle HTTP connection stays open (default {KEEP_ALIVE_SECONDS})",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help=f"connections served at once, beyond which the answer is 503 (default {MAX_CONNECTIONS})",
    )
    serve.add_argument(
        "--header-seconds",
        type=float,
        default=HEADER_SECONDS,
        metavar="S",
        help=f"a request's head must be all sent within S seconds of its first byte, else 408 "
        f"(default {HEADER_SECONDS:g})",
    )
    durabilities, default_durability = _durabilities()
    serve.add_argument(
        "--durability",
        choices=durabilities,
        default=default_durability,
        help="what an acknowledged move survives: a crash of the machine (each commit waits for the disk) "
        "or of the server process only (commits do not wait; a machine crash can lose the last moment's "
        "moves) (default machine; docs/server.md, Storage)",
    )
    serve.add_argument(
        "--gc-rescan-seconds",
        type=float,
        default=GC_RESCAN_SECONDS,
        metavar="S",
        help="the garbage collector's full passes skip what survived the last one, and scan the whole "
        f"heap again every S seconds (default {GC_RESCAN_SECONDS:.0f}; docs/server.md, Load)",
    )
    serve.add_argument(
        "--admin-key-file",
        metavar="FILE",
        help="the designers' admin key, read from FILE (or BOARDLAB_ADMIN_KEY; default: DATA/admin.key, "
        "made and printed once on the first start)",
    )
    serve.add_argument(
        "--no-local-admin",
        action="store_true",
        help="ask for a designer key on this computer too (by default a server on 127.0.0.1 without a trusted "
        "proxy opens its Lab to a browser on the same machine without one)",
    )
    lab_shares = (
        ("--lab-games-per-designer", "lab_games_per_designer", int, "N", "games one designer's queued Lab studies may ask"),
        ("--lab-cpu-minutes-per-designer", "lab_cpu_minutes_per_designer", float, "M",
         "CPU minutes one designer's queued Lab studies may cost, priced by their agents' budgets"),
        ("--lab-decision-seconds", "lab_decision_seconds", float, "S",
         "the CPU one decision of a Lab study may take; an agent priced higher is refused"),
    )
    for name, attribute, kind, metavar, what in lab_shares:
        default = getattr(fair, attribute)
        serve.add_argument(name, type=kind, default=default, metavar=metavar, help=f"{what} (default {default})")
    serve.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"], help="server log level")


def serve_command(args: argparse.Namespace, out: Console, err: Console) -> int:
    try:
        import uvicorn

        from ..server import Settings, create_app
        from ..server.designers import ADMIN_KEY_FILE
        from ..server.front import ConnectionGuard, guarded_protocols
        from ..server.storage import Storage
    except ImportError as exc:
        raise CliError(f"boardlab serve needs the web extra ({exc.name} is missing): pip install 'boardlab[web]'") from None
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: a port is 0..65535")
    if args.workers < 1:
        raise CliError(f"--workers {args.workers}: the computer needs at least one process")
    counts = {
        "--max-computer-only-rooms": args.max_computer_only_rooms,
        "--max-computer-only-rooms-per-address": args.max_computer_only_rooms_per_address,
        "--max-queued-searches": args.max_queued_searches,
        "--max-queued-per-address": args.max_queued_per_address,
        "--max-spectators-per-room": args.max_spectators_per_room,
        "--rooms-per-minute": args.rooms_per_minute,
        "--rooms-per-day": args.rooms_per_day,
        "--moves-per-minute": args.moves_per_minute,
        "--websockets-per-minute": args.websockets_per_minute,
        "--messages-per-minute": args.messages_per_minute,
        "--messages-per-socket-per-minute": args.messages_per_socket_per_minute,
        "--analyses-per-minute": args.analyses_per_minute,
        "--reads-per-minute": args.reads_per_minute,
        "--max-open-per-address": args.max_open_per_address,
    }
    for flag, value in counts.items():
        if value < 0:
            raise CliError(f"{flag} {value}: a count is 0 or more")
    if not args.min_move_seconds >= 0:
        raise CliError(f"--min-move-seconds {args.min_move_seconds}: seconds are 0 or more")
    if not args.body_seconds >= 0:
        raise CliError(f"--body-seconds {args.body_seconds}: seconds are 0 or more")
    if not args.idle_room_seconds >= 0:
        raise CliError(f"--idle-room-seconds {args.idle_room_seconds}: seconds are 0 or more")
    if not args.unwatched_computer_room_seconds >= 0:
        raise CliError(f"--unwatched-computer-room-seconds {args.unwatched_computer_room_seconds}: seconds are 0 or more")
    if not args.gc_rescan_seconds > 0:
        raise CliError(f"--gc-rescan-seconds {args.gc_rescan_seconds}: seconds are more than 0")
    if not args.keep_alive_seconds > 0 or args.max_connections < 1 or not args.header_seconds > 0:
        raise CliError("--keep-alive-seconds, --header-seconds and --max-connections are more than 0")
    if args.lab_games_per_designer < 1 or not args.lab_cpu_minutes_per_designer > 0 or not args.lab_decision_seconds > 0:
        raise CliError("--lab-games-per-designer, --lab-cpu-minutes-per-designer and --lab-decision-seconds are more than 0")
    data_dir = Path(args.data_dir).expanduser()
    key, made = _admin_key(data_dir, args.admin_key_file)
    local_admin = serves_this_computer_only(args.host, args.trusted_proxy) and not args.no_local_admin
    settings = Settings(
        data_dir=data_dir,
        admin_key=key,
        local_admin=local_admin,
        lab_games_per_designer=args.lab_games_per_designer,
        lab_cpu_minutes_per_designer=args.lab_cpu_minutes_per_designer,
        lab_decision_seconds=args.lab_decision_seconds,
        database_url=args.database_url,
        computer_workers=args.workers,
        max_computer_only_rooms=args.max_computer_only_rooms,
        max_computer_only_rooms_per_address=args.max_computer_only_rooms_per_address,
        unwatched_computer_room_seconds=args.unwatched_computer_room_seconds,
        max_queued_searches=args.max_queued_searches,
        max_queued_per_address=args.max_queued_per_address,
        max_spectators_per_room=args.max_spectators_per_room,
        min_move_seconds=args.min_move_seconds,
        rooms_per_minute=args.rooms_per_minute,
        rooms_per_day=args.rooms_per_day,
        moves_per_minute=args.moves_per_minute,
        websockets_per_minute=args.websockets_per_minute,
        messages_per_minute=args.messages_per_minute,
        messages_per_socket_per_minute=args.messages_per_socket_per_minute,
        analyses_per_minute=args.analyses_per_minute,
        reads_per_minute=args.reads_per_minute,
        max_open_per_address=args.max_open_per_address,
        trusted_proxies=tuple(args.trusted_proxy),
        idle_room_seconds=args.idle_room_seconds,
        body_seconds=args.body_seconds,
    )
    url = settings.storage_url()  # a URL of the wrong kind is an OptionError naming the kinds
    sqlite_lock = hold_sqlite_file(url)  # noqa: F841 (held until the process ends)
    try:
        storage = Storage(url, durability=args.durability)
    except Exception as exc:  # the database's own error says best what is wrong (no server, bad password ...)
        raise CliError(f"cannot open the database: {exc}") from None
    app = create_app(settings, storage)
    shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    out.print(f"boardlab serves at [bold]http://{escape(shown_host)}:{args.port}/[/bold]  (API: /docs)")
    out.print(f"data: {escape(storage.describe())}; Ctrl-C stops it", highlight=False)
    lab = f"http://{escape(shown_host)}:{args.port}/lab"
    if local_admin:
        out.print(f"the Lab: {lab} (a browser on this computer needs no key)", highlight=False)
    else:
        out.print(f"the Lab: {lab} (designers sign in with a key)", highlight=False)
    if made:
        where = escape(str(data_dir / ADMIN_KEY_FILE))
        out.print(f"the designers' admin key, shown this once (kept in {where}): [bold]{key}[/bold]", highlight=False)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    freeze_what_was_loaded(args.gc_rescan_seconds)
    # connections are counted and timed where they are accepted (server/front.py): per address,
    # in all, idle and half-sent heads, every refusal JSON with Retry-After
    guard = ConnectionGuard(
        max_per_address=args.max_open_per_address,
        max_total=args.max_connections,
        exempt=frozenset(args.trusted_proxy),
        idle_seconds=args.keep_alive_seconds,
        head_seconds=args.header_seconds,
    )
    http, ws = guarded_protocols(guard)
    raise_open_files_limit()
    signal.signal(signal.SIGTERM, _exit_on_terminate)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        http=http,
        ws=ws,
        ws_max_size=settings.max_body_bytes,
        # a player's connection idles while the others think: keep it open rather than
        # make every move open a new one (uvicorn's default closes it after 5 s)
        timeout_keep_alive=args.keep_alive_seconds,
        # the server reads X-Forwarded-For itself, and only from --trusted-proxy (uvicorn's own
        # reading would trust 127.0.0.1 and rewrite the peer's address before the limits see it)
        proxy_headers=False,
    )
    return 0


def _exit_on_terminate(signum: int, frame: object) -> None:
    """SIGTERM (``docker stop``, a service manager) ends the server as Ctrl-C does. uvicorn
    stops gracefully on it, then sends the signal to the process again, to the handler that was
    there before: the default one would kill the process at once, before the interpreter's exit
    shuts the computer's pool down (its queues' semaphores then show as leaked). This one makes
    it a plain exit, with status 0, as after Ctrl-C."""
    raise SystemExit(0)


def serves_this_computer_only(host: str, trusted_proxies: list[str]) -> bool:
    """Whether a server on ``--host`` with these ``--trusted-proxy`` entries answers only this
    computer's own browsers: it listens on the loopback interface only, and no proxy passes
    other people's requests on to it (then its Lab needs no key here: designers.py)."""
    if trusted_proxies:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _admin_key(data_dir: Path, key_file: str | None) -> tuple[str, bool]:
    """The admin key (``--admin-key-file``, ``BOARDLAB_ADMIN_KEY``, or the data folder's) and
    whether it was made now; CliError naming a file that cannot be read or a key too short."""
    from ..server.designers import ADMIN_KEY_FILE, admin_key

    given = os.environ.get(ADMIN_KEY_VARIABLE)
    if key_file is not None:
        try:
            given = Path(key_file).expanduser().read_text(encoding="utf-8")
        except OSError as exc:
            raise CliError(f"--admin-key-file {key_file}: {exc.strerror}") from None
    try:
        return admin_key(data_dir, given)
    except (OSError, ValueError) as exc:
        raise CliError(f"the admin key ({ADMIN_KEY_FILE}): {exc}") from None


def raise_open_files_limit() -> None:
    """Let this process hold as many files as the system allows it (the soft limit up to the
    hard one): every connection is one, and a server out of them stops accepting anybody's."""
    try:
        import resource
    except ImportError:  # not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))


def freeze_what_was_loaded(rescan_seconds: float = GC_RESCAN_SECONDS) -> LongLivedFreezer:
    """Load every game (its modules and tables, imported on first use otherwise), then take
    what is loaded, and from then on what survives each full collection, out of the cyclic
    garbage collector's full passes: a full pass over a busy server's heap stopped every room
    for 100 to 230 ms, the largest part of a move's 99th-percentile latency (docs/server.md,
    Load). The whole heap is scanned again every ``rescan_seconds`` (server/collector.py)."""
    from ..core.registry import game_ids, load
    from ..server.collector import LongLivedFreezer

    for game_id in game_ids():
        load(game_id)
    freezer = LongLivedFreezer(rescan_seconds)
    freezer.install()
    return freezer


__all__ = ["add_serve_parser", "freeze_what_was_loaded", "serve_command"]
