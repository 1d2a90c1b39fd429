"""A connection's outbox: order, its bounds in items and bytes, full states superseding what
they make useless, and a client that stays behind given up on (docs/security.md, "Slow
readers")."""

from __future__ import annotations

import asyncio
import sys

import pytest

from app.live.connection import (
    CLOSE_BEHIND,
    SYNC,
    Close,
    Connection,
    OutboxLimits,
    Versioned,
    weigh,
)
from app.live.messages import chat_message, error_message
from app.live.outbox import Outbox
from app.play.protocol import ServiceError


def outbox(limit: int = 100, max_bytes: int = 1 << 20) -> Outbox:
    return Outbox(limit, max_bytes, weigh)


def welcome(version: int, size: int = 20_000) -> str:
    return f'{{"type":"welcome","version":{version},"view":"{"x" * size}"}}'


async def test_items_come_out_in_order_and_a_waiting_writer_is_woken() -> None:
    box = outbox(limit=4)
    writer = asyncio.get_running_loop().create_task(box.get())
    await asyncio.sleep(0)
    assert not writer.done(), "nothing to get yet: the writer waits"
    assert box.put("a") and box.put("b")
    assert await writer == "a"
    assert await box.get() == "b"
    assert len(box) == 0 and box.bytes == 0


async def test_a_full_outbox_refuses_but_a_forced_marker_always_goes_in() -> None:
    box = outbox(limit=2)
    assert box.put(1) and box.put(2)
    assert not box.put(3), "full"
    box.clear()
    box.force("sync")
    box.force("close")
    assert [await box.get(), await box.get()] == ["sync", "close"]


def test_the_outbox_is_bounded_in_bytes_and_counts_what_leaves() -> None:
    big = "x" * 10_000
    box = outbox(limit=100, max_bytes=3 * sys.getsizeof(big))
    assert box.put(big) and box.put(big + "y")
    assert box.bytes == sys.getsizeof(big) + sys.getsizeof(big + "y")
    assert not box.put(big + "yy"), "a third would pass the byte budget"
    assert box.put("small"), "what still fits goes in"
    assert box.take_if(lambda item: item == big) == big
    assert box.bytes == sys.getsizeof(big + "y") + sys.getsizeof("small")
    assert box.remove(lambda item: item == "small") == ["small"]
    assert box.bytes == sys.getsizeof(big + "y")


def test_an_empty_outbox_takes_one_message_bigger_than_its_budget() -> None:
    box = outbox(max_bytes=1000)
    assert box.put("x" * 5000), "refusing it would lose the message"
    assert not box.put("y"), "but nothing waits behind it"


async def test_a_writer_cancelled_while_waiting_leaves_the_outbox_usable() -> None:
    box = outbox(limit=2)
    writer = asyncio.get_running_loop().create_task(box.get())
    await asyncio.sleep(0)
    writer.cancel()
    await asyncio.gather(writer, return_exceptions=True)
    assert box.put("x")
    assert await box.get() == "x"


async def test_a_connection_that_overflows_resyncs_from_what_it_was_really_sent() -> (
    None
):
    """Dropped updates were never written: the `sync` that replaces them must list every
    event since the last version the client actually got, not since the last one queued."""
    conn = Connection("room", OutboxLimits(items=3))
    conn.put_version(1, "update 1")
    item = await conn.queue.get()
    assert isinstance(item, Versioned)
    conn.delivered = item.version  # what the writer records once it has sent it
    for version in (2, 3, 4):
        conn.put_version(version, f"update {version}")
    assert conn.version == 4 and not conn.syncing
    conn.put_version(5, "update 5")  # one too many: the queue is dropped
    assert conn.version == 1, "the sync starts from the version the client holds"
    assert conn.syncing
    assert await conn.queue.get() is SYNC
    assert len(conn.queue) == 0
    conn.caught_up()


async def test_updates_past_the_byte_budget_become_one_sync_and_a_close_stays() -> None:
    update = "u" * 10_000
    conn = Connection(
        "room", OutboxLimits(bytes=5 * sys.getsizeof(update), overflows=100)
    )
    conn.put(Close(4401))
    conn.syncing = True  # a SYNC marker already queued…
    conn.queue.force(SYNC)
    for version in range(1, 50):
        conn.put_version(version, update + str(version), update=True)
    assert conn.queue.bytes <= conn.limits.bytes
    queued = [await conn.queue.get() for _ in range(len(conn.queue))]
    assert queued[0] == Close(4401), "a close is never dropped"
    assert queued.count(SYNC) == 1, "…is replaced by one, not lost nor doubled"
    assert len(queued) < 10
    conn.caught_up()


def test_a_welcome_supersedes_queued_welcomes_syncs_and_updates() -> None:
    """A client sending `hello` over and over, and reading nothing, holds one welcome."""
    conn = Connection("room")
    conn.put_version(1, "update 1", update=True)
    conn.put_sync(1, "sync 1", "test")
    conn.put("presence")
    for _ in range(300):
        conn.put_welcome(1, welcome(1))
    items = [item for item, _ in conn.queue._items]
    assert items == ["presence", Versioned(1, welcome(1), state="welcome")]
    assert conn.overflows == 0, "nothing overflowed: 300 welcomes weigh one"
    assert conn.queue.bytes == weigh("presence") + weigh(items[1])


def test_a_chat_recent_supersedes_the_queued_chat_messages_and_nothing_else() -> None:
    """Every welcome is followed by the chat's latest (app/live/chat.py), which replace what
    the client holds: a client flooding `hello` holds one of them, not one per hello."""
    conn = Connection("room")
    live = chat_message([{"seq": 1, "text": "hi"}], 1)
    conn.put(live)
    conn.put(error_message(ServiceError("rate_limited", "Slow down."), version=1))
    for _ in range(300):
        conn.put_welcome(1, welcome(1))
        conn.put_replacing(chat_message([{"seq": 1, "text": "hi"}], 1, recent=True))
    kinds = [getattr(item, "kind", None) for item, _ in conn.queue._items]
    assert kinds == ["error", None, "chat"]
    assert '"recent":true' in conn.queue._items[-1][0].text
    assert conn.overflows == 0


def test_a_sync_supersedes_syncs_and_updates_but_never_the_welcome() -> None:
    conn = Connection("room")
    conn.put_welcome(3, welcome(3))
    conn.put_version(4, "update 4", update=True)
    conn.put_sync(4, "sync 4", "test")
    conn.put_sync(5, "sync 5", "test")
    conn.put_version(6, "update 6", update=True)
    versions = [
        (item.version, item.state)
        for item, _ in conn.queue._items
        if isinstance(item, Versioned)
    ]
    assert versions == [(3, "welcome"), (5, "sync"), (6, None)]
    assert conn.version == 6


async def test_a_welcome_that_does_not_fit_replaces_the_backlog() -> None:
    conn = Connection("room", OutboxLimits(bytes=8192, overflows=10))
    for n in range(25):
        conn.put(f"presence {n:0200}")
    assert conn.overflows == 0
    conn.put_welcome(7, welcome(7, size=6000))
    items = [item for item, _ in conn.queue._items]
    assert items == [Versioned(7, welcome(7, size=6000), state="welcome")]
    assert conn.overflows == 1 and conn.dropped is None
    conn.caught_up()


async def test_a_client_that_overflows_again_before_catching_up_is_dropped() -> None:
    conn = Connection("room", OutboxLimits(items=4, overflows=3, behind_s=3600))
    writer = asyncio.get_running_loop().create_task(asyncio.Event().wait())
    conn.writer = writer  # stands for a writer stuck in a send
    for overflow in (1, 2):
        for n in range(5):
            conn.put(f"message {n}")
        assert conn.overflows == overflow and conn.dropped is None
    conn.caught_up()  # everything was written: it starts again
    for _ in range(2):
        for n in range(5):
            conn.put(f"message {n}")
    assert conn.dropped is None, "two overflows since it caught up: still a chance"
    for n in range(5):
        conn.put(f"message {n}")
    assert conn.dropped == CLOSE_BEHIND
    await asyncio.gather(writer, return_exceptions=True)
    assert writer.cancelled(), "the writer is stopped wherever it waits"
    assert len(conn.queue) == 0
    conn.put("late")
    conn.put_welcome(9, welcome(9))
    conn.want_sync("test")
    assert len(conn.queue) == 0, "nothing is queued for a dropped client"


async def test_a_client_still_behind_after_the_grace_is_dropped() -> None:
    conn = Connection("room", OutboxLimits(items=2, overflows=100, behind_s=0.0))
    for n in range(3):
        conn.put(f"message {n}")
    assert conn.overflows == 1
    for _ in range(1000):  # the timer fires on one of the next turns of the loop
        if conn.dropped is not None:
            break
        await asyncio.sleep(0)
    assert conn.dropped == CLOSE_BEHIND


async def test_a_client_that_catches_up_in_time_is_kept() -> None:
    conn = Connection("room", OutboxLimits(items=2, overflows=100, behind_s=0.0))
    for n in range(3):
        conn.put(f"message {n}")
    conn.caught_up()
    for _ in range(3):
        await asyncio.sleep(0)
    assert conn.dropped is None and conn.overflows == 0


@pytest.mark.parametrize("item", ["text", Versioned(1, "text"), SYNC, Close(1000)])
def test_every_item_weighs_something(item: object) -> None:
    assert weigh(item) > 0
