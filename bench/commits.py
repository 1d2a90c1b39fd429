"""Commit rate of a move on one PostgreSQL, with and without NOTIFY in its transaction.

    python -m bench.commits [--seconds 3] [--clients 1,8,32] [--repeat 3] [--json]

A move's write is one transaction: bump the room's version, append the move, commit
(durable: ``synchronous_commit`` stays on, as for the server's moves). PostgreSQL takes a
global lock at the commit of every transaction that sent ``NOTIFY`` and holds it through the
WAL flush, so notifying commits are serialised. Three ways of writing a move are measured,
alternated within one run (this machine's speed drifts by tens of per cent in minutes):

- ``plain``: the move alone (the floor);
- ``notify_in_tx``: the move with ``pg_notify`` inside its transaction;
- ``notify_after``: the move, then ``pg_notify`` as a statement of its own after the commit,
  on a connection whose commits do not wait for the disk (what the server does:
  app/notices/announcer.py, app/store/pool.py ``light``; the server batches these too).

Each client is one connection writing moves of its own rooms as fast as it can for the
given seconds. Printed: commits per second and the latency of a move's write (p50 / p99),
per mode and client count; the figures are in docs/scaling.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from bench import procs

MODES = ("plain", "notify_in_tx", "notify_after")
ROOMS_PER_CLIENT = 4

SCHEMA = """
CREATE TABLE rooms (id text PRIMARY KEY, version integer NOT NULL DEFAULT 0);
CREATE TABLE moves (
    room_id text NOT NULL REFERENCES rooms(id),
    seq integer NOT NULL,
    action jsonb NOT NULL,
    PRIMARY KEY (room_id, seq)
);
"""

BUMP = "UPDATE rooms SET version = version + 1 WHERE id = $1 RETURNING version"
APPEND = "INSERT INTO moves (room_id, seq, action) VALUES ($1, $2, $3)"
NOTIFY = "SELECT pg_notify('bench', $1)"
ACTION = json.dumps({"type": "place", "at": [3, 2], "rotation": 1})


async def _client(
    conn: Any,
    light: Any,
    mode: str,
    rooms: list[str],
    until: float,
    latencies: list[float],
) -> int:
    done = 0
    while time.perf_counter() < until:
        room = rooms[done % len(rooms)]
        started = time.perf_counter()
        async with conn.transaction():
            version = await conn.fetchval(BUMP, room)
            await conn.execute(APPEND, room, version, ACTION)
            if mode == "notify_in_tx":
                await conn.execute(NOTIFY, f"{room}:m:{version}")
        latencies.append((time.perf_counter() - started) * 1000)
        if mode == "notify_after":
            async with light.acquire() as notifier:
                await notifier.execute(NOTIFY, f"{room}:m:{version}")
        done += 1
    return done


async def _no_flush(conn: Any) -> None:
    await conn.execute("SET synchronous_commit = off")


async def run_mode(url: str, mode: str, clients: int, seconds: float) -> dict[str, Any]:
    """`clients` connections writing moves for `seconds`; commits/s and latency."""
    setup = await asyncpg.connect(url)
    try:
        await setup.execute("TRUNCATE moves, rooms")
        names = [f"r{c}-{k}" for c in range(clients) for k in range(ROOMS_PER_CLIENT)]
        await setup.executemany(
            "INSERT INTO rooms (id) VALUES ($1)", [(n,) for n in names]
        )
    finally:
        await setup.close()
    heard = 0

    def hear(*_: Any) -> None:
        nonlocal heard
        heard += 1

    listener = await asyncpg.connect(url)  # a listener, as another instance would be
    await listener.add_listener("bench", hear)
    conns = [await asyncpg.connect(url) for _ in range(clients)]
    # the notices after the commit share a small pool, as the server's ``light`` pool
    light = await asyncpg.create_pool(
        url, min_size=1, max_size=min(8, clients), init=_no_flush
    )
    latencies: list[float] = []
    try:
        started = time.perf_counter()
        until = started + seconds
        counts = await asyncio.gather(
            *(
                _client(
                    conn,
                    light,
                    mode,
                    names[c * ROOMS_PER_CLIENT : (c + 1) * ROOMS_PER_CLIENT],
                    until,
                    latencies,
                )
                for c, conn in enumerate(conns)
            )
        )
        elapsed = time.perf_counter() - started
        await asyncio.sleep(0.2)  # the last notices reach the listener
    finally:
        for conn in conns:
            await conn.close()
        await light.close()
        await listener.close()
    ordered = sorted(latencies)
    return {
        "mode": mode,
        "clients": clients,
        "commits": sum(counts),
        "commits_per_s": round(sum(counts) / elapsed, 1),
        "p50_ms": round(ordered[len(ordered) // 2], 2) if ordered else None,
        "p99_ms": round(ordered[int(len(ordered) * 0.99)], 2) if ordered else None,
        "notices_heard": heard,
    }


async def bench(clients: list[int], seconds: float, repeat: int) -> dict[str, Any]:
    with procs.postgres() as server_url:
        url = procs.libpq_url(
            await procs.fresh_database(server_url, "ishtar_bench_commits")
        )
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(SCHEMA)
        finally:
            await conn.close()
        runs: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for _ in range(repeat):
            for count in clients:
                for mode in MODES:  # alternated: drift falls on every mode alike
                    result = await run_mode(url, mode, count, seconds)
                    runs.setdefault((mode, count), []).append(result)
    table = []
    for (mode, count), results in runs.items():
        table.append(
            {
                "mode": mode,
                "clients": count,
                "commits_per_s": round(
                    statistics.median(r["commits_per_s"] for r in results), 1
                ),
                "p50_ms": round(statistics.median(r["p50_ms"] for r in results), 2),
                "p99_ms": round(statistics.median(r["p99_ms"] for r in results), 2),
                "notices_heard": sum(r["notices_heard"] for r in results),
                "errors": 0,
            }
        )
    table.sort(key=lambda row: (row["clients"], MODES.index(row["mode"])))
    return {
        "seconds": seconds,
        "repeat": repeat,
        "loadavg": os.getloadavg(),
        "rows": table,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--clients", default="1,8,32", help="comma-separated counts")
    parser.add_argument("--repeat", type=int, default=3, help="alternated runs of each")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    clients = [int(c) for c in args.clients.split(",") if c.strip()]
    result = asyncio.run(bench(clients, args.seconds, args.repeat))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"load average before: {result['loadavg'][0]:.2f}; medians of {args.repeat} runs"
    )
    print(f"{'clients':>8} {'mode':>14} {'commits/s':>10} {'p50 ms':>8} {'p99 ms':>8}")
    for row in result["rows"]:
        print(
            f"{row['clients']:>8} {row['mode']:>14} {row['commits_per_s']:>10}"
            f" {row['p50_ms']:>8} {row['p99_ms']:>8}"
        )


if __name__ == "__main__":
    main()
