"""Bot fairness: one game's easy bot beside many rooms of hard bots (issue 13, point 6).

    python -m bench.bot_fairness [--busy 20] [--turns 6] [--window 60] [--baseline DIR] [--json]

Starts PostgreSQL (``DATABASE_URL``, or an embedded pgserver in a temporary directory) and
``ishtar serve`` with its default bot settings (a 0.8 s delay before a turn, 0.9 s of search
for the hard bot, two bot worker processes). It fills `--busy` rooms with four hard bots each
and starts them, then plays a 2-player game of a scripted person against an easy bot and
times each of the bot's turns: from the person's last step to the moment the view says it is
the person's turn again (the view is polled every 50 ms). It stops after `--turns` bot turns
or `--window` seconds, whichever comes first, and prints the per-turn times.

The quota on all-bot rooms per address (``ISHTAR_BOT_ROOMS_PER_ADDRESS``) is lifted: the
benchmark measures the scheduling of bot thinking, not the quota that stops one address from
asking for that much of it. With `--baseline`, a checkout of older code (``git archive
<rev> | tar -x -C DIR``) is measured first on a fresh database, then this one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from bench import procs

POLL_S = 0.05


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
    else:
        with procs.embedded_postgres() as embedded:
            yield embedded


async def busy_room(http: httpx.AsyncClient) -> None:
    """A room of four hard bots, started."""
    room = (await http.post("/api/rooms", json={"players": 4})).json()
    host = {"Authorization": f"Bearer {room['host_token']}"}
    for _ in range(4):
        added = await http.post(
            f"/api/rooms/{room['room_id']}/bots", json={"level": "hard"}, headers=host
        )
        added.raise_for_status()
    (
        await http.post(f"/api/rooms/{room['room_id']}/start", headers=host)
    ).raise_for_status()


async def easy_game(
    http: httpx.AsyncClient, turns: int, window_s: float
) -> list[float]:
    """Seconds each of the easy bot's turns took, beside whatever else the server does."""
    room = (
        await http.post(
            "/api/rooms",
            json={
                "players": 2,
                "name": "Ana",
                "first_player": 0,
                "seat_order": "fixed",
            },
        )
    ).json()
    rid, me = room["room_id"], {"Authorization": f"Bearer {room['token']}"}
    host = {"Authorization": f"Bearer {room['host_token']}"}
    added = await http.post(
        f"/api/rooms/{rid}/bots", json={"level": "easy"}, headers=host
    )
    added.raise_for_status()
    (await http.post(f"/api/rooms/{rid}/start", headers=host)).raise_for_status()
    times: list[float] = []
    waiting_since: float | None = None
    until = time.monotonic() + window_s
    while len(times) < turns and time.monotonic() < until:
        view = (await http.get(f"/api/rooms/{rid}/view", headers=me)).json()
        if view["view"].get("phase") == "over":
            break
        forward = [
            item["action"]
            for item in view.get("legal", [])
            if item["action"]["type"] != "undo"
        ]
        if not forward:  # the bot's turn
            if waiting_since is None:
                waiting_since = time.monotonic()
            await asyncio.sleep(POLL_S)
            continue
        if waiting_since is not None:
            times.append(time.monotonic() - waiting_since)
            waiting_since = None
        move = {
            "move": forward[-1],
            "expected_version": view["version"],
            "move_id": f"ana-{view['version']}",
        }
        (
            await http.post(f"/api/rooms/{rid}/moves", json=move, headers=me)
        ).raise_for_status()
    return times


async def measure(
    db: str, busy: int, turns: int, window_s: float, app_dir: Path | None
) -> dict[str, Any]:
    server = procs.ishtar_server(db, procs.free_port(), app_dir)
    server.env["ISHTAR_BOT_ROOMS_PER_ADDRESS"] = str(busy + 10)
    server.start()
    try:
        await server.wait_ready("/readyz")
        async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
            for _ in range(busy):
                await busy_room(http)
            times = await easy_game(http, turns, window_s)
    finally:
        server.stop()
    return {
        "code": str(app_dir) if app_dir else "this checkout",
        "busy_rooms": busy,
        "turns": len(times),
        "turn_s_median": round(statistics.median(times), 2) if times else None,
        "turn_s_mean": round(statistics.fmean(times), 2) if times else None,
        "turn_s_max": round(max(times), 2) if times else None,
        "turn_s": [round(t, 2) for t in times],
    }


async def bench(
    busy: int, turns: int, window_s: float, baseline: Path | None
) -> dict[str, Any]:
    report: dict[str, Any] = {"loadavg_before": os.getloadavg(), "runs": []}
    with postgres() as url:
        for app_dir in ([baseline] if baseline else []) + [None]:
            db = await procs.fresh_database(url, "ishtar_bench_bots")
            report["runs"].append(await measure(db, busy, turns, window_s, app_dir))
    report["loadavg_after"] = os.getloadavg()
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="An easy bot's turns beside busy rooms."
    )
    parser.add_argument("--busy", type=int, default=20, help="rooms of four hard bots")
    parser.add_argument("--turns", type=int, default=6, help="easy-bot turns to time")
    parser.add_argument("--window", type=float, default=60.0, help="seconds at most")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="older code first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    report = asyncio.run(bench(args.busy, args.turns, args.window, args.baseline))
    if args.json:
        print(json.dumps(report))
        return
    for run in report["runs"]:
        print(
            f"{run['code']}: {run['busy_rooms']} busy rooms, {run['turns']} easy-bot turns,"
            f" median {run['turn_s_median']} s, mean {run['turn_s_mean']} s,"
            f" max {run['turn_s_max']} s  {run['turn_s']}"
        )


if __name__ == "__main__":
    main()
