"""The two servers `bench.load` and `bench.scale` can drive, each behind the `bench.players.Target` shape.

- `FloorTarget` speaks `bench.floor`'s tiny protocol. It has no rules, so a game is a fixed
  number of moves (by default the mean length of the real games just played), seats taking
  turns in order, each choosing among one dummy legal action.
- `IshtarTarget` speaks the product's protocol (docs/protocol.md): rooms and seats over
  HTTP (seat order fixed, so seat i holds token i), then `hello`, views, legal actions and
  moves over the websocket.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

from bench.players import Update

FLOOR_ACTION = {"type": "pass"}
HEAD = re.compile(rb'\{\s*"type":\s*"(\w+)",\s*"version":\s*(\d+)')
OVER = re.compile(rb'"phase":\s*"over"')
PING = '{"type":"ping"}'  # what a room's page sends every 25 s (static/js/socket.js)


@dataclass
class FloorTarget:
    players: int
    moves_per_game: int
    name: str = "floor"

    async def create_room(self, base: str, players: int, seed: int) -> Any:
        async with httpx.AsyncClient(base_url=base) as http:
            return await self.open_room(http, players)

    async def open_room(self, http: httpx.AsyncClient, players: int) -> Any:
        response = await http.post("/rooms", json={"players": players})
        response.raise_for_status()
        return response.json()["room"]

    def url(self, base: str, room: Any, seat: int | None) -> str:
        return base.replace("http://", "ws://", 1) + f"/ws/{room}"

    def hello(self, room: Any, seat: int | None) -> str | None:
        return None

    def parse(self, text: str | bytes, seat: int | None) -> Update:
        msg = json.loads(text)
        if msg["type"] == "error":
            return Update(error=msg["code"])
        if msg["type"] == "pong":
            return Update()
        version = int(msg["version"])
        if version >= self.moves_per_game:
            return Update(version=version, over=True)
        mine = seat is not None and version % self.players == seat
        actions = [FLOOR_ACTION] if mine else None
        return Update(version=version, ready=version, actions=actions)

    def peek(self, data: bytes) -> Update:
        return self.parse(data, None)

    def move(self, version: int, action: Any, move_id: str) -> str:
        return json.dumps({"type": "move", "version": version, "action": action})

    def ping(self) -> str:
        return PING


@dataclass
class IshtarRoom:
    room_id: str
    tokens: list[str]


@dataclass
class IshtarTarget:
    """The product's protocol (docs/protocol.md): HTTP for the room, a websocket per seat.

    Scripted players never take a step back (``undo``): the games stay the length of
    games people play, and comparable from one run to the next."""

    name: str = "ishtar"
    game: str = "ishtar"
    """The registry's id of the game the rooms play (``bench.load --game``)."""

    async def create_room(self, base: str, players: int, seed: int) -> Any:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            return await self.open_room(http, players)

    async def open_room(self, http: httpx.AsyncClient, players: int) -> Any:
        """A started room of `players` seats (seat order fixed: seat i holds token i)."""
        body: dict[str, Any] = {
            "players": players,
            "name": "seat 0",
            "seat_order": "fixed",
        }
        if self.game != "ishtar":  # a baseline from before the registry knows no game
            body["game"] = self.game
        created = (await http.post("/api/rooms", json=body)).raise_for_status().json()
        room_id, tokens = created["room_id"], [created["token"]]
        for seat in range(1, players):
            joined = await http.post(
                f"/api/rooms/{room_id}/seats",
                json={"name": f"seat {seat}", "seat": seat},
            )
            tokens.append(joined.raise_for_status().json()["token"])
        auth = {"Authorization": f"Bearer {created['host_token']}"}
        (
            await http.post(f"/api/rooms/{room_id}/start", headers=auth)
        ).raise_for_status()
        return IshtarRoom(room_id, tokens)

    def url(self, base: str, room: Any, seat: int | None) -> str:
        return base.replace("http://", "ws://", 1) + f"/ws/rooms/{room.room_id}"

    def hello(self, room: Any, seat: int | None) -> str | None:
        token = None if seat is None else room.tokens[seat]
        return json.dumps({"type": "hello", "token": token, "since": None})

    def parse(self, text: str | bytes, seat: int | None) -> Update:
        msg = orjson.loads(text)
        kind = msg["type"]
        if kind == "error":
            return Update(error=msg["code"])
        if kind not in ("welcome", "sync", "update"):
            return Update()
        view = msg.get("view") or msg.get("changes") or {}  # an update: what changed
        legal = [
            e["action"] for e in msg.get("legal") or [] if e["action"]["type"] != "undo"
        ]
        return Update(
            # only an update counts as this connection having the new version
            version=msg["version"] if kind == "update" else None,
            ready=msg["version"],
            actions=legal or None,
            over=view.get("phase") == "over",
            sync=kind == "sync",
        )

    def peek(self, data: bytes) -> Update:
        """Top-level ``type`` and ``version`` lead every server message; no full parse."""
        head = HEAD.match(data)
        if head is None:
            return self.parse(data, None)
        kind, version = head.group(1), int(head.group(2))
        if kind in (b"error", b"sync"):
            return self.parse(data, None)
        if kind != b"update":
            return Update()
        return Update(version=version, over=OVER.search(data) is not None)

    def move(self, version: int, action: Any, move_id: str) -> str:
        return json.dumps(
            {
                "type": "move",
                "move": action,
                "expected_version": version,
                "move_id": move_id,
            }
        )

    def ping(self) -> str:
        return PING
