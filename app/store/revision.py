"""A room's revision: the one way the server marks a room changed and tells every instance.

Every change of a room that its status shows (a seat taken, left or handed on, a bot seated,
the start, a late seat marked overdue, a rematch offered) goes through `bump_revision`,
inside the transaction that makes the change: it bumps ``rooms.revision`` (taking the
room's row lock, which serialises such changes of one room) and queues the room's ``r``
notice (app/store/channel.py). PostgreSQL delivers the notice once the transaction
commits, and never if it rolls back, so nobody hears of a change that did not happen.

The last move of a game bumps the revision inside its own single statement instead
(``COMMIT_MOVE`` in app/store/games.py): a move's notice is its ``m`` notice, sent after
the commit (app/notices/announcer.py), and a NOTIFY inside a move's transaction would make
every move wait on PostgreSQL's global notify lock (app/store/pool.py, `Pools`).
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg  # type: ignore[import-untyped]

from app.store.channel import CHANNEL, NOTIFY, NoticeKind, notice

_BUMP = (
    "UPDATE rooms SET revision = revision + 1 WHERE id = $1"
    " RETURNING revision, status, players"
)


@dataclass(frozen=True)
class Bumped:
    """The room as the bump left it: its new revision, its status and its seat count."""

    revision: int
    status: str
    players: int


async def bump_revision(conn: asyncpg.Connection, room_id: str) -> Bumped | None:
    """Bump the room's revision and queue its ``r`` notice, in the caller's transaction.

    None (and no notice) if there is no such room."""
    row = await conn.fetchrow(_BUMP, room_id)
    if row is None:
        return None
    await conn.execute(
        NOTIFY, CHANNEL, notice(room_id, NoticeKind.ROOM, row["revision"])
    )
    return Bumped(row["revision"], row["status"], row["players"])
