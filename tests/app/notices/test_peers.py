"""Instances hear of each other on the notice channel; move notices only when another listens."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest

from app.notices.listener import asyncpg_dsn, parse_notice
from app.notices.peers import BYE, HELLO, HERE, Peers, peer_notice
from app.store.channel import CHANNEL, NoticeKind
from tests.app.clients import WsClient, open_room
from tests.support.live import LiveServer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_hello_is_answered_and_the_instance_counted_until_it_expires() -> None:
    said: list[str] = []
    clock = Clock()
    peers = Peers("me", said.append, expire_s=30.0, clock=clock)
    assert not peers.any()
    peers.heard("other", HELLO)
    assert said == [peer_notice("me", HERE)], "a newcomer learns of us at once"
    assert peers.any()
    clock.now += 20
    peers.heard("other", HERE)  # its heartbeat
    clock.now += 25
    assert peers.any(), "heard 25 s ago: still there"
    clock.now += 10
    assert not peers.any(), "35 s of silence: forgotten"


def test_our_own_notices_and_a_bye() -> None:
    said: list[str] = []
    peers = Peers("me", said.append)
    peers.heard("me", HELLO)
    assert not peers.any() and said == [], "our own hello comes back: ignored"
    peers.heard("other", HERE)
    assert said == [], "only a hello is answered"
    peers.heard("other", BYE)
    assert not peers.any()
    peers.hello()
    peers.bye()
    assert [parse_notice(n) for n in said] == [
        ("me", HELLO, 0, None),
        ("me", BYE, 0, None),
    ]


class Heard:
    """Every notice on the channel, as a test listener hears them."""

    def __init__(self) -> None:
        self.notices: list[tuple[str, NoticeKind, int, str | None]] = []
        self.arrived = asyncio.Event()

    def on(self, _c: object, _pid: int, _channel: str, payload: str) -> None:
        notice = parse_notice(payload)
        if notice is not None:
            self.notices.append(notice)
            self.arrived.set()

    async def until(self, done: Callable[[], bool]) -> None:
        async with asyncio.timeout(10):  # a hang guard, not a timing assertion
            while not done():
                self.arrived.clear()
                await self.arrived.wait()

    def moves(self, room_id: str) -> list[tuple[str, str, int, str | None]]:
        return [n for n in self.notices if n[0] == room_id and n[1] is NoticeKind.MOVE]


async def play(server: LiveServer, moves: int) -> str:
    async with httpx.AsyncClient(base_url=server.url) as http:
        room_id, _host, tokens = await open_room(
            http, 2, first_player=0, seat_order="fixed"
        )
    async with (
        WsClient(server.url, room_id, tokens[0]) as zero,
        WsClient(server.url, room_id, tokens[1]) as one,
    ):
        for _ in range(moves):
            actor = zero if zero.legal else one
            version = actor.version
            await actor.move(actor.legal[0]["action"])
            for client in (zero, one):
                await client.until_version(version + 1, timeout=15.0)
    return room_id


@pytest.mark.slow
async def test_a_lone_instance_sends_no_move_notices_and_does_once_another_listens(
    serve: Callable[..., LiveServer], database_url: str
) -> None:
    heard = Heard()
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    await conn.add_listener(CHANNEL, heard.on)
    try:
        a = serve()
        alone = await play(a, 4)
        await conn.execute("SELECT pg_notify($1, 'flush m 0')", CHANNEL)
        await heard.until(
            lambda: ("flush", NoticeKind.MOVE, 0, None) in heard.notices
        )  # all sent arrived
        assert heard.moves(alone) == []

        serve()  # another instance says hello; a answers and notifies from now on
        await heard.until(lambda: any(n[1] == HERE for n in heard.notices))
        together = await play(a, 4)
        await heard.until(lambda: len(heard.moves(together)) == 4)
        # Each carries the move's log entry: the others need not read it back.
        entries = [json.loads(n[3] or "null") for n in heard.moves(together)]
        assert [entry["seq"] for entry in entries] == [1, 2, 3, 4]
    finally:
        await conn.close()
