"""Load benchmark: the real server against this machine's floor, over real websockets.

    python -m bench.load [--rooms 10 --spectators 2 --players 2 --json]
    python -m bench.load --fanout 1000          # one room, 1,000 spectators

Starts PostgreSQL (``DATABASE_URL``, or an embedded pgserver in a temporary directory), then
the real server (``ishtar serve``) as a separate process, opens R rooms over HTTP, seats
scripted players and S spectators per room over websockets, and plays complete games on
loopback, each seat choosing among the legal actions the server sends. Then it plays the same
load against `bench.floor` (commit + relay, no rules) and prints our figures as ratios to it.

Latency is from a move's submission until every connection of its room has the new version.
CPU is the server process's CPU time over the wall time of play (100 % = one core), from the
first move to the end (the same window for PostgreSQL's and the driver's CPU): creating the
rooms and connecting the clients are not counted. Play starts `--settle` seconds (0.5) after the last client
connected, and the driver's own garbage collector is off while games are played; both apply
to ours and the floor alike.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.games import DEFAULT_GAME
from bench import procs
from bench.players import Room, Stats, Target, Watcher, connect, play
from bench.rawws import BROWSER, CLIENTS
from bench.targets import FloorTarget, IshtarTarget


@dataclass
class Plan:
    rooms: int
    players: int
    spectators: int
    seed: int
    policy: str  # "first" or "random"
    profile: str | None = None  # folder for py-spy collapsed stacks of each server
    floor_ws: str = "auto"  # uvicorn websocket implementation of the floor
    floor_notify: bool = False  # the floor also NOTIFYs in each move's transaction
    floor_pad: int = 0  # bytes of view in each of the floor's messages
    idle_timeout: float = 30.0
    connect_concurrency: int = 50
    # Seconds between the last connection opening and the first move: play is measured,
    # not the storm of hellos, welcomes and presence changes of every client connecting.
    settle_s: float = 0.5
    game: str = DEFAULT_GAME  # the registry's id of the game the rooms play
    # "browser": every socket offers permessage-deflate as Chromium does; "lean": none
    client: str = BROWSER


async def run_load(
    target: Target,
    base: str,
    plan: Plan,
    on_connected: Callable[[], None] | None = None,
    on_play: Callable[[], None] | None = None,
) -> Stats:
    """Create the rooms, connect everyone, then play every game to its end.

    `on_connected` is called once every client is connected, before the settle (a
    profiler needs that time to attach); `on_play` as the first moves go out: the meters
    start there, so setup (room creation, connections, welcomes) is not counted as play.
    """
    stats = Stats()
    created = await asyncio.gather(
        *(
            target.create_room(base, plan.players, plan.seed + i)
            for i in range(plan.rooms)
        )
    )
    gate = asyncio.Semaphore(plan.connect_concurrency)

    async def open_ws(room: Any, seat: int | None) -> Any:
        async with gate:
            ws = await connect(
                target.url(base, room, seat), base, plan.client
            )  # a browser on our page
            stats.extensions[
                ws.response.headers.get("Sec-WebSocket-Extensions", "")
                if ws.response is not None
                else ""
            ] += 1
            hello = target.hello(room, seat)
            if hello is not None:  # sent at once: the server wants it within seconds
                await ws.send(hello)
            return ws

    async def open_watcher(room: Room, room_id: Any) -> Watcher:
        async with gate:
            watcher = Watcher(target, room)
            await watcher.open(
                target.url(base, room_id, None),
                base,
                target.hello(room_id, None),
                plan.client,
            )
            assert watcher.client is not None
            deflate = watcher.client.deflate
            stats.extensions["permessage-deflate" if deflate else ""] += 1
            return watcher

    tasks = []
    watching: list[Watcher] = []
    for i, room_id in enumerate(created):
        room = Room(stats, plan.players + plan.spectators)
        seats = range(plan.players)
        sockets = await asyncio.gather(*(open_ws(room_id, seat) for seat in seats))
        watchers = await asyncio.gather(
            *(open_watcher(room, room_id) for _ in range(plan.spectators))
        )
        for seat, ws in zip(seats, sockets, strict=True):
            rng = random.Random(plan.seed * 1000 + i * 10 + seat)
            chooser = rng if plan.policy == "random" else None
            tasks.append(play(ws, target, room, seat, chooser, plan.idle_timeout))
        tasks += [watcher.watch(plan.idle_timeout) for watcher in watchers]
        watching += watchers
    if on_connected is not None:
        on_connected()
    await asyncio.sleep(plan.settle_s)
    if on_play is not None:
        on_play()
    await asyncio.gather(*tasks)
    for watcher in watching:
        assert watcher.client is not None
        stats.messages += watcher.client.messages
        stats.messages_compressed += watcher.client.messages_compressed
    return stats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def extension_counts(accepted: Counter[str]) -> dict[str, int]:
    """Sockets by the name of the extension their server accepted ("none")."""
    names: Counter[str] = Counter()
    for header, count in accepted.items():
        names[header.split(";")[0].strip() or "none"] += count
    return dict(names)


def summarise(
    stats: Stats, sampler: procs.Sampler | None, plan: Plan
) -> dict[str, Any]:
    span = (stats.last_move or 0) - (stats.first_move or 0)
    ms = [x * 1000 for x in stats.latencies]
    out: dict[str, Any] = {
        "moves": stats.moves,
        "games_over": stats.games_over,
        "syncs": stats.syncs,
        "moves_per_game": round(stats.moves / plan.rooms, 1),
        "moves_per_s": round(stats.moves / span, 1) if span > 0 else 0.0,
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "mean_ms": round(statistics.fmean(ms), 2) if ms else float("nan"),
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        # sockets by the extension the server accepted ("none" offered or accepted)
        "extensions": extension_counts(stats.extensions),
        "spectator_messages": stats.messages,
        "spectator_messages_compressed": stats.messages_compressed,
    }
    if sampler is not None:
        out["cpu"] = round(sampler.cpu_percent, 1)
        out["peak_rss_mb"] = round(sampler.peak_rss / 2**20, 1)
    return out


async def measure(
    server: procs.Server, ready: str, target: Target, plan: Plan
) -> dict[str, Any]:
    server.start()
    try:
        await server.wait_ready(ready)
        assert server.proc is not None
        sampler = procs.Sampler(server.proc.pid)
        driver, postgres = procs.Sampler(os.getpid()), procs.CpuMeter("postgres")
        profilers: list[procs.Profiler] = []

        def on_connected() -> None:
            if (
                plan.profile
            ):  # py-spy samples only busy moments: the settle is not in it
                out_file = Path(plan.profile) / f"{target.name}.txt"
                profilers.append(procs.Profiler(server.proc.pid, out_file))

        def on_play() -> None:
            # Play only: room creation, connections and welcomes are not measured.
            sampler.start()
            driver.start()
            postgres.start()

        # The driver's own garbage collections stopped every room's clock at once (a
        # thousand sockets' worth of objects): the harness is not what is measured.
        gc.disable()
        try:
            stats = await run_load(target, server.base, plan, on_connected, on_play)
        finally:
            gc.enable()
        for profiler in profilers:
            profiler.stop()
        await sampler.stop()
        await driver.stop()
        out = summarise(stats, sampler, plan)
        out["postgres_cpu"] = round(postgres.stop(), 1)
        out["driver_cpu"] = round(driver.cpu_percent, 1)
        # CPU per move: steadier than wall-clock figures on a machine shared with others
        moves = max(1, stats.moves)
        out["cpu_ms_per_move"] = round(1000 * sampler.cpu_seconds / moves, 3)
        out["pg_ms_per_move"] = round(
            out["postgres_cpu"] * sampler.wall * 10 / moves, 3
        )
    except BaseException:
        sys.stderr.write(f"server log kept in {server.log}:\n{server.tail()}\n")
        server.stop()
        raise
    server.stop()
    if server.log is not None and not out["errors"]:
        server.log.unlink(missing_ok=True)  # kept when the run failed or saw errors
    return out


async def bench(
    plan: Plan,
    which: str,
    floor_moves: int | None,
    repeat: int = 1,
    baseline: Path | None = None,
) -> dict[str, Any]:
    """Run ours and the floor `repeat` times, alternating, each on a fresh database.

    Alternating spreads whatever else the machine is doing over both; the report keeps
    every run and, per figure, the median of the runs.
    """
    report: dict[str, Any] = {"plan": plan.__dict__.copy(), "loadavg": os.getloadavg()}
    runs: dict[str, list[dict[str, Any]]] = {"ishtar": [], "baseline": [], "floor": []}
    with procs.postgres() as url:
        for _ in range(repeat):
            if which in ("both", "ishtar"):
                db = await procs.fresh_database(url, "ishtar_bench")
                server = procs.ishtar_server(db)
                result = await measure(
                    server, "/readyz", IshtarTarget(game=plan.game), plan
                )
                runs["ishtar"].append(result)
            if baseline is not None:
                db = await procs.fresh_database(url, "ishtar_bench_baseline")
                server = procs.ishtar_server(db, baseline)
                result = await measure(
                    server, "/readyz", IshtarTarget(game=plan.game), plan
                )
                runs["baseline"].append(result)
            if which in ("both", "floor"):
                ours = runs["ishtar"][0]["moves_per_game"] if runs["ishtar"] else 0
                moves = floor_moves or round(ours) or 120
                db = await procs.fresh_database(url, "ishtar_bench_floor")
                floor = procs.floor_server(
                    db, plan.floor_ws, plan.floor_notify, plan.floor_pad
                )
                target = FloorTarget(plan.players, moves)
                runs["floor"].append(await measure(floor, "/healthz", target, plan))
    for name, results in runs.items():
        if results:
            report[name] = median_run(results)
            report[f"{name}_runs"] = results
    return report


def median_run(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per numeric figure, the median over runs; error kinds added up."""
    out: dict[str, Any] = {}
    for key, value in results[0].items():
        if isinstance(value, int | float):
            out[key] = round(statistics.median(r[key] for r in results), 2)
    out["errors"] = sum(r["errors"] for r in results)
    out["extensions"] = results[0]["extensions"]
    kinds: Counter[str] = Counter()
    for r in results:
        kinds.update(r["error_kinds"])
    out["error_kinds"] = dict(kinds)
    return out


def headline(report: dict[str, Any]) -> dict[str, Any]:
    """The one JSON object of ``--json``: our figures, the floor's, and the ratios."""
    ours, floor = report.get("ishtar", {}), report.get("floor", {})
    out: dict[str, Any] = {
        "moves_per_s": ours.get("moves_per_s"),
        "p50_ms": ours.get("p50_ms"),
        "p95_ms": ours.get("p95_ms"),
        "p99_ms": ours.get("p99_ms"),
        "errors": ours.get("errors"),
        "cpu": ours.get("cpu"),
        "peak_rss_mb": ours.get("peak_rss_mb"),
        "floor_moves_per_s": floor.get("moves_per_s"),
        "floor_p99_ms": floor.get("p99_ms"),
        "floor_errors": floor.get("errors"),
        "client": report["plan"]["client"],
    }
    if ours and floor and floor["moves_per_s"]:
        out["ratio_moves_per_s"] = round(ours["moves_per_s"] / floor["moves_per_s"], 3)
        out["ratio_p99"] = round(ours["p99_ms"] / floor["p99_ms"], 3)
    out["detail"] = report
    return out


def print_table(result: dict[str, Any]) -> None:
    detail = result["detail"]
    plan = detail["plan"]
    print(
        f"rooms={plan['rooms']} players={plan['players']} spectators={plan['spectators']}"
        f" policy={plan['policy']} seed={plan['seed']} game={plan.get('game', DEFAULT_GAME)}"
        f" client={plan['client']}"
        f" load average before={detail['loadavg'][0]:.2f}"
    )
    keys = ["moves", "moves_per_s", "p50_ms", "p95_ms", "p99_ms", "errors", "cpu"]
    keys += [
        "peak_rss_mb",
        "postgres_cpu",
        "driver_cpu",
        "cpu_ms_per_move",
        "pg_ms_per_move",
    ]
    names = [n for n in ("ishtar", "baseline", "floor") if n in detail]
    print(f"{'':16}" + "".join(f"{n:>12}" for n in names))
    for key in keys:
        print(f"{key:16}" + "".join(f"{detail[n].get(key, '')!s:>12}" for n in names))
    for name in names:
        print(f"{name} sockets by extension accepted: {detail[name]['extensions']}")
        if detail[name]["error_kinds"]:
            print(f"{name} errors: {detail[name]['error_kinds']}")
    if "ratio_moves_per_s" in result:
        print(
            f"ratio to floor: moves/s {result['ratio_moves_per_s']}, p99 {result['ratio_p99']}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Load benchmark against the floor.")
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument(
        "--fanout", type=int, metavar="N", help="one room with N spectators"
    )
    parser.add_argument("--policy", choices=["first", "random"], default="random")
    parser.add_argument(
        "--game",
        default=DEFAULT_GAME,
        help="the registry's id of the game the rooms play (default: the server's)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", choices=["both", "ishtar", "floor"], default="both")
    parser.add_argument("--floor-moves", type=int, help="moves per floor game")
    parser.add_argument("--floor-ws", default="auto", help="the floor's uvicorn ws")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="py-spy collapsed stacks of play here (read with bench.flame)",
    )
    parser.add_argument(
        "--floor-notify", action="store_true", help="the floor NOTIFYs in each move too"
    )
    parser.add_argument(
        "--floor-pad",
        type=int,
        default=0,
        metavar="BYTES",
        help="the floor's messages carry a view of about BYTES (bench.floor --pad)",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each, alternated"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="also serve this checkout's code (A/B)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=Plan.settle_s,
        metavar="S",
        help="seconds between connecting every client and the first move",
    )
    parser.add_argument(
        "--client",
        choices=CLIENTS,
        default=BROWSER,
        help="browser: every socket offers permessage-deflate and sends Origin, as"
        " Chromium does (the default); lean: no extension offered",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    rooms, spectators = (
        (1, args.fanout) if args.fanout else (args.rooms, args.spectators)
    )
    plan = Plan(rooms, args.players, spectators, args.seed, args.policy)
    plan.profile, plan.floor_ws = args.profile, args.floor_ws
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    plan.floor_notify = args.floor_notify
    plan.floor_pad = args.floor_pad
    plan.settle_s = args.settle
    plan.game = args.game
    plan.client = args.client
    started = time.perf_counter()
    result = headline(
        asyncio.run(
            bench(plan, args.target, args.floor_moves, args.repeat, args.baseline)
        )
    )
    result["wall_s"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(result))
    else:
        print_table(result)


if __name__ == "__main__":
    main()
