"""Test clients of the game server: a websocket client (the `websockets` library) and an
HTTP player (httpx), both recording every message they receive for later assertions."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.support.acks import unfold

GUARD_S = 30.0
"""How long a client waits for a message by default: a guard against a hang, never a
measure. It was 5 s, which a 2-core machine running the whole suite (three workers,
Chromium, PostgreSQL) has exceeded; a passing test waits only as long as the message
takes."""


def ws_url(base_url: str, room_id: str) -> str:
    return base_url.replace("http://", "ws://") + f"/ws/rooms/{room_id}"


class WsClient:
    """One websocket connection to a room; `received` keeps every message, raw and parsed."""

    def __init__(
        self,
        base_url: str,
        room_id: str,
        token: str | None = None,
        *,
        since: int | None = None,
        origin: str | None = None,
        hello: bool = True,
    ) -> None:
        self.url = ws_url(base_url, room_id)
        self.token = token
        self.since = since
        self.origin = origin
        self.say_hello = hello
        self.raw: list[str] = []
        self.received: list[dict[str, Any]] = []
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ws: ClientConnection | None = None
        self.welcome: dict[str, Any] = {}
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.you: dict[str, Any] = {}
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.close_code: int | None = None

    async def __aenter__(self) -> WsClient:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def open(self) -> WsClient:
        kwargs: dict[str, Any] = {"max_size": 8 << 20, "compression": None}
        if self.origin is not None:
            kwargs["origin"] = self.origin
        self.ws = await connect(self.url, **kwargs)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if self.say_hello:
            await self.send({"type": "hello", "token": self.token, "since": self.since})
            self.welcome = await self.expect("welcome")
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                assert isinstance(raw, str), "the server sends text frames"
                for message in unfold(json.loads(raw)):
                    self.raw.append(raw)  # beside each message read from it
                    self.received.append(message)
                    self._track(message)
                    self.inbox.put_nowait(message)
        except Exception:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()

    def _track(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if "you" in message:
            self.you = message["you"]
        if kind == "update":  # the changed entries, merged into the view we hold
            assert message["version"] == self.version + 1, (self.version, message)
            assert self.view is not None, message
            message["view"] = {**self.view, **message["changes"]}
        if kind in ("welcome", "update", "sync"):
            self.version = message["version"]
            self.view = message["view"]
            self.legal = message["legal"]

    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def recv(self, timeout: float = GUARD_S) -> dict[str, Any]:
        return await asyncio.wait_for(self.inbox.get(), timeout)

    async def expect(
        self, kind: str, timeout: float = GUARD_S, **fields: Any
    ) -> dict[str, Any]:
        """The next message of `kind` (with these field values); earlier others are skipped."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.inbox.get()
                if message["type"] == kind and all(
                    message.get(k) == v for k, v in fields.items()
                ):
                    return message

    async def until_version(self, version: int, timeout: float = GUARD_S) -> None:
        async with asyncio.timeout(timeout):
            while self.version < version:
                await self.inbox.get()

    async def move(
        self,
        action: dict[str, Any],
        expected: int | None = None,
        move_id: str | None = None,
    ) -> dict[str, Any]:
        """Send a move; the ack or error answering it."""
        move_id = move_id or uuid.uuid4().hex
        await self.send(
            {
                "type": "move",
                "move": action,
                "expected_version": self.version if expected is None else expected,
                "move_id": move_id,
            }
        )
        async with asyncio.timeout(5):
            while True:
                message = await self.inbox.get()
                if (
                    message["type"] in ("ack", "error")
                    and message.get("move_id") == move_id
                ):
                    return message

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == kind]


def pick(rng: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal action, never an undo when something else is legal (games end)."""
    forward = [item for item in legal if item["action"].get("type") != "undo"]
    chosen: dict[str, Any] = rng.choice(forward or legal)["action"]
    return chosen


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def open_room(
    http: httpx.AsyncClient, players: int, **options: Any
) -> tuple[str, str, list[str]]:
    """Create a room, fill every seat and start; (room_id, host_token, tokens by seat).

    Seats keep their order (player "P<n>" at seat n) unless ``seat_order="random"``.
    """
    options.setdefault("seat_order", "fixed")
    created = (
        await http.post(
            "/api/rooms", json={"players": players, "name": "P0", **options}
        )
    ).json()
    room_id = created["room_id"]
    joined = [created["token"]]
    for n in range(1, players):
        answer = await http.post(f"/api/rooms/{room_id}/seats", json={"name": f"P{n}"})
        assert answer.status_code == 201, answer.text
        joined.append(answer.json()["token"])
    started = await http.post(
        f"/api/rooms/{room_id}/start", headers=bearer(created["host_token"])
    )
    assert started.status_code == 200, started.text
    by_seat: dict[int, str] = {}
    for token in joined:
        view = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
        ).json()
        by_seat[view["seat"]] = token
    return room_id, created["host_token"], [by_seat[n] for n in range(players)]
