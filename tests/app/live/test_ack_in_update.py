"""The ack of a move travels inside the move's update when that update is next in line."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from app.config.settings import Settings
from app.live.connection import Ack, Close, Connection, Versioned
from app.live.messages import (
    error_message,
    pong_message,
    presence_message,
    update_message,
)
from app.live.writer import send_queued
from app.play.protocol import ServiceError
from tests.support.acks import unfold


class Socket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        # The writer reads the outbox limits from the app's settings, as a real socket's.
        self.app = SimpleNamespace(
            state=SimpleNamespace(settings=Settings(_env_file=None))
        )

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int) -> None:
        self.sent.append({"closed": code})


def update(version: int) -> Versioned:
    text = update_message(version, f'{{"seq":{version}}}', "{}", "[]")
    return Versioned(version, text, update=True)


async def written(*items: object) -> tuple[list[dict[str, Any]], Connection]:
    conn = Connection("room")
    for item in (*items, Close(1000)):
        conn.queue.put(item)
    socket = Socket()
    await asyncio.wait_for(send_queued(socket, conn, hub=None), 5)  # type: ignore[arg-type]
    return socket.sent[:-1], conn


async def test_the_ack_rides_in_the_update_of_its_version() -> None:
    sent, conn = await written(Ack(3, "m3", False), update(3), update(4))
    assert [m["version"] for m in sent] == [3, 4], "two messages, not three"
    assert sent[0]["type"] == "update"
    assert sent[0]["ack"] == {"move_id": "m3", "duplicate": False}
    assert "ack" not in sent[1]
    assert conn.delivered == 4
    read = [m for message in sent for m in unfold(message)]
    assert [m["type"] for m in read] == ["ack", "update", "update"]
    assert read[0] == {"type": "ack", "move_id": "m3", "version": 3, "duplicate": False}


async def test_an_ack_with_nothing_to_ride_on_goes_alone() -> None:
    sent, conn = await written(Ack(3, "m3", False))
    assert sent == [
        {"type": "ack", "move_id": "m3", "version": 3, "seq": 3, "duplicate": False}
    ]
    assert conn.delivered is None, "an ack brings no view"
    assert conn.shown == 3, "but later messages carry its version at least"


async def test_an_update_of_another_version_or_a_welcome_carries_no_ack() -> None:
    welcome = Versioned(3, '{"type":"welcome","version":3}')
    sent, _ = await written(Ack(3, "a", False), welcome, Ack(5, "b", False), update(4))
    assert [m["type"] for m in sent] == ["ack", "welcome", "ack", "update"]
    assert all("ack" not in m for m in sent if m["type"] != "ack")


async def test_a_repeated_move_id_is_acked_alone_as_a_duplicate() -> None:
    sent, _ = await written(Ack(3, "m3", True), update(3))
    assert sent[0] == {
        "type": "ack",
        "move_id": "m3",
        "version": 3,
        "seq": 3,
        "duplicate": True,
    }
    assert "ack" not in sent[1]


async def test_an_update_queued_before_its_ack_carries_it_too() -> None:
    sent, conn = await written(update(3), Ack(3, "m3", False), update(4))
    assert [m["version"] for m in sent] == [3, 4]
    assert sent[0]["ack"] == {"move_id": "m3", "duplicate": False}
    assert conn.delivered == 4


# --- versions never go down on a connection (docs/protocol.md, "Versions") ---------------


async def test_a_message_after_a_lone_ack_carries_the_acks_version() -> None:
    """The attack of issue 13: update 2, ack 3 alone, then presence stamped 2 (the hub's
    last published version) -- a client keeping the last version seen stepped back."""
    presence = presence_message(2, {"connected_seats": [0], "spectators": 0})
    sent, conn = await written(update(2), Ack(3, "m3", False), presence, update(3))
    assert [(m["type"], m["version"]) for m in sent] == [
        ("update", 2),
        ("ack", 3),
        ("presence", 3),
        ("update", 3),
    ]
    assert presence.text.count('"version":2') == 1, "the shared text is left alone"
    assert conn.shown == 3


async def test_a_duplicate_ack_of_an_old_move_carries_the_connections_version() -> None:
    sent, _ = await written(update(4), update(5), Ack(3, "m3", True))
    assert sent[-1] == {
        "type": "ack",
        "move_id": "m3",
        "version": 5,
        "seq": 3,
        "duplicate": True,
    }


async def test_errors_and_pongs_never_step_back() -> None:
    refused = error_message(ServiceError("not_your_turn", "Not yours."), version=1)
    sent, _ = await written(update(4), refused, pong_message(2))
    assert [m["version"] for m in sent] == [4, 4, 4]
    assert sent[1]["code"] == "not_your_turn"


async def test_a_message_before_any_version_keeps_null() -> None:
    sent, _ = await written(error_message(ServiceError("malformed", "Not JSON.")))
    assert sent == [
        {"type": "error", "code": "malformed", "reason": "Not JSON.", "version": None}
    ]
