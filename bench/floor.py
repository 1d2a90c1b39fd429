"""The floor: the least a live game server must do per move on this machine.

A minimal websocket server built on the product's stack (uvicorn, Starlette, asyncpg) that,
for each move, only commits it to PostgreSQL (one UPDATE of the game row's version plus one
INSERT into the move log, in one transaction) and relays it to every connection of the room.
No rules, no views, no tokens. `bench.load` (games at full speed, and the fan-out) and
`bench.scale` (N rooms at a human pace, and idle sockets) play the same scripted load
against it and against the real server, and report our figures as ratios to this floor.
A room's players and spectators are all just connections of the room: spectators are those
that never move. A room's entries (its connections, its lock) go with its last connection.
It serves websockets as ours does (uvicorn, ``permessage-deflate`` accepted by default).

Wire protocol (JSON text frames), deliberately tiny:

- ``POST /rooms`` with ``{"players": n}`` -> ``{"room": id}``
- ``GET /ws/{room}`` websocket; the server first sends ``{"type": "state", "version": v}``
- client -> ``{"type": "move", "version": v, "action": {...}}``
- server -> every connection of the room: ``{"type": "moved", "version": v + 1,
  "action": {...}}``, or to the sender only ``{"type": "error", "code": "stale",
  "version": current}`` when ``v`` is not the current version.
- client -> ``{"type": "ping"}`` (a tab's keep-alive), server -> ``{"type": "pong"}``.

With ``--pad BYTES``, every message the floor sends (``state`` and ``moved``) also carries a
``view``: a list of cells, about BYTES of JSON drawn from the version, as a position's view
would be. Ours sends a view of several KiB with every update; the floor's messages are tens
of bytes, which understates what compressing them costs (the compressor's window fills only
as far as the data goes). Off (0) by default: the floor is the least a server must do.

Run: ``python -m bench.floor --port 8765 --database-url postgresql://…``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
from collections import defaultdict
from contextlib import asynccontextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_games (
    id bigserial PRIMARY KEY,
    players int NOT NULL,
    version int NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS floor_moves (
    game_id bigint NOT NULL REFERENCES floor_games (id),
    version int NOT NULL,
    action jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, version)
);
"""


PONG = '{"type":"pong"}'
TILES = ("fire", "water", "earth", "air", "gold", "silver", "reed", "clay")


def view(version: int, size: int) -> list[dict[str, Any]]:
    """About `size` bytes of JSON cells that change with the version, as a view would."""
    rng = random.Random(version)
    cells: list[dict[str, Any]] = []
    while len(cells) * 45 < size:  # a cell is about 45 bytes of JSON
        cells.append(
            {
                "at": [rng.randrange(12), rng.randrange(12)],
                "tile": rng.choice(TILES),
                "owner": rng.randrange(4),
            }
        )
    return cells


class Floor:
    """Rooms in memory (connections and one lock per room) over a pool."""

    def __init__(self, pool: asyncpg.Pool, notify: bool = False, pad: int = 0) -> None:
        self.pool = pool
        self.notify = notify
        self.pad = pad
        self.connections: dict[int, set[WebSocket]] = defaultdict(set)
        self.locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def create(self, players: int) -> int:
        room: int = await self.pool.fetchval(
            "INSERT INTO floor_games (players) VALUES ($1) RETURNING id", players
        )
        return room

    async def version(self, room: int) -> int | None:
        version: int | None = await self.pool.fetchval(
            "SELECT version FROM floor_games WHERE id = $1", room
        )
        return version

    async def move(self, room: int, expected: int, action: Any) -> int | None:
        """Commit one move; the new version, or None when ``expected`` is stale."""
        async with self.locks[room], self.pool.acquire() as conn, conn.transaction():
            version: int | None = await conn.fetchval(
                "UPDATE floor_games SET version = version + 1"
                " WHERE id = $1 AND version = $2 RETURNING version",
                room,
                expected,
            )
            if version is None:
                return None
            await conn.execute(
                "INSERT INTO floor_moves (game_id, version, action) VALUES ($1, $2, $3)",
                room,
                version,
                json.dumps(action),
            )
            if self.notify:  # what several instances would need: see --notify
                await conn.execute("SELECT pg_notify('floor', $1)", f"{room} {version}")
            return version

    def message(self, fields: dict[str, Any]) -> str:
        """One message's text, with a view of `pad` bytes when the floor pads."""
        if self.pad:
            fields["view"] = view(int(fields.get("version") or 0), self.pad)
        return json.dumps(fields)

    def leave(self, room: int, ws: WebSocket) -> None:
        """A connection gone; a room without connections holds nothing any more."""
        members = self.connections.get(room)
        if members is not None:
            members.discard(ws)
            if not members:
                del self.connections[room]
                lock = self.locks.get(room)
                if lock is not None and not lock.locked():
                    del self.locks[room]

    async def relay(self, room: int, text: str) -> None:
        async def send(ws: WebSocket) -> None:
            try:
                await ws.send_text(text)
            except Exception:  # a closing connection must not stop the others
                self.leave(room, ws)

        await asyncio.gather(*(send(ws) for ws in list(self.connections.get(room, ()))))


def build_app(
    database_url: str, pool_size: int = 10, notify: bool = False, pad: int = 0
) -> Starlette:
    state: dict[str, Floor] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette):  # type: ignore[no-untyped-def]
        pool = await asyncpg.create_pool(database_url, min_size=2, max_size=pool_size)
        async with pool.acquire() as conn:
            await conn.execute(SCHEMA)
        state["floor"] = Floor(pool, notify, pad)
        yield
        await pool.close()

    async def create_room(request: Request) -> JSONResponse:
        body = await request.json()
        room = await state["floor"].create(int(body.get("players", 2)))
        return JSONResponse({"room": room})

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    async def socket(ws: WebSocket) -> None:
        floor = state["floor"]
        room = int(ws.path_params["room"])
        version = await floor.version(room)
        await ws.accept()
        if version is None:
            await ws.close(code=4404)
            return
        floor.connections[room].add(ws)
        try:
            await ws.send_text(floor.message({"type": "state", "version": version}))
            while True:
                msg = json.loads(await ws.receive_text())
                if msg.get("type") == "ping":  # a tab's keep-alive, as ours answers it
                    await ws.send_text(PONG)
                    continue
                new = await floor.move(room, int(msg["version"]), msg.get("action"))
                if new is None:
                    current = await floor.version(room)
                    await ws.send_text(
                        json.dumps(
                            {"type": "error", "code": "stale", "version": current}
                        )
                    )
                    continue
                out = {"type": "moved", "version": new, "action": msg.get("action")}
                await floor.relay(room, floor.message(out))
        except WebSocketDisconnect:
            pass
        finally:
            floor.leave(room, ws)

    return Starlette(
        routes=[
            Route("/healthz", healthz),
            Route("/rooms", create_room, methods=["POST"]),
            WebSocketRoute("/ws/{room:int}", socket),
        ],
        lifespan=lifespan,
    )


def asyncpg_dsn(url: str) -> str:
    """Accept SQLAlchemy-style URLs (``postgresql+asyncpg://``) as asyncpg wants them."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--pool-size", type=int, default=10)
    parser.add_argument("--ws", default="auto", help="uvicorn websocket implementation")
    parser.add_argument(
        "--notify", action="store_true", help="also NOTIFY in each move's transaction"
    )
    parser.add_argument(
        "--pad", type=int, default=0, metavar="BYTES", help="a view of BYTES a message"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    uvicorn.run(
        build_app(
            asyncpg_dsn(args.database_url), args.pool_size, args.notify, args.pad
        ),
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        ws=args.ws,
    )


if __name__ == "__main__":
    main()
