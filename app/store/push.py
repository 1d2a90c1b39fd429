"""Web Push in the store: each seat's browser subscriptions and the outbox of pushes.

``push_subscriptions`` holds a browser's subscription for a seat (the push service's
endpoint, the browser's P-256 key and auth secret, the language to speak in). The trigger
``games_turn_changed`` (migration 0017) queues one ``push_outbox`` row per subscription in the
transaction of the move that hands the turn to a seat (``turn``) or ends the game (``end``),
unless the seat is away. The courier (app/background/web_push.py) claims due rows here with
``FOR UPDATE SKIP LOCKED`` and a lease, exactly as the webhook courier does
(app/store/webhooks.py), and records each outcome. The trigger ``seats_holder_changed``
deletes a seat's subscriptions (and so their pending pushes) when it changes hands. Knows SQL
and no delivery rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.config.timesource import sql_now
from app.store.pool import Pools


class TooMany(Exception):
    """The seat holds as many subscriptions as it may."""


@dataclass(frozen=True)
class Push:
    """One claimed row of the push outbox, with what its message needs."""

    id: int
    subscription_id: int
    room_id: str
    seat: int
    version: int
    event: str
    attempts: int
    endpoint: str
    p256dh: bytes
    auth: bytes
    lang: str
    base_url: str


@dataclass(frozen=True)
class PushFacts:
    """The room as a push speaks of it, now: public facts only."""

    game: str
    status: str
    current_seat: int | None
    names: tuple[str, ...]
    """The names at the table, by seat."""
    away: bool
    """The seat is away now."""


_CLAIM = (
    "WITH due AS ("
    " SELECT id FROM push_outbox WHERE status = 'pending'"
    f" AND next_attempt_at <= {sql_now('$4')}"
    " ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)"
    " UPDATE push_outbox o SET attempts = o.attempts + 1, claimed_by = $2,"
    f" next_attempt_at = {sql_now('$4')} + make_interval(secs => $3)"
    " FROM due, push_subscriptions p WHERE o.id = due.id AND p.id = o.subscription_id"
    " RETURNING o.id, o.subscription_id, o.room_id, o.seat, o.version, o.event,"
    " o.attempts, p.endpoint, p.p256dh, p.auth, p.lang, p.base_url"
)
_FACTS = (
    "SELECT r.game, g.status, g.current_seat,"
    " (SELECT coalesce(array_agg(name ORDER BY seat), '{}') FROM seats"
    "  WHERE room_id = r.id) AS names,"
    " EXISTS (SELECT 1 FROM seats WHERE room_id = r.id AND seat = $2"
    f"  AND away_until > {sql_now('$3')}) AS away"
    " FROM rooms r JOIN games g ON g.room_id = r.id WHERE r.id = $1"
)
_RETRY = (
    "UPDATE push_outbox SET last_error = $2,"
    f" next_attempt_at = {sql_now('$4')} + make_interval(secs => $3)"
    " WHERE id = $1 AND status = 'pending'"
)
_FINISH = (
    "UPDATE push_outbox SET status = $2, last_error = $3,"
    f" finished_at = {sql_now('$4')} WHERE id = $1 AND status = 'pending'"
)


class PushStore(Pools):
    """Seats' push subscriptions and the push outbox (a part of `Store`: ``store.push``)."""

    # --- subscriptions ----------------------------------------------------------------------

    async def subscribe(
        self,
        seat_id: int,
        endpoint: str,
        p256dh: bytes,
        auth: bytes,
        lang: str,
        base_url: str,
        most: int,
    ) -> bool:
        """Keep a subscription for the seat (the same endpoint again: its keys and language
        are replaced); whether it is new. Raises `TooMany` past `most` per seat."""
        async with self._transaction() as conn:
            # the seat's row lock serialises subscriptions of one seat: the count holds
            await conn.execute("SELECT 1 FROM seats WHERE id = $1 FOR UPDATE", seat_id)
            known = await conn.fetchval(
                "SELECT id FROM push_subscriptions WHERE seat_id = $1 AND endpoint = $2",
                seat_id,
                endpoint,
            )
            if known is None:
                count = await conn.fetchval(
                    "SELECT count(*) FROM push_subscriptions WHERE seat_id = $1",
                    seat_id,
                )
                if count >= most:
                    raise TooMany(seat_id)
            await conn.execute(
                "INSERT INTO push_subscriptions"
                " (seat_id, endpoint, p256dh, auth, lang, base_url)"
                " VALUES ($1, $2, $3, $4, $5, $6)"
                " ON CONFLICT ON CONSTRAINT uq_push_subscriptions_seat_id_endpoint"
                " DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,"
                " lang = EXCLUDED.lang, base_url = EXCLUDED.base_url",
                seat_id,
                endpoint,
                p256dh,
                auth,
                lang,
                base_url,
            )
        return known is None

    async def unsubscribe(self, seat_id: int, endpoint: str) -> bool:
        """Forget the seat's subscription at `endpoint` (its pending pushes with it)."""
        async with self._conn() as conn:
            done: str = await conn.execute(
                "DELETE FROM push_subscriptions WHERE seat_id = $1 AND endpoint = $2",
                seat_id,
                endpoint,
            )
        return done != "DELETE 0"

    async def subscribed(self, seat_id: int, endpoint: str) -> bool:
        async with self._conn() as conn:
            found = await conn.fetchval(
                "SELECT 1 FROM push_subscriptions WHERE seat_id = $1 AND endpoint = $2",
                seat_id,
                endpoint,
            )
        return found is not None

    async def drop(self, subscription_id: int) -> None:
        """The push service says the subscription is gone (404, 410): forget it."""
        async with self._conn() as conn:
            await conn.execute(
                "DELETE FROM push_subscriptions WHERE id = $1", subscription_id
            )

    # --- the outbox -------------------------------------------------------------------------

    async def claim(
        self, instance: str, limit: int, lease_s: float, ahead_s: float
    ) -> list[Push]:
        """Up to `limit` due pushes, leased to `instance` for `lease_s` seconds."""
        async with self._conn() as conn:
            rows = await conn.fetch(_CLAIM, limit, instance, lease_s, ahead_s)
        return [
            Push(
                id=row["id"],
                subscription_id=row["subscription_id"],
                room_id=row["room_id"],
                seat=row["seat"],
                version=row["version"],
                event=row["event"],
                attempts=row["attempts"],
                endpoint=row["endpoint"],
                p256dh=bytes(row["p256dh"]),
                auth=bytes(row["auth"]),
                lang=row["lang"],
                base_url=row["base_url"],
            )
            for row in rows
        ]

    async def facts(self, room_id: str, seat: int, ahead_s: float) -> PushFacts | None:
        async with self._conn() as conn:
            row = await conn.fetchrow(_FACTS, room_id, seat, ahead_s)
        return (
            None
            if row is None
            else PushFacts(
                row["game"],
                row["status"],
                row["current_seat"],
                tuple(row["names"]),
                row["away"],
            )
        )

    async def retry(
        self, push_id: int, error: str, delay_s: float, ahead_s: float
    ) -> None:
        async with self._conn() as conn:
            await conn.execute(_RETRY, push_id, error, delay_s, ahead_s)

    async def finish(
        self, push_id: int, status: str, error: str | None, ahead_s: float
    ) -> None:
        async with self._conn() as conn:
            await conn.execute(_FINISH, push_id, status, error, ahead_s)
