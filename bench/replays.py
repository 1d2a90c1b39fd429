"""Replays under load: what an uncached replay costs, what cycling them does to memory and
to another game's moves (issue 13, "Under attack" 3).

    python -m bench.replays [--records 34 --rooms 4 --rounds 3 --clients 4] [--json]
    python -m bench.replays --baseline /tmp/before     # the same against another checkout

Starts PostgreSQL (``DATABASE_URL``, or an embedded pgserver in a temporary directory) and
``ishtar serve`` (flood limits lifted, `bench.procs.UNLIMITED`), then:

1. plays `--rooms` 2-player games to the end over HTTP (random legal actions, no undo);
2. imports `--records` copies of one long record (`long_record`: 4,877 moves of a 4-player
   random-layout game, most of them placements taken back with undo, like the record of
   the attack), each with other player names, so each is a record of its own;
3. starts one more 2-player game and plays it over HTTP throughout, timing each move
   (the submission's round trip): "another game's move latency";
4. `--clients` clients cycle through replays, each request a move not asked before, of the
   rooms and records in turn: every request is a cache miss, in any build (the old cache
   held 32 whole replays; cycling through more sources than that missed every time);
5. prints the latency of an uncached replay request alone (one round, one client), then
   of the requests cycled by the clients (rooms' and records' apart), the server's RSS
   before and after the cycling, and the other game's move latency idle and meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]

from app.play.protocol import dumps
from app.records.gamerecord import build_record
from bench import procs
from engine import ishtar
from games.ishtar import DESCRIPTOR as ISHTAR

LONG_MOVES = 4877


def long_record(
    moves: int = LONG_MOVES, seed: int = 13, names: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A record of a 4-player random-layout game of up to `moves` moves: random legal
    actions, most placements taken back with `undo` so that it lasts. The seed is always
    in it (the server replays only records with their seed)."""
    rng = random.Random(seed)
    players = 4
    state = ishtar.new_game(players, seed, {"layout": "random"})
    log: list[dict[str, Any]] = []
    while len(log) < moves and not ishtar.is_over(state):
        legal = ishtar.legal_actions(state)
        undo = [a for a in legal if ishtar.encode_action(a)["type"] == "undo"]
        forward = [a for a in legal if ishtar.encode_action(a)["type"] != "undo"]
        # Taking most placements back makes the game last; the last few hundred moves
        # only go forward (it may end: a finished record).
        taking_back = len(log) < moves - 100 and rng.random() < 0.99
        action = undo[0] if undo and taking_back else rng.choice(forward)
        text = ishtar.english(ishtar.narrate(state, action))
        log.append(
            {
                "seq": len(log) + 1,
                "seat": ishtar.current_player(state),
                "action": ishtar.encode_action(action),
                "text": text,
                "at": "2026-12-01T12:00:00.000Z",
            }
        )
        state = ishtar.apply(state, action)
    names = names or tuple(f"Player {n}" for n in range(players))
    record = build_record(
        ISHTAR,
        room_id="elsewhere001",
        engine_version=ishtar.ENGINE_VERSION,
        players=[
            {"seat": n, "name": names[n], "colour": None, "bot": None}
            for n in range(players)
        ],
        setup={
            "players": players,
            "options": {
                "layout": "random",
                "first_player": None,
                "edition": state.edition,
            },
        },
        seed=seed,
        moves=log,
        started_at="2026-12-01T11:00:00.000Z",
        finished_at="2026-12-01T13:00:00.000Z" if ishtar.is_over(state) else None,
        public_setup=ishtar.public_setup(
            ishtar.new_game(players, seed, {"layout": "random"})
        ),
        result=ishtar.final_scores(state) if ishtar.is_over(state) else None,
    )
    record["seed"] = str(seed)
    return record


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def open_room(http: httpx.AsyncClient, seed: int) -> tuple[str, list[str]]:
    """A started 2-player room; (room id, tokens by seat)."""
    created = (
        await http.post(
            "/api/rooms",
            json={"players": 2, "name": "P0", "seat_order": "fixed"},
        )
    ).json()
    room = created["room_id"]
    tokens = [created["token"]]
    joined = await http.post(f"/api/rooms/{room}/seats", json={"name": "P1"})
    tokens.append(joined.json()["token"])
    await http.post(f"/api/rooms/{room}/start", headers=bearer(created["host_token"]))
    return room, tokens


async def move(
    http: httpx.AsyncClient, room: str, tokens: list[str], rng: random.Random
) -> float | None:
    """One random forward move of whoever is to act; its round trip in ms (None: over)."""
    view = (await http.get(f"/api/rooms/{room}/view")).json()
    if view["status"] == "finished":
        return None
    token = tokens[view["view"]["current"]]
    mine = (await http.get(f"/api/rooms/{room}/view", headers=bearer(token))).json()
    forward = [e for e in mine["legal"] if e["action"]["type"] != "undo"]
    body = {
        "move": rng.choice(forward)["action"],
        "expected_version": mine["version"],
        "move_id": uuid.uuid4().hex,
    }
    started = time.perf_counter()
    answer = await http.post(
        f"/api/rooms/{room}/moves", json=body, headers=bearer(token)
    )
    took = (time.perf_counter() - started) * 1000
    if answer.status_code != 200:
        raise RuntimeError(answer.text)
    return took


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {
        "n": len(values),
        "p50": round(statistics.median(ordered), 1),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "max": round(ordered[-1], 1),
    }


def rss_mib(pid: int) -> float:
    rss: int = psutil.Process(pid).memory_info().rss
    return round(rss / (1 << 20), 1)


async def run(server: procs.Server, args: argparse.Namespace) -> dict[str, Any]:
    assert server.proc is not None
    pid = server.proc.pid
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(
        base_url=server.base, timeout=120.0, limits=limits
    ) as http:
        rng = random.Random(1)
        rooms = []
        for n in range(args.rooms):
            room, tokens = await open_room(http, n)
            while await move(http, room, tokens, rng) is not None:
                pass
            rooms.append((room, (await http.get(f"/api/rooms/{room}/record")).json()))
        records = []
        for n in range(args.records):
            record = long_record(args.moves, seed=13 + n)
            answer = await http.post(
                "/api/records",
                content=dumps(record),
                headers={"Content-Type": "application/json"},
            )
            if answer.status_code != 201:
                raise RuntimeError(answer.text)
            records.append((answer.json()["record_id"], len(record["moves"])))
        rss_before = rss_mib(pid)

        other, tokens = await open_room(http, 99)
        idle = []
        for _ in range(args.idle_moves):
            took = await move(http, other, tokens, rng)
            if took is not None:
                idle.append(took)

        sources = [("room", r, rec["version"]) for r, rec in rooms] + [
            ("record", r, v) for r, v in records
        ]
        asked = {source[1]: itertools.count(1) for source in sources}

        def plan(rounds: int) -> asyncio.Queue[tuple[str, str, int]]:
            """Every source in turn, `rounds` times, each time a move not asked before
            (spread over the game): more sources than the old cache held, so every request
            misses in any build."""
            queue: asyncio.Queue[tuple[str, str, int]] = asyncio.Queue()
            for _ in range(rounds):
                for kind, sid, version in sources:
                    queue.put_nowait(
                        (kind, sid, (next(asked[sid]) * 7919) % (version + 1))
                    )
            return queue

        async def cycle(
            queue: asyncio.Queue[tuple[str, str, int]], times: dict[str, list[float]]
        ) -> None:
            while not queue.empty():
                kind, sid, at = queue.get_nowait()
                base = "/api/rooms" if kind == "room" else "/api/records"
                started = time.perf_counter()
                answer = await http.get(f"{base}/{sid}/replay?move={at}")
                times[kind].append((time.perf_counter() - started) * 1000)
                if answer.status_code != 200:
                    raise RuntimeError(answer.text)

        alone: dict[str, list[float]] = {"room": [], "record": []}
        await cycle(plan(1), alone)  # one request at a time: the cost of one

        cycled: dict[str, list[float]] = {"room": [], "record": []}
        busy: list[float] = []
        done = asyncio.Event()

        async def play_meanwhile() -> None:
            while not done.is_set():
                took = await move(http, other, tokens, rng)
                if took is None:
                    break
                busy.append(took)

        mover = asyncio.create_task(play_meanwhile())
        started = time.perf_counter()
        queue = plan(args.rounds)
        await asyncio.gather(*(cycle(queue, cycled) for _ in range(args.clients)))
        cycling_s = time.perf_counter() - started
        done.set()
        await mover
        return {
            "rooms": args.rooms,
            "records": args.records,
            "record_moves": args.moves,
            "uncached_room_replay_ms": summary(alone["room"]),
            "uncached_record_replay_ms": summary(alone["record"]),
            "cycled_room_replay_ms": summary(cycled["room"]),
            "cycled_record_replay_ms": summary(cycled["record"]),
            "cycling_s": round(cycling_s, 1),
            "rss_before_mib": rss_before,
            "rss_after_mib": rss_mib(pid),
            "other_move_idle_ms": summary(idle),
            "other_move_while_replays_ms": summary(busy),
        }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with procs.postgres() as url:
        builds: list[tuple[str, Path | None]] = [("ishtar", None)]
        if args.baseline is not None:
            builds.insert(0, ("baseline", args.baseline))
        for name, app_dir in builds:
            db = await procs.fresh_database(url, f"replays_{name}")
            server = procs.ishtar_server(db, app_dir)
            server.start()
            try:
                await server.wait_ready("/readyz")
                results[name] = await run(server, args)
            finally:
                server.stop()
    return results


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=4)
    parser.add_argument("--records", type=int, default=34)
    parser.add_argument("--moves", type=int, default=LONG_MOVES)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--idle-moves", type=int, default=30)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = asyncio.run(main(args))
    if args.json:
        print(json.dumps(results))
        return
    for name, figures in results.items():
        print(f"== {name}")
        for key, value in figures.items():
            print(f"  {key:28} {value}")


if __name__ == "__main__":
    cli()
