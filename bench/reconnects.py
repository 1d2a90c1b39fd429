"""Server memory over many websocket reconnects (docs/benchmarks.md, "Reconnects").

`python -m bench.reconnects` (`--reconnects N`, `--batch B`, `--every K`, `--baseline DIR`
to run another checkout's code after ours, `--json`). It starts PostgreSQL (`DATABASE_URL`,
or an embedded one) and the real server (`ishtar serve`, flood limits lifted), creates and
starts a room, and then, B at a time, has spectators connect, say hello, take their welcome
and vanish (the socket aborted, no close frame), as clients on a flaky network do; the
room's presence changes with every one, so messages are on their way to sockets that are
gone. Every K reconnects it prints the server's resident set.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]

from bench import procs
from bench.load import postgres
from bench.rawws import open_lean


async def vanish(url: str, origin: str) -> None:
    got = asyncio.Event()
    client = await open_lean(url, origin, lambda _m, _at: got.set())
    client.send_text('{"type": "hello", "token": null}')
    await asyncio.wait_for(got.wait(), 30)
    assert client.transport is not None
    client.transport.abort()


async def room(http: httpx.AsyncClient) -> str:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "A"})).json()
    room_id: str = created["room_id"]
    joined = await http.post(f"/api/rooms/{room_id}/seats", json={"name": "B"})
    assert joined.status_code == 201, joined.text
    headers = {"Authorization": f"Bearer {created['host_token']}"}
    started = await http.post(f"/api/rooms/{room_id}/start", headers=headers)
    assert started.status_code == 200, started.text
    return room_id


async def run(
    server: procs.Server, reconnects: int, batch: int, every: int
) -> dict[str, Any]:
    server.start()
    try:
        await server.wait_ready("/readyz")
        assert server.proc is not None
        process = psutil.Process(server.proc.pid)
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            room_id = await room(http)
        url = server.base.replace("http://", "ws://") + f"/ws/rooms/{room_id}"
        samples: list[tuple[int, float]] = []

        def sample(done: int) -> None:
            mib = process.memory_info().rss / 2**20
            samples.append((done, round(mib, 1)))
            print(f"  {done:>7} reconnects: {mib:7.1f} MiB", file=sys.stderr)

        sample(0)
        done = 0
        while done < reconnects:
            await asyncio.gather(*(vanish(url, server.base) for _ in range(batch)))
            done += batch
            if done % every < batch:
                sample(done)
        await asyncio.sleep(2.0)  # the last sockets' handlers end
        sample(done)
        return {"samples": samples, "peak_mib": max(mib for _, mib in samples)}
    finally:
        server.stop()


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {"reconnects": args.reconnects, "batch": args.batch}
    with postgres() as url:
        db = await procs.fresh_database(url, "ishtar_bench_reconnects")
        print("ours:", file=sys.stderr)
        server = procs.ishtar_server(db)
        report["ishtar"] = await run(server, args.reconnects, args.batch, args.every)
        if args.baseline is not None:
            db = await procs.fresh_database(url, "ishtar_bench_reconnects_base")
            print(f"baseline ({args.baseline}):", file=sys.stderr)
            server = procs.ishtar_server(db, args.baseline)
            report["baseline"] = await run(
                server, args.reconnects, args.batch, args.every
            )
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.reconnects")
    parser.add_argument("--reconnects", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--every", type=int, default=2_000)
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = asyncio.run(bench(args))
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
