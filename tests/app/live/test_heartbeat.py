"""The heartbeat (app/ops/runtime.py): its cost does not bunch up with the rooms served.

Each beat reads every served room's version in one query and wakes only the rooms behind
it (a lost notice); the rooms' status and presence are re-read a slice at a time over the
period. No `sync` reaches a client while nothing went wrong (SYNC_REASONS counts them).
"""

from __future__ import annotations

import asyncio

from app.live.connection import SYNC_REASONS
from app.live.hub import Hub
from tests.app.clients import WsClient, open_room


async def idle(hub: Hub, room_id: str) -> None:
    """Until the room's publisher has done what it was woken for."""
    channel = hub.channels[room_id]
    async with asyncio.timeout(10):  # a hang guard, not a timing assertion
        while channel.busy or channel.wake.is_set():  # noqa: ASYNC110
            await asyncio.sleep(0.01)


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
        # A spectator joined since the player's welcome: the first refresh tells it.
        await hub.refresh(0.0, slices=2)
        await idle(hub, behind_id)
        for client in (mover, watcher, quiet):  # what was on its way has arrived
            await client.send({"type": "ping"})
            await client.expect("pong")
        rooms = [len(c.of_type("room")) for c in (mover, watcher, quiet)]
        await hub.refresh(0.0, slices=2)  # status and presence: nothing changed
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
