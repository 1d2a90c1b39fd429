"""PostgreSQL LISTEN/NOTIFY: how server instances hear of each other's changes.

Writers send `NOTIFY ishtar_rooms, '<room_id> <kind> <number>'` inside their transaction
(see `app.store.store`), so a notice arrives only after the commit. Each instance keeps one
dedicated connection listening on the channel (`listen`, app/store/channel.py) and hands
notices to the hub.
If that connection drops (PostgreSQL restarted, network cut), it reconnects with backoff and
asks the hub to resynchronise, since notices sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from app.config.tasks import cancel_and_wait
from app.store.channel import Listening, NoticeKind, listen
from app.store.pool import asyncpg_dsn

__all__ = ["Listener", "asyncpg_dsn", "parse_notice"]

log = logging.getLogger("ishtar.notify")

OnNotice = Callable[[str, NoticeKind, int, str | None], None]
"""A notice's room, kind, number and detail (app/store/channel.py `notice`)."""
OnReconnect = Callable[[], Awaitable[None]]


def parse_notice(payload: str) -> tuple[str, NoticeKind, int, str | None] | None:
    """'<room_id> <kind> <number>[ <detail>]' -> (room_id, kind, number, detail or None);
    None if garbled or of a kind this version does not know.

    >>> parse_notice("kR3v_x9QmB2a m 15")
    ('kR3v_x9QmB2a', <NoticeKind.MOVE: 'm'>, 15, None)
    >>> parse_notice('kR3v_x9QmB2a m 16 {"seq":16}')
    ('kR3v_x9QmB2a', <NoticeKind.MOVE: 'm'>, 16, '{"seq":16}')
    >>> parse_notice("kR3v_x9QmB2a z 1") is None
    True
    """
    parts = payload.split(" ", 3)
    if len(parts) < 3 or not parts[2].lstrip("-").isdigit():
        return None
    try:
        kind = NoticeKind(parts[1])
    except ValueError:
        return None
    return parts[0], kind, int(parts[2]), parts[3] if len(parts) == 4 else None


class Listener:
    """One LISTEN connection that survives database restarts."""

    def __init__(
        self,
        database_url: str,
        on_notice: OnNotice,
        on_reconnect: OnReconnect,
        *,
        check_every_s: float = 10.0,
    ) -> None:
        self.dsn = asyncpg_dsn(database_url)
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        self.check_every_s = check_every_s
        self.connected = asyncio.Event()
        self.connects = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self, wait_s: float = 2.0) -> None:
        """Start listening; waits (up to `wait_s`) for the first connection."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), wait_s)

    async def stop(self) -> None:
        await cancel_and_wait(self._task)

    def _deliver(self, payload: str) -> None:
        notice = parse_notice(payload)
        if notice is None:
            log.warning("ignored a garbled notice %r", payload)
            return
        try:
            self.on_notice(*notice)
        except Exception:
            log.exception("notice %r not handled", payload)

    async def _run(self) -> None:
        backoff = 0.05
        while True:
            conn: Listening | None = None
            try:
                conn = await listen(self.dsn, self._deliver, 5)
                self.connected.set()
                # Notices sent while nobody listened are lost: catch up from the database.
                self.connects += 1
                await self.on_reconnect()
                backoff = 0.05
                await self._watch(conn)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("notice listener lost (%s); reconnecting", error)
            finally:
                self.connected.clear()
                if conn is not None:
                    conn.close()
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 2.0)

    async def _watch(self, conn: Listening) -> None:
        """Return when the connection is gone; probe it now and then (half-open sockets)."""
        while not conn.lost.is_set():
            try:
                await asyncio.wait_for(conn.lost.wait(), self.check_every_s)
            except TimeoutError:
                await conn.ping(5)
