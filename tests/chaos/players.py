"""Scripted players that survive a crashing server: the clients of the chaos tests.

A `Player` holds one seat of one room over the real websocket protocol (docs/protocol.md).
It reconnects with backoff whenever the connection drops, says ``hello`` with the last
version it saw, and re-sends a move that was never acknowledged with the *same* ``move_id``
(the server must answer it with the original ack if it was committed, and apply it once
otherwise). It records what the server acknowledged, so a test can check afterwards that no
acknowledged move was lost and none was applied twice.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from tests.support.acks import unfold


@dataclass
class Table:
    """A started room: its id and one token per seat (seat order fixed at creation)."""

    room_id: str
    tokens: list[str]


async def open_table(base: str, players: int, http: httpx.AsyncClient) -> Table:
    """Create a room, fill its seats over HTTP and start the game."""
    body = {"players": players, "name": "seat 0", "seat_order": "fixed"}
    created = (
        (await http.post(f"{base}/api/rooms", json=body)).raise_for_status().json()
    )
    room_id, tokens = created["room_id"], [created["token"]]
    for seat in range(1, players):
        joined = await http.post(
            f"{base}/api/rooms/{room_id}/seats",
            json={"name": f"seat {seat}", "seat": seat},
        )
        tokens.append(joined.raise_for_status().json()["token"])
    auth = {"Authorization": f"Bearer {created['host_token']}"}
    (
        await http.post(f"{base}/api/rooms/{room_id}/start", headers=auth)
    ).raise_for_status()
    return Table(room_id, tokens)


def ws_url(base: str, room_id: str) -> str:
    return base.replace("http://", "ws://", 1) + f"/ws/rooms/{room_id}"


class HelloFailed(Exception):
    """The server refused the hello (e.g. ``unavailable``): reconnect and say it again."""


@dataclass
class Pending:
    move_id: str
    move: dict[str, Any]
    expected_version: int


@dataclass
class Player:
    """One seat, played to the end of the game through drops and restarts."""

    base: str
    table: Table
    seat: int
    rng: random.Random
    think: float = 0.0  # seconds to wait before each move, to spread games over time
    acked: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    sent: dict[str, dict[str, Any]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0
    resent: int = 0  # moves sent again after a drop (same move_id)
    duplicates: int = 0  # acks that said "already applied"
    version: int = 0
    over: bool = False
    pending: Pending | None = None
    legal: list[dict[str, Any]] = field(default_factory=list)
    acted_at: int | None = None
    welcomed: bool = False

    async def run(self, deadline: float) -> None:
        """Play until the game is over or the loop's clock passes `deadline`."""
        loop = asyncio.get_running_loop()
        backoff = 0.05
        while not self.over and loop.time() < deadline:
            try:
                async with websockets.connect(
                    ws_url(self.base, self.table.room_id),
                    open_timeout=5,
                    close_timeout=1,
                    max_size=None,
                ) as ws:
                    backoff = 0.05
                    await self._session(ws, deadline)
            except (OSError, TimeoutError, websockets.WebSocketException, HelloFailed):
                pass
            if not self.over:
                self.reconnects += 1
                await asyncio.sleep(backoff)
                backoff = min(1.0, backoff * 2)

    async def _session(self, ws: ClientConnection, deadline: float) -> None:
        token = self.table.tokens[self.seat]
        # Each connection is welcomed anew: until its own welcome, an error is the hello's
        # (the unacknowledged move is sent again on the welcome, not before it).
        self.welcomed = False
        await ws.send(
            json.dumps({"type": "hello", "token": token, "since": self.version})
        )
        loop = asyncio.get_running_loop()
        while loop.time() < deadline:
            raw = await asyncio.wait_for(ws.recv(), deadline - loop.time())
            for message in unfold(json.loads(raw)):
                await self._handle(ws, message)
            if self.over:
                return

    async def _handle(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ack":
            self.duplicates += bool(message.get("duplicate"))
            # A lone ack's `seq` is the version the move made (its `version`, the
            # connection's, may be later: docs/protocol.md, "ack"); an ack in an update has
            # the move's version as its `version`.
            self.acked[message["move_id"]] = (
                message.get("seq", message["version"]),
                self.sent[message["move_id"]],
            )
            if self.pending and self.pending.move_id == message["move_id"]:
                self.pending = None
        elif kind == "error":
            self.errors.append(message["code"])
            if not self.welcomed:  # the hello itself failed (database down): start over
                raise HelloFailed(message["code"])
            pending = self.pending
            if pending is None or message.get("move_id") != pending.move_id:
                return
            if message["code"] == "unavailable":  # maybe committed, maybe not: same id
                await asyncio.sleep(0.2)
                await self._send(ws, pending)
                return
            self.pending, self.acted_at = None, None  # refused, so not applied
        elif kind in ("welcome", "sync", "update"):
            if kind == "welcome":
                self.welcomed = True
                if self.pending is not None:  # never acknowledged: same move, same id
                    self.resent += 1
                    await self._send(ws, self.pending)
            if message["version"] < self.version:
                return
            self.version = message["version"]
            view = (
                message.get("view") or message.get("changes") or {}
            )  # update: changes
            if view.get("phase") == "over":
                self.over = True
                return
            legal = message.get("legal") or []  # never undo: games end sooner
            self.legal = [e["action"] for e in legal if e["action"]["type"] != "undo"]
        await self._maybe_act(ws)

    async def _maybe_act(self, ws: ClientConnection) -> None:
        """Move once per version, when the server asked this seat and nothing is pending."""
        if self.pending is not None or not self.legal or self.acted_at == self.version:
            return
        self.acted_at = self.version
        if self.think:
            await asyncio.sleep(self.think * self.rng.random())
        move = self.rng.choice(self.legal)
        self.pending = Pending(uuid.uuid4().hex, move, self.version)
        self.sent[self.pending.move_id] = move
        await self._send(ws, self.pending)

    async def _send(self, ws: ClientConnection, pending: Pending) -> None:
        await ws.send(
            json.dumps(
                {
                    "type": "move",
                    "move": pending.move,
                    "expected_version": pending.expected_version,
                    "move_id": pending.move_id,
                }
            )
        )
