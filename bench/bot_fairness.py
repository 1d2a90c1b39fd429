"""Bot fairness: one game's bot beside many rooms of hard bots (issue 13, "Bots starve").

    python -m bench.bot_fairness [--busy 20] [--levels easy,medium] [--turns 5]
                                 [--window 45] [--baseline DIR] [--json]

Starts PostgreSQL (``DATABASE_URL``, or an embedded pgserver in a temporary directory) and
``ishtar serve`` with its default bot settings (a 0.8 s pause before a turn, 0.9 s of search
for the hard bot, two bot worker processes). It fills `--busy` rooms with four hard bots each
and starts them; once they move (the bot processes are up), it plays a 2-player game of a
scripted person against a bot of each of `--levels` in turn, and times each of the bot's
turns: from the person's last step to the moment the view says it is the person's turn
again (the view is polled every 50 ms). Each game stops after `--turns` bot turns or
`--window` seconds, whichever comes first. Alone, a bot's turn takes about 1.7 s: the
0.8 s pause before it, a third of that before each further step, and the thinking; the
number of steps varies from turn to turn, so the report also gives each turn's *overhead*:
its time less those pauses (waiting for a worker, thinking, committing, polling).

The quota on all-bot rooms per address (``ISHTAR_BOT_ROOMS_PER_ADDRESS``) is lifted: the
benchmark measures the scheduling of bot thinking, not the quota that stops one address from
asking for that much of it. With `--baseline`, a checkout of older code (``git archive
<rev> | tar -x -C DIR``) is measured first on a fresh database, then this one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import httpx

from bench import procs

POLL_S = 0.05
DELAY_S = (
    0.8  # ISHTAR_BOT_DELAY_S's default: before a turn, a third of it between steps
)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def busy_room(http: httpx.AsyncClient) -> str:
    """A room of four hard bots, started; its id."""
    room = (await http.post("/api/rooms", json={"players": 4})).json()
    rid, host = room["room_id"], auth(room["host_token"])
    for _ in range(4):
        added = await http.post(
            f"/api/rooms/{rid}/bots", json={"level": "hard"}, headers=host
        )
        added.raise_for_status()
    (await http.post(f"/api/rooms/{rid}/start", headers=host)).raise_for_status()
    return str(rid)


async def moving(http: httpx.AsyncClient, room_id: str, within: float = 120) -> None:
    """Wait until a room's game has moved (its bots think)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if (await http.get(f"/api/rooms/{room_id}")).json()["version"] > 0:
            return
        await asyncio.sleep(0.2)
    raise TimeoutError(f"room {room_id} never moved")


async def timed_game(
    http: httpx.AsyncClient, level: str, turns: int, window_s: float
) -> tuple[list[tuple[float, int]], float | None]:
    """(Seconds, steps) of each of the bot's turns, beside whatever else the server does,
    and how long the turn still going when the window closed had lasted (None: none was)."""
    options = {"players": 2, "name": "Ana", "first_player": 0, "seat_order": "fixed"}
    room = (await http.post("/api/rooms", json=options)).json()
    rid, me, host = room["room_id"], auth(room["token"]), auth(room["host_token"])
    added = await http.post(
        f"/api/rooms/{rid}/bots", json={"level": level}, headers=host
    )
    added.raise_for_status()
    (await http.post(f"/api/rooms/{rid}/start", headers=host)).raise_for_status()
    times: list[tuple[float, int]] = []
    waiting_since: float | None = None
    from_version = 0
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
                waiting_since, from_version = time.monotonic(), view["version"]
            await asyncio.sleep(POLL_S)
            continue
        if waiting_since is not None:
            steps = view["version"] - from_version
            times.append((time.monotonic() - waiting_since, steps))
            waiting_since = None
        move = {
            "move": forward[-1],
            "expected_version": view["version"],
            "move_id": f"ana-{view['version']}",
        }
        moved = await http.post(f"/api/rooms/{rid}/moves", json=move, headers=me)
        moved.raise_for_status()
    going = None if waiting_since is None else time.monotonic() - waiting_since
    return times, going


def summary(
    code: str,
    busy: int,
    level: str,
    timed: tuple[list[tuple[float, int]], float | None],
    window_s: float,
) -> dict[str, Any]:
    turns, going = timed
    times = [t for t, _ in turns]
    overheads = [t - DELAY_S - (steps - 1) * DELAY_S / 3 for t, steps in turns]
    return {
        "code": code,
        "busy_rooms": busy,
        "level": level,
        "window_s": window_s,
        "turns": len(times),
        "turn_s_median": round(statistics.median(times), 2) if times else None,
        "turn_s_mean": round(statistics.fmean(times), 2) if times else None,
        "turn_s_max": round(max(times), 2) if times else None,
        "turn_s": [round(t, 2) for t in times],
        "steps": [steps for _, steps in turns],
        "overhead_s_median": round(statistics.median(overheads), 2) if turns else None,
        "overhead_s": [round(o, 2) for o in overheads],
        "unfinished_turn_s": None if going is None else round(going, 2),
    }


async def measure(
    db: str,
    busy: int,
    levels: list[str],
    turns: int,
    window_s: float,
    app_dir: Path | None,
) -> list[dict[str, Any]]:
    server = procs.ishtar_server(db, app_dir)
    server.env["ISHTAR_BOT_ROOMS_PER_ADDRESS"] = str(busy + 10)
    if app_dir is not None:
        # `python -m app` would put the working directory (this checkout) ahead of
        # PYTHONPATH and serve this code instead of the baseline's.
        server.env["PYTHONSAFEPATH"] = "1"
    server.start()
    code = str(app_dir) if app_dir else "this checkout"
    try:
        await server.wait_ready("/readyz")
        async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
            rooms = [await busy_room(http) for _ in range(busy)]
            if rooms:
                await moving(http, rooms[-1])
            return [
                summary(
                    code,
                    busy,
                    level,
                    await timed_game(http, level, turns, window_s),
                    window_s,
                )
                for level in levels
            ]
    finally:
        server.stop()


async def bench(
    busy: int, levels: list[str], turns: int, window_s: float, baseline: Path | None
) -> dict[str, Any]:
    report: dict[str, Any] = {"loadavg_before": os.getloadavg(), "runs": []}
    with procs.postgres() as url:
        for app_dir in ([baseline] if baseline else []) + [None]:
            db = await procs.fresh_database(url, "ishtar_bench_bots")
            report["runs"] += await measure(db, busy, levels, turns, window_s, app_dir)
    report["loadavg_after"] = os.getloadavg()
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A bot's turns beside busy rooms.")
    parser.add_argument("--busy", type=int, default=20, help="rooms of four hard bots")
    parser.add_argument(
        "--levels", default="easy,medium", help="the timed games' bots, in turn"
    )
    parser.add_argument("--turns", type=int, default=5, help="bot turns to time")
    parser.add_argument("--window", type=float, default=45.0, help="seconds per game")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="older code first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    levels = [level for level in args.levels.split(",") if level]
    report = asyncio.run(
        bench(args.busy, levels, args.turns, args.window, args.baseline)
    )
    if args.json:
        print(json.dumps(report))
        return
    for run in report["runs"]:
        going = run["unfinished_turn_s"]
        print(
            f"{run['code']}: {run['busy_rooms']} busy rooms, {run['turns']}"
            f" {run['level']}-bot turns, median {run['turn_s_median']} s,"
            f" mean {run['turn_s_mean']} s, max {run['turn_s_max']} s  {run['turn_s']};"
            f" overhead median {run['overhead_s_median']} s  {run['overhead_s']}"
            + ("" if going is None else f" (one unfinished after {going} s)")
        )


if __name__ == "__main__":
    main()
