"""How fast a move made through one instance reaches the clients of another.

`python -m bench.instances [--moves 200] [--json]` starts a throwaway PostgreSQL (or uses
DATABASE_URL), two `ishtar serve` processes A and B on it, opens a 2-player room through A,
connects seat 0 to A and seat 1 plus a spectator to B, and plays moves (first legal action)
through whichever seat must act. For each move it measures the time from the submission
until the connections on the *other* instance have the new version: that path is
A's commit → NOTIFY (room id, version) → B's listener → B reads the move → B's sockets.
Prints p50/p95/p99/max in milliseconds (issue 4 asks for under one second).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import time
import uuid
from typing import Any

import httpx
import websockets

from bench.procs import embedded_postgres, fresh_database, ishtar_server


class Client:
    """One websocket of the room: keeps the latest version, view and legal actions."""

    def __init__(self, base: str, room: str, token: str | None) -> None:
        self.url = base.replace("http", "ws", 1) + f"/ws/rooms/{room}"
        self.token = token
        self.version = -1
        self.legal: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        origin = self.url.replace("ws", "http", 1).split("/ws/")[0]
        self._ws = await websockets.connect(self.url, origin=origin)  # type: ignore[arg-type]
        await self._ws.send(json.dumps({"type": "hello", "token": self.token}))
        self._reader = asyncio.create_task(self._read())
        while self.version < 0:
            await self.wait()

    async def _read(self) -> None:
        async for text in self._ws:
            message = json.loads(text)
            if "version" in message and message["type"] in {
                "welcome",
                "update",
                "sync",
            }:
                self.version = max(self.version, message["version"])
                self.legal = message.get("legal") or []
            self.changed.set()

    async def wait(self) -> None:
        await asyncio.wait_for(self.changed.wait(), 15)
        self.changed.clear()

    async def until(self, version: int) -> None:
        while self.version < version:
            await self.wait()

    async def move(self, action: dict[str, Any]) -> None:
        await self._ws.send(
            json.dumps(
                {
                    "type": "move",
                    "move": action,
                    "expected_version": self.version,
                    "move_id": uuid.uuid4().hex,
                }
            )
        )

    async def close(self) -> None:
        if self._reader:
            self._reader.cancel()
        with contextlib.suppress(Exception):
            await self._ws.close()


async def play_one_game(a: str, b: str, moves: int) -> list[float]:
    """Play up to `moves` moves of a new room; the cross-instance delay of each (ms)."""
    async with httpx.AsyncClient(base_url=a) as http:
        room = (
            await http.post(
                "/api/rooms", json={"players": 2, "name": "A", "seat_order": "fixed"}
            )
        ).json()
        seat = (
            await http.post(f"/api/rooms/{room['room_id']}/seats", json={"name": "B"})
        ).json()
        started = await http.post(
            f"/api/rooms/{room['room_id']}/start",
            headers={"Authorization": f"Bearer {room['host_token']}"},
        )
        started.raise_for_status()
    seat_a = Client(a, room["room_id"], room["token"])
    seat_b = Client(b, room["room_id"], seat["token"])
    watcher = Client(b, room["room_id"], None)
    for client in (seat_a, seat_b, watcher):
        await client.open()
    delays: list[float] = []
    for _ in range(moves):
        mover = seat_a if seat_a.legal else seat_b
        if not mover.legal:
            break  # the game is over
        others = [watcher, seat_b] if mover is seat_a else [seat_a]
        version = mover.version
        sent = time.perf_counter()
        await mover.move(mover.legal[0]["action"])
        for other in others:
            await other.until(version + 1)
        delays.append((time.perf_counter() - sent) * 1000)
        await mover.until(version + 1)
    for client in (seat_a, seat_b, watcher):
        await client.close()
    return delays


async def measure(database_url: str, moves: int) -> dict[str, Any]:
    url = await fresh_database(database_url, "ishtar_bench_instances")
    servers = [ishtar_server(url), ishtar_server(url)]
    for server in servers:
        server.start()
    try:
        for server in servers:
            await server.wait_ready("/readyz")
        a, b = (server.base for server in servers)
        delays: list[float] = []
        while len(delays) < moves:
            delays += await play_one_game(a, b, moves - len(delays))
    finally:
        for server in servers:
            server.stop()
    ordered = sorted(delays)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

    return {
        "moves": len(delays),
        "p50_ms": round(statistics.median(ordered), 2),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": round(ordered[-1], 2),
        "load_average": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    database = os.environ.get("DATABASE_URL")
    with contextlib.ExitStack() as stack:
        if database is None:
            database = stack.enter_context(embedded_postgres())
        result = asyncio.run(measure(database, args.moves))
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['moves']} moves through A seen on B: p50 {result['p50_ms']} ms, "
            f"p95 {result['p95_ms']} ms, p99 {result['p99_ms']} ms, "
            f"max {result['max_ms']} ms (load average {result['load_average']})"
        )


if __name__ == "__main__":
    main()
