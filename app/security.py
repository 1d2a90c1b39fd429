"""What stands between the service and a hostile browser, page or script.

- `SecurityHeaders`: an ASGI middleware adding the response headers every page needs: a
  Content-Security-Policy that allows scripts only from this origin (so an injected
  ``<script>`` or ``onerror=`` attribute does not run), ``frame-ancestors 'none'`` and
  ``X-Frame-Options: DENY`` (no clickjacking), ``X-Content-Type-Options: nosniff`` and a
  Referrer-Policy that keeps room links out of other sites' logs.
- `RateLimit`: token buckets keyed by anything (a client address, a connection), used for
  rooms created per address per minute.
- `client_address`: the peer address of a request or websocket, as the limits key on it.

docs/security.md lists each threat, what stops it and the test that proves it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# No 'unsafe-inline' anywhere: pages load their scripts and styles from /static.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'{ws}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# FastAPI's Swagger UI and ReDoc pages are an inline script plus a CDN bundle. They show no
# user data, so they get their own, wider policy; every other response gets the strict one.
DOCS_PATHS = ("/docs", "/redoc")
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
# Only a plain host[:port] may be echoed into the policy.
HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")


def content_security_policy(path: str, host: str | None) -> str:
    """The policy for one response: strict, with this host's websocket origins allowed.

    >>> "script-src 'self';" in content_security_policy("/r/abc", "example.org")
    True
    >>> "wss://example.org" in content_security_policy("/", "example.org")
    True
    >>> "evil" in content_security_policy("/", "x; script-src evil")
    False
    """
    if path in DOCS_PATHS or path.startswith(tuple(f"{p}/" for p in DOCS_PATHS)):
        return DOCS_POLICY
    # 'self' covers ws:/wss: of the same host in CSP Level 3; older browsers need them named.
    ws = f" ws://{host} wss://{host}" if host and HOST.match(host) else ""
    return CONTENT_SECURITY_POLICY.format(ws=ws)


class SecurityHeaders:
    """Add the security headers to every HTTP response (websockets pass through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = HTTPConnection(scope).headers.get("host")
        policy = content_security_policy(scope["path"], host)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", policy)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


@dataclass
class RateLimit:
    """Token buckets: at most `rate` events per second per key, bursts up to `burst`.

    Buckets idle long enough to be full again are forgotten, so memory stays bounded by
    the keys active in the last ``burst / rate`` seconds.

    >>> clock = iter([0.0, 0.0, 0.0, 0.5]).__next__
    >>> limit = RateLimit(rate=2.0, burst=2, clock=clock)
    >>> [limit.allow("a") for _ in range(3)], limit.allow("a")
    ([True, True, False], True)
    """

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, last = self.buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        allowed = tokens >= 1.0
        self.buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        if len(self.buckets) > 10_000:
            self._forget(now)
        return allowed

    def retry_after(self, key: str) -> float:
        """Seconds until `key` may act again (0 when it may now)."""
        tokens, last = self.buckets.get(key, (float(self.burst), self.clock()))
        missing = 1.0 - min(
            float(self.burst), tokens + (self.clock() - last) * self.rate
        )
        return max(0.0, missing / self.rate)

    def _forget(self, now: float) -> None:
        full_after = self.burst / self.rate
        self.buckets = {
            key: value
            for key, value in self.buckets.items()
            if now - value[1] < full_after
        }


def client_address(connection: HTTPConnection) -> str:
    """The peer's address (the limits' key). Behind a proxy, run uvicorn with
    ``--forwarded-allow-ips`` so that this is the client's, not the proxy's."""
    return connection.client.host if connection.client else "unknown"
