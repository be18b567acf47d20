"""The game server (``boardlab serve``): online rooms for every registered game, through the
protocol and the match driver only. Needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy,
psycopg). See docs/server.md.

``create_app`` and ``Settings`` load on first use: the command line reads the settings' defaults
for its help on every run, and must not import the web framework to do so."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .settings import Settings


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Settings", "create_app"]
