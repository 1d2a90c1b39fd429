"""Requests the framework refuses before any route runs get the documented shape (issue 33,
fault 5): ``{"error": {"code", "reason"}}`` with a code of docs/protocol.md's table, never
FastAPI's ``{"detail": ...}``.

- a body that is not UTF-8, or JSON nested deeper than the parser's recursion limit (1,500
  levels in 9 KB), on every route that takes a JSON body: `malformed` (400);
- a path no route serves: `not_found` (404); a method a route does not take:
  `method_not_allowed` (405, with its ``Allow`` header).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

ISHTAR = "engine.ishtar"

NOT_UTF8 = b'{"name": "\\xff\\xfe"}'.replace(b"\\xff\\xfe", b"\xff\xfe")
TOO_DEEP = b"[" * 1500 + b"]" * 1500  # 3 KB; the 9 KB had spaces


def json_routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every route that takes a JSON body (from the OpenAPI table)."""
    return [
        (method.upper(), path.replace("{room_id}", "abc").replace("{seat}", "1"))
        for path, operations in app.openapi()["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
        # The record routes read their bytes themselves, and answer bad_record (their
        # hostile bodies are pinned with the records' tests).
        and not path.startswith("/api/records")
    ]


def assert_documented(
    response: httpx.Response, status: int, code: str
) -> dict[str, Any]:
    what = (response.request.method, response.request.url.path, response.text[:200])
    assert response.status_code == status, what
    assert response.headers["content-type"] == "application/json", what
    body = response.json()
    assert set(body) == {"error"}, what
    assert body["error"]["code"] == code, what
    assert body["error"]["reason"], what
    error: dict[str, Any] = body["error"]
    return error


@pytest.mark.parametrize("game_module", [ISHTAR])
@pytest.mark.parametrize(
    ("body", "reason"),
    [(NOT_UTF8, "not UTF-8"), (TOO_DEEP, "nested too deeply")],
    ids=["not-utf8", "nested-1500"],
)
async def test_an_unreadable_body_is_malformed_on_every_json_route(
    room_app: FastAPI, http: httpx.AsyncClient, body: bytes, reason: str
) -> None:
    routes = json_routes(room_app)
    assert len(routes) >= 7, routes  # the table, not a hand-kept list
    for method, path in routes:
        response = await http.request(
            method, path, content=body, headers={"Content-Type": "application/json"}
        )
        error = assert_documented(response, 400, "malformed")
        assert reason in error["reason"], (method, path, error)


async def test_an_unknown_path_is_not_found(http: httpx.AsyncClient) -> None:
    for path in ("/api/no-such-route", "/no-such-page", "/api/rooms/abc/no-such"):
        assert_documented(await http.get(path), 404, "not_found")


async def test_a_method_a_route_does_not_take_is_refused_with_its_allow_header(
    http: httpx.AsyncClient,
) -> None:
    response = await http.delete("/api/rooms")
    assert_documented(response, 405, "method_not_allowed")
    assert "POST" in response.headers["allow"]
