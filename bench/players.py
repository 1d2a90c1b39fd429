"""Scripted players and spectators over real websockets, and what they measure.

One `Room` per game: its seated players choose among the legal actions the server sends
(first legal, or seeded random) and submit at once; every connection of the room, players and
spectators alike, reports each version it receives. A move's latency runs from its submission
until the last connection of its room has the new version.

The wire protocol is the `Target`'s business (`bench.targets`): this module only needs to
know, for each incoming message, its version, whether it asks this seat to act (and with
which legal actions), whether the game is over, and whether it is an error.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from bench.rawws import BROWSER, LeanClient, open_lean


@dataclass
class Update:
    """What a player or spectator needs from one server message."""

    version: int | None = None  # a new version reached this connection (latency clock)
    ready: int | None = None  # the version `actions` are for
    actions: list[Any] | None = None  # legal actions when this seat must act now
    over: bool = False
    error: str | None = None
    sync: bool = False  # a `sync`: a full state sent instead of updates (ours only)


class Target(Protocol):
    """How to create a room and speak to one kind of server."""

    name: str

    async def create_room(self, base: str, players: int, seed: int) -> Any: ...

    async def open_room(self, http: httpx.AsyncClient, players: int) -> Any:
        """A room ready to play, over `http` (whose base is the server's)."""
        ...

    def url(self, base: str, room: Any, seat: int | None) -> str: ...

    def hello(self, room: Any, seat: int | None) -> str | None: ...

    def parse(self, text: str | bytes, seat: int | None) -> Update: ...

    def peek(self, data: bytes) -> Update:
        """What a spectator needs (version, over, error), read as cheaply as possible."""
        ...

    def move(self, version: int, action: Any, move_id: str) -> str: ...

    def ping(self) -> str:
        """The keep-alive a browser's tab sends now and then, answered with a pong."""
        ...


@dataclass
class Stats:
    """Figures of one run, across all rooms."""

    latencies: list[float] = field(default_factory=list)  # seconds, one per move
    sent_at: list[float] = field(default_factory=list)  # perf_counter, one per move
    errors: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    games_over: int = 0
    first_move: float | None = None
    last_move: float | None = None
    # sockets by the extensions their server accepted ("" for none)
    extensions: Counter[str] = field(default_factory=Counter)
    messages: int = 0  # received by the spectators' sockets (players' are not counted)
    pings: int = 0  # app-level pings sent (bench.scale --idle: tabs' keep-alives)
    messages_compressed: int = 0  # of which came compressed (RSV1), and were inflated
    syncs: int = (
        0  # `sync` messages received during play (none while nothing went wrong)
    )


class Room:
    """One game in flight: who has seen which version, and when each move was sent."""

    def __init__(self, stats: Stats, recipients: int) -> None:
        self.stats = stats
        self.recipients = recipients
        self.sent: dict[int, float] = {}  # new version -> submission time
        self.seen: Counter[int] = Counter()
        self.done = asyncio.Event()
        self.finished = 0

    def submitted(self, new_version: int) -> None:
        now = time.perf_counter()
        self.sent[new_version] = now
        if self.stats.first_move is None:
            self.stats.first_move = now

    def arrived(self, version: int, at: float) -> None:
        self.seen[version] += 1
        if self.seen[version] == self.recipients and version in self.sent:
            sent = self.sent.pop(version)
            self.stats.latencies.append(at - sent)
            self.stats.sent_at.append(sent)
            self.stats.moves += 1
            self.stats.last_move = at
            del self.seen[version]

    def client_finished(self) -> None:
        self.finished += 1
        if self.finished == self.recipients:
            self.done.set()


async def connect(
    url: str, origin: str, client: str = BROWSER, attempts: int = 5
) -> ClientConnection:
    """A player's socket. As a browser (``client="browser"``), it offers
    permessage-deflate with ``client_max_window_bits`` (the `websockets` client's
    ``compression="deflate"``) and compresses what it sends; ``"lean"`` offers nothing.
    Both send ``Origin``, as a page of ours would."""
    for attempt in range(attempts):
        try:
            return await websockets.connect(
                url,
                origin=origin,  # type: ignore[arg-type]
                max_size=None,
                open_timeout=30,
                ping_interval=None,
                compression="deflate" if client == BROWSER else None,
            )
        except (OSError, TimeoutError, websockets.InvalidHandshake):
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


async def play(
    ws: ClientConnection,
    target: Target,
    room: Room,
    seat: int | None,
    rng: random.Random | None,
    idle_timeout: float,
) -> None:
    """Receive until the game is over; act whenever the server asks this seat to."""
    stats = room.stats
    acted_at: int | None = None
    moves = 0
    try:
        while True:
            try:
                text = await asyncio.wait_for(ws.recv(), idle_timeout)
            except TimeoutError:
                stats.errors["timeout"] += 1
                return
            at = time.perf_counter()
            update = target.parse(text, seat)
            if update.error is not None:
                stats.errors[update.error] += 1
            stats.syncs += update.sync
            if update.version is not None:
                room.arrived(update.version, at)
            if update.over:
                stats.games_over += seat == 0
                return
            ready = update.ready
            if update.actions and ready is not None and ready != acted_at:
                acted_at = ready
                action = rng.choice(update.actions) if rng else update.actions[0]
                moves += 1
                room.submitted(ready + 1)
                await ws.send(target.move(ready, action, f"{seat}-{moves}"))
    except websockets.ConnectionClosed as closed:
        stats.errors[f"closed {closed.rcvd.code if closed.rcvd else 'abnormal'}"] += 1
    finally:
        room.client_finished()
        await ws.close()


class Watcher:
    """A spectator on a `LeanClient`: counts arrivals until the game is over."""

    def __init__(self, target: Target, room: Room) -> None:
        self.target = target
        self.room = room
        self.client: LeanClient | None = None
        self.over = False

    async def open(
        self, url: str, origin: str, hello: str | None, client: str = BROWSER
    ) -> None:
        self.client = await open_lean(url, origin, self.on_message, client)
        if hello is not None:
            self.client.send_text(hello)

    def on_message(self, data: bytes, at: float) -> None:
        if self.over:
            return
        update = self.target.peek(data)
        if update.error is not None:
            self.room.stats.errors[update.error] += 1
        self.room.stats.syncs += update.sync
        if update.version is not None:
            self.room.arrived(update.version, at)
        if update.over:
            self.finish()

    def finish(self) -> None:
        if not self.over:
            self.over = True
            self.room.client_finished()
            if self.client is not None:
                self.client.close()

    async def watch(self, idle_timeout: float) -> None:
        """Wait for the end of the game; a dropped connection or a silent room is an error."""
        assert self.client is not None
        moves = -1
        while not self.over:
            try:
                await asyncio.wait_for(asyncio.shield(self.client.closed), idle_timeout)
            except TimeoutError:
                if self.room.stats.moves != moves:  # the run is still moving: wait on
                    moves = self.room.stats.moves
                    continue
                self.room.stats.errors["timeout"] += 1
                break
            except ConnectionError:
                pass
            if not self.over:
                self.room.stats.errors["closed early"] += 1
            break
        self.finish()
