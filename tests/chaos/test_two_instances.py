"""Crash safety with two server instances on one PostgreSQL: one dies, the other serves on.

Two real `ishtar serve` processes, A and B, share one database. Scripted players
(`tests.chaos.players`) play games of two, three and four players with their seats spread
over both instances (some games wholly on A or on B, some with seats on each), and one
spectator per game watches from the instance that does not hold seat 0. At seeded random
moments one instance (they take turns) is SIGKILLed and started again on the same port
while the other keeps serving. Whoever was connected to the dead one reconnects to it once
it is back and re-sends unacknowledged moves with the same ``move_id``.

At the end every game must be finished and `tests.chaos.ledger` checks the database
against what the players were told (no acknowledged move lost, none applied twice, each
game replays from its log to its snapshot). The spectators check the cross-instance relay:
each saw every version of its game in order, updates one version at a time, a jump only in
a ``welcome`` or ``sync`` that carries exactly the events it missed, up to the game's final
version; and a spectator's connection dropped only when its own instance was killed,
never because the other one died.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from tests.chaos.ledger import check_games, read_games
from tests.chaos.players import Player, open_table, ws_url
from tests.chaos.test_crashes import THINK, assert_all_finished, summary
from tests.support.live import LiveServer

pytestmark = pytest.mark.slow

SEED = 20261130
GAMES = [2, 3, 4, 2]  # players per game: each instance holds two or more
KILLS = 4  # instances killed in turn, starting with a seeded pick
RUN_LIMIT = 150.0  # seconds: a hung run fails instead of blocking CI


@dataclass
class Instance:
    """One of the two servers, and how many times it was killed so far."""

    name: str
    server: LiveServer
    kills: int = 0

    def errors(self) -> list[str]:
        """Lines of its log (every process it ran) that tell of a server error."""
        text = self.server.log_path.read_text(errors="replace")
        return [
            line
            for line in text.splitlines()
            if line.startswith(("ERROR", "CRITICAL", "Traceback")) or '" 500' in line
        ]

    def crash_and_restart(self) -> None:
        # Counted first: a client that sees its socket drop sees the kill counted.
        self.kills += 1
        self.server.kill()  # SIGKILL: no shutdown hook runs
        self.server.start()


def spread(game: int, players: int, a: Instance, b: Instance) -> list[Instance]:
    """Where each seat of a game plays: all on A, all on B, or alternating (either way)."""
    pattern = game % 4
    if pattern < 2:
        return [(a, b)[pattern]] * players
    return [(a, b)[(seat + pattern) % 2] for seat in range(players)]


@dataclass
class Spectator:
    """A websocket client without a seat that records the versions it was shown.

    It reads only ``type`` and ``version`` of messages, and the ``seq`` of the events a
    ``welcome`` or ``sync`` carries (what it missed), so it does not depend on the shape of
    views or updates.
    """

    instance: Instance
    room_id: str
    version: int = 0  # the game's version as far as this spectator knows it
    seen: list[tuple[str, int]] = field(default_factory=list)
    covered: list[int] = field(default_factory=list)  # versions learnt, in order
    problems: list[str] = field(default_factory=list)
    drops: int = 0  # sessions cut while its instance was not killed
    sessions: int = 0
    welcomed: asyncio.Event = field(default_factory=asyncio.Event)
    target: int | None = None  # the final version, once the players are done
    resyncing: bool = False  # said hello again after a gap, awaiting the welcome

    def done(self) -> bool:
        return self.target is not None and self.version >= self.target

    async def run(self, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        backoff = 0.05
        url = ws_url(self.instance.server.url, self.room_id)
        while not self.done() and loop.time() < deadline:
            kills, sessions = self.instance.kills, self.sessions
            try:
                async with websockets.connect(
                    url, open_timeout=5, close_timeout=1, max_size=None
                ) as ws:
                    backoff = 0.05
                    await self._session(ws, deadline)
            except (OSError, TimeoutError, websockets.WebSocketException):
                pass
            if self.done():
                return
            if self.sessions > sessions and self.instance.kills == kills:
                self.drops += 1  # welcomed, then cut off, yet its server was not killed
            await asyncio.sleep(backoff)
            backoff = min(1.0, backoff * 2)

    async def _session(self, ws: ClientConnection, deadline: float) -> None:
        self.resyncing = False
        await self._hello(ws)
        loop = asyncio.get_running_loop()
        while not self.done() and loop.time() < deadline:
            try:  # wakes now and then to see whether the players are done
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            if self._handle(json.loads(raw)):  # a gap: hello again, as clients do
                self.resyncing = True
                await self._hello(ws)

    async def _hello(self, ws: ClientConnection) -> None:
        await ws.send(
            json.dumps({"type": "hello", "token": None, "since": self.version})
        )

    def _handle(self, message: dict[str, Any]) -> bool:
        """Record a message; True when it leaves a gap to close with a new hello."""
        kind = message.get("type")
        if kind not in ("welcome", "sync", "update"):
            return False
        version: int = message["version"]
        self.seen.append((kind, version))
        if self.resyncing and kind != "welcome":
            return False  # sent before the new hello was answered
        if kind == "update":
            if version != self.version + 1:
                self.problems.append(f"update {version} after version {self.version}")
                return version > self.version
            self.covered.append(version)
            self.version = version
            return False
        if kind == "welcome":
            self.sessions += 1
            self.resyncing = False
            self.welcomed.set()
        if version < self.version:
            self.problems.append(f"{kind} {version} after version {self.version}")
            return False
        # The events are those after `since`; the log may have grown past `version` since
        # the view was read, and the updates of those versions follow.
        missed = [event["seq"] for event in message.get("events") or []]
        wanted = list(range(self.version + 1, version + 1))
        if [seq for seq in missed if seq <= version] != wanted:
            self.problems.append(
                f"{kind} {version} after version {self.version} carried events {missed}"
            )
        self.covered += wanted
        self.version = version
        return False


async def test_one_of_two_instances_killed_at_random_moments(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    a = Instance("A", live_server_factory(database_url=database_url))
    b = Instance("B", live_server_factory(database_url=database_url))
    rng = random.Random(SEED)
    async with httpx.AsyncClient(timeout=30) as http:
        tables = [await open_table(a.server.url, n, http) for n in GAMES]
    players, spectators = [], []
    for game, table in enumerate(tables):
        seats = spread(game, len(table.tokens), a, b)
        players += [
            Player(where.server.url, table, seat, random.Random(rng.random()), THINK)
            for seat, where in enumerate(seats)
        ]
        spectators.append(Spectator(b if seats[0] is a else a, table.room_id))

    loop = asyncio.get_running_loop()
    deadline = loop.time() + RUN_LIMIT
    watching = [asyncio.create_task(s.run(deadline)) for s in spectators]
    async with asyncio.timeout(30):  # a hang guard only: they connect in no time
        await asyncio.gather(*(s.welcomed.wait() for s in spectators))
    playing = [asyncio.create_task(p.run(deadline)) for p in players]
    victims = [(a, b), (b, a)][rng.randrange(2)] * (KILLS // 2)
    hit: list[str] = []
    for victim in victims:
        await asyncio.sleep(rng.uniform(0.3, 1.5))
        hit.append(f"{victim.name}@{sum(not p.over for p in players)}")
        await asyncio.to_thread(victim.crash_and_restart)
    await asyncio.gather(*playing)

    print(summary(players))
    print("killed (instance@seats still playing):", hit)
    assert_all_finished(players)
    logged = a.errors() + b.errors()
    assert not logged, f"the servers logged errors: {logged[:20]}"
    games = await read_games(database_url)
    check_games(games, players)

    for spectator in spectators:
        spectator.target = games[spectator.room_id].version
    await asyncio.gather(*watching)
    kinds = Counter(kind for s in spectators for kind, _ in s.seen)
    sessions = sum(s.sessions for s in spectators)
    print(f"spectators: {sessions} sessions, messages {dict(kinds)}")
    for spectator in spectators:
        where = f"spectator of {spectator.room_id} on {spectator.instance.name}"
        assert not spectator.problems, (
            f"{where}: {spectator.problems}: {spectator.seen}"
        )
        assert spectator.version == spectator.target, f"{where}: {spectator.seen}"
        assert spectator.covered == list(range(1, spectator.target + 1)), where
        assert spectator.drops == 0, f"{where} was cut off while its server lived"
