"""A welcome read while the room changes under it (app/live/channel.py, `Channel.welcome`).

A spectator opening the room's link as the host presses "start" (a CI flake of
tests/e2e/test_babylon_play.py, 2026-12-05): its welcome was built from the room as it was
read before the start, while the room's publisher, which had already seen the start, skipped
the connection (it had no welcome yet). The spectator stayed in the lobby of a game being
played until it reloaded. The welcome must be followed by whatever it missed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from app.live.hub import Hub
from app.store.rows import RoomRow
from tests.app.clients import WsClient, bearer


async def room_of_two(http: Any) -> tuple[dict[str, Any], Any]:
    """A 2-seat room (seats in order) with both seats taken: its creation and the join."""
    created = (
        await http.post(
            "/api/rooms", json={"players": 2, "name": "P0", "seat_order": "fixed"}
        )
    ).json()
    joined = await http.post(
        f"/api/rooms/{created['room_id']}/seats", json={"name": "P1"}
    )
    assert joined.status_code == 201, joined.text
    return created, joined


async def test_a_spectator_welcomed_as_the_game_starts_sees_the_game(
    room_app, web
) -> None:
    url, http = web
    hub: Hub = room_app.state.hub
    created, _joined = await room_of_two(http)
    room_id = created["room_id"]

    rooms = hub.service.rooms
    read_open = asyncio.Event()  # the spectator's welcome has read the room, still open
    go_on = asyncio.Event()
    real_status = rooms.status

    async def status_held(room: RoomRow) -> dict[str, Any]:
        # Only the spectator's welcome waits (the room it read is still open); the
        # publisher's reads of the started room go through.
        if room.status == "open" and not read_open.is_set():
            read_open.set()
            await go_on.wait()
        return await real_status(room)

    async with WsClient(url, room_id, created["token"]) as player:
        assert player.welcome["room"]["status"] == "open"
        rooms.status = status_held  # type: ignore[method-assign]
        try:
            spectator = WsClient(url, room_id)
            opening = asyncio.create_task(spectator.open())
            await asyncio.wait_for(read_open.wait(), 10)
            started = await http.post(
                f"/api/rooms/{room_id}/start", headers=bearer(created["host_token"])
            )
            assert started.status_code == 200, started.text
            # The player hears of the start: the room's publisher has been through it.
            await player.expect("sync", timeout=10)
            assert hub.channels[room_id].status != "open"
            go_on.set()
            await asyncio.wait_for(opening, 10)
        finally:
            rooms.status = real_status  # type: ignore[method-assign]
        try:
            # read before the start:
            assert spectator.welcome["room"]["status"] == "open"
            # What it missed follows: the room as it is now and the game's view, in
            # whichever order the publisher and the writer send them.
            started_room = synced = False
            # A hang guard, not a time limit: both come, or the test fails.
            async with asyncio.timeout(10):
                while not (started_room and synced):
                    message = await spectator.recv(timeout=10)
                    if message["type"] == "room":
                        started_room = message["room"]["status"] != "open"
                    synced = synced or message["type"] == "sync"
            assert spectator.view is not None and spectator.view.get("phase")
            assert spectator.version == player.version
        finally:
            await spectator.close()


async def test_a_welcome_read_before_a_presence_change_is_followed_by_it(
    room_app, web
) -> None:
    """The presence a welcome carries is read with the room, before the welcome is queued.
    A seat that connects in between is published to the room's other connections, but not
    to this one (it has no welcome yet), and the room's publisher sends only changes: the
    spectator saw the seat offline until something else changed (a CI flake of
    tests/app/live/test_instances.py on a loaded machine). What the welcome missed follows."""
    url, http = web
    hub: Hub = room_app.state.hub
    created, joined = await room_of_two(http)
    room_id = created["room_id"]

    rooms = hub.service.rooms
    read = asyncio.Event()  # the spectator's welcome has read the room and its presence
    go_on = asyncio.Event()
    real_status = rooms.status
    holding = [True]

    async def status_held(room: RoomRow) -> dict[str, Any]:
        status = await real_status(room)
        if holding[0]:  # the first read after the spectator came: its welcome's
            holding[0] = False
            read.set()
            await go_on.wait()
        return status

    def seats(message: dict[str, Any]) -> list[int]:
        return list(message["presence"]["connected_seats"])

    async with WsClient(url, room_id, created["token"]) as first:
        rooms.status = status_held  # type: ignore[method-assign]
        try:
            spectator = WsClient(url, room_id)
            opening = asyncio.create_task(spectator.open())
            await asyncio.wait_for(read.wait(), 10)
            async with WsClient(url, room_id, joined.json()["token"]):
                # The room's publisher has told the connections it knows of.
                async with asyncio.timeout(10):  # a hang guard
                    while seats(await first.expect("presence")) != [0, 1]:
                        pass
                go_on.set()
                await asyncio.wait_for(opening, 10)
                try:
                    assert seats(spectator.welcome) == [0]  # read before seat 1 came
                    async with asyncio.timeout(10):  # a hang guard: it comes, or fails
                        while seats(await spectator.expect("presence")) != [0, 1]:
                            pass
                finally:
                    await spectator.close()
        finally:
            rooms.status = real_status  # type: ignore[method-assign]
