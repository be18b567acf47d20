"""The server's designers: who may use the Lab (and any other designers' page), and how a
request shows it.

* **The admin key.** ``boardlab serve`` reads it from ``DATA/admin.key`` or, on the first
  start, makes one there (192 random bits, the file readable by its owner only) and prints it
  once; ``--admin-key-file`` or ``BOARDLAB_ADMIN_KEY`` set it instead. At every start its hash
  is registered in the ``designers`` table as an admin.
* **Designer keys.** An admin issues further keys (``POST /api/designers``), each shown once;
  storage keeps only their SHA-256 hashes, in the database, so every process on one PostgreSQL
  knows the same designers. An admin revokes a key; a process notices within
  :data:`KEY_CACHE_SECONDS`.
* **This computer.** A server that listens on the loopback interface only, with no trusted
  proxy (``Settings.local_admin``, which ``boardlab serve`` sets), counts a browser on the same
  machine as its admin, so the README's first run needs no key: see :func:`is_local_request`
  for what such a request must look like (a proxy's request, or a web page of another origin
  driving the browser, does not pass).

A request carries a key in the ``X-Designer-Key`` header, or in the cookie that signing in on
the Lab page sets (``HttpOnly``, ``SameSite=Strict``: no other site's page sends it, no script
reads it). Never in ``Authorization``, which carries seat tokens, nor in an address.

Routes take the designer through :data:`DesignerOnly` or :data:`AdminOnly` (``Depends``):
a request without a key gets ``401 designer_key_missing`` saying how to sign in, an unknown or
revoked key ``403 bad_designer_key``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends
from sqlalchemy import and_, insert, select, update
from starlette.requests import HTTPConnection

from ..core.errors import OptionError
from .errors import AdminOnlyError, BadDesignerKeyError, DesignerKeyMissingError
from .rooms import hash_secret, new_secret
from .schemas import unstorable
from .storage import Storage
from .tables import designers

#: the admin key's file in the data folder
ADMIN_KEY_FILE = "admin.key"
#: the Lab page's sign-in cookie
SESSION_COOKIE = "boardlab_designer"
#: how long a key's lookup is trusted before storage is asked again (a revoked key's grace)
KEY_CACHE_SECONDS = 5.0
#: a given admin key shorter than this is refused (a guessable key would open the Lab)
MIN_KEY_LENGTH = 16
#: the headers a forwarding proxy adds: a request with one did not come from this computer's browser
FORWARDING_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host")
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
SIGN_IN_HELP = (
    "the Lab is for this server's designers: sign in on the Lab page with a designer key (the admin key "
    "that boardlab serve printed when it first started, kept in its data folder as admin.key, or a key "
    "an admin issued you), or send it as X-Designer-Key"
)


@dataclass(frozen=True)
class Designer:
    """Who a request is: ``id`` names them in the studies they own; an admin may do anything
    (issue keys, stop anyone's study). ``local``: this computer's browser (no key)."""

    id: str
    name: str
    admin: bool
    local: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "admin": self.admin, "local": self.local}


#: this computer's browser, on a server that listens on the loopback interface only
LOCAL_ADMIN = Designer("local", "this computer", admin=True, local=True)


def check_key(key: str, where: str) -> str:
    """``key`` stripped; OptionError when it is too short or holds what no key holds."""
    key = key.strip()
    if len(key) < MIN_KEY_LENGTH or unstorable(key) is not None or any(char.isspace() for char in key):
        raise OptionError(f"{where}: an admin key is at least {MIN_KEY_LENGTH} characters, with no spaces")
    return key


def admin_key(data_dir: Path, given: str | None = None) -> tuple[str, bool]:
    """The admin key and whether it was made now: ``given`` if set, else the one in
    ``data_dir/admin.key``, else a new one written there (readable by its owner only). Two
    processes starting at once on one folder end up with the same key."""
    if given is not None:
        return check_key(given, "the admin key given"), False
    path = Path(data_dir) / ADMIN_KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = new_secret()
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it first: read theirs
        else:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(key + "\n")
            return key, True
    return check_key(path.read_text(encoding="utf-8"), str(path)), False


class DesignerKeys:
    """The designers in storage, with a short cache of lookups (every Lab request asks)."""

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.monotonic) -> None:
        self.storage = storage
        self.clock = clock
        self._cache: dict[str, tuple[Designer | None, float]] = {}

    def register_admin(self, key: str) -> Designer:
        """Make ``key`` an admin's (again, if it was revoked: the admin key is the root)."""
        digest = hash_secret(key)
        designer_id = f"admin-{digest[:8]}"
        with self.storage.engine.begin() as conn:
            found = conn.execute(select(designers.c.id).where(designers.c.key_hash == digest)).scalar_one_or_none()
            if found is None:
                values = {"id": designer_id, "name": "admin", "key_hash": digest, "admin": True, "created": time.time()}
                conn.execute(insert(designers).values(**values))
            else:
                designer_id = found
                conn.execute(update(designers).where(designers.c.id == found).values(revoked=None, admin=True))
        self._cache.pop(digest, None)
        return Designer(designer_id, "admin", admin=True)

    def issue(self, name: str, admin: bool, by: Designer) -> tuple[Designer, str]:
        """A new designer and their key (shown once: storage keeps its hash)."""
        key = new_secret()
        designer = Designer(f"d-{new_secret()[:10]}", name, admin)
        values = {
            "id": designer.id, "name": name, "key_hash": hash_secret(key), "admin": admin, "created": time.time(),
            "created_by": by.id,
        }
        with self.storage.engine.begin() as conn:
            conn.execute(insert(designers).values(**values))
        return designer, key

    def find(self, key: str) -> Designer | None:
        """The designer whose key this is (None: no such key, or revoked)."""
        digest = hash_secret(key)
        now = self.clock()
        cached = self._cache.get(digest)
        if cached is not None and cached[1] > now:
            return cached[0]
        with self.storage.engine.connect() as conn:
            row = conn.execute(
                select(designers.c.id, designers.c.name, designers.c.admin).where(
                    and_(designers.c.key_hash == digest, designers.c.revoked.is_(None))
                )
            ).first()
        designer = None if row is None else Designer(row.id, row.name, bool(row.admin))
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[digest] = (designer, now + KEY_CACHE_SECONDS)
        return designer

    def listed(self) -> list[dict[str, Any]]:
        """Every designer, revoked ones included (never a key or its hash)."""
        with self.storage.engine.connect() as conn:
            rows = conn.execute(select(designers).order_by(designers.c.created)).mappings().all()
        return [
            {
                "id": row["id"], "name": row["name"], "admin": bool(row["admin"]), "created": row["created"],
                "created_by": row["created_by"], "revoked": row["revoked"],
            }
            for row in rows
        ]

    def revoke(self, designer_id: str) -> bool:
        """Revoke a designer's key; False when there is no such designer. The admin key itself
        is changed by replacing its file (it is registered again at every start)."""
        with self.storage.engine.begin() as conn:
            changed = conn.execute(
                update(designers)
                .where(and_(designers.c.id == designer_id, designers.c.created_by.is_not(None)))
                .values(revoked=time.time())
            ).rowcount
        self._cache.clear()
        return changed == 1


def _hostname(value: str) -> str:
    """The host of a ``Host`` or ``Origin`` value, without scheme, port or brackets."""
    value = value.strip().lower()
    if "://" in value:
        value = value.split("://", 1)[1]
    value = value.split("/", 1)[0]
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def is_local_request(connection: HTTPConnection) -> bool:
    """Whether the request comes from a browser on this computer: its peer is a loopback
    address, it names this computer as its host (a page of another site that resolved its name
    to 127.0.0.1 does not), it was not forwarded by a proxy, and no page of another origin sent it."""
    client = connection.client
    try:
        if client is None or not ipaddress.ip_address(client.host).is_loopback:
            return False
    except ValueError:
        return False
    headers = connection.headers
    if any(name in headers for name in FORWARDING_HEADERS):
        return False
    if _hostname(headers.get("host", "")) not in LOOPBACK_NAMES:
        return False
    origin = headers.get("origin")
    if origin is not None and _hostname(origin) not in LOOPBACK_NAMES:
        return False
    return headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")


def presented_key(connection: HTTPConnection) -> str | None:
    """The designer key a request carries: ``X-Designer-Key``, else the sign-in cookie."""
    key = connection.headers.get("x-designer-key") or connection.cookies.get(SESSION_COOKIE)
    return key.strip() if key and key.strip() else None


async def current_designer(connection: HTTPConnection) -> Designer | None:
    """The request's designer, or None (no key, not this computer); BadDesignerKeyError for
    a key that is nobody's."""
    key = presented_key(connection)
    if key is not None:
        keys: DesignerKeys = connection.app.state.designers
        designer = await asyncio.to_thread(keys.find, key) if unstorable(key) is None else None
        if designer is None:
            raise BadDesignerKeyError("this designer key is not valid on this server (unknown or revoked); sign in again")
        return designer
    if connection.app.state.settings.local_admin and is_local_request(connection):
        return LOCAL_ADMIN
    return None


async def require_designer(designer: Annotated[Designer | None, Depends(current_designer)]) -> Designer:
    """A route's dependency: the request's designer, or 401 saying how to sign in."""
    if designer is None:
        raise DesignerKeyMissingError(SIGN_IN_HELP)
    return designer


async def require_admin(designer: Annotated[Designer, Depends(require_designer)]) -> Designer:
    """A route's dependency: the request's designer if an admin, else 403."""
    if not designer.admin:
        raise AdminOnlyError(f"{designer.name} is a designer, not an admin: only an admin does this")
    return designer


#: what routes take (``designer: DesignerOnly``): the request's designer, required
DesignerOnly = Annotated[Designer, Depends(require_designer)]
#: the request's designer, required to be an admin
AdminOnly = Annotated[Designer, Depends(require_admin)]
#: the request's designer or None (pages that say how to sign in)
MaybeDesigner = Annotated[Designer | None, Depends(current_designer)]


__all__ = [
    "ADMIN_KEY_FILE",
    "LOCAL_ADMIN",
    "SESSION_COOKIE",
    "AdminOnly",
    "Designer",
    "DesignerKeys",
    "DesignerOnly",
    "MaybeDesigner",
    "admin_key",
    "current_designer",
    "is_local_request",
    "presented_key",
    "require_admin",
    "require_designer",
]
