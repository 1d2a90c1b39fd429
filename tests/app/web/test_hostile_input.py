"""Hostile input gets a 4xx with its documented code, never a 500 (issue 13, "Under attack"
point 11): a room id PostgreSQL cannot take (a NUL, a lone surrogate) on every route that
names a room and on the websocket, a `since` beyond what a version can be, and a record
whose moves name piles and cards that do not exist.

Over a real uvicorn server and one keep-alive connection: a 500 there also dropped the
connection, so every answer is checked to come over the connection of the first."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.app.clients import WsClient, bearer, open_room

ISHTAR = "engine.ishtar"

FIXTURE = Path(__file__).parents[2] / "fixtures" / "record-v1-unsigned.json"

# Percent-encoded as they travel in a URL path.
HOSTILE_IDS = [
    "%00",
    "kR3v%00x9QmB2a",
    "%ED%A0%80",  # a lone surrogate once decoded
    "%FF",
    "a" * 600,
    "%E2%80%AEroom",  # right-to-left override
]

# A body each route accepts, so that only the room id can be wrong.
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/seats"): {"name": "Eve"},
    ("POST", "/moves"): {
        "move": {"type": "pass"},
        "expected_version": 0,
        "move_id": "m1",
    },
    ("POST", "/why"): {"move": {"type": "pass"}},
    ("POST", "/person"): {"name": "Eve"},
    ("POST", "/bots"): {"level": "easy"},
    ("POST", "/bot"): {"level": "easy"},
    ("PUT", "/webhook"): {"url": "https://hooks.example/x"},
    ("POST", "/chat"): {"text": "hi"},
    ("PUT", "/chat/settings"): {"spectators": False},
    ("PUT", "/push"): {
        "endpoint": "https://push.example/x",
        "keys": {"p256dh": "x", "auth": "y"},
    },
    ("DELETE", "/push"): {"endpoint": "https://push.example/x"},
    ("POST", "/push/check"): {"endpoint": "https://push.example/x"},
    ("PUT", "/email"): {"address": "a@example.org"},
    ("PUT", "/away"): {"until": "2030-01-01T00:00:00Z"},
}


def room_routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every API route whose path names a room (from the OpenAPI table)."""
    return [
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        if "{room_id}" in path
        for method in operations
    ]


def body_for(method: str, path: str) -> Any:
    for (m, suffix), body in BODIES.items():
        if m == method and path.endswith(suffix):
            return body
    return None


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_a_hostile_room_id_is_an_unknown_room_on_every_route(
    room_app: FastAPI, web: tuple[str, httpx.AsyncClient]
) -> None:
    base, http = web
    _room, _host, tokens = await open_room(http, 2)
    routes = room_routes(room_app)
    assert len(routes) >= 18, routes  # the table, not a hand-kept list
    answers = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for method, path in routes:
            for hostile in HOSTILE_IDS:
                url = path.replace("{room_id}", hostile).replace("{seat}", "1")
                body = body_for(method, path)
                response = await client.request(
                    method,
                    url,
                    content=None if body is None else json.dumps(body),
                    headers={**bearer(tokens[0]), "Content-Type": "application/json"},
                )
                answers.append((method, path, hostile, response))
        kept = await client.get("/api/catalogue")
    for method, path, hostile, response in answers:
        what = (method, path, hostile[:20], response.text[:200])
        assert response.status_code == 404, what
        assert response.json()["error"]["code"] == "unknown_room", what
    assert kept.status_code == 200


@pytest.mark.parametrize("game_module", [ISHTAR])
@pytest.mark.parametrize("hostile", ["%00", "ab%00cd", "%ED%A0%80"])
async def test_a_hostile_room_id_on_the_websocket_is_an_unknown_room(
    web: tuple[str, httpx.AsyncClient], hostile: str
) -> None:
    base, _http = web
    async with WsClient(base, hostile, hello=False) as lost:
        await lost.send({"type": "hello", "token": None, "since": None})
        error = await lost.expect("error")
        assert error["code"] == "unknown_room", error
        await asyncio.wait_for(lost.closed.wait(), 5)
        assert lost.close_code == 4404


@pytest.mark.parametrize("game_module", [ISHTAR])
@pytest.mark.parametrize(
    "since", ["2147483648", "9223372036854775808", str(10**40), "-1", "-2147483649"]
)
async def test_since_out_of_range_is_malformed(
    web: tuple[str, httpx.AsyncClient], since: str
) -> None:
    _base, http = web
    room_id, _host, _tokens = await open_room(http, 2)
    answer = await http.get(f"/api/rooms/{room_id}/moves", params={"since": since})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "malformed"
    largest = await http.get(f"/api/rooms/{room_id}/moves?since=2147483647")
    assert largest.status_code == 200 and largest.json()["moves"] == []


def with_move(action: dict[str, Any], seq: int = 1) -> dict[str, Any]:
    """The fixture record with move `seq` replaced by `action` (its text kept)."""
    record: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    record = copy.deepcopy(record)
    record["moves"][seq - 1]["action"] = action
    return record


@pytest.mark.parametrize("game_module", [ISHTAR])
@pytest.mark.parametrize(
    "action",
    [
        {"type": "choose", "pile": 99, "pay": []},
        {"type": "choose", "pile": -1, "pay": []},
        {"type": "reserve", "card": 999},
        {"type": "plant", "card": 999, "at": [0, 0]},
    ],
)
async def test_a_record_naming_no_such_pile_or_card_is_a_bad_record(
    http: httpx.AsyncClient, action: dict[str, Any]
) -> None:
    answer = await http.post("/api/records", json=with_move(action))
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_record"
    assert error["reason"].startswith("Move 1 is not legal"), error
