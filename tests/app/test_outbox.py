"""A connection's outbox: order, its bound, and its one writer woken by what is put."""

from __future__ import annotations

import asyncio

from app.connection import SYNC, Connection, Versioned
from app.outbox import Outbox


async def test_items_come_out_in_order_and_a_waiting_writer_is_woken() -> None:
    outbox = Outbox(limit=4)
    writer = asyncio.get_running_loop().create_task(outbox.get())
    await asyncio.sleep(0)
    assert not writer.done(), "nothing to get yet: the writer waits"
    assert outbox.put("a") and outbox.put("b")
    assert await writer == "a"
    assert await outbox.get() == "b"
    assert len(outbox) == 0


async def test_a_full_outbox_refuses_but_a_forced_marker_always_goes_in() -> None:
    outbox = Outbox(limit=2)
    assert outbox.put(1) and outbox.put(2)
    assert not outbox.put(3), "full"
    outbox.clear()
    outbox.force("sync")
    outbox.force("close")
    assert [await outbox.get(), await outbox.get()] == ["sync", "close"]


async def test_a_writer_cancelled_while_waiting_leaves_the_outbox_usable() -> None:
    outbox = Outbox(limit=2)
    writer = asyncio.get_running_loop().create_task(outbox.get())
    await asyncio.sleep(0)
    writer.cancel()
    await asyncio.gather(writer, return_exceptions=True)
    assert outbox.put("x")
    assert await outbox.get() == "x"


async def test_a_connection_that_overflows_resyncs_from_what_it_was_really_sent() -> (
    None
):
    """Dropped updates were never written: the `sync` that replaces them must list every
    event since the last version the client actually got, not since the last one queued."""
    conn = Connection("room", queue_size=3)
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
