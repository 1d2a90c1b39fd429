"""Table chat across real `ishtar serve` processes on one PostgreSQL: a message sent through
one instance reaches the clients of another (LISTEN/NOTIFY, as moves do), the spectators'
channel stays hidden from a player on either, the host's switch reaches every instance,
and the messages outlive a restart of the server."""

from __future__ import annotations

import httpx
import pytest

from tests.app.clients import WsClient, open_room
from tests.app.live.test_chat import chat_error, chats, said

pytestmark = pytest.mark.slow


async def test_a_message_through_a_reaches_the_clients_of_b(serve) -> None:
    a, b = serve(), serve()
    async with httpx.AsyncClient(base_url=a.url) as http_a:
        room, _host, tokens = await open_room(http_a, 2)
    async with (
        WsClient(a.url, room, tokens[0]) as ana_on_a,
        WsClient(b.url, room, tokens[1]) as bjorn_on_b,
        WsClient(b.url, room) as watcher_on_b,
        WsClient(a.url, room) as watcher_on_a,
    ):
        # The timeouts are hang guards only (the latency is not what is tested).
        await ana_on_a.send({"type": "chat", "text": "hello from A"})
        for client in (bjorn_on_b, watcher_on_b):
            assert (await said(client, "hello from A", timeout=15))["seq"] == 1
        await watcher_on_b.send({"type": "chat", "text": "psst from B", "name": "Zed"})
        message = await said(watcher_on_a, "psst from B", timeout=15)
        assert message["name"] == "Zed" and message["channel"] == "spectators"
        await bjorn_on_b.send({"type": "chat", "text": "marker from B"})
        for player in (ana_on_a, bjorn_on_b):
            await said(player, "marker from B", timeout=15)
            assert [m["text"] for m in chats(player)] == [
                "hello from A",
                "marker from B",
            ]
        # The host's switch, made on A, closes the channel on B.
        await ana_on_a.send({"type": "chat_settings", "spectators": False})
        status = await watcher_on_b.expect("room", timeout=15)
        assert status["room"]["chat"] == {"spectators": False}
        await watcher_on_b.send({"type": "chat", "text": "still there?"})
        assert (await chat_error(watcher_on_b))["code"] == "spectator_chat_off"


async def test_the_messages_outlive_a_restart_of_the_server(serve) -> None:
    first = serve()
    async with httpx.AsyncClient(base_url=first.url) as http:
        room, _host, tokens = await open_room(http, 2)
    async with (
        WsClient(first.url, room, tokens[0]) as ana,
        WsClient(first.url, room) as w,
    ):
        await ana.send({"type": "chat", "text": "before the restart"})
        # Two sockets' sends race each other; the second waits for the first to be numbered.
        await said(w, "before the restart")
        await w.send({"type": "chat", "text": "watching"})
        await said(w, "watching")
    first.stop()
    second = serve()  # a new process on the same database
    async with (
        WsClient(second.url, room, tokens[1]) as bjorn,
        WsClient(second.url, room) as watcher,
    ):
        recent = await bjorn.expect("chat")
        assert [(m["seq"], m["text"]) for m in recent["messages"]] == [
            (1, "before the restart")
        ]
        recent = await watcher.expect("chat")
        assert [m["text"] for m in recent["messages"]] == [
            "before the restart",
            "watching",
        ]
        await bjorn.send({"type": "chat", "text": "after"})
        assert (await said(watcher, "after"))["seq"] == 3  # the numbers go on
