"""The room websocket, message by message (docs/protocol.md): welcome, ack and update,
resync, spectators, presence, errors for bad input, Origin, size and rate limits."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.live.hub import Hub
from tests.app.clients import WsClient, bearer, open_room, ws_url


async def log_of(http: httpx.AsyncClient, room_id: str) -> list[dict]:
    return (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]


async def test_welcome_gives_view_version_legal_and_presence(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with (
        WsClient(url, room_id, tokens[0]) as first,
        WsClient(url, room_id, tokens[1]) as second,
    ):
        welcome = first.welcome
        assert welcome["version"] == 0
        assert welcome["you"] == {
            "seat": 0,
            "role": "player",
            "name": "P0",
            "is_host": True,
        }
        assert welcome["view"]["viewer"] == 0
        assert welcome["legal"], "seat 0 acts first"
        assert second.welcome["legal"] == []
        assert welcome["room"]["status"] == "playing"
        assert welcome["events"] == []
        assert welcome["presence"]["connected_seats"] == [0]
        async with asyncio.timeout(5):
            while True:
                message = await first.expect("presence")
                if message["presence"]["connected_seats"] == [0, 1]:
                    break
        assert message["version"] == 0


async def test_move_is_acked_then_every_connection_gets_its_own_view(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with (
        WsClient(url, room_id, tokens[0]) as mover,
        WsClient(url, room_id, tokens[1]) as other,
        WsClient(url, room_id) as watcher,
    ):
        action = mover.legal[0]["action"]
        ack = await mover.move(action)
        assert ack == {
            "type": "ack",
            "move_id": ack["move_id"],
            "version": 1,
            "duplicate": False,
        }
        for client, viewer in ((mover, 0), (other, 1), (watcher, None)):
            update = await client.expect("update")
            assert update["version"] == 1
            assert update["event"]["seq"] == 1
            assert update["event"]["seat"] == 0
            assert update["event"]["action"] == action
            assert update["event"]["text"]
            assert update["view"]["viewer"] == viewer
        kinds = [m["type"] for m in mover.received]
        assert kinds.index("ack") < kinds.index("update"), (
            "the mover hears its ack first"
        )


async def test_a_retried_move_id_is_acked_again_and_applied_once(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with WsClient(url, room_id, tokens[0]) as mover:
        action = mover.legal[0]["action"]
        first = await mover.move(action, expected=0, move_id="same-id")
        again = await mover.move(action, expected=0, move_id="same-id")
        assert first["version"] == again["version"] == 1
        assert again["duplicate"] is True
        over_http = await http.post(
            f"/api/rooms/{room_id}/moves",
            json={"move": action, "expected_version": 0, "move_id": "same-id"},
            headers=bearer(tokens[0]),
        )
        assert over_http.status_code == 200
        assert over_http.json()["duplicate"] is True
    assert len(await log_of(http, room_id)) == 1


async def test_a_stale_move_gets_the_missed_events_and_a_fresh_view(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with WsClient(url, room_id, tokens[0]) as mover:
        await mover.move(mover.legal[0]["action"])
        await mover.until_version(1)
        error = await mover.move(mover.legal[0]["action"], expected=0)
        assert error["type"] == "error"
        assert error["code"] == "stale_version"
        assert error["version"] == 1
        assert "version 1" in error["reason"]
        sync = await mover.expect("sync")
        assert sync["version"] == 1
        assert [e["seq"] for e in sync["events"]] == [1]
        assert sync["view"]["viewer"] == 0
        assert sync["legal"] == mover.legal
    assert len(await log_of(http, room_id)) == 1


async def test_reconnecting_with_since_gets_only_what_was_missed(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with WsClient(url, room_id, tokens[1]) as leaver:
        seen = leaver.version
    async with WsClient(url, room_id, tokens[0]) as mover:
        for _ in range(3):
            version = mover.version
            actor = mover if mover.legal else None
            if actor is None:
                break
            await actor.move(actor.legal[0]["action"])
            await mover.until_version(version + 1)
        now = mover.version
    assert now >= 2
    async with WsClient(url, room_id, tokens[1], since=seen) as back:
        assert back.welcome["version"] == now
        assert [e["seq"] for e in back.welcome["events"]] == list(
            range(seen + 1, now + 1)
        )
        assert back.welcome["view"]["viewer"] == 1
    async with WsClient(url, room_id, tokens[1], since=now) as current:
        assert current.welcome["events"] == []
    async with WsClient(url, room_id) as fresh:
        assert len(fresh.welcome["events"]) == now, "without since: the recent log"


async def test_a_spectator_sees_live_and_cannot_act(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with (
        WsClient(url, room_id) as watcher,
        WsClient(url, room_id, tokens[0]) as mover,
    ):
        assert watcher.welcome["you"]["role"] == "spectator"
        assert watcher.welcome["legal"] == []
        refused = await watcher.move({"type": "draw"}, expected=0)
        assert refused["code"] == "forbidden"
        assert "Spectators" in refused["reason"]
        await mover.move(mover.legal[0]["action"])
        await watcher.until_version(1)
        # The watcher is counted in the mover's welcome, or in a presence message after
        # it (which one depends on when the watcher's presence was published: a presence
        # published before the mover's welcome was queued is in the welcome alone).
        presence = mover.welcome["presence"]
        async with asyncio.timeout(15):  # a hang guard, not a timing assertion
            while presence["spectators"] != 1:
                presence = (await mover.expect("presence"))["presence"]
    over_http = await http.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": {"type": "draw"}, "expected_version": 1, "move_id": "x"},
    )
    assert over_http.status_code == 403
    assert over_http.json()["error"]["code"] == "forbidden"
    assert len(await log_of(http, room_id)) == 1


async def test_the_spectator_count_is_visible_to_all(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(http, 2)
    async with WsClient(url, room_id, tokens[0]) as player:
        watchers = [await WsClient(url, room_id).open() for _ in range(3)]
        async with asyncio.timeout(5):
            while (await player.expect("presence"))["presence"]["spectators"] != 3:
                pass
        status = (await http.get(f"/api/rooms/{room_id}")).json()
        assert status["spectators"] == 3
        assert [s["connected"] for s in status["seats"]] == [
            s["seat"] == player.you["seat"] for s in status["seats"]
        ]
        for watcher in watchers:
            await watcher.close()
        async with asyncio.timeout(5):
            while (await player.expect("presence"))["presence"]["spectators"] != 0:
                pass


BAD_FRAMES = [
    ("{not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"no_type": 1}', "unknown_type"),
    ('{"type": "move", "move": {"type": "draw"}}', "malformed"),
    (
        '{"type": "move", "move": {"type": "draw"}, "expected_version": -1, "move_id": "a"}',
        "malformed",
    ),
    (
        '{"type": "move", "move": {"type": "draw"}, "expected_version": 0, "move_id": ""}',
        "malformed",
    ),
    (
        '{"type": "move", "move": "draw", "expected_version": 0, "move_id": "a"}',
        "malformed",
    ),
    (
        '{"type": "move", "move": {"type": "fly"}, "expected_version": 0, "move_id": "a"}',
        "malformed_action",
    ),
    (
        '{"type": "move", "move": {"type": "play", "card": 999}, "expected_version": 0, "move_id": "a"}',
        "illegal_move",
    ),
    ('{"type": "ping", "extra": true}', "malformed"),
]


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
async def test_bad_frames_get_a_clear_error_and_change_nothing(
    web, frame: str, code: str
) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with WsClient(url, room_id, tokens[0]) as client:
        await client.send(frame)
        error = await client.expect("error")
        assert error["code"] == code, error
        assert error["reason"]
        assert error["version"] == 0
        await client.send({"type": "ping"})
        assert (await client.expect("pong"))["version"] == 0, (
            "the connection still works"
        )
    assert await log_of(http, room_id) == []


async def test_wrong_seat_and_not_your_turn(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with WsClient(url, room_id, tokens[1]) as waiting:
        error = await waiting.move({"type": "draw"}, expected=0)
        assert error["code"] == "not_your_turn"
        assert "P0" in error["reason"]
    assert await log_of(http, room_id) == []


async def test_binary_frames_and_oversized_messages_are_refused(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with WsClient(url, room_id, tokens[0]) as client:
        assert client.ws is not None
        await client.ws.send(b"\x00\x01")
        assert (await client.expect("error"))["code"] == "malformed"
        huge = json.dumps(
            {
                "type": "move",
                "move": {"type": "draw", "x": "é" * 20000},
                "expected_version": 0,
                "move_id": "a",
            }
        )
        await client.send(huge)
        assert (await client.expect("error"))["code"] == "too_large"
        await client.send({"type": "ping"})
        await client.expect("pong")
        await client.ws.send("x" * (2 << 20))
        await asyncio.wait_for(client.closed.wait(), 5)
        assert client.close_code == 1009
    assert await log_of(http, room_id) == []


async def test_hello_first_then_bad_token_and_unknown_room_close(web) -> None:
    url, http = web
    room_id, _host, _tokens = await open_room(http, 2)
    async with WsClient(url, room_id, hello=False) as early:
        await early.send({"type": "ping"})
        assert (await early.expect("error"))["code"] == "hello_required"
    async with WsClient(url, room_id, hello=False) as bad:
        await bad.send({"type": "hello", "token": "not-a-seat-token", "since": None})
        assert (await bad.expect("error"))["code"] == "bad_token"
        await asyncio.wait_for(bad.closed.wait(), 5)
        assert bad.close_code == 4401
    async with WsClient(url, "NoSuchRoom00", hello=False) as lost:
        await lost.send({"type": "hello", "token": None, "since": None})
        assert (await lost.expect("error"))["code"] == "unknown_room"
        await asyncio.wait_for(lost.closed.wait(), 5)
        assert lost.close_code == 4404


async def test_origin_is_checked(web) -> None:
    url, http = web
    room_id, _host, _tokens = await open_room(http, 2)
    host = url.removeprefix("http://")
    async with WsClient(url, room_id, origin=f"http://{host}") as same_host:
        assert same_host.welcome["you"]["role"] == "spectator"
    with pytest.raises(InvalidStatus) as refused:
        async with connect(ws_url(url, room_id), origin="https://evil.example"):
            pass
    assert refused.value.response.status_code == 403


async def test_flooding_is_rate_limited_then_cut(web) -> None:
    url, http = web
    room_id, _host, _tokens = await open_room(http, 2)
    async with WsClient(url, room_id) as flooder:
        for _ in range(200):
            await flooder.send({"type": "ping"})
        await asyncio.wait_for(flooder.closed.wait(), 5)
        assert flooder.close_code == 4429
        codes = [m.get("code") for m in flooder.of_type("error")]
        assert "rate_limited" in codes
        assert len(flooder.of_type("pong")) <= 110


async def test_game_start_reaches_connected_clients(web) -> None:
    url, http = web
    created = (await http.post("/api/rooms", json={"players": 2, "name": "Ana"})).json()
    room_id = created["room_id"]
    async with (
        WsClient(url, room_id, created["token"]) as host,
        WsClient(url, room_id) as watcher,
    ):
        assert host.welcome["view"] is None
        assert host.welcome["room"]["status"] == "open"
        joined = (
            await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Björn"})
        ).json()
        room = await watcher.expect("room")
        assert room["room"]["seats"][1]["name"] == "Björn"
        assert "token" not in json.dumps(room["room"])
        await http.post(
            f"/api/rooms/{room_id}/start", headers=bearer(created["host_token"])
        )
        started = await host.expect("room", timeout=5)
        while started["room"]["status"] != "playing":
            started = await host.expect("room")
        sync = await host.expect("sync")
        assert sync["version"] == 0
        assert sync["you"]["seat"] == started["you"]["seat"]
        assert sync["view"]["viewer"] == sync["you"]["seat"]
        await watcher.expect("sync")
        async with WsClient(url, room_id, joined["token"]) as second:
            actor = host if host.legal else second
            ack = await actor.move(actor.legal[0]["action"], move_id=uuid.uuid4().hex)
            assert ack["type"] == "ack"
            await watcher.until_version(1)


async def test_a_client_that_never_says_hello_is_closed(room_settings) -> None:
    from app.ops.main import create_app
    from tests.support.live import uvicorn_serving

    app = create_app(room_settings.model_copy(update={"ws_hello_timeout_s": 0.3}))
    async with uvicorn_serving(app, log_level="warning") as server:
        url = f"http://127.0.0.1:{server.config.port}"
        async with httpx.AsyncClient(base_url=url) as http:
            room_id = (await http.post("/api/rooms", json={"players": 2})).json()[
                "room_id"
            ]
        async with WsClient(url, room_id, hello=False) as silent:
            await silent.send({"type": "ping"})  # talking is not greeting
            await asyncio.wait_for(silent.closed.wait(), 5)
            assert silent.close_code == 4408
            codes = [m["code"] for m in silent.of_type("error")]
            assert codes[-1] == "hello_required"


# --- the heartbeat's room messages (docs/protocol.md, `room`) -----------------------------


async def published(hub: Hub, room_id: str) -> None:
    """Until the room's publisher has done what it was woken for."""
    channel = hub.channels[room_id]
    async with asyncio.timeout(10):  # a hang guard, not a timing assertion
        while channel.busy or channel.wake.is_set():  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def test_the_heartbeat_sends_no_unchanged_room_status(room_app, web) -> None:
    """Every 10 s each instance re-reads its rooms (a notice may have been lost); only a
    status that changed reaches a connection, never the same one again."""
    url, http = web
    hub: Hub = room_app.state.hub
    room_id, _host, tokens = await open_room(http, 2)
    async with WsClient(url, room_id, tokens[0]) as player:
        for _ in range(3):  # three heartbeats, nothing changed
            await hub.resync()
            await published(hub, room_id)
        await player.send({"type": "ping"})
        await player.expect("pong")
        assert player.of_type("room") == []
        async with WsClient(url, room_id) as watcher:  # the status changes: 1 spectator
            await hub.resync()
            await published(hub, room_id)
            room = await player.expect("room")
            assert room["room"]["spectators"] == 1
            assert room["version"] == player.version
            for _ in range(2):
                await hub.resync()
                await published(hub, room_id)
            await player.send({"type": "ping"})
            await player.expect("pong")
            assert len(player.of_type("room")) == 1, "sent once, not at every beat"
            assert watcher.of_type("room") == [], "its welcome had that status already"


async def test_a_hello_that_fails_after_its_welcome_closes_the_connection(
    room_app, web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database goes away between the welcome and the chat's latest messages: the
    connection is not left half-greeted (its moves would be refused for ever); it is closed
    with 1013 (try again later), is no longer one of the room's, and a new hello works."""
    url, http = web
    hub: Hub = room_app.state.hub
    room_id, _host, tokens = await open_room(http, 2, first_player=0)
    real = hub.chat.connected

    async def database_gone(*args: Any, **kwargs: Any) -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(hub.chat, "connected", database_gone)
    client = WsClient(url, room_id, tokens[0])
    await client.open()  # its welcome was queued
    try:
        error = await client.expect("error")
        assert error["code"] == "unavailable"
        async with asyncio.timeout(10):  # a hang guard
            await client.closed.wait()
        assert client.close_code == 1013
    finally:
        await client.close()
    channel = hub.channels.get(room_id)  # gone with its last connection
    assert channel is None or all(c.number != 0 for c in channel.conns)
    monkeypatch.setattr(hub.chat, "connected", real)
    async with WsClient(url, room_id, tokens[0]) as again:
        ack = await again.move(again.legal[0]["action"])
        assert ack["type"] == "ack"
