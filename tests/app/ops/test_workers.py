"""`ishtar serve --workers N` (app/ops/workers.py): N processes on one port, each an instance
of its own, coordinating through PostgreSQL; a worker that dies is started again, and a
SIGTERM stops them all."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest

from app.config.settings import get_settings
from app.ops import cli
from tests.app.clients import WsClient, open_room
from tests.support.live import LiveServer

SPECTATORS = 32  # all on one worker by chance: 2 ** -31


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


def listening(port: int) -> int:
    """How many sockets listen on `port` (/proc/net/tcp: state 0A is LISTEN)."""
    lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(
        1
        for line in lines
        if line.split()[1].endswith(f":{port:04X}") and line.split()[3] == "0A"
    )


def all_listening(server: LiveServer, count: int) -> None:
    """Until every worker listens (each does once its app has started; until then the
    kernel gives the port's connections to those that do)."""
    deadline = time.monotonic() + 60
    while listening(server.port) < count:
        assert time.monotonic() < deadline, f"{listening(server.port)} listening"
        time.sleep(0.05)


def asyncpg_url(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def instances_serving(url: str, room_id: str) -> int:
    conn = await asyncpg.connect(asyncpg_url(url))
    try:
        count: int = await conn.fetchval(
            "SELECT count(DISTINCT instance) FROM room_presence WHERE room_id = $1",
            room_id,
        )
        return count
    finally:
        await conn.close()


async def test_two_workers_share_a_room_one_that_dies_comes_back_sigterm_ends_all(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(database_url=database_url, args=("--workers", "2"))
    first = workers_of(server, 2)
    all_listening(server, 2)
    async with httpx.AsyncClient(base_url=server.url) as http:
        room_id, _host, tokens = await open_room(http, 2, first_player=0)
    fans = [WsClient(server.url, room_id) for _ in range(SPECTATORS)]
    async with WsClient(server.url, room_id, tokens[0]) as mover:
        for fan in fans:
            await fan.open()
        try:
            # Each worker wrote its own presence row for the room: two instances.
            async with asyncio.timeout(30):
                while await instances_serving(database_url, room_id) < 2:  # noqa: ASYNC110
                    await asyncio.sleep(0.05)
            version = mover.version
            await mover.move(mover.legal[0]["action"])
            for fan in fans:  # through whichever worker each one is on
                await fan.until_version(version + 1, timeout=30.0)
        finally:
            for fan in fans:
                await fan.close()
    # A worker killed: another takes its place, the other one goes on.
    victim = min(first)
    os.kill(victim, signal.SIGKILL)
    again = workers_of(server, 2, other_than={victim})
    assert len(again & first) == 1, "the other worker went on"
    all_listening(server, 2)
    server.wait_ready(60.0)  # the port still answers
    assert server.stop() == 0
    assert all(_gone(pid) for pid in again)


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
