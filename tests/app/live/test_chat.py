"""Table chat over the room websocket (docs/protocol.md, "Table chat"): pushed live to who
may see it, the latest on (re)connecting, in one order for everyone even with many senders
at once, the spectators' channel hidden from the players until the end, the host's switch,
the rate limits, and refusals that change nothing.

"A player never receives a spectators' message" is shown without waiting on a clock: the
player's connection is read up to a later table message, which comes after it on every
connection, and must have brought no spectators' message before it.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tests.app.clients import WsClient, bearer, open_room, pick


async def said(client: WsClient, text: str, timeout: float = 10.0) -> dict[str, Any]:
    """Wait for the chat message with `text` to reach `client`; that message."""
    async with asyncio.timeout(timeout):
        while True:
            for message in chats(client):
                if message["text"] == text:
                    return message
            await client.recv()


def chats(client: WsClient) -> list[dict[str, Any]]:
    """Every chat message `client` holds, as a client would: a `recent` replaces the list."""
    held: list[dict[str, Any]] = []
    for message in client.of_type("chat"):
        if message.get("recent"):
            held = list(message["messages"])
        else:
            held += message["messages"]
    return held


async def chat_error(client: WsClient) -> dict[str, Any]:
    return await client.expect("error", about="chat")


async def test_a_player_message_reaches_everyone_with_its_number(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with (
        WsClient(base, room, tokens[0]) as ana,
        WsClient(base, room, tokens[1]) as bjorn,
        WsClient(base, room) as watcher,
    ):
        for client in (ana, bjorn, watcher):
            first = await client.expect("chat")
            assert first["recent"] is True and first["messages"] == []
            assert first["earlier"] is False
        await ana.send({"type": "chat", "channel": "table", "text": "good luck"})
        for client in (ana, bjorn, watcher):
            message = await said(client, "good luck")
            assert (
                message["seq"] == 1 and message["seat"] == 0 and message["name"] == "P0"
            )
            assert message["role"] == "player" and message["channel"] == "table"
        # The channel may be left out: a player's is the table's.
        await bjorn.send({"type": "chat", "text": "you too"})
        assert (await said(watcher, "you too"))["seat"] == 1
        assert all(isinstance(m["version"], int) for m in watcher.of_type("chat"))


async def test_a_player_never_gets_a_spectator_message_during_the_game(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with (
        WsClient(base, room, tokens[0]) as ana,
        WsClient(base, room) as watcher,
        WsClient(base, room) as other,
    ):
        await watcher.send({"type": "chat", "channel": "spectators", "text": "play 3!"})
        assert (await said(other, "play 3!"))["role"] == "spectator"
        assert (await said(watcher, "play 3!"))["channel"] == "spectators"
        await ana.send({"type": "chat", "text": "marker"})
        marker = await said(ana, "marker")
        assert marker["seq"] == 2
        assert [m["text"] for m in chats(ana)] == ["marker"]
        # Nor on reconnecting, nor over HTTP.
        async with WsClient(base, room, tokens[0]) as again:
            recent = await again.expect("chat")
            assert [m["text"] for m in recent["messages"]] == ["marker"]
        page = await http.get(f"/api/rooms/{room}/chat", headers=bearer(tokens[0]))
        assert [m["text"] for m in page.json()["messages"]] == ["marker"]
        async with WsClient(base, room) as late_watcher:
            recent = await late_watcher.expect("chat")
            assert [m["text"] for m in recent["messages"]] == ["play 3!", "marker"]


async def test_at_the_end_the_players_get_the_spectators_messages(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with (
        WsClient(base, room, tokens[0]) as ana,
        WsClient(base, room, tokens[1]) as bjorn,
        WsClient(base, room) as watcher,
    ):
        await watcher.send(
            {"type": "chat", "channel": "spectators", "text": "bold move"}
        )
        await said(watcher, "bold move")
        rng = random.Random(7)
        seats = [ana, bjorn]
        version = watcher.version
        while True:
            # everyone at the last acknowledged version: the seat to act holds its legal
            # actions for that version (an ack may come before the update that carries it)
            for client in (ana, bjorn, watcher):
                await client.until_version(version)
            if ana.view is not None and ana.view["phase"] == "over":
                break
            mover = next(c for c in seats if c.legal)
            answer = await mover.move(pick(rng, mover.legal))
            assert answer["type"] == "ack", answer
            version = answer["version"]
        for player in seats:
            message = await said(player, "bold move")
            assert message["channel"] == "spectators" and message["seq"] == 1
        # From now on they get them live.
        await watcher.send({"type": "chat", "channel": "spectators", "text": "gg all"})
        await said(ana, "gg all")


async def test_many_senders_at_once_get_one_order_without_gaps(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 3)
    async with (
        WsClient(base, room, tokens[0]) as p0,
        WsClient(base, room, tokens[1]) as p1,
        WsClient(base, room, tokens[2]) as p2,
        WsClient(base, room) as s0,
        WsClient(base, room) as s1,
    ):
        senders = [p0, p1, p2, s0, s1]
        for client in senders:
            await client.expect("chat")

        async def burst(client: WsClient, who: int) -> None:
            for n in range(5):
                await client.send({"type": "chat", "text": f"{who}-{n}"})

        await asyncio.gather(
            *(burst(client, who) for who, client in enumerate(senders))
        )
        for client in (s0, s1):  # the spectators see every message
            for who in range(5):
                await said(client, f"{who}-4")
        spectator_view = [(m["seq"], m["text"]) for m in chats(s0)]
        assert [seq for seq, _ in spectator_view] == list(range(1, 26))
        assert spectator_view == [(m["seq"], m["text"]) for m in chats(s1)]
        # Each sender's messages in the order it sent them.
        for who in range(5):
            mine = [text for _, text in spectator_view if text.startswith(f"{who}-")]
            assert mine == [f"{who}-{n}" for n in range(5)]
        table = [(s, t) for s, t in spectator_view if int(t[0]) < 3]
        for player in (p0, p1, p2):
            await said(player, table[-1][1])
            assert [(m["seq"], m["text"]) for m in chats(player)] == table


async def test_a_reconnecting_client_gets_the_latest_it_may_see(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with WsClient(base, room, tokens[0]) as ana:
        for n in range(3):
            await ana.send({"type": "chat", "text": f"note {n}"})
        await said(ana, "note 2")
    async with WsClient(base, room, tokens[1], since=0) as bjorn:
        recent = await bjorn.expect("chat")
        assert recent["recent"] is True
        assert [m["text"] for m in recent["messages"]] == ["note 0", "note 1", "note 2"]
        # A second hello re-synchronises: the latest come again, replacing what it holds.
        await bjorn.send({"type": "hello", "token": tokens[1], "since": 0})
        again = await bjorn.expect("chat")
        assert again["recent"] is True and len(again["messages"]) == 3
        assert [m["text"] for m in chats(bjorn)] == ["note 0", "note 1", "note 2"]


async def test_a_connection_sends_at_most_five_in_ten_seconds(web) -> None:
    base, http = web
    room, _host, _tokens = await open_room(http, 2)
    async with WsClient(base, room) as watcher, WsClient(base, room) as other:
        for n in range(6):
            await watcher.send({"type": "chat", "text": f"w{n}"})
        error = await chat_error(watcher)
        assert error["code"] == "rate_limited" and 0 < error["retry_after_s"] <= 10
        assert "per connection" in error["reason"]
        await said(other, "w4")
        # Another connection of the same address still may (its own window).
        await other.send({"type": "chat", "text": "other"})
        await said(watcher, "other")
        assert "w5" not in [m["text"] for m in chats(other)]
        page = (await http.get(f"/api/rooms/{room}/chat")).json()
        assert [m["text"] for m in page["messages"]] == [f"w{n}" for n in range(5)] + [
            "other"
        ]


async def test_a_seat_token_is_limited_across_its_connections(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with (
        WsClient(base, room, tokens[0]) as tab1,
        WsClient(base, room, tokens[0]) as tab2,
    ):
        for n in range(3):
            await tab1.send({"type": "chat", "text": f"a{n}"})
        await said(tab2, "a2")
        for n in range(3):
            await tab2.send({"type": "chat", "text": f"b{n}"})
        error = await chat_error(tab2)
        assert error["code"] == "rate_limited" and "per seat" in error["reason"]
        await said(tab1, "b1")
        page = (await http.get(f"/api/rooms/{room}/chat")).json()
        assert [m["text"] for m in page["messages"]] == ["a0", "a1", "a2", "b0", "b1"]


async def test_the_host_switches_spectator_chat_from_the_table(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)  # P0 is the host
    async with (
        WsClient(base, room, tokens[0]) as host,
        WsClient(base, room, tokens[1]) as guest,
        WsClient(base, room) as watcher,
    ):
        await guest.send({"type": "chat_settings", "spectators": False})
        refused = await chat_error(guest)
        assert refused["code"] == "forbidden"
        await watcher.send({"type": "chat_settings", "spectators": False})
        assert (await chat_error(watcher))["code"] == "forbidden"
        assert (await http.get(f"/api/rooms/{room}")).json()["chat"][
            "spectators"
        ] is True
        await host.send({"type": "chat_settings", "spectators": False})
        for client in (host, guest, watcher):
            status = await client.expect("room")
            assert status["room"]["chat"] == {"spectators": False}
        await watcher.send({"type": "chat", "text": "hello?"})
        error = await chat_error(watcher)
        assert error["code"] == "spectator_chat_off"
        assert error["reason"] == "The host has turned spectator chat off in this room."
        await host.send({"type": "chat_settings", "spectators": True})
        await watcher.expect("room")
        await watcher.send({"type": "chat", "text": "thanks"})
        assert (await said(watcher, "thanks"))["seq"] == 1  # the refused took no number


async def test_bad_chat_frames_are_refused_and_change_nothing(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with WsClient(base, room, tokens[0]) as ana:
        for frame, code in [
            ({"type": "chat"}, "malformed"),
            ({"type": "chat", "text": 3}, "malformed"),
            ({"type": "chat", "text": "x", "extra": 1}, "malformed"),
            ({"type": "chat", "text": "x" * 501}, "malformed"),
            ({"type": "chat", "text": "x\u0000"}, "malformed"),
            ({"type": "chat", "text": " \u200b "}, "malformed"),
            ({"type": "chat", "channel": "spectators", "text": "x"}, "forbidden"),
            ({"type": "chat", "channel": "all", "text": "x"}, "malformed"),
            ({"type": "chat_settings", "spectators": "yes"}, "malformed"),
        ]:
            await ana.send(frame)
            error = await ana.expect("error")
            assert error["code"] == code, (frame, error)
        await ana.send('{"type": "chat", "text": "a\\ud800"}')
        assert (await ana.expect("error"))["code"] == "malformed"
        await ana.send({"type": "ping"})
        await ana.expect("pong")
        assert chats(ana) == []
    page = (await http.get(f"/api/rooms/{room}/chat")).json()
    assert page["messages"] == []


async def test_chat_before_hello_is_refused(web) -> None:
    base, http = web
    room, _host, _tokens = await open_room(http, 2)
    async with WsClient(base, room, hello=False) as early:
        await early.send({"type": "chat", "text": "hi"})
        assert (await early.expect("error"))["code"] == "hello_required"
    assert (await http.get(f"/api/rooms/{room}/chat")).json()["messages"] == []


async def test_hostile_text_arrives_as_it_was_sent(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    hostile = "<img src=x onerror=alert(1)>"
    async with WsClient(base, room, tokens[0]) as ana, WsClient(base, room) as watcher:
        await ana.send({"type": "chat", "text": hostile})
        assert (await said(watcher, hostile))["text"] == hostile
        await watcher.send(
            {"type": "chat", "text": "\u202egnissim\u202c ok", "name": "<b>x</b>"}
        )
        message = await said(watcher, "gnissim ok")
        assert message["name"] == "<b>x</b>"


async def test_the_lobby_chats_too(web) -> None:
    base, http = web
    created = (await http.post("/api/rooms", json={"players": 2, "name": "Ana"})).json()
    room = created["room_id"]
    async with WsClient(base, room, created["token"]) as ana, WsClient(base, room) as w:
        await ana.send({"type": "chat", "text": "waiting for Björn"})
        assert (await said(w, "waiting for Björn"))["name"] == "Ana"


async def test_http_messages_reach_the_websockets(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with WsClient(base, room, tokens[1]) as bjorn:
        await bjorn.expect("chat")
        answer = await http.post(
            f"/api/rooms/{room}/chat",
            json={"text": "by script"},
            headers=bearer(tokens[0]),
        )
        assert answer.status_code == 201
        assert (await said(bjorn, "by script"))["seq"] == answer.json()["message"][
            "seq"
        ]


async def test_a_chat_message_spends_no_move_and_keeps_versions(web) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with WsClient(base, room, tokens[0]) as ana:
        before = ana.version
        await ana.send({"type": "chat", "text": "hm"})
        await said(ana, "hm")
        assert ana.version == before
        state = (
            await http.get(f"/api/rooms/{room}/view", headers=bearer(tokens[0]))
        ).json()
        assert state["version"] == before
