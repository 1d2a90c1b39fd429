"""Crash safety: the server SIGKILLed, and PostgreSQL restarted, while games are played.

Scripted players (`tests.chaos.players`) play several games at once over real websockets
against a real `ishtar serve`. At seeded random moments the server process is killed with
SIGKILL and started again on the same port, or PostgreSQL is shut down and started again.
The players reconnect and re-send unacknowledged moves with the same ``move_id``. At the end
every game must be finished, and `tests.chaos.ledger` checks the database against what the
players were told: no acknowledged move lost, none applied twice, each game replays from its
log to its snapshot.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from app.ops.embedded import EmbeddedPostgres
from tests.chaos.ledger import check_games, read_games
from tests.chaos.players import Player, open_table
from tests.support.live import LiveServer

pytestmark = pytest.mark.slow

SEED = 20261129
GAMES = [2, 3, 4, 2]  # players per game: every count, and 11 connections at a strike
THINK = 0.03  # seconds, at most, before a move: spreads each game over a few seconds
RUN_LIMIT = (
    360.0  # seconds: a hung run fails instead of blocking CI (a loaded CI is slow)
)


async def seat_players(base: str, rng: random.Random) -> list[Player]:
    async with httpx.AsyncClient(timeout=30) as http:
        tables = [await open_table(base, n, http) for n in GAMES]
    return [
        Player(base, table, seat, random.Random(rng.random()), think=THINK)
        for table in tables
        for seat in range(len(table.tokens))
    ]


async def play_through(
    players: list[Player], disrupt: Callable[[random.Random], None], times: int
) -> None:
    """Run every player while `disrupt` strikes `times` times at random moments."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + RUN_LIMIT
    rng = random.Random(SEED)
    tasks = [asyncio.create_task(p.run(deadline)) for p in players]
    for _ in range(times):
        await asyncio.sleep(rng.uniform(0.2, 1.2))
        await asyncio.to_thread(disrupt, rng)
    await asyncio.gather(*tasks)


def summary(players: list[Player]) -> str:
    acked = sum(len(p.acked) for p in players)
    resent = sum(p.resent for p in players)
    duplicates = sum(p.duplicates for p in players)
    reconnects = sum(p.reconnects for p in players)
    errors = Counter(e for p in players for e in p.errors)
    return (
        f"{acked} moves acked, {reconnects} reconnects, {resent} resent, "
        f"{duplicates} acked as duplicates, errors {dict(errors)}"
    )


def assert_all_finished(players: list[Player]) -> None:
    unfinished = {p.table.room_id for p in players if not p.over}
    assert not unfinished, f"games that did not continue to their end: {unfinished}"
    assert not [e for p in players for e in p.errors if e == "internal"]


async def test_server_killed_at_random_moments_loses_and_doubles_nothing(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(database_url=database_url)
    players = await seat_players(server.url, random.Random(SEED))

    def crash_and_restart(rng: random.Random) -> None:
        server.kill()  # SIGKILL: no shutdown hook runs
        server.start()

    await play_through(players, crash_and_restart, times=3)

    print(summary(players))
    assert_all_finished(players)
    assert sum(p.reconnects for p in players) >= 3 * len(players)
    check_games(await read_games(database_url), players)


@pytest.fixture
def own_postgres(tmp_path: Path) -> Iterator[EmbeddedPostgres]:
    """A PostgreSQL of this test alone, so that it can be stopped under load."""
    server = EmbeddedPostgres(tmp_path / "pg", server_settings={"fsync": "off"})
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def test_postgres_restarted_under_load_gives_clean_errors_and_loses_nothing(
    own_postgres: EmbeddedPostgres, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(database_url=own_postgres.url)
    players = await seat_players(server.url, random.Random(SEED + 1))

    def restart_postgres(rng: random.Random) -> None:
        own_postgres.stop()  # fast shutdown: every session is cut off mid-flight
        time.sleep(rng.uniform(0.2, 1.0))  # moves arrive meanwhile: refused, not lost
        own_postgres.start()
        print("postgres restarted")

    await play_through(players, restart_postgres, times=2)

    print(summary(players))
    assert_all_finished(players)
    refusals = {e for p in players for e in p.errors}
    assert refusals <= {"unavailable", "stale_version", "not_your_turn", "rate_limited"}
    assert server.process is not None
    assert server.process.poll() is None, "the server died with its database"
    check_games(await read_games(own_postgres.url), players)
