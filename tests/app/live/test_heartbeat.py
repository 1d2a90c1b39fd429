"""The heartbeat (app/ops/runtime.py): its cost does not bunch up with the rooms served.

Each beat reads every served room's version, revision and chat count in one query each and
wakes only the rooms behind them (a lost notice); the presence of the rooms other instances
also serve is re-read a slice at a time over the period. No `sync` reaches a client while
nothing went wrong (SYNC_REASONS counts them).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.live.connection import SYNC_REASONS
from app.live.hub import Hub
from app.store.channel import CHANNEL, NOTIFY, NoticeKind
from app.store.channel import notice as notice_text
from tests.app.clients import WsClient, open_room


async def idle(hub: Hub, room_id: str) -> None:
    """Until the room's publisher has done what it was woken for."""
    channel = hub.channels[room_id]
    async with asyncio.timeout(10):  # a hang guard, not a timing assertion
        while channel.busy or channel.wake.is_set():  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def settled(hub: Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    """Until every presence write made so far was heard and published: this instance's
    debounced writes are flushed, their notices heard (a marker notice sent after them
    arrives after them: PostgreSQL delivers notices in commit order), and every room's
    publisher is idle. Without it a notice of an earlier write could land while a test
    counts what a later step reads (a CI run under load counted two such reads)."""
    presence = hub.presence
    if presence._flush is not None:
        await presence._flush
    await presence.flush()
    heard = asyncio.Event()
    marker = f"settled{id(heard) % 100_000:05d}"
    with monkeypatch.context() as patch:
        notice = hub.notice

        def listening(
            room: str, kind: NoticeKind, number: int, detail: str | None = None
        ) -> None:
            if room == marker:
                heard.set()
            notice(room, kind, number, detail)

        patch.setattr(hub, "notice", listening)
        async with presence.store._conn() as conn:
            await conn.execute(
                NOTIFY, CHANNEL, notice_text(marker, NoticeKind.PRESENCE, 0)
            )
        async with asyncio.timeout(10):  # a hang guard, not a timing assertion
            await heard.wait()
    for room_id in list(hub.channels):
        await idle(hub, room_id)


async def test_a_beat_wakes_only_the_rooms_behind_and_sends_no_sync(
    room_app, web
) -> None:
    url, http = web
    hub: Hub = room_app.state.hub
    behind_id, _host, behind_tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    quiet_id, _host, quiet_tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    syncs = sum(SYNC_REASONS.values())
    async with (
        WsClient(url, behind_id, behind_tokens[0]) as mover,
        WsClient(url, behind_id) as watcher,
        WsClient(url, quiet_id, quiet_tokens[0]) as quiet,
    ):
        version = mover.version
        await mover.move(mover.legal[0]["action"])
        await watcher.until_version(version + 1, timeout=15.0)
        await idle(hub, behind_id)
        await idle(hub, quiet_id)
        # The hub forgets the move it published, as if its notice had been lost.
        behind = hub.channels[behind_id]
        behind.published = behind.target = version
        await hub.catch_up()
        assert hub.channels[behind_id].wake.is_set(), "the room behind catches up"
        assert not hub.channels[quiet_id].wake.is_set(), "a room up to date sleeps"
        await idle(hub, behind_id)
        assert behind.published == version + 1
        await hub.refresh(0.0, slices=2)
        await idle(hub, behind_id)
        for client in (mover, watcher, quiet):  # what was on its way has arrived
            await client.send({"type": "ping"})
            await client.expect("pong")
        rooms = [len(c.of_type("room")) for c in (mover, watcher, quiet)]
        await hub.refresh(0.0, slices=2)  # no other instance: nothing is re-read
        await idle(hub, behind_id)
        await idle(hub, quiet_id)
        for client, seen in zip((mover, watcher, quiet), rooms, strict=True):
            await client.send({"type": "ping"})
            await client.expect("pong")
            assert client.of_type("sync") == []
            assert len(client.of_type("room")) == seen, "no unchanged status again"

        assert sum(SYNC_REASONS.values()) == syncs, dict(SYNC_REASONS)


async def test_a_sync_is_counted_under_its_reason(room_app, web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(http, 2)
    async with WsClient(url, room_id, tokens[0]) as player:
        await player.send({"type": "ping"})
        await player.expect("pong")
        before = SYNC_REASONS["test"]
        conn = next(iter(room_app.state.hub.channels[room_id].conns))
        conn.want_sync("test")
        assert SYNC_REASONS["test"] == before + 1
        await player.expect("sync")


async def test_a_lost_room_notice_shows_in_the_revision(
    room_app, web, monkeypatch
) -> None:
    url, http = web
    hub: Hub = room_app.state.hub
    room_id, _host, tokens = await open_room(http, 2, seat_order="fixed")
    async with WsClient(url, room_id, tokens[0]) as host, WsClient(url, room_id) as fan:
        await idle(hub, room_id)
        heard = hub.notice

        def deaf_to_rooms(
            room: str, kind: NoticeKind, number: int, detail: str | None = None
        ) -> None:
            if kind is not NoticeKind.ROOM:
                heard(room, kind, number, detail)

        monkeypatch.setattr(hub, "notice", deaf_to_rooms)
        revision = hub.channels[room_id].revision
        await host.send({"type": "chat_settings", "spectators": False})  # a bump
        for _ in range(500):  # a hang guard of 10 s, not a timing assertion
            if (await room_app.state.rooms.store.revisions([room_id]))[
                room_id
            ] > revision:
                break
            await asyncio.sleep(0.02)
        await idle(hub, room_id)
        assert hub.channels[room_id].revision == revision, "the notice was lost"
        await hub.catch_up()
        await idle(hub, room_id)
        assert hub.channels[room_id].revision == revision + 1
        for client in (host, fan):
            await client.send({"type": "ping"})
            await client.expect("pong")
            assert client.of_type("room")[-1]["room"]["revision"] == revision + 1


async def test_only_rooms_other_instances_serve_have_their_presence_re_read(
    room_app, web, monkeypatch
) -> None:
    url, http = web
    hub: Hub = room_app.state.hub
    shared_id, _host, _tokens = await open_room(http, 2)
    alone_id, _host, _tokens = await open_room(http, 2)
    async with WsClient(url, shared_id), WsClient(url, alone_id):
        assert await hub.refresh(0.0, slices=2) == [], "no other instance yet"
        # Another instance serves a spectator of one of them.
        await hub.presence.store.put_presence(shared_id, "elsewhere", [], 1)
        reread = await hub.refresh(0.0, slices=2)
        assert [channel.room_id for channel in reread] == [shared_id]
        await settled(hub, monkeypatch)

        # Re-read in one query a slice: a room whose presence did not change is not
        # woken (it used to read its presence again, one query a room and beat).
        asked: list[str] = []
        snapshot = hub.presence.snapshot

        async def counted(room_id: str) -> dict[str, Any]:
            asked.append(room_id)
            return await snapshot(room_id)

        monkeypatch.setattr(hub.presence, "snapshot", counted)
        await hub.refresh(0.0, slices=2)
        assert not hub.channels[shared_id].wake.is_set()
        assert asked == []
        # A change with no notice (rows of an instance that died age out so): woken.
        async with hub.presence.store._conn() as conn:
            await conn.execute(
                "UPDATE room_presence SET spectators = 3 WHERE instance = 'elsewhere'"
            )
        await hub.refresh(0.0, slices=2)
        await settled(hub, monkeypatch)
        assert asked == [shared_id]
        assert hub.channels[shared_id].last_presence is not None
        assert '"spectators":4' in hub.channels[shared_id].last_presence


async def test_a_room_taken_up_is_caught_up_a_moment_later(
    room_app, web, monkeypatch
) -> None:
    """A move another instance made before it heard that this one took up the room came
    with no notice (app/notices/peers.py): the rooms taken up are caught up
    `taken_up_check_s` later, not at the next heartbeat."""
    url, http = web
    hub: Hub = room_app.state.hub
    told: list[tuple[str, bool]] = []
    serving = hub.serving
    assert serving is not None, "the instance tells the others the rooms it serves"

    def spy(room: str, taken: bool) -> None:
        told.append((room, taken))
        serving(room, taken)

    monkeypatch.setattr(hub, "serving", spy)
    monkeypatch.setattr(hub, "taken_up_check_s", 0.0)
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with WsClient(url, room_id, tokens[0]) as mover:
        assert told == [(room_id, True)], "its first socket takes the room up"
        async with WsClient(url, room_id) as watcher:
            assert told == [(room_id, True)], "once"
            version = mover.version
            await mover.move(mover.legal[0]["action"])
            await watcher.until_version(version + 1, timeout=15.0)
            await idle(hub, room_id)
            # As if the move had been made elsewhere with no notice: the hub has not seen it.
            channel = hub.channels[room_id]
            channel.published = channel.target = version
            hub._taken_up.append(channel)
            await hub._check_taken_up()
            await idle(hub, room_id)
            assert channel.published == version + 1, "caught up, no heartbeat needed"
            await watcher.send({"type": "ping"})
            await watcher.expect("pong")
    async with asyncio.timeout(10):  # a hang guard, not a timing assertion
        while room_id in hub.channels:  # noqa: ASYNC110
            await asyncio.sleep(0.01)
    assert told == [(room_id, True), (room_id, False)], "its last socket leaves it"
