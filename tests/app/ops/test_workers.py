"""`ishtar serve --workers N` (app/ops/workers.py): N processes on one port, each an instance
of its own, coordinating through PostgreSQL; the front hands a room's sockets to the room's
worker (app/ops/front.py); a worker that dies is started again, and a SIGTERM stops them
all."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest

from app.config.settings import get_settings
from app.ops import cli
from app.ops.front import home_of
from tests.app.clients import WsClient, open_room
from tests.support.live import LiveServer

SPECTATORS = (
    16  # on both workers by chance, were the kernel to spread them: 1 - 2 ** -15
)


def children(pid: int) -> set[int]:
    """The processes `pid` started (Linux's /proc list, no third-party library)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found |= {int(child) for child in text.split()}
    return found


def workers_of(
    server: LiveServer, count: int, other_than: set[int] = frozenset()
) -> set[int]:
    """The server's `count` worker pids, none of `other_than` (a hang guard of 60 s)."""
    assert server.process is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        pids = children(server.process.pid)
        if len(pids) == count and not pids & other_than:
            return pids
        time.sleep(0.05)
    raise TimeoutError(f"workers: {children(server.process.pid)}")


def ready_lines(server: LiveServer) -> int:
    """How many times the front has logged a worker ready."""
    return len(
        re.findall(r"worker \d+ ready", server.log_path.read_text(errors="replace"))
    )


def until_ready(server: LiveServer, count: int) -> None:
    """Until the front has seen `count` workers ready (each is once its app has started;
    until the first, the port refuses connections)."""
    deadline = time.monotonic() + 60
    while ready_lines(server) < count:
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.05)


def asyncpg_url(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def spectators_by_instance(url: str, room_id: str) -> dict[str, int]:
    """The room's spectators by the instance they are connected to (presence rows)."""
    conn = await asyncpg.connect(asyncpg_url(url))
    try:
        rows = await conn.fetch(
            "SELECT instance, spectators FROM room_presence WHERE room_id = $1", room_id
        )
        return {str(row["instance"]): row["spectators"] for row in rows}
    finally:
        await conn.close()


async def all_spectators_seen(url: str, room_id: str) -> dict[str, int]:
    """`spectators_by_instance` once every spectator's presence is written."""
    async with asyncio.timeout(30):
        while True:  # the rows are written a moment after each welcome
            found = await spectators_by_instance(url, room_id)
            if sum(found.values()) >= SPECTATORS:
                return found
            await asyncio.sleep(0.05)


async def rooms_on_each_worker(
    http: httpx.AsyncClient,
) -> list[tuple[str, list[str]]]:
    """Two started rooms, the first homed on worker 0, the second on worker 1."""
    found: dict[int, tuple[str, list[str]]] = {}
    for _ in range(64):  # each room is either's by a hash: both within 64, but 2 ** -63
        room_id, _host, tokens = await open_room(http, 2, first_player=0)
        found.setdefault(home_of(room_id.encode(), 2), (room_id, tokens))
        if len(found) == 2:
            return [found[0], found[1]]
    raise AssertionError("every room homed on one worker")


async def test_a_rooms_sockets_meet_on_its_worker_one_that_dies_comes_back(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(database_url=database_url, args=("--workers", "2"))
    first = workers_of(server, 2)
    until_ready(server, 2)
    async with httpx.AsyncClient(base_url=server.url) as http:
        rooms = await rooms_on_each_worker(http)
    serving: list[dict[str, int]] = []
    for room_id, tokens in rooms:
        fans = [WsClient(server.url, room_id) for _ in range(SPECTATORS)]
        async with WsClient(server.url, room_id, tokens[0]) as mover:
            for fan in fans:
                await fan.open()
            try:
                version = mover.version
                await mover.move(mover.legal[0]["action"])
                for fan in fans:
                    await fan.until_version(version + 1, timeout=30.0)
                # Every spectator of the room on one worker: one instance's presence row.
                found = await all_spectators_seen(database_url, room_id)
                serving.append(found)
            finally:
                for fan in fans:
                    await fan.close()
    assert [list(found.values()) for found in serving] == [[SPECTATORS], [SPECTATORS]]
    assert serving[0].keys() != serving[1].keys(), "each room on its own worker"
    # A worker killed: another takes its place, the other one goes on.
    victim = min(first)
    os.kill(victim, signal.SIGKILL)
    again = workers_of(server, 2, other_than={victim})
    assert len(again & first) == 1, "the other worker went on"
    until_ready(server, 3)
    server.wait_ready(60.0)  # the port still answers
    assert server.stop() == 0
    assert all(_gone(pid) for pid in again)


def test_workers_stop_when_their_supervisor_is_killed(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    """No connection can reach an orphaned worker: it stops, as on SIGTERM."""
    server = live_server_factory(database_url=database_url, args=("--workers", "2"))
    workers = workers_of(server, 2)
    until_ready(server, 2)
    server.kill()
    deadline = time.monotonic() + 60
    while not all(_gone(pid) for pid in workers):
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.05)
    assert server.log().count("the front's channel closed: stopping") == 2


def _gone(pid: int) -> bool:
    """The process has ended (reaped, or a zombie its parent has not waited on yet)."""
    return not Path(f"/proc/{pid}").exists() or _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True


def test_workers_must_be_at_least_one(
    database_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Refused by the command line before anything starts: `ishtar serve` in this process
    (a subprocess spent its seconds importing the server to exit with 2)."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    try:
        with caplog.at_level(logging.ERROR, logger="ishtar"):
            assert cli.main(["serve", "--workers", "0"]) == 2
    finally:
        get_settings.cache_clear()
    assert "--workers must be at least 1 (got 0)" in caplog.text
