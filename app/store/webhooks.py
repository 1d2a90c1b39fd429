"""Turn webhooks in the store: each seat's webhook and the outbox of calls to make.

``seat_webhooks`` holds a seat's URL; the trigger ``games_turn_changed`` (migration 0003)
queues one ``webhook_outbox`` row in the transaction of the move that hands the turn to such
a seat. The courier (app/background/webhooks.py) claims due rows here with ``FOR UPDATE SKIP
LOCKED`` and a lease, and records each outcome. The present of every query is the database's
``now()`` plus the courier's lead (`sql_now`, app/config/timesource.py): none in production.
Knows SQL and no delivery rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.config.timesource import sql_now
from app.store.pool import Pools


@dataclass(frozen=True)
class Call:
    """One claimed row of the outbox."""

    id: int
    seat_id: int
    room_id: str
    seat: int
    version: int
    url: str
    base_url: str
    attempts: int


@dataclass(frozen=True)
class Turn:
    """Whose turn it is now in the game of a webhook's seat."""

    name: str
    """The seat's name."""
    status: str
    current_seat: int | None


_CLAIM = (
    "WITH due AS ("
    " SELECT id FROM webhook_outbox WHERE status = 'pending'"
    f" AND next_attempt_at <= {sql_now('$4')}"
    " ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)"
    " UPDATE webhook_outbox o SET attempts = o.attempts + 1, claimed_by = $2,"
    f" next_attempt_at = {sql_now('$4')} + make_interval(secs => $3)"
    " FROM due WHERE o.id = due.id"
    " RETURNING o.id, o.seat_id, o.room_id, o.seat, o.version, o.url, o.base_url, o.attempts"
)
_TURN = (
    "SELECT s.name, g.status, g.current_seat FROM seats s"
    " JOIN games g ON g.room_id = s.room_id WHERE s.id = $1"
)
_RETRY = (
    "UPDATE webhook_outbox SET last_error = $2,"
    f" next_attempt_at = {sql_now('$4')} + make_interval(secs => $3)"
    " WHERE id = $1 AND status = 'pending'"
)
_FINISH = (
    "UPDATE webhook_outbox SET status = $2, last_error = $3,"
    f" finished_at = {sql_now('$4')} WHERE id = $1 AND status = 'pending'"
)


class WebhookStore(Pools):
    """Seats' webhooks and the outbox (a part of `Store`: ``store.webhooks``)."""

    # --- the outbox -------------------------------------------------------------------------

    async def claim(
        self, instance: str, limit: int, lease_s: float, ahead_s: float
    ) -> list[Call]:
        """Up to `limit` due calls, leased to `instance` for `lease_s` seconds (one
        statement: rows another instance holds are skipped)."""
        async with self._conn() as conn:
            rows = await conn.fetch(_CLAIM, limit, instance, lease_s, ahead_s)
        return [Call(*row) for row in rows]

    async def turn(self, seat_id: int) -> Turn | None:
        """The seat's name and its game's turn now; None if the seat or game is gone."""
        async with self._conn() as conn:
            row = await conn.fetchrow(_TURN, seat_id)
        return None if row is None else Turn(*row)

    async def retry(
        self, call_id: int, error: str, delay_s: float, ahead_s: float
    ) -> None:
        """A pending call is due again in `delay_s` seconds, with the error that stopped it."""
        async with self._conn() as conn:
            await conn.execute(_RETRY, call_id, error, delay_s, ahead_s)

    async def finish(
        self, call_id: int, status: str, error: str | None, ahead_s: float
    ) -> None:
        """A pending call ends as `status` (delivered, failed, cancelled)."""
        async with self._conn() as conn:
            await conn.execute(_FINISH, call_id, status, error, ahead_s)

    # --- a seat's webhook -------------------------------------------------------------------

    async def set_hook(self, seat_id: int, url: str, base_url: str) -> None:
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO seat_webhooks (seat_id, url, base_url)"
                " VALUES ($1, $2, $3) ON CONFLICT (seat_id) DO UPDATE"
                " SET url = EXCLUDED.url, base_url = EXCLUDED.base_url, created_at = now()",
                seat_id,
                url,
                base_url,
            )

    async def get_hook(self, seat_id: int) -> str | None:
        async with self._conn() as conn:
            url: str | None = await conn.fetchval(
                "SELECT url FROM seat_webhooks WHERE seat_id = $1", seat_id
            )
        return url

    async def delete_hook(self, seat_id: int) -> None:
        """Remove the seat's webhook and cancel its pending calls, in one transaction."""
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM seat_webhooks WHERE seat_id = $1", seat_id)
            await conn.execute(
                "UPDATE webhook_outbox SET status = 'cancelled', finished_at = now(),"
                " last_error = 'the webhook was removed'"
                " WHERE seat_id = $1 AND status = 'pending'",
                seat_id,
            )
