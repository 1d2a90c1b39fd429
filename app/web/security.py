"""What stands between the service and a hostile browser, page or script.

- `SecurityHeaders`: an ASGI middleware adding the response headers every page needs: a
  Content-Security-Policy that allows scripts only from this origin (so an injected
  ``<script>`` or ``onerror=`` attribute does not run), ``frame-ancestors 'none'`` and
  ``X-Frame-Options: DENY`` (no clickjacking), ``X-Content-Type-Options: nosniff`` and a
  Referrer-Policy that keeps room links out of other sites' logs.
- `host_allow_list`: the Host names the server answers to (``ISHTAR_ALLOWED_HOSTS``, or
  derived from where it is bound and ``ISHTAR_PUBLIC_URL``). Starlette's
  ``TrustedHostMiddleware`` answers any other Host, over HTTP and on the websocket handshake,
  with 400: a page on a rebound DNS name (``evil.example`` pointing at 127.0.0.1) passes the
  websocket's Origin check, since Origin and Host agree, but not this one.
  `AllowedHosts` is that middleware with its refusal in the documented shape
  (``{"error": {"code": "bad_host", ...}}``) instead of a plain-text "Invalid host header".
The limits on what a client may send (message size and rate, rooms per address, name
length) live with the code that enforces them: `app.play.limits`, `app.web.ws`, `app.play.protocol`.
docs/security.md lists each threat, what stops it and the test that proves it.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.play.protocol import ServiceError, dumps, msg

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


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_BINDS = ("", "0.0.0.0", "::")


def _host_form(name: str) -> str:
    """A host as it appears in a Host header: lower case, IPv6 in brackets."""
    name = name.strip().lower().strip("[]")
    try:
        if ipaddress.ip_address(name).version == 6:
            return f"[{name}]"
    except ValueError:
        pass
    return name


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


def host_allow_list(
    allowed: list[str], bound_host: str, public_url: str | None
) -> list[str]:
    """The Host names to answer: `allowed` if given, else derived from the bind and public URL.

    >>> host_allow_list([], "127.0.0.1", None)
    ['127.0.0.1', 'localhost', '[::1]']
    >>> host_allow_list([], "0.0.0.0", "https://Ishtar.Example:8443/")
    ['ishtar.example', 'localhost', '127.0.0.1', '[::1]']
    >>> host_allow_list([], "192.0.2.7", None)
    ['192.0.2.7']
    >>> host_allow_list(["play.example"], "127.0.0.1", "https://ishtar.example")
    ['play.example']
    """
    if allowed:
        return list(allowed)
    hosts: list[str] = []
    if bound_host not in WILDCARD_BINDS:
        hosts.append(_host_form(bound_host))
    if public_url and (name := urlsplit(public_url).hostname):
        hosts.append(_host_form(name))
    if bound_host in WILDCARD_BINDS or _is_loopback(bound_host):
        hosts.extend(LOOPBACK_NAMES)
    return list(dict.fromkeys(hosts))


# Set in the scope once the Host check let a request through.
PASSED = "ishtar.host_allowed"
BAD_HOST = ServiceError(
    "bad_host",
    "This server does not answer to that host name.",
    message=msg("error.bad_host"),
)


class AllowedHosts(TrustedHostMiddleware):
    """Starlette's Host check, its refusal answered as ``{"error": {"code": "bad_host"}}``.

    Starlette decides (its parsing of the Host header is kept); what it sends when it
    refuses, a response that never reached the application, is replaced on the way out.
    """

    def __init__(self, app: ASGIApp, allowed_hosts: list[str]) -> None:
        async def passed(scope: Scope, receive: Receive, send: Send) -> None:
            scope[PASSED] = True
            await app(scope, receive, send)

        super().__init__(passed, allowed_hosts=allowed_hosts, www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await super().__call__(scope, receive, send)
            return
        body = dumps(BAD_HOST.body()).encode()

        async def in_shape(message: Message) -> None:
            if scope.get(PASSED):
                await send(message)
                return
            # Starlette's own refusal: a start and a body (over HTTP, or as a websocket's
            # denial response), each replaced by ours.
            kind = message["type"]
            if kind.endswith("http.response.start"):
                headers = [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ]
                await send({"type": kind, "status": 400, "headers": headers})
            elif kind.endswith("http.response.body"):
                await send({"type": kind, "body": body})
            else:
                await send(message)

        await super().__call__(scope, receive, in_shape)
