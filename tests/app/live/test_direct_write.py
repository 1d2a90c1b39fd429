"""An update written at once (app/live/connection.py `put_version`): only when nothing is
before it, so the order a client sees never changes; otherwise it waits in the outbox."""

from __future__ import annotations

import asyncio

from app.live.connection import Ack, Connection, Versioned


class Socket:
    """A protocol's `write_now` that records what it wrote, or refuses (paused)."""

    def __init__(self, takes: bool = True) -> None:
        self.takes = takes
        self.written: list[str] = []

    def __call__(self, text: str) -> bool:
        if self.takes:
            self.written.append(text)
        return self.takes


async def waiting(conn: Connection) -> asyncio.Task[object]:
    """A writer waiting on the connection's outbox, as app/live/writer.py's does."""
    writer = asyncio.get_running_loop().create_task(conn.queue.get())
    await asyncio.sleep(0)
    assert conn.queue.waiting
    return writer


async def test_an_update_is_written_at_once_when_the_writer_waits_with_nothing() -> (
    None
):
    conn, socket = Connection("r"), Socket()
    conn.direct = socket
    writer = await waiting(conn)
    conn.put_version(3, "update-3", update=True)
    assert socket.written == ["update-3"]
    assert (conn.version, conn.delivered, conn.shown) == (3, 3, 3)
    assert len(conn.queue) == 0 and not writer.done()
    writer.cancel()


async def test_an_update_waits_behind_what_is_queued_so_order_holds() -> None:
    conn, socket = Connection("r"), Socket()
    conn.direct = socket
    conn.put("presence")  # queued while no writer waits
    conn.put_version(1, "update-1", update=True)
    assert socket.written == []
    assert [await conn.queue.get(), await conn.queue.get()] == [
        "presence",
        Versioned(1, "update-1", True),
    ]


async def test_a_busy_writer_or_a_paused_socket_gets_the_update_queued() -> None:
    conn = Connection("r")
    conn.direct = Socket()
    conn.put_version(1, "update-1", update=True)  # the writer is sending (not waiting)
    assert len(conn.queue) == 1
    paused = Connection("r")
    paused.direct = Socket(takes=False)
    writer = await waiting(paused)
    paused.put_version(1, "update-1", update=True)
    assert await writer == Versioned(1, "update-1", True)
    assert paused.delivered is None, "the writer sets it once it is written"


async def test_the_movers_update_waits_for_the_ack_it_carries() -> None:
    conn, socket = Connection("r"), Socket()
    conn.direct = socket
    writer = await waiting(conn)
    conn.moving = True
    conn.put_version(5, "update-5", update=True)
    conn.moving = False
    conn.put(Ack(5, "m1", False))
    assert socket.written == []
    assert await writer == Versioned(5, "update-5", True)
    assert await conn.queue.get() == Ack(5, "m1", False)


async def test_a_released_connection_writes_nothing() -> None:
    conn, socket = Connection("r"), Socket()
    conn.direct = socket
    conn.release()
    conn.put_version(1, "update-1", update=True)
    assert socket.written == [] and conn.direct is None
