"""Issue 36, point 3: during the game a player never reads the spectators' channel, but is
told that it exists: how many messages it holds when they connect (`spectators_hidden` on
the latest), and how many more come, live — never who wrote them nor what."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.app.clients import WsClient, open_room
from tests.app.live.test_chat import chats, said


async def hidden_count(client: WsClient, total: int, timeout: float = 10.0) -> None:
    """Wait until `client`'s chat messages have told of `total` hidden messages."""
    async with asyncio.timeout(timeout):
        while True:
            frames = client.of_type("chat")
            recent = [i for i, f in enumerate(frames) if f.get("recent")]
            start = recent[-1] if recent else 0
            told = sum(f.get("spectators_hidden", 0) for f in frames[start:])
            if told >= total:
                assert told == total
                return
            await client.recv()


async def test_players_are_told_spectators_chat_without_reading_it(web: Any) -> None:
    base, http = web
    room, _host, tokens = await open_room(http, 2)
    async with (
        WsClient(base, room, tokens[0]) as ana,
        WsClient(base, room) as watcher,
    ):
        await ana.expect("chat")
        await watcher.send({"type": "chat", "channel": "spectators", "text": "psst"})
        await said(watcher, "psst")
        await watcher.send({"type": "chat", "channel": "spectators", "text": "play 3"})
        await said(watcher, "play 3")
        await hidden_count(ana, 2)
        assert chats(ana) == []
        for frame in ana.of_type("chat"):
            assert "psst" not in str(frame) and "play 3" not in str(frame)
        # the spectators themselves are told nothing hidden
        assert not any("spectators_hidden" in f for f in watcher.of_type("chat"))
    async with WsClient(base, room, tokens[1]) as bjorn:
        latest = await bjorn.expect("chat")
        assert latest["recent"] is True and latest["spectators_hidden"] == 2
        assert latest["messages"] == []
