"""Who a learner is on a class server: a random id in a cookie signed with the server's secret, never a URL.

The cookie is set by the server itself (IdentityCookie, an ASGI middleware in front of Streamlit) on the first
page load, HttpOnly, so a page's scripts cannot read or change it; the app reads it back from the websocket's
handshake (st.context.cookies) and trusts only a value whose signature is right. A second tab, a reload or another
page of the same browser is the same learner; another device gets there with the learner's resume code
(/resume?code=..., which sets the cookie for that learner).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from agent_core.serving import mode as serving

COOKIE = "lab_learner"
COOKIE_MAX_AGE_S = 365 * 24 * 3600
RESUME_PATH = "/resume"
LEARNER_ID = re.compile(r"[0-9a-f]{16}")
_SIGNATURE_HEX = 32
SECRET_FILE = "runs-secret"  # beside the runs database, made once, readable by its owner only

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_learner_id() -> str:
    return secrets.token_hex(8)


def server_secret() -> bytes:
    """$AGENT_LOOP_LAB_SECRET, else the secret file beside the database (made on first use; every worker on this
    machine reads the same one). Several machines sharing a PostgreSQL database need the same $AGENT_LOOP_LAB_SECRET."""
    explicit = os.environ.get(serving.ENV_SECRET, "").strip()
    if explicit:
        return explicit.encode("utf-8")
    from agent_core.storage.store import default_db_path  # the database decides where the secret lives

    return _secret_file(default_db_path().with_name(SECRET_FILE))


def _secret_file(path: Path) -> bytes:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes().strip()
    with os.fdopen(fd, "w") as out:  # the first worker to get here writes it; the others read it
        out.write(secrets.token_hex(32))
    return path.read_bytes().strip()


def sign(learner: str, secret: bytes | None = None) -> str:
    """The cookie value for a learner id: the id and its HMAC under the server's secret."""
    mac = hmac.new(secret or server_secret(), learner.encode("ascii"), hashlib.sha256).hexdigest()
    return f"{learner}.{mac[:_SIGNATURE_HEX]}"


def verify(value: str | None, secret: bytes | None = None) -> str | None:
    """The learner id of a cookie value whose signature is right, else None (made up, edited or another server's)."""
    if not value or value.count(".") != 1:
        return None
    learner, _ = value.split(".")
    if not LEARNER_ID.fullmatch(learner):
        return None
    return learner if hmac.compare_digest(sign(learner, secret), value) else None


def cookie_header(learner: str, https: bool = False, secret: bytes | None = None) -> bytes:
    attributes = f"Path=/; Max-Age={COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax" + ("; Secure" if https else "")
    return f"{COOKIE}={sign(learner, secret)}; {attributes}".encode("ascii")


def cookies_of(scope: Scope) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for name, value in scope.get("headers") or []:
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed Cookie header is the browser's problem, not a crash
                continue
    return {key: morsel.value for key, morsel in jar.items()}


class IdentityCookie:
    """ASGI middleware: a page load without a valid identity cookie gets a new one (HttpOnly, signed).

    Only page loads: Streamlit's own endpoints (/_stcore/..., /static/...) pass untouched, so the assets a first
    load fetches in parallel cannot each mint a different id. The websocket is opened after the page, with the
    cookie. `secret` is for tests; the server's own is read per request (a cheap environment or file read)."""

    def __init__(self, app: ASGIApp, secret: bytes | None = None) -> None:
        self.app, self._secret = app, secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path") or "")
        passing = path == RESUME_PATH or path.startswith(("/_stcore/", "/static/", "/media/", "/component/"))
        if scope["type"] != "http" or passing:  # /resume sets the cookie itself
            await self.app(scope, receive, send)
            return
        secret = self._secret or server_secret()
        if verify(cookies_of(scope).get(COOKIE), secret):
            await self.app(scope, receive, send)
            return
        header = cookie_header(new_learner_id(), scope.get("scheme") == "https", secret)

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", header)]
            await send(message)

        await self.app(scope, receive, with_cookie)
