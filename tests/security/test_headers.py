"""Security headers on every HTTP response (no inline script, no framing, no sniffing), and
the Host header checked against the allow-list (no DNS rebinding)."""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from app.config.settings import Settings
from app.ops.main import create_app
from app.web.security import AllowedHosts, content_security_policy
from app.web.socket_door import Site

PAGES = ["/", "/healthz", "/readyz", "/static/css/shell.css", "/no-such-page"]


def directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.parametrize("path", PAGES)
async def test_every_response_carries_the_security_headers(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"
    policy = directives(response.headers["content-security-policy"])
    assert policy["script-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]


def test_no_directive_of_the_page_policy_allows_inline_code_or_eval() -> None:
    policy = content_security_policy("/r/abcdefghijkl", "127.0.0.1:8000")
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy
    assert "data:" not in directives(policy)["script-src"]


def test_websockets_of_the_same_host_are_allowed_to_connect() -> None:
    connect = directives(content_security_policy("/r/x", "play.example:8443"))[
        "connect-src"
    ]
    assert connect == ["'self'", "ws://play.example:8443", "wss://play.example:8443"]


@pytest.mark.parametrize(
    "host", ["x; script-src *", "a b", "evil.example/'unsafe-inline'", ""]
)
def test_a_hostile_host_header_is_not_echoed_into_the_policy(host: str) -> None:
    policy = content_security_policy("/", host)
    assert directives(policy)["connect-src"] == ["'self'"]
    assert "unsafe-inline" not in policy


def test_only_the_api_docs_get_the_wider_policy() -> None:
    assert "unsafe-inline" in content_security_policy("/docs", "h")
    assert "unsafe-inline" in content_security_policy("/docs/oauth2-redirect", "h")
    assert "unsafe-inline" not in content_security_policy("/documents", "h")
    assert "frame-ancestors 'none'" in content_security_policy("/docs", "h")


# -- the Host header (ISHTAR_ALLOWED_HOSTS): no DNS rebinding -------------------------------


def _app(**settings: Any) -> FastAPI:
    """An app (lifespan not started: the Host check needs no database) on these settings."""
    defaults: dict[str, Any] = {"database_url": "postgresql+asyncpg://unused@/x"}
    return create_app(Settings(_env_file=None, **{**defaults, **settings}))  # type: ignore[call-arg]


def _status(app: FastAPI, host: str) -> int:
    return TestClient(app).get("/healthz", headers={"host": host}).status_code


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"]
)
def test_bound_to_loopback_the_server_answers_its_loopback_names(host: str) -> None:
    assert _status(_app(allowed_hosts=[], host="127.0.0.1"), host) == 200


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "", "a b"]
)
def test_any_other_host_is_refused_with_400(host: str) -> None:
    response = TestClient(_app(allowed_hosts=[], host="127.0.0.1")).get(
        "/api/rooms/abc", headers={"host": host}
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_host"  # the documented shape
    assert response.headers["content-type"] == "application/json"
    assert response.headers["x-content-type-options"] == "nosniff"


def refused_socket(client: TestClient, path: str, host: str) -> Any:
    """The HTTP answer refusing a websocket to `path` with Host and Origin `host`."""
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(
            path, headers={"host": host, "origin": f"http://{host}"}
        ),
    ):
        pass
    return denied.value


def test_a_websocket_to_a_rebound_name_is_refused_before_the_upgrade() -> None:
    """The attack of issue 13: Host and Origin both evil.example pass the Origin check."""
    client = TestClient(_app(allowed_hosts=[], host="127.0.0.1"))
    denied = refused_socket(client, "/ws/rooms/abc", "evil.example")
    assert denied.status_code == 400
    assert denied.json()["error"]["code"] == "bad_host"


def test_the_public_url_names_the_host_the_players_use() -> None:
    app = _app(allowed_hosts=[], host="0.0.0.0", public_url="https://ishtar.example")
    assert _status(app, "ishtar.example") == 200
    assert _status(app, "127.0.0.1:8000") == 200  # all interfaces: loopback included
    assert _status(app, "203.0.113.5:8000") == 400


def test_an_allow_list_replaces_the_default() -> None:
    app = _app(allowed_hosts=["play.example", "*.ishtar.example"], host="127.0.0.1")
    assert _status(app, "play.example") == 200
    assert _status(app, "eu.ishtar.example:443") == 200
    assert _status(app, "127.0.0.1:8000") == 400
    assert _status(app, "ishtar.example.evil") == 400
    assert _status(_app(allowed_hosts=["*"]), "anything.example") == 200


def test_a_live_server_refuses_a_rebound_websocket_and_accepts_its_own(
    live_server: str,
) -> None:
    """Over real TCP, with the defaults `ishtar serve` starts with (bound to 127.0.0.1)."""
    port = int(live_server.rsplit(":", 1)[1])
    rebound = _handshake(port, host="evil.example", origin="http://evil.example")
    assert rebound.startswith(b"HTTP/1.1 400 ")
    own = _handshake(port, host=f"127.0.0.1:{port}", origin=f"http://127.0.0.1:{port}")
    assert own.startswith(b"HTTP/1.1 101 ")


def _handshake(port: int, *, host: str, origin: str) -> bytes:
    """The status line and headers the server answers a websocket handshake with."""
    request = (
        f"GET /ws/rooms/abcdefghijkl HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer


DOOR_CASES = [
    # (allow list, Host header, the door lets the room socket skip the stack)
    ([], "127.0.0.1:8000", True),
    ([], "LOCALHOST", True),
    ([], "[::1]:8000", True),
    ([], "evil.example", False),
    ([], "127.0.0.1.evil.example", False),
    ([], "", False),
    ([], "a b", False),
    (["play.example", "*.ishtar.example"], "eu.ishtar.example:443", True),
    (["play.example", "*.ishtar.example"], "ishtar.example.evil", False),
    (["play.example", "*.ishtar.example"], "127.0.0.1", False),
    (["*"], "anything.example", True),
]


@pytest.mark.parametrize(("allowed", "host", "short_way"), DOOR_CASES)
def test_the_socket_door_lets_in_only_what_the_host_check_lets_in(
    allowed: list[str], host: str, short_way: bool
) -> None:
    """A room socket on an allowed Host skips the middleware stack; every other one takes
    it, where the Host check decides (app/web/socket_door.py). The door never admits a
    Host the stack's check refuses."""
    app = _app(allowed_hosts=allowed, host="127.0.0.1")
    assert isinstance(app, Site) and app.door is not None
    scope = {
        "type": "websocket",
        "path": "/ws/rooms/abcdefghijkl",
        "headers": [(b"host", host.encode())],
    }
    opened = app.door.opens(scope)
    assert (opened is not None) is short_way
    if opened is not None:
        assert opened == {"room_id": "abcdefghijkl"}
        assert _status(app, host) == 200  # the long way agrees
    assert app.door.opens({**scope, "path": "/ws/other/abcdefghijkl"}) is None
    twice = {**scope, "headers": [(b"host", host.encode())] * 2}
    assert (app.door.opens(twice) is not None) is (allowed == ["*"])


def test_a_room_socket_on_an_allowed_host_skips_the_middleware_stack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the Host check made to refuse every websocket, one on an allowed Host still
    reaches the handler (whose Origin check then closes it before the accept), and one on
    another path still meets the stack."""
    seen: list[str] = []
    original = AllowedHosts.__call__

    async def watched(self: AllowedHosts, scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["path"])
        await original(self, scope, receive, send)

    monkeypatch.setattr(AllowedHosts, "__call__", watched)
    client = TestClient(_app(allowed_hosts=[], host="127.0.0.1"))
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(
            "/ws/rooms/abcdefghijkl",
            headers={"host": "127.0.0.1:8000", "origin": "http://evil.example"},
        ),
    ):
        pass
    assert closed.value.code == 1008  # the handler's Origin check, before the accept
    assert seen == []
    rebound = refused_socket(client, "/ws/rooms/abcdefghijkl", "evil.example")
    assert rebound.json()["error"]["code"] == "bad_host"
    assert seen == ["/ws/rooms/abcdefghijkl"]
