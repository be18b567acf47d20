"""The game server (``boardlab serve``): online rooms for every registered game, through the
protocol and the match driver only. Needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy,
psycopg). See docs/server.md."""

from .app import create_app
from .settings import Settings

__all__ = ["Settings", "create_app"]
