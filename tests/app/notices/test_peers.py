"""Instances hear of each other and of the rooms each serves on the notice channel; a move
notice only when another instance serves the room."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest

from app.notices.listener import asyncpg_dsn, parse_notice
from app.notices.peers import BYE, HELLO, HERE, SERVE, Peers, peer_notice, serve_notice
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
    assert said == [peer_notice("me", HERE, 1)], (
        "a newcomer learns of us (no room) at once"
    )
    assert peers.any()
    clock.now += 20
    peers.heard("other", HERE, 1)  # its heartbeat
    clock.now += 25
    assert peers.any(), "heard 25 s ago: still there"
    clock.now += 10
    assert not peers.any(), "35 s of silence: forgotten"


def test_our_own_notices_and_a_bye() -> None:
    said: list[str] = []
    peers = Peers("me", said.append)
    peers.rooms = lambda: ["roomA"]
    peers.heard("me", HELLO)
    assert not peers.any() and said == [], "our own hello comes back: ignored"
    peers.heard("other", HERE)
    assert said == [], "a here of a version that does not count its rooms asks nothing"
    peers.heard("other", BYE)
    assert not peers.any()
    peers.serving("roomB", True)
    assert said == [], "nobody listens: nothing to tell"
    peers.hello()
    peers.heard("other", HERE, 1)
    peers.serving("roomA", False)
    peers.bye()
    peers.serving("roomC", True)
    assert [parse_notice(n) for n in said] == [
        ("me", HELLO, 0, None),
        ("roomA", SERVE, 1, "me"),
        ("me", HERE, 2, None),
        ("roomA", SERVE, 0, "me"),
        ("me", BYE, 0, None),
    ], "a hello, our rooms and their count; a room left; then, gone, nothing more"


def test_a_move_is_announced_only_where_another_instance_serves_the_room() -> None:
    said: list[str] = []
    peers = Peers("me", said.append)
    assert not peers.wants("r1"), "alone: no notice"
    peers.heard("other", HELLO)
    assert peers.wants("r1"), "its rooms not told yet: every move is its"
    peers.heard("other", SERVE, 1, "r1")
    peers.heard("other", HERE, 2)
    assert peers.wants("r1") and not peers.wants("r2"), "it serves r1 alone"
    peers.heard("other", SERVE, 1, "r2")
    peers.heard("other", SERVE, 0, "r1")
    assert peers.wants("r2") and not peers.wants("r1")
    peers.heard("third", HERE)  # a version that does not tell its rooms
    assert peers.wants("r1") and peers.wants("r9"), "it may serve any room"
    peers.heard("third", BYE)
    assert not peers.wants("r1") and peers.wants("r2")
    peers.heard("other", BYE)
    assert not peers.wants("r2"), "gone with its rooms"


def test_a_count_that_disagrees_asks_every_instance_for_its_rooms_again() -> None:
    said: list[str] = []
    clock = Clock()
    peers = Peers("me", said.append, expire_s=30.0, clock=clock)
    peers.rooms = lambda: ["mine"]
    peers.heard("other", HELLO)
    peers.heard("other", SERVE, 1, "r1")
    peers.heard("other", HERE, 2)
    said.clear()
    peers.heard("other", HERE, 3)  # it serves two rooms: a notice of one was missed
    assert peers.wants("r7"), "its rooms are not known any more: every move is its"
    assert [parse_notice(n) for n in said] == [
        ("me", HELLO, 0, None),
        ("mine", SERVE, 1, "me"),
        ("me", HERE, 2, None),
    ]
    peers.heard("other", HERE, 3)
    assert len(said) == 3, "asked once a period, not at every here"
    # Its answer to our hello: its list again, then its count.
    peers.heard("other", SERVE, 1, "r1")
    peers.heard("other", SERVE, 1, "r2")
    peers.heard("other", HERE, 3)
    assert peers.wants("r2") and not peers.wants("r7")
    clock.now += 31
    peers.heard("other", HERE, 1)  # a second disagreement, a period on: asked again
    assert len(said) == 6 and peers.wants("r7")


def test_an_instance_that_says_hello_again_tells_its_rooms_afresh() -> None:
    peers = Peers("me", lambda _notice: None)
    peers.heard("other", HELLO)
    peers.heard("other", SERVE, 1, "old")
    peers.heard("other", HERE, 2)
    peers.heard("other", HELLO)  # its listener reconnected
    assert peers.wants("anything"), "until its list has come"
    peers.heard("other", SERVE, 1, "new")
    peers.heard("other", HERE, 2)
    assert peers.wants("new") and not peers.wants("old")
    assert serve_notice("x", "new", True) == "new s 1 x"


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
async def test_move_notices_only_for_a_room_another_instance_serves(
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

        b = serve()  # another instance says hello; a answers with its rooms and count
        await heard.until(lambda: any(n[1] == HERE for n in heard.notices))
        elsewhere = await play(a, 4)
        await conn.execute("SELECT pg_notify($1, 'flush2 m 0')", CHANNEL)
        await heard.until(lambda: ("flush2", NoticeKind.MOVE, 0, None) in heard.notices)
        assert heard.moves(elsewhere) == [], "b listens but does not serve the room"

        async with httpx.AsyncClient(base_url=a.url) as http:
            room_id, _host, tokens = await open_room(
                http, 2, first_player=0, seat_order="fixed"
            )
        async with WsClient(b.url, room_id) as spectator:
            await heard.until(
                lambda: (
                    (room_id, NoticeKind.SERVE, 1, b_id(heard, room_id))
                    in heard.notices
                )
            )
            async with (
                WsClient(a.url, room_id, tokens[0]) as zero,
                WsClient(a.url, room_id, tokens[1]) as one,
            ):
                for _ in range(4):
                    actor = zero if zero.legal else one
                    version = actor.version
                    await actor.move(actor.legal[0]["action"])
                    await spectator.until_version(version + 1, timeout=15.0)
        await heard.until(lambda: len(heard.moves(room_id)) == 4)
        # Each carries the move's log entry: the others need not read it back.
        entries = [json.loads(n[3] or "null") for n in heard.moves(room_id)]
        assert [entry["seq"] for entry in entries] == [1, 2, 3, 4]
        await heard.until(
            lambda: (
                (room_id, NoticeKind.SERVE, 0, b_id(heard, room_id)) in heard.notices
            )
        )  # b left the room with its last socket
    finally:
        await conn.close()


def b_id(heard: Heard, room_id: str) -> str | None:
    """The instance that said it serves `room_id` (the detail of its notice)."""
    for room, kind, _number, detail in heard.notices:
        if room == room_id and kind is NoticeKind.SERVE:
            return detail
    return None
