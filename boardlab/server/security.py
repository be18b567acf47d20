"""For a server that may face the open internet: the headers every answer carries, and
secrets kept out of the addresses the logs print.

The pages load only their own scripts (``static/js``, the games' ``web/`` folders), so
scripts are ``'self'`` only. Styles allow inline attributes: the renderers colour seat chips
and cards with ``style="..."``, and a stylesheet cannot be injected through them without a
script. FastAPI's own API pages (``/docs``, ``/redoc``) load Swagger UI and ReDoc from a CDN
with an inline starter script, so they get a policy of their own.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
API_DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com "
    "https://cdn.redoc.ly; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "frame-ancestors 'none'"
)
#: a page's address can hold an invite code (``/rooms/R?invite=CODE``): it is never sent on
REFERRER_POLICY = "no-referrer"
#: the API pages FastAPI serves (with their CDN scripts)
API_DOCS_PATHS = ("/docs", "/redoc")


def security_headers(path: str) -> dict[str, str]:
    """The headers an answer for ``path`` carries."""
    docs = any(path == prefix or path.startswith(prefix + "/") for prefix in API_DOCS_PATHS)
    return {
        "Content-Security-Policy": API_DOCS_POLICY if docs else PAGE_POLICY,
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": REFERRER_POLICY,
    }


class SecurityHeaders:
    """ASGI middleware: :func:`security_headers` on every HTTP answer, refusals included (a
    route's own header of the same name wins)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("path", ""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: secrets that can reach an address: an invite code (a page's ``?invite=``) and a seat token
#: from an older client (``?token=``, which the WebSocket refuses: the log line comes first),
#: whatever the case or percent-encoding of the name (``?Token=``, ``?%74oken=``)
SECRET_PARAMETERS = frozenset({"token", "invite"})
#: a query parameter in a logged address: its separator, name and value
QUERY_PARAMETER = re.compile(r"([?&;])([^=&;?\s\"']+)=([^&;\s\"']*)")
#: the loggers that print request addresses (uvicorn's access log, and its WebSocket lines)
ADDRESS_LOGGERS = ("uvicorn.access", "uvicorn.error")


def parameter_name(raw: str) -> str:
    """A query parameter's name as a server reads it: percent-decoded (however many times it
    was encoded), without case."""
    name = raw
    for _ in range(3):
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    return name.strip().lower()


#: a secret in a JSON message that a log line shows (the WebSocket library logs every frame at
#: debug level: an ``auth`` message holds a seat token), cut short or not
SECRET_FIELD = re.compile(r"""((?:\\?["'])(?:token|invite|code|key)(?:\\?["'])\s*:\s*(?:\\?["']))[^"'\\]*""", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with the secrets of an address's query and of a JSON message hidden."""

    def hide(found: re.Match[str]) -> str:
        if parameter_name(found.group(2)) in SECRET_PARAMETERS:
            return f"{found.group(1)}{found.group(2)}=[hidden]"
        return found.group(0)

    return SECRET_FIELD.sub(r"\1[hidden]", QUERY_PARAMETER.sub(hide, text))


class RedactSecrets(logging.Filter):
    """Hide secrets in the addresses a log record carries. The arguments are edited in place
    rather than the record formatted here: uvicorn's access formatter unpacks them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: redact(arg) if isinstance(arg, str) else arg for key, arg in record.args.items()}
        return True


def _redacted(arg: object) -> object:
    """A log record's argument with its secrets hidden: text, and any object shown as text (a
    WebSocket frame); numbers and None stay as they are, for the formats that need them."""
    if isinstance(arg, str):
        return redact(arg)
    if arg is None or isinstance(arg, (int, float)):
        return arg
    return redact(str(arg))


def hide_secrets_in_logs() -> None:
    """Put :class:`RedactSecrets` on the loggers that print addresses (once; after the server
    configured its logging, which would otherwise replace them)."""
    for name in ADDRESS_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactSecrets) for existing in logger.filters):
            logger.addFilter(RedactSecrets())


__all__ = ["SECRET_PARAMETERS", "RedactSecrets", "SecurityHeaders", "hide_secrets_in_logs", "redact", "security_headers"]
