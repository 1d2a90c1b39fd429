"""What a flood of `hello` frames from closed connections costs a server (issue 13, attack 1).

`python -m bench.flood [--connections 50] [--frames 400] [--app-dir DIR] [--json]` starts a
throwaway PostgreSQL (or uses DATABASE_URL) and one `ishtar serve` with its default limits,
plays a victim game (two seats over websockets, first legal action, one move at a time),
then opens `--connections` raw websockets to another room, writes `--frames` hello frames on
each in one go and closes them all after `--hold` seconds, as the attack did, while the
victim keeps playing. Reported: the server's CPU seconds and RSS growth from the flood until
it is idle again, how many seconds it stayed busy, how long the flood room still counted the
dead connections as spectators, and the victim's move latency (p50 and max, milliseconds)
before and during the flood. `--app-dir` serves another checkout (the code before a fix).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psutil  # type: ignore[import-untyped]
import websockets

from bench import procs
from bench.rawws import frame

HELLO = json.dumps({"type": "hello", "token": None, "since": None}).encode()


class Seat:
    """One player of the victim game: its latest version and legal actions."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.version = -1
        self.legal: list[dict[str, Any]] = []
        self.acks: dict[str, asyncio.Future[None]] = {}
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] in ("welcome", "update", "sync"):
                self.version = max(self.version, message["version"])
                self.legal = message.get("legal") or []
                self.changed.set()
            ack = message.get("ack") or (message if message["type"] == "ack" else None)
            if ack is None and message["type"] == "error":
                ack = message
            if ack is not None and ack.get("move_id") in self.acks:
                self.acks.pop(ack["move_id"]).set_result(None)


async def open_seat(
    base: str, room: str, token: str
) -> tuple[Seat, asyncio.Task[None]]:
    url = base.replace("http", "ws", 1) + f"/ws/rooms/{room}"
    ws = await websockets.connect(url, origin=base, max_size=None)  # type: ignore[arg-type]
    seat = Seat(ws)
    task = asyncio.get_running_loop().create_task(seat.read())
    await ws.send(json.dumps({"type": "hello", "token": token}))
    while seat.version < 0:
        seat.changed.clear()
        await seat.changed.wait()
    return seat, task


async def new_room(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "A"})).json()
    room = created["room_id"]
    joined = (await http.post(f"/api/rooms/{room}/seats", json={"name": "B"})).json()
    auth = {"Authorization": f"Bearer {created['host_token']}"}
    (await http.post(f"/api/rooms/{room}/start", headers=auth)).raise_for_status()
    return room, [created["token"], joined["token"]]


async def play(
    base: str,
    http: httpx.AsyncClient,
    stop: asyncio.Event,
    times: list[tuple[float, float]],
) -> None:
    """Victim games, one after another: moves one at a time by whichever seat has legal
    actions; (start, ms until the ack) per move."""
    while not stop.is_set():
        room, tokens = await new_room(http)
        opened = [await open_seat(base, room, t) for t in tokens]
        seats = [seat for seat, _ in opened]
        try:
            await play_one(seats, stop, times)
        finally:
            for seat, task in opened:
                await seat.ws.close()
                with contextlib.suppress(Exception):
                    await task


async def play_one(
    seats: list[Seat], stop: asyncio.Event, times: list[tuple[float, float]]
) -> None:
    idle = 0
    while not stop.is_set():
        mover = next((s for s in seats if s.legal), None)
        if mover is None:
            idle += 1
            if idle > 100:  # the game is over
                return
            await asyncio.sleep(0.01)
            continue
        idle = 0
        version = mover.version
        move_id = uuid.uuid4().hex
        done = asyncio.get_running_loop().create_future()
        mover.acks[move_id] = done
        started = time.perf_counter()
        await mover.ws.send(
            json.dumps(
                {
                    "type": "move",
                    "move": mover.legal[0]["action"],
                    "expected_version": version,
                    "move_id": move_id,
                }
            )
        )
        await asyncio.wait_for(done, 60)
        times.append((started, 1000 * (time.perf_counter() - started)))
        while all(s.version <= version for s in seats):  # everyone has the update
            for s in seats:
                s.changed.clear()
            await asyncio.wait(
                [asyncio.ensure_future(s.changed.wait()) for s in seats], timeout=1
            )
        await asyncio.sleep(0.25)  # a brisk person's pace: the flood is the load


async def flood_one(
    base: str, room: str, frames: int, hold: float, drains: list[asyncio.Task[None]]
) -> None:
    """One attacking connection: upgrade, write every hello at once, and after `hold`
    seconds send a close frame and shut its sending side: as far as the protocol goes the
    client is gone. It keeps reading (and discarding) what the server still sends, so that
    no TCP reset discards the frames the server has not read yet: they are the attack."""
    parts = urlsplit(base)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws/rooms/{room} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {key}\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n")[0]:
        raise RuntimeError(f"no upgrade: {head[:200]!r}")
    drains.append(asyncio.get_running_loop().create_task(drain(reader, writer)))
    writer.write(frame(0x1, HELLO) * frames)
    await writer.drain()
    await asyncio.sleep(hold)
    writer.write(frame(0x8, (1000).to_bytes(2, "big")))
    writer.write_eof()


async def drain(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        while await reader.read(1 << 16):
            pass
    writer.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


async def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    db = await procs.fresh_database(url, "ishtar_bench_flood")
    env = {
        "DATABASE_URL": procs.sqlalchemy_url(db),
        "ISHTAR_ROOMS_PER_MINUTE": "1000",
        "ISHTAR_LOG_LEVEL": "warning",
    }
    if args.app_dir:
        env["PYTHONPATH"] = str(args.app_dir)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        # -P: the working directory (this checkout) must not shadow PYTHONPATH's app
        # (bench.procs.Server does not start the process in `cwd`).
        argv = [sys.executable, "-P", "-m", "app"]
    else:
        argv = procs.ishtar_command()
    argv += ["serve", "--host", "127.0.0.1"]
    server = procs.Server.on_reserved_port(argv, env, cwd=args.app_dir)
    server.start()
    try:
        await server.wait_ready("/readyz")
        assert server.proc is not None
        process = psutil.Process(server.proc.pid)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            target, _ = await new_room(http)
            stop = asyncio.Event()
            times: list[tuple[float, float]] = []
            player = asyncio.get_running_loop().create_task(
                play(server.base, http, stop, times)
            )
            await asyncio.sleep(args.warmup)
            rss0 = process.memory_info().rss
            cpu0 = sum(process.cpu_times()[:2])
            flood_at = time.perf_counter()
            drains: list[asyncio.Task[None]] = []
            await asyncio.gather(
                *(
                    flood_one(server.base, target, args.frames, args.hold, drains)
                    for _ in range(args.connections)
                )
            )
            peak, busy_until, ghosts_until = rss0, flood_at, flood_at
            last_cpu, last_t = sum(process.cpu_times()[:2]), time.perf_counter()
            quiet = 0
            while time.perf_counter() - flood_at < max(args.limit, args.window):
                await asyncio.sleep(0.5)
                now, cpu = time.perf_counter(), sum(process.cpu_times()[:2])
                peak = max(peak, process.memory_info().rss)
                status = (await http.get(f"/api/rooms/{target}")).json()
                if status["spectators"]:
                    ghosts_until = now
                if (cpu - last_cpu) / (now - last_t) > args.idle:
                    busy_until, quiet = now, 0
                else:
                    quiet += 1
                last_cpu, last_t = cpu, now
                settled = time.perf_counter() - flood_at >= args.window
                if quiet >= 4 and not status["spectators"] and settled:
                    break
            cpu_used = sum(process.cpu_times()[:2]) - cpu0
            rss1 = process.memory_info().rss
            stop.set()
            await player
            for task in drains:
                task.cancel()
        before = [ms for at, ms in times if at < flood_at]
        # at least `--window` seconds, longer if the server stayed busy longer
        window_end = max(busy_until, flood_at + args.window)
        during = [ms for at, ms in times if flood_at <= at <= window_end]
        return {
            "connections": args.connections,
            "frames_per_connection": args.frames,
            "flood_bytes": args.connections * args.frames * len(frame(0x1, HELLO)),
            "server_cpu_s": round(cpu_used, 2),
            "busy_s": round(busy_until - flood_at, 1),
            "dead_spectators_counted_s": round(ghosts_until - flood_at, 1),
            "rss_before_mib": round(rss0 / 2**20, 1),
            "rss_peak_mib": round(peak / 2**20, 1),
            "rss_after_mib": round(rss1 / 2**20, 1),
            "victim_moves_before": len(before),
            "victim_p50_before_ms": round(statistics.median(before), 1)
            if before
            else None,
            "victim_moves_during": len(during),
            "victim_p50_during_ms": round(statistics.median(during), 1)
            if during
            else None,
            "victim_p95_during_ms": round(percentile(during, 95), 1),
            "victim_max_during_ms": round(max(during), 1) if during else None,
        }
    except BaseException:
        print(f"server log kept in {server.log}:\n{server.tail()}")
        raise
    finally:
        server.stop()


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    url = os.environ.get("DATABASE_URL")
    if url:
        return await run(args, url)
    with procs.embedded_postgres() as embedded:
        return await run(args, embedded)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument(
        "--hold", type=float, default=1.4, help="seconds before closing"
    )
    parser.add_argument("--warmup", type=float, default=3.0, help="victim moves before")
    parser.add_argument("--limit", type=float, default=90.0, help="give up after (s)")
    parser.add_argument(
        "--idle", type=float, default=0.15, help="CPU share deemed idle"
    )
    parser.add_argument(
        "--window", type=float, default=10.0, help="victim window at least (s)"
    )
    parser.add_argument("--app-dir", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
