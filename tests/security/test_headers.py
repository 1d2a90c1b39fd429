"""Security headers on every HTTP response: no inline script, no framing, no sniffing."""

from __future__ import annotations

import httpx
import pytest

from app.security import content_security_policy

PAGES = ["/", "/healthz", "/readyz", "/static/css/ishtar.css", "/no-such-page"]


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
