"""A real PostgreSQL for the tests, started in a temporary folder and thrown away after.

``initdb`` makes a cluster there and ``pg_ctl`` starts it on a free port of the loopback
interface, with its socket in the same folder, so nothing on the machine is touched.
PostgreSQL refuses to run as root: when the tests run as root (CI does) the cluster is
made and run by an unprivileged user (``postgres``, which Debian's package creates, else
``nobody``) that owns the folder.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import psycopg

#: where Debian's postgresql packages put the server programs (one folder per major version)
DEBIAN_PREFIX = Path("/usr/lib/postgresql")
USER = "boardlab"
DATABASE = "boardlab_tests"


def server_programs() -> Path | None:
    """The folder with initdb, pg_ctl and postgres: the newest Debian version, else PATH."""
    def major(path: Path) -> int:
        match = re.match(r"\d+", path.parent.parent.name)
        return int(match.group()) if match else 0

    found = sorted(DEBIAN_PREFIX.glob("*/bin/initdb"), key=major)
    if found:
        return found[-1].parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _unprivileged_user() -> pwd.struct_passwd | None:
    """Who runs the cluster: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root, and neither a 'postgres' nor a 'nobody' user exists to run PostgreSQL")


class TemporaryPostgres:
    """``start()`` returns the URL of a fresh, empty database; ``stop()`` removes everything."""

    def __init__(self, programs: Path, durable: bool = False) -> None:
        """``durable``: flush every commit to disk as a real deployment does (the tests
        turn it off: a throwaway database need not survive the machine)."""
        self.programs = programs
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="boardlab-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = _unprivileged_user()
        if self.user is not None:
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        self.started = False

    def _run(self, *command: str | os.PathLike[str]) -> None:
        options: dict[str, Any] = {}
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
        if self.user is not None:
            options = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
            env["HOME"] = str(self.root)
        completed = subprocess.run(
            [str(part) for part in command], cwd=self.root, env=env, capture_output=True, text=True, timeout=120, **options
        )
        if completed.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{Path(command[0]).name} failed: {completed.stderr.strip() or completed.stdout.strip()}\n{tail}")

    def start(self) -> str:
        self._run(self.programs / "initdb", "-D", self.data, "-U", USER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
        server_options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:
            server_options += " -c fsync=off"
        self._run(
            self.programs / "pg_ctl", "-D", self.data, "-l", self.root / "server.log",
            "-w", "-t", "60", "-o", server_options, "start",
        )
        self.started = True
        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        return self.url

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def stop(self) -> None:
        try:
            if self.started:
                self._run(self.programs / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def empty_postgres(url: str) -> str:
    """``url`` with the server's tables dropped (the app makes them again)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "DROP TABLE IF EXISTS computer_leases, moves, seats, room_players, playtest_answers, rooms, designers, "
            "playtest_sessions, players"
        )
    return url


__all__ = ["TemporaryPostgres", "empty_postgres", "server_programs"]
