"""Scale benchmark: N live rooms at a human pace, and what one server process holds for them.

    python -m bench.scale [--rooms 10,100,300,1000] [--seconds 120] [--think 2-6]
                          [--game babylon-gardens] [--client browser|lean]
                          [--target both|ishtar|floor] [--repeat K] [--spectators S]
                          [--idle SOCKETS] [--floor-pad BYTES] [--json]

For each N in ``--rooms``, on a fresh database and a fresh server process (``ishtar serve``,
flood limits lifted as in `bench.load`): create N rooms over HTTP, connect 2 players and 2
spectators to each over websockets (4 N connections from this one process), and let the
players move at a human pace: after each update that asks a seat to act, it thinks a seeded
2-6 s (``--think``) and submits a legal action (seeded random, or the first; never ``undo``).
Games are long, so each N is played for ``--seconds`` rather than to its end; then the
players stop, the moves in flight land, every socket is closed, and the server is left to
settle. With ``--cycles K``, each N is played K times on the same server, each time with new
rooms: the first cycles fill the caches up to their bounds and add less and less to the RSS
after; a leak adds about the same every cycle. From 3 cycles on, the last cycle's growth over
the one before is reported against the 10 % target.

Reported per N:

- latency from a move's submission to its last recipient (the last of the room's 4
  connections to see the new version): p50 / p95 / p99 / max, over the moves made in the
  window only;
- the server process's RSS at start (after the warm-up rooms), with every client connected,
  at full load (the end of the window, every room playing), its peak, and after every room
  stopped and every socket closed; the growth per room and per connection;
- server CPU per move (psutil on the server process) and PostgreSQL's (the postmaster of
  the embedded server and all its backends), over the window;
- errors: error messages, connections that closed early, moves that never reached all four
  connections, failed connects.

Against the floor (issue 35): by default (``--target both``) each N is played against ours
and then against `bench.floor` (commit and relay, no rules), each on a fresh database and a
fresh server, ``--repeat`` times alternating, and ours are reported as ratios to the floor's
(p50/p95/p99, KiB per room and per socket; undelivered and errors side by side). Sockets
behave as Chromium's by default (``--client browser``: ``permessage-deflate`` offered and
used, see `bench.rawws`); bytes on the wire are counted per socket and per update.
``--spectators 1000 --rooms 1`` is the fan-out at a human pace; ``--idle SOCKETS`` replaces
play with that many sockets connected and left idle (RSS per socket, CPU over the window),
each sending a `ping` every 25 s as a room's page does (``--idle-ping S``; 0: none), which
both servers answer with a `pong`.

The client side is one asyncio loop (the standard one: `LeanClient` wants its transports) of `bench.rawws.LeanClient`
protocols: no task and no thread per connection; each player's think time is a timer
(``loop.call_later``). The driver's own garbage collector is off during the window, as in
`bench.load`. The soft limit of open files is raised to the hard limit first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import random
import re
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped]

from bench import procs
from bench.players import Room, Stats, Target, Update
from bench.rawws import BROWSER, CLIENTS, Deflate, LeanClient, open_lean
from bench.targets import FloorTarget, IshtarTarget

OPEN_TIMEOUT_S = 30.0  # a connection (handshake) that takes longer counts as failed
TARGET_KB_PER_ROOM = 200
TARGET_AFTER_RATIO = 0.10  # memory back within 10 % of its start
WORST_SECONDS = 5
"""The seconds of the window shown by their slowest move (`worst_seconds`)."""

TARGET_P99_RATIO = 2.0  # p99 at the largest N within 2 x p99 at the smallest


@dataclass
class Plan:
    rooms: list[int] = field(default_factory=lambda: [10, 100, 300, 1000])
    seconds: float = 120.0
    think: tuple[float, float] = (2.0, 6.0)
    seed: int = 1
    policy: str = "random"  # or "first"
    game: str = "ishtar"
    spectators: int = 2
    connect_concurrency: int = 50
    create_concurrency: int = 16
    settle_s: float = 2.0
    drain_s: float = 15.0  # longest wait for the moves in flight at the window's end
    rest_s: float = (
        12.0  # after the sockets closed: more than the server's full-GC period
    )
    warmup_s: float = 3.0
    # rooms of the warm-up, all at once: enough sockets (16) to take each of the server's
    # ten kept database connections, so that every one has prepared the statements of a
    # welcome and a move before the window (one room left most of them cold, and the rooms
    # measured paid their statement caches: 270 against 166 KiB a room at 10 rooms)
    warmup_rooms: int = 4
    # times each N is played on the same server (a leak shows as growth)
    cycles: int = 1
    server_env: dict[str, str] = field(default_factory=dict)  # e.g. a cache's bound
    # tracemalloc snapshots of the server at each phase (app/ops/heap_dump.py), or None
    heap_dir: str | None = None
    profile: str | None = (
        None  # folder for py-spy's collapsed stacks of the play window
    )
    # another checkout's code to serve (e.g. `git worktree add /tmp/before HEAD~1`), for A/B
    server_dir: str | None = None
    heap_frames: int = 12
    # "browser": sockets offer permessage-deflate and send Origin as Chromium does
    client: str = BROWSER
    # "both": ours and the floor (bench.floor) for each N, alternating; or one of them
    target: str = "both"
    # runs of each target for each N, alternated: ours, floor, floor, ours, ...
    repeat: int = 1
    floor_ws: str = "auto"  # the floor's uvicorn websocket implementation
    # bytes of view in each of the floor's messages (bench.floor --pad)
    floor_pad: int = 0
    # with idle > 0: that many sockets connected and left idle, instead of play
    idle: int = 0
    # ours served by `ishtar serve --workers N` (memory and CPU summed over the processes)
    workers: int = 1
    # with idle > 0: every socket sends the app's `ping` this often, as a room's page does
    # (static/js/socket.js: every 25 s), its phase spread over the period; 0: never
    idle_ping_s: float = 25.0


def say(text: str) -> None:
    """A line of progress on stderr (stdout is the report)."""
    sys.stderr.write(f"[{time.strftime('%H:%M:%S')}] {text}\n")
    sys.stderr.flush()


def raise_fd_limit() -> int:
    """The soft limit of open files raised to the hard limit; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Run:
    """One N: the rooms, their connections, the clock of play and what was counted."""

    def __init__(self, plan: Plan, target: Target, think: tuple[float, float]):
        self.plan = plan
        self.target = target
        self.think = think
        self.stats = Stats()
        self.loop = asyncio.get_running_loop()
        self.playing = False
        self.closing = False
        self.seats: list[Seat] = []
        self.spectators: list[Spectator] = []
        self.rooms: list[Room] = []

    def error(self, kind: str) -> None:
        self.stats.errors[kind] += 1

    def start_play(self) -> None:
        self.playing = True
        for seat in self.seats:
            seat.play_pending()

    def pending_moves(self) -> int:
        """Moves submitted whose new version has not yet reached all four connections."""
        return sum(len(room.sent) for room in self.rooms)

    def clients(self) -> Iterator[LeanClient]:
        for member in (*self.seats, *self.spectators):
            if member.client is not None:
                yield member.client


class Member:
    """A connection of a room (player or spectator) on a `LeanClient`."""

    def __init__(self, run: Run, room: Room) -> None:
        self.run = run
        self.room = room
        self.client: LeanClient | None = None

    async def open(self, url: str, origin: str, hello: str | None) -> None:
        for attempt in range(5):
            try:
                self.client = await asyncio.wait_for(
                    open_lean(url, origin, self.on_message, self.run.plan.client),
                    OPEN_TIMEOUT_S,
                )
                break
            except (OSError, ConnectionError, TimeoutError):
                if attempt == 4:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        assert self.client is not None
        self.client.closed.add_done_callback(self.on_closed)
        if hello is not None:
            self.client.send_text(hello)

    def on_closed(self, closed: asyncio.Future[None]) -> None:
        closed.exception()  # retrieved: a reset is counted here, not logged by asyncio
        if not self.run.closing:
            self.run.error("closed early")

    def on_message(self, data: bytes, at: float) -> None:
        raise NotImplementedError

    def count(self, update: Update, at: float) -> None:
        if update.error is not None:
            self.run.error(update.error)
        if update.sync and self.run.playing:
            self.run.stats.syncs += 1
        if update.version is not None:
            self.room.arrived(update.version, at)


class Spectator(Member):
    def on_message(self, data: bytes, at: float) -> None:
        self.count(self.run.target.peek(data), at)


class Seat(Member):
    """A player: after an update asking it to act, thinks, then submits a legal action."""

    def __init__(self, run: Run, room: Room, seat: int, rng: random.Random) -> None:
        super().__init__(run, room)
        self.seat = seat
        self.rng = rng
        self.acted_at: int | None = None
        self.pending: Update | None = None  # asked to act before play started
        self.moves = 0
        self.over = False

    def on_message(self, data: bytes, at: float) -> None:
        update = self.run.target.parse(data, self.seat)
        self.count(update, at)
        if update.over:
            if not self.over and self.seat == 0:
                self.run.stats.games_over += 1
            self.over = True
            return
        if (
            update.actions
            and update.ready is not None
            and update.ready != self.acted_at
        ):
            if self.run.playing:
                self.schedule(update)
            else:
                self.pending = update

    def play_pending(self) -> None:
        if self.pending is not None and self.pending.ready != self.acted_at:
            self.schedule(self.pending)
        self.pending = None

    def schedule(self, update: Update) -> None:
        assert update.actions and update.ready is not None
        self.acted_at = update.ready
        if self.run.plan.policy == "random":
            action = self.rng.choice(update.actions)
        else:
            action = update.actions[0]
        lo, hi = self.run.think
        self.run.loop.call_later(
            self.rng.uniform(lo, hi), self.submit, update.ready, action
        )

    def submit(self, ready: int, action: Any) -> None:
        if not self.run.playing or self.over or self.client is None:
            return
        if self.client.transport is None or self.client.transport.is_closing():
            return
        self.moves += 1
        self.room.submitted(ready + 1)
        self.client.send_text(
            self.run.target.move(ready, action, f"{self.seat}-{self.moves}")
        )


async def open_rooms(run: Run, base: str, count: int, salt: int) -> None:
    """Create `count` rooms and connect their players and spectators (hello sent)."""
    plan, target = run.plan, run.target
    # An idle connection is reused for 2 s at most: well inside the floor's keep-alive
    # (uvicorn's 5 s, which is also httpx's default reuse: a request sent on a connection
    # the server closes at that instant was seen to fail with httpx.ReadError).
    limits = httpx.Limits(max_connections=plan.create_concurrency, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        gate = asyncio.Semaphore(plan.create_concurrency)

        async def one() -> Any:
            async with gate:
                return await target.open_room(http, 2)

        created = await asyncio.gather(*(one() for _ in range(count)))
    gate = asyncio.Semaphore(plan.connect_concurrency)

    async def connect(member: Member, room: Any, seat: int | None) -> None:
        async with gate:
            try:
                await member.open(
                    target.url(base, room, seat), base, target.hello(room, seat)
                )
            except (OSError, ConnectionError, TimeoutError) as error:
                run.error(f"connect {type(error).__name__}")

    joining = []
    for i, created_room in enumerate(created):
        room = Room(run.stats, 2 + plan.spectators)
        run.rooms.append(room)
        for seat in range(2):
            rng = random.Random(f"{plan.seed}-{salt}-{i}-{seat}")
            player = Seat(run, room, seat, rng)
            run.seats.append(player)
            joining.append(connect(player, created_room, seat))
        for _ in range(plan.spectators):
            spectator = Spectator(run, room)
            run.spectators.append(spectator)
            joining.append(connect(spectator, created_room, None))
    await asyncio.gather(*joining)


async def welcomed(run: Run, within: float = 120.0) -> None:
    """Wait until every socket has its first message (ours: the welcome; the floor's:
    its state): a server still sending welcomes is not idle, nor ready to play. A socket
    still without one after `within` seconds counts as an error."""
    deadline = time.monotonic() + within
    waiting = list(run.clients())
    while waiting and time.monotonic() < deadline:
        waiting = [c for c in waiting if not c.messages and not c.closed.done()]
        if waiting:
            await asyncio.sleep(0.1)  # the sockets' protocols count; nothing to await
    for client in waiting:  # (one that closed is counted by its `on_closed`)
        if not client.messages and not client.closed.done():
            run.error("no welcome")


async def close_all(run: Run, within: float = 30.0) -> None:
    """Close every connection (a close frame, then the socket) and wait for them."""
    run.closing = True
    run.playing = False
    waits = []
    for client in run.clients():
        client.close()
        waits.append(client.closed)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(
            asyncio.gather(*waits, return_exceptions=True), timeout=within
        )


class PgCpu:
    """CPU seconds of one PostgreSQL: its postmaster and every backend under it.

    Without a known postmaster (``DATABASE_URL`` given), every process named
    ``postgres`` on the machine, as `bench.load` counts."""

    def __init__(self, postmaster: int | None) -> None:
        self.postmaster = postmaster

    def _processes(self) -> list[psutil.Process]:
        if self.postmaster is not None:
            with contextlib.suppress(psutil.Error):
                root = psutil.Process(self.postmaster)
                return [root, *root.children(recursive=True)]
            return []
        return [
            p for p in psutil.process_iter(["name"]) if p.info["name"] == "postgres"
        ]

    def read(self) -> dict[int, float]:
        out = {}
        for process in self._processes():
            with contextlib.suppress(psutil.Error):
                t = process.cpu_times()
                out[process.pid] = float(t.user + t.system)
        return out

    @staticmethod
    def used(start: dict[int, float], end: dict[int, float]) -> float:
        return sum(cpu - start.get(pid, 0.0) for pid, cpu in end.items())


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def mib(n: int) -> float:
    return round(n / 2**20, 1)


class Meter:
    """RSS, open files and CPU of the server process, read at the moments that matter."""

    def __init__(
        self,
        pid: int,
        port: int,
        heap_dir: str | None = None,
        log: Path | None = None,
    ) -> None:
        self.process = psutil.Process(pid)
        self.port = port
        self.heap_dir = Path(heap_dir) if heap_dir else None
        self.snapshots = 0
        self.log = log

    def log_at(self) -> int:
        """How many bytes the server's log holds now (0 without one): where a window's
        lines start and end."""
        if self.log is None or not self.log.exists():
            return 0
        return self.log.stat().st_size

    def full_collections_since(self, start: int) -> list[int]:
        """The milliseconds of each full collection ours logged after byte `start` of its
        log (app/ops/collector.py), in order; the floor makes none of its own."""
        if self.log is None or not self.log.exists():
            return []
        with self.log.open("rb") as text:
            text.seek(start)
            lines = text.read().decode(errors="replace").splitlines()
        return [int(m.group(2)) for line in lines if (m := FULL_LINE.search(line))]

    async def snapshot(self, name: str, within: float = 300.0) -> None:
        """With `--heap`: the server's heap now, as `<heap dir>/<name>.snap`."""
        if self.heap_dir is None:
            return
        written = self.heap_dir / f"heap-{self.process.pid}-{self.snapshots}.snap"
        self.snapshots += 1
        self.process.send_signal(signal.SIGUSR2)
        deadline = time.monotonic() + within
        while not written.exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"no heap snapshot {written} after {within} s")
            await asyncio.sleep(0.2)
        written.replace(self.heap_dir / f"{name}.snap")
        say(f"heap snapshot {name}")

    def tree(self) -> list[psutil.Process]:
        """The server process and, under `--workers`, its worker processes."""
        return [self.process, *self.process.children(recursive=True)]

    def rss(self) -> int:
        return sum(_each(self.tree(), lambda p: int(p.memory_info().rss)))

    def fds(self) -> int:
        return sum(_each(self.tree(), lambda p: int(p.num_fds())))

    def cpu(self) -> float:
        """CPU seconds of the server and its live workers (a worker that ended takes its
        seconds with it: the benchmark's workers do not end)."""
        times = _each(self.tree(), lambda p: p.cpu_times())
        return float(sum(t.user + t.system for t in times))

    def clients(self) -> int:
        """The sockets of clients the server still holds: TCP connections on its port in
        any state but LISTEN (one in CLOSE_WAIT is not let go yet)."""
        held = _each(
            self.tree(),
            lambda p: sum(
                1
                for c in p.net_connections(kind="tcp")
                if c.laddr and c.laddr.port == self.port and c.status != "LISTEN"
            ),
        )
        return int(sum(held))

    async def settle_fds(self, within: float) -> int:
        """Wait until the server holds no client socket; the files it holds then.

        (Not a count of files to get back to: a server may keep what it opened while
        serving, such as database connections opened on demand. The floor does; waiting
        for its count at start took the whole `within`.)"""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:  # another process: polled
            if self.clients() == 0:
                break
            await asyncio.sleep(0.1)
        return self.fds()


def _each(
    processes: list[psutil.Process], read: Callable[[psutil.Process], Any]
) -> list[Any]:
    """`read` of each process still there (one may end between the listing and the read)."""
    values = []
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            values.append(read(process))
    return values


async def peak_rss(meter: Meter, into: list[int], every: float = 0.25) -> None:
    while True:
        with contextlib.suppress(psutil.Error):
            into[0] = max(into[0], meter.rss())
        await asyncio.sleep(every)


FLOOR_ENDLESS = 10**9  # the floor's games: no end within any window


def make_target(kind: str, plan: Plan) -> Target:
    """Ours (the product's protocol) or the floor's (`bench.floor`: commit and relay)."""
    if kind == "floor":
        return FloorTarget(players=2, moves_per_game=FLOOR_ENDLESS)
    return IshtarTarget(game=plan.game)


@dataclass
class Wire:
    """What the driver's sockets received, summed: bytes on the wire (handshakes
    included), messages, those that came compressed, and their bytes once inflated."""

    received: int = 0
    messages: int = 0
    compressed: int = 0
    inflated: int = 0
    deflate_sockets: int = 0
    accepted: set[str] = field(default_factory=set)  # the parameters servers accepted

    @classmethod
    def read(cls, run: Run) -> Wire:
        wire = cls()
        for client in run.clients():
            wire.received += client.bytes_received
            wire.messages += client.messages
            wire.compressed += client.messages_compressed
            wire.inflated += client.message_bytes
            if client.deflate is not None:
                wire.deflate_sockets += 1
                wire.accepted.add(describe(client.deflate))
        return wire


def describe(deflate: Deflate) -> str:
    """The accepted permessage-deflate parameters, as a server would write them."""
    parts = [
        key if value is True else f"{key}={value}"
        for key, value in asdict(deflate).items()
        if value
    ]
    return "; ".join(["permessage-deflate", *parts])


async def warm_up(
    plan: Plan, target: Target, base: str, meter: Meter, salt: int
) -> None:
    """Warm-up rooms (`plan.warmup_rooms`, connected at once), played fast and closed:
    modules and statements the first rooms and the first moves load are not counted as the
    rooms' growth. asyncpg prepares a statement once per connection, so the warm-up takes
    every kept connection of the server's pool at once. At most 2 spectators: a fan-out's
    thousand are for the measured room only."""
    warm = Run(replace(plan, spectators=min(2, plan.spectators)), target, (0.01, 0.02))
    await open_rooms(warm, base, plan.warmup_rooms, salt=salt)
    warm.start_play()
    await asyncio.sleep(plan.warmup_s)
    warm.playing = False
    await asyncio.sleep(0.5)
    await close_all(warm)
    await meter.settle_fds(10.0)
    gc.collect()
    await asyncio.sleep(1.0)


def worst_seconds(stats: Stats, t0: float) -> list[dict[str, float]]:
    """The `WORST_SECONDS` seconds of the window (by when their moves were made, from
    the window's start) whose slowest move was slowest: when the tail happens, and
    whether it comes in bursts (a heartbeat, a collection) or is spread out."""
    by_second: dict[int, list[float]] = {}
    for sent, latency in zip(stats.sent_at, stats.latencies, strict=True):
        by_second.setdefault(int(sent - t0), []).append(latency * 1000)
    ranked = sorted(by_second.items(), key=lambda item: -max(item[1]))
    return [
        {
            "second": second,
            "moves": len(ms),
            "max_ms": round(max(ms), 1),
            "over_50_ms": sum(1 for x in ms if x > 50),
        }
        for second, ms in ranked[:WORST_SECONDS]
    ]


async def measure_n(
    plan: Plan,
    n: int,
    base: str,
    meter: Meter,
    pg: PgCpu,
    cycle: int = 0,
    kind: str = "ishtar",
) -> dict[str, Any]:
    """One N on a server that is up: warm-up, rooms, play for the window, close, settle.
    Cycle k > 0 plays new rooms (their own seeds) on the server that played cycles < k."""
    target = make_target(kind, plan)
    rss_ready = meter.rss()

    label = f"{kind}, {n} rooms" + (f", cycle {cycle + 1}" if plan.cycles > 1 else "")
    say(f"{label}: warm-up")
    await warm_up(plan, target, base, meter, salt=-1 - cycle)
    rss_start, fds_start = meter.rss(), meter.fds()
    tag = f"{n}" + (f"-c{cycle + 1}" if plan.cycles > 1 else "")
    await meter.snapshot(f"{tag}-start")

    say(f"{label}: creating and connecting")
    run = Run(plan, target, plan.think)
    setup_started = time.perf_counter()
    await open_rooms(run, base, n, salt=n + 1_000_003 * cycle)
    await welcomed(run)
    await asyncio.sleep(plan.settle_s)
    setup_s = time.perf_counter() - setup_started
    rss_connected, fds_connected = meter.rss(), meter.fds()
    await meter.snapshot(f"{tag}-connected")

    peak = [rss_connected]
    sampler = asyncio.get_running_loop().create_task(peak_rss(meter, peak))
    driver = psutil.Process(os.getpid())
    cpu0, pg0, drv0 = meter.cpu(), pg.read(), sum(driver.cpu_times()[:2])
    wire0 = Wire.read(run)
    log_start = meter.log_at()
    t0 = time.perf_counter()
    gc.disable()  # the driver's collections would stop every room's clock at once
    profiler = None
    if plan.profile:  # py-spy on the server (and its workers) while the rooms play
        out = Path(plan.profile) / f"{kind}-{tag}.txt"
        profiler = procs.Profiler(meter.process.pid, out)
    try:
        say(f"{label}: playing for {plan.seconds} s")
        run.start_play()
        await asyncio.sleep(plan.seconds)
        rss_loaded = meter.rss()
        if profiler is not None:
            profiler.stop()
        run.playing = False  # no new move; the ones in flight land
        deadline = time.monotonic() + plan.drain_s
        while time.monotonic() < deadline:
            if not run.pending_moves():
                break
            await asyncio.sleep(0.1)
    finally:
        gc.enable()
    wall = time.perf_counter() - t0
    in_window = meter.full_collections_since(log_start)
    cpu, pg_used = meter.cpu() - cpu0, PgCpu.used(pg0, pg.read())
    driver_cpu = sum(driver.cpu_times()[:2]) - drv0
    wire1 = Wire.read(run)
    sampler.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sampler
    lost = run.pending_moves()
    if lost:
        run.stats.errors["undelivered"] += lost
    await meter.snapshot(f"{tag}-played")  # after the window: a dump stops the server

    say(f"{label}: closing")
    await close_all(run)
    del run.seats[:], run.spectators[:]
    gc.collect()
    fds_after = await meter.settle_fds(30.0)
    await asyncio.sleep(plan.rest_s)
    rss_after = meter.rss()
    await meter.snapshot(f"{tag}-after")

    stats = run.stats
    ms = [x * 1000 for x in stats.latencies]
    moves = max(1, stats.moves)
    connections = 2 + plan.spectators
    sockets = n * connections
    grown = rss_loaded - rss_start
    window_rx = wire1.received - wire0.received
    return {
        "target": kind,
        "client": plan.client,
        "rooms": n,
        "cycle": cycle + 1,
        "connections": sockets,
        "seconds": round(wall, 1),
        "setup_s": round(setup_s, 1),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / wall, 1) if wall else 0.0,
        "games_over": stats.games_over,
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(max(ms), 2) if ms else float("nan"),
        "mean_ms": round(statistics.fmean(ms), 2) if ms else float("nan"),
        "worst_seconds": worst_seconds(stats, t0),
        "undelivered": lost,
        "syncs": stats.syncs,
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        # ours' full collections from the window's start to its last move's landing (the
        # server's whole life: full_collections_ms)
        "full_collections_in_window_ms": in_window,
        "rss_ready_mb": mib(rss_ready),
        "rss_start_mb": mib(rss_start),
        "rss_connected_mb": mib(rss_connected),
        "rss_loaded_mb": mib(rss_loaded),
        "rss_peak_mb": mib(peak[0]),
        "rss_after_mb": mib(rss_after),
        "kb_per_room": round(grown / n / 1024, 1),
        "kb_per_connection": round(grown / sockets / 1024, 1),
        "kb_per_room_connected": round((rss_connected - rss_start) / n / 1024, 1),
        "after_vs_start": round(rss_after / rss_start - 1, 3),
        "fds_start": fds_start,
        "fds_connected": fds_connected,
        "fds_after": fds_after,
        "server_cpu_percent": round(100 * cpu / wall, 1) if wall else 0.0,
        "pg_cpu_percent": round(100 * pg_used / wall, 1) if wall else 0.0,
        "driver_cpu_percent": round(100 * driver_cpu / wall, 1) if wall else 0.0,
        "server_cpu_ms_per_move": round(1000 * cpu / moves, 3),
        "pg_cpu_ms_per_move": round(1000 * pg_used / moves, 3),
        # bytes on the wire, received by the driver's sockets
        "deflate_sockets": wire1.deflate_sockets,
        "deflate_accepted": sorted(wire1.accepted),
        "messages": wire1.messages,
        "messages_compressed": wire1.compressed,
        "rx_setup_kb_per_socket": round(wire0.received / sockets / 1024, 2),
        "rx_window_kb_per_socket": round(window_rx / sockets / 1024, 2),
        # a move's update as one socket receives it: wire bytes, then once inflated
        "rx_bytes_per_update": round(window_rx / (moves * connections), 1),
        "inflated_bytes_per_update": round(
            (wire1.inflated - wire0.inflated) / (moves * connections), 1
        ),
    }


async def measure_idle(
    plan: Plan, sockets: int, base: str, meter: Meter, pg: PgCpu, kind: str
) -> dict[str, Any]:
    """`sockets` connected and left idle (tabs left open on a game nobody plays): rooms of
    2 players and the plan's spectators, welcomed, then the server's RSS and CPU over the
    window, in which nothing is sent but the server's own pings and heartbeats."""
    target = make_target(kind, plan)
    per_room = 2 + plan.spectators
    rooms = -(-sockets // per_room)
    label = f"{kind}, {rooms * per_room} idle sockets"
    say(f"{label}: warm-up")
    await warm_up(plan, target, base, meter, salt=-1)
    rss_start = meter.rss()
    say(f"{label}: creating and connecting")
    run = Run(plan, target, plan.think)
    await open_rooms(run, base, rooms, salt=sockets)
    await welcomed(run)
    pinging = asyncio.get_running_loop().create_task(
        ping_as_tabs(run, plan.idle_ping_s)
    )
    await asyncio.sleep(plan.settle_s)
    rss_connected, fds_connected = meter.rss(), meter.fds()
    wire0 = Wire.read(run)
    pings0 = run.stats.pings
    cpu0, pg0, t0 = meter.cpu(), pg.read(), time.perf_counter()
    say(f"{label}: idle for {plan.seconds} s")
    await asyncio.sleep(plan.seconds)
    wall = time.perf_counter() - t0
    cpu, pg_used = meter.cpu() - cpu0, PgCpu.used(pg0, pg.read())
    rss_idle = meter.rss()
    wire1 = Wire.read(run)
    pings = run.stats.pings - pings0
    pinging.cancel()
    say(f"{label}: closing")
    await close_all(run)
    del run.seats[:], run.spectators[:]
    await meter.settle_fds(30.0)
    connected = rooms * per_room
    return {
        "target": kind,
        "client": plan.client,
        "idle": True,
        "rooms": rooms,
        "cycle": 1,
        "connections": connected,
        "seconds": round(wall, 1),
        "errors": sum(run.stats.errors.values()),
        "error_kinds": dict(run.stats.errors),
        "rss_start_mb": mib(rss_start),
        "rss_connected_mb": mib(rss_connected),
        "rss_idle_mb": mib(rss_idle),
        "kb_per_idle_socket": round((rss_idle - rss_start) / connected / 1024, 1),
        "fds_connected": fds_connected,
        "idle_cpu_percent": round(100 * cpu / wall, 2) if wall else 0.0,
        "app_pings_per_s": round(pings / wall, 1) if wall else 0.0,
        "pg_cpu_percent": round(100 * pg_used / wall, 2) if wall else 0.0,
        "deflate_sockets": wire1.deflate_sockets,
        "deflate_accepted": sorted(wire1.accepted),
        "rx_setup_kb_per_socket": round(wire0.received / connected / 1024, 2),
        "rx_idle_bytes_per_socket": round(
            (wire1.received - wire0.received) / connected, 1
        ),
    }


async def ping_as_tabs(run: Run, every_s: float, step_s: float = 0.1) -> None:
    """Every socket sends the app's `ping` once every `every_s`, the sockets' phases spread
    evenly over the period in steps of `step_s` (as tabs opened at any moment would)."""
    if every_s <= 0:
        return
    clients = list(run.clients())
    slices = max(1, round(every_s / step_s))
    text = run.target.ping()
    loop = asyncio.get_running_loop()
    start, tick = loop.time(), 0
    while True:
        for client in clients[tick % slices :: slices]:
            if client.transport is not None and not client.transport.is_closing():
                client.send_text(text)
                run.stats.pings += 1
        tick += 1
        await asyncio.sleep(max(0.0, start + tick * step_s - loop.time()))


@contextlib.contextmanager
def postgres() -> Iterator[tuple[str, int | None]]:
    """A PostgreSQL URL and its postmaster's pid (None when given by ``DATABASE_URL``)."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url, None
        return
    with (
        tempfile.TemporaryDirectory(prefix="ishtar-scale-pg-") as tmp,
        procs.embedded_postgres(Path(tmp) / "pgdata") as embedded,
    ):
        pid_file = Path(tmp) / "pgdata" / "postmaster.pid"
        pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else None
        yield embedded, pid


SYNC_LINE = re.compile(r"syncs sent by reason: (.*)$")
FULL_LINE = re.compile(r"full collection: (\d+) unreachable objects, (\d+) ms")


def _folder(name: str | None) -> str | None:
    """`name` made a folder if it is not one, as an absolute path; None stays None."""
    if name is None:
        return None
    folder = Path(name).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder)


def full_collections(log: Path | None) -> list[int]:
    """The milliseconds of each full collection ours made (its collector's log lines:
    app/ops/collector.py), in order; the floor makes none of its own."""
    if log is None or not log.exists():
        return []
    return [
        int(match.group(2))
        for line in log.read_text(errors="replace").splitlines()
        if (match := FULL_LINE.search(line))
    ]


def sync_reasons(log: Path | None) -> dict[str, int]:
    """Every `sync` ours sent, by reason, as of its last heartbeat (its log's last
    `syncs sent by reason` line: app/ops/runtime.py); the floor sends none."""
    found: dict[str, int] = {}
    if log is None or not log.exists():
        return found
    for line in log.read_text(errors="replace").splitlines():
        match = SYNC_LINE.search(line)
        if match:
            found = {
                reason: int(count)
                for reason, _, count in (
                    item.partition("=") for item in match.group(1).split()
                )
            }
    return found


async def serve_and_measure(
    plan: Plan, kind: str, n: int, url: str, pg: PgCpu, repeat: int
) -> list[dict[str, Any]]:
    """A fresh database and a fresh server of `kind`; N's cycles (or idle sockets) on it."""
    heap_dir = None
    if kind == "floor":
        db = await procs.fresh_database(url, "ishtar_scale_floor")
        server = procs.floor_server(db, plan.floor_ws, pad=plan.floor_pad)
        ready = "/healthz"
    else:
        db = await procs.fresh_database(url, "ishtar_scale")
        app_dir = Path(plan.server_dir) if plan.server_dir else None
        server = procs.ishtar_server(db, app_dir)
        server.env.update(plan.server_env)
        if plan.workers > 1:
            server.env["ISHTAR_WORKERS"] = str(plan.workers)
        ready = "/readyz"
        if plan.heap_dir:  # the floor has no heap dump: only ours is traced
            heap_dir = plan.heap_dir
            server.env["ISHTAR_HEAP_DUMP_FRAMES"] = str(plan.heap_frames)
            server.env["ISHTAR_HEAP_DUMP_DIR"] = plan.heap_dir
    server.start()
    results: list[dict[str, Any]] = []
    try:
        await server.wait_ready(ready)
        if kind != "floor" and plan.workers > 1:
            await server.wait_workers(plan.workers)
        assert server.proc is not None
        meter = Meter(server.proc.pid, server.port, heap_dir, server.log)
        if plan.idle:
            results.append(await measure_idle(plan, n, server.base, meter, pg, kind))
        else:
            for cycle in range(plan.cycles):
                results.append(
                    await measure_n(plan, n, server.base, meter, pg, cycle, kind)
                )
    except BaseException:
        sys.stderr.write(f"server log kept in {server.log}:\n{server.tail()}\n")
        server.stop()
        raise
    server.stop()
    reasons = sync_reasons(server.log)
    collections = full_collections(server.log)
    for result in results:
        result["sync_reasons"] = reasons
        result["full_collections_ms"] = collections
    if server.log is not None and not any(r["errors"] for r in results):
        server.log.unlink(missing_ok=True)
    for result in results:
        result["n"], result["repeat"] = n, repeat + 1
    return results


async def bench(plan: Plan, on_run: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """For each N, ours and the floor `repeat` times each, alternating (ours, floor, floor,
    ours, ...), each on a fresh database and a fresh server: whatever else the machine
    does is spread over both."""
    report: dict[str, Any] = {
        "plan": asdict(plan),
        "loadavg": os.getloadavg(),
        "fd_limit": raise_fd_limit(),
        "runs": [],
    }
    kinds = ["ishtar", "floor"] if plan.target == "both" else [plan.target]
    sizes = [plan.idle] if plan.idle else plan.rooms
    with postgres() as (url, postmaster):
        pg = PgCpu(postmaster)
        for n in sizes:
            for repeat in range(plan.repeat):
                for kind in kinds if repeat % 2 == 0 else kinds[::-1]:
                    results = await serve_and_measure(plan, kind, n, url, pg, repeat)
                    for result in results:
                        on_run(result)
                    report["runs"].extend(results)
    ours = [r for r in report["runs"] if r["target"] == "ishtar" and r["repeat"] == 1]
    report["targets"] = {} if plan.idle else verdicts(ours)
    report["against_floor"] = against_floor(report["runs"])
    return report


PLAY_RATIOS = ("p50_ms", "p95_ms", "p99_ms", "kb_per_room", "kb_per_connection")
IDLE_RATIOS = ("kb_per_idle_socket", "idle_cpu_percent")
COUNTS = ("undelivered", "errors")


def against_floor(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each N run against both: our figure over the floor's (medians over the
    repeats of each, first cycles only), and the counts of both side by side."""
    out = []
    for n in dict.fromkeys(r["n"] for r in runs):
        ours = [r for r in runs if r["n"] == n and r["cycle"] == 1]
        floor = [r for r in ours if r["target"] == "floor"]
        ours = [r for r in ours if r["target"] == "ishtar"]
        if not ours or not floor:
            continue
        row: dict[str, Any] = {"n": n, "rooms": ours[0]["rooms"], "runs": len(ours)}
        for key in IDLE_RATIOS if ours[0].get("idle") else PLAY_RATIOS:
            mine = statistics.median(r[key] for r in ours)
            theirs = statistics.median(r[key] for r in floor)
            row[key] = round(mine, 2)
            row[f"floor_{key}"] = round(theirs, 2)
            row[f"ratio_{key}"] = round(mine / theirs, 2) if theirs > 0 else None
        for key in COUNTS:
            row[key] = sum(r.get(key, 0) for r in ours)
            row[f"floor_{key}"] = sum(r.get(key, 0) for r in floor)
        out.append(row)
    return out


def verdicts(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each target of issue 17, point 2, against the runs: the figure and met or not."""
    if not runs:
        return {}
    firsts = [r for r in runs if r["cycle"] == 1]
    small, large = firsts[0], firsts[-1]
    ratio = large["p99_ms"] / small["p99_ms"] if small["p99_ms"] else float("nan")
    worst_room = max(r["kb_per_room"] for r in firsts)
    worst_after = max(r["after_vs_start"] for r in firsts)
    errors = sum(r["errors"] for r in runs)
    cycles = cycle_growth(runs)
    return {
        "p99_ratio": round(ratio, 2),
        "p99_ratio_met": ratio <= TARGET_P99_RATIO,
        "kb_per_room_max": worst_room,
        "kb_per_room_met": worst_room <= TARGET_KB_PER_ROOM,
        "after_vs_start_max": worst_after,
        "after_met": worst_after <= TARGET_AFTER_RATIO,
        "errors": errors,
        "errors_met": errors == 0,
        **cycles,
    }


def cycle_growth(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """With three cycles or more of an N on one server: the RSS after each cycle's sockets
    closed, what each cycle added to it, and the last cycle's growth over the one before.
    The first cycles fill the caches up to their bounds and the allocator's arenas, so they
    add less and less; a leak adds about the same every cycle."""
    growth: dict[str, float] = {}
    added: dict[str, list[float]] = {}
    for n in dict.fromkeys(r["rooms"] for r in runs):
        afters = [r["rss_after_mb"] for r in runs if r["rooms"] == n]
        if len(afters) >= 3:
            growth[str(n)] = round(afters[-1] / afters[-2] - 1, 3)
            added[str(n)] = [round(b - a, 1) for a, b in itertools.pairwise(afters)]
    if not growth:
        return {}
    worst = max(growth.values())
    return {
        "cycle_growth": growth,
        "cycle_added_mb": added,
        "cycle_growth_max": worst,
        "cycle_growth_met": worst <= TARGET_AFTER_RATIO,
    }


LATENCY_COLUMNS = [
    ("target", "server"),
    ("rooms", "rooms"),
    ("cycle", "cycle"),
    ("connections", "sockets"),
    ("moves", "moves"),
    ("moves_per_s", "moves/s"),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
    ("p99_ms", "p99 ms"),
    ("max_ms", "max ms"),
    ("server_cpu_ms_per_move", "server CPU ms/move"),
    ("pg_cpu_ms_per_move", "PG CPU ms/move"),
    ("server_cpu_percent", "server CPU %"),
    ("driver_cpu_percent", "driver CPU %"),
    ("undelivered", "undelivered"),
    ("errors", "errors"),
]
MEMORY_COLUMNS = [
    ("target", "server"),
    ("rooms", "rooms"),
    ("cycle", "cycle"),
    ("rss_start_mb", "RSS start MiB"),
    ("rss_connected_mb", "connected"),
    ("rss_loaded_mb", "loaded"),
    ("rss_peak_mb", "peak"),
    ("rss_after_mb", "after"),
    ("kb_per_room", "KiB/room"),
    ("kb_per_connection", "KiB/socket"),
    ("after_vs_start", "after/start-1"),
    ("fds_connected", "server fds"),
    ("fds_after", "fds after"),
]
WIRE_COLUMNS = [
    ("target", "server"),
    ("rooms", "rooms"),
    ("cycle", "cycle"),
    ("deflate_sockets", "deflate sockets"),
    ("messages", "messages"),
    ("messages_compressed", "compressed"),
    ("rx_setup_kb_per_socket", "KiB/socket to connect"),
    ("rx_window_kb_per_socket", "KiB/socket in window"),
    ("rx_bytes_per_update", "wire B/update"),
    ("inflated_bytes_per_update", "inflated B/update"),
]
IDLE_COLUMNS = [
    ("target", "server"),
    ("connections", "idle sockets"),
    ("seconds", "window s"),
    ("rss_start_mb", "RSS start MiB"),
    ("rss_idle_mb", "idle"),
    ("kb_per_idle_socket", "KiB/socket"),
    ("idle_cpu_percent", "server CPU %"),
    ("pg_cpu_percent", "PG CPU %"),
    ("deflate_sockets", "deflate sockets"),
    ("rx_idle_bytes_per_socket", "B/socket in window"),
    ("errors", "errors"),
]


def print_table(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    plan = report["plan"]
    console = Console(width=max(120, Console().width))
    console.print(
        f"bench.scale: game={plan['game']} think={plan['think'][0]}-{plan['think'][1]} s"
        f" window={plan['seconds']} s policy={plan['policy']} seed={plan['seed']}"
        f" client={plan['client']} (load average before {report['loadavg'][0]:.2f})"
    )
    tables = (
        (IDLE_COLUMNS,)
        if plan["idle"]
        else (LATENCY_COLUMNS, MEMORY_COLUMNS, WIRE_COLUMNS)
    )
    for columns in tables:
        table = Table()
        for _key, title in columns:
            table.add_column(title, justify="right")
        for run in report["runs"]:
            table.add_row(*(str(run[key]) for key, _ in columns))
        console.print(table)
    for accepted in sorted(
        {a for run in report["runs"] for a in run["deflate_accepted"]}
    ):
        console.print(f"servers accepted: {accepted}")
    for run in report["runs"]:
        worst = run.get("worst_seconds") or []
        if worst:
            seconds = ", ".join(
                f"s{w['second']} {w['max_ms']:g} ms ({w['over_50_ms']:g}/{w['moves']:g}"
                " over 50 ms)"
                for w in worst
            )
            console.print(
                f"{run['target']}, {run['rooms']} rooms, slowest seconds: {seconds}"
            )
    for run in report["runs"]:
        if run["error_kinds"]:
            console.print(
                f"{run['target']}, {run['rooms']} rooms, errors: {run['error_kinds']}"
            )
    print_against_floor(console, report["against_floor"])
    targets = report["targets"]
    if targets:
        console.print(
            f"p99 at {report['runs'][-1]['rooms']} / at {report['runs'][0]['rooms']} rooms:"
            f" {targets['p99_ratio']} (target <= {TARGET_P99_RATIO}),"
            f" most KiB per room {targets['kb_per_room_max']} (<= {TARGET_KB_PER_ROOM}),"
            f" after/start - 1 at most {targets['after_vs_start_max']}"
            f" (<= {TARGET_AFTER_RATIO}), errors {targets['errors']}"
        )
        if "cycle_growth" in targets:
            console.print(
                f"RSS after the last cycle / after the one before - 1, by N:"
                f" {targets['cycle_growth']} (<= {TARGET_AFTER_RATIO});"
                f" MiB each cycle added after the first: {targets['cycle_added_mb']}"
            )


def print_against_floor(console: Any, rows: list[dict[str, Any]]) -> None:
    """Ours over the floor's, N by N (medians of the repeats), and both counts."""
    from rich.table import Table

    if not rows:
        return
    keys = [k for k in (*PLAY_RATIOS, *IDLE_RATIOS) if k in rows[0]]
    table = Table(title="ours / the floor's (the floor's figure in brackets)")
    table.add_column("N", justify="right")
    for key in keys:
        table.add_column(key, justify="right")
    for key in COUNTS:
        table.add_column(f"{key} ours:floor", justify="right")
    for row in rows:
        cells = [str(row["n"])]
        for key in keys:
            ratio = row[f"ratio_{key}"]
            shown = "n/a" if ratio is None else f"{ratio}x"
            cells.append(f"{shown} ({row[f'floor_{key}']})")
        cells += [f"{row[key]}:{row[f'floor_{key}']}" for key in COUNTS]
        table.add_row(*cells)
    console.print(table)


def parse_think(text: str) -> tuple[float, float]:
    lo, sep, hi = text.partition("-")
    try:
        low, high = float(lo), float(hi if sep else lo)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: LOW-HIGH seconds, e.g. 2-6"
        ) from None
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"{text!r}: 0 <= LOW <= HIGH")
    return low, high


def parse_rooms(text: str) -> list[int]:
    try:
        rooms = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a list like 10,100,300") from None
    if not rooms or min(rooms) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least one room count >= 1")
    return rooms


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Live rooms at a human pace, N by N.")
    default = Plan()
    parser.add_argument("--rooms", type=parse_rooms, default=default.rooms)
    parser.add_argument("--seconds", type=float, default=default.seconds)
    parser.add_argument(
        "--think",
        type=parse_think,
        default=default.think,
        metavar="LOW-HIGH",
        help="a player's think time in seconds (seeded uniform); e.g. 0.05-0.1 for smoke",
    )
    parser.add_argument("--game", default=default.game)
    parser.add_argument("--policy", choices=["first", "random"], default=default.policy)
    parser.add_argument("--seed", type=int, default=default.seed)
    parser.add_argument(
        "--rest",
        type=float,
        default=default.rest_s,
        metavar="S",
        help="seconds between the sockets closing and the after-RSS",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=default.warmup_s,
        metavar="S",
        help="seconds the warm-up rooms play before the rooms are created",
    )
    parser.add_argument(
        "--warmup-rooms",
        type=int,
        default=default.warmup_rooms,
        metavar="N",
        help="rooms of the warm-up, created and connected at once",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=default.settle_s,
        metavar="S",
        help="seconds between the last client connecting and the window",
    )
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the server under test, e.g. ISHTAR_POSITION_CACHE_BYTES=1e9",
    )
    parser.add_argument(
        "--cycles",
        type=int,
        choices=range(1, 51),
        default=default.cycles,
        metavar="K",
        help="play each N K times on the same server (1-50); from 3 on, what each cycle"
        " adds to the RSS after tells a leak",
    )
    parser.add_argument(
        "--heap",
        metavar="DIR",
        help="trace the server's allocations (tracemalloc, from its start) and write a snapshot at"
        " each phase into DIR: <N>-start, -connected, -played, -after.snap; read them with"
        " python -m bench.heap. Tracing slows the server: read memory, not times",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="sample the server with py-spy while the rooms play (1 kHz) and write its"
        " collapsed stacks to DIR/<server>-<N>.txt; read them with python -m bench.flame",
    )
    parser.add_argument(
        "--server-dir",
        metavar="DIR",
        help="serve this checkout's code instead (A/B: alternate invocations)",
    )
    parser.add_argument(
        "--client",
        choices=CLIENTS,
        default=default.client,
        help="browser: every socket offers permessage-deflate and sends Origin, as"
        " Chromium does (the default); lean: no extension offered",
    )
    parser.add_argument(
        "--target",
        choices=["both", "ishtar", "floor"],
        default=default.target,
        help="both (the default): for each N, ours and the floor (bench.floor)"
        " alternating, ours reported as ratios to the floor's; or one of them",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=default.repeat,
        metavar="K",
        help="runs of each target for each N, alternated (medians are compared)",
    )
    parser.add_argument(
        "--spectators",
        type=int,
        default=default.spectators,
        help="spectators a room (with --rooms 1 and many: the fan-out at a human pace)",
    )
    parser.add_argument("--floor-ws", default=default.floor_ws, help="the floor's ws")
    parser.add_argument(
        "--floor-pad",
        type=int,
        default=default.floor_pad,
        metavar="BYTES",
        help="the floor's messages carry a view of about BYTES (bench.floor --pad)",
    )
    parser.add_argument(
        "--idle",
        type=int,
        default=0,
        metavar="SOCKETS",
        help="instead of play: this many sockets (rooms of 2 players + the spectators)"
        " connected and left idle; the server's RSS per socket and CPU over --seconds",
    )
    parser.add_argument(
        "--idle-ping",
        type=float,
        default=default.idle_ping_s,
        metavar="S",
        help="with --idle: each socket sends the app's ping every S seconds, as a room's"
        " page does (default 25); 0: none",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=default.workers,
        help="serve ours with `ishtar serve --workers N` (RSS and CPU summed over them)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    server_env = dict(item.split("=", 1) for item in args.server_env)
    plan = Plan(
        rooms=args.rooms,
        seconds=args.seconds,
        think=args.think,
        seed=args.seed,
        policy=args.policy,
        game=args.game,
        profile=_folder(args.profile),
        rest_s=args.rest,
        warmup_s=args.warmup,
        warmup_rooms=args.warmup_rooms,
        settle_s=args.settle,
        cycles=args.cycles,
        server_env=server_env,
        heap_dir=str(Path(args.heap).resolve()) if args.heap else None,
        server_dir=str(Path(args.server_dir).resolve()) if args.server_dir else None,
        client=args.client,
        target=args.target,
        repeat=args.repeat,
        spectators=args.spectators,
        floor_ws=args.floor_ws,
        floor_pad=args.floor_pad,
        idle=args.idle,
        workers=args.workers,
        idle_ping_s=args.idle_ping,
    )

    def progress(run: dict[str, Any]) -> None:
        keys = ["target", "rooms", "cycle", "moves", "p50_ms", "p99_ms", "kb_per_room"]
        keys += ["kb_per_idle_socket", "idle_cpu_percent", "errors"]
        sys.stderr.write(" ".join(f"{k}={run[k]}" for k in keys if k in run) + "\n")

    started = time.perf_counter()
    report = asyncio.run(bench(plan, progress))
    report["wall_s"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(report))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
