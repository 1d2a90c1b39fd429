"""The e-mail digest in the store: the address a seat's holder left, and when each address
last got a digest.

``seat_emails`` holds one address per seat, unconfirmed (with the hash of the link's token)
until its link is followed; the trigger ``seats_holder_changed`` (migration 0017) deletes it
when the seat changes hands. ``mail_digests`` holds when each address last got a digest:
`claim` moves it to now in one statement that succeeds only if the last one is a period old,
so two instances never both send one within a period (at most one, whatever crashes). The
present of every query is the database's ``now()`` plus the caller's lead (`sql_now`). Knows
SQL and no mail.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.config.timesource import sql_now
from app.store.pool import Pools


@dataclass(frozen=True)
class Address:
    address: str
    confirmed: bool


@dataclass(frozen=True)
class Waiting:
    """A game waiting on a seat whose holder gets the digest at its address."""

    room_id: str
    game: str
    seat: int
    names: tuple[str, ...]
    since: datetime
    base_url: str
    lang: str


# A seat whose game waits on it, for a digest: its turn, held by a person, not away, its
# turn started `wait` seconds ago or more.
_WAITING_SEAT = (
    " FROM seat_emails e JOIN seats s ON s.id = e.seat_id"
    " JOIN games g ON g.room_id = s.room_id AND g.status = 'playing'"
    " AND g.current_seat = s.seat"
    " WHERE e.confirmed_at IS NOT NULL AND s.token_hash IS NOT NULL"
    f" AND (s.away_until IS NULL OR s.away_until <= {sql_now('$1')})"
    f" AND g.updated_at <= {sql_now('$1')} - make_interval(secs => $2)"
)
_DUE = (
    f"SELECT DISTINCT e.address {_WAITING_SEAT}"
    " AND NOT EXISTS (SELECT 1 FROM mail_digests d WHERE d.address = e.address"
    f" AND d.last_sent_at > {sql_now('$1')} - make_interval(secs => $3))"
    " LIMIT $4"
)
_CLAIM = (
    "INSERT INTO mail_digests AS d (address, last_sent_at, sent)"
    f" VALUES ($1, {sql_now('$2')}, 1)"
    f" ON CONFLICT (address) DO UPDATE SET last_sent_at = {sql_now('$2')},"
    " sent = d.sent + 1"
    f" WHERE d.last_sent_at <= {sql_now('$2')} - make_interval(secs => $3)"
    " RETURNING address"
)


class MailStore(Pools):
    """Seats' addresses and the digests sent (a part of `Store`: ``store.mail``)."""

    async def set_address(
        self,
        seat_id: int,
        address: str,
        lang: str,
        base_url: str,
        confirm_hash: bytes,
    ) -> bool:
        """Keep `address` for the seat; whether it must be confirmed (a new address: with
        the token hashed to `confirm_hash`; the confirmed one again: it stays so)."""
        async with self._transaction() as conn:
            same = await conn.fetchval(
                "SELECT 1 FROM seat_emails WHERE seat_id = $1 AND address = $2"
                " AND confirmed_at IS NOT NULL",
                seat_id,
                address,
            )
            if same:
                await conn.execute(
                    "UPDATE seat_emails SET lang = $2, base_url = $3 WHERE seat_id = $1",
                    seat_id,
                    lang,
                    base_url,
                )
                return False
            await conn.execute(
                "INSERT INTO seat_emails (seat_id, address, lang, base_url, confirm_hash)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (seat_id) DO UPDATE SET"
                " address = EXCLUDED.address, lang = EXCLUDED.lang,"
                " base_url = EXCLUDED.base_url, confirm_hash = EXCLUDED.confirm_hash,"
                " confirmed_at = NULL, created_at = now()",
                seat_id,
                address,
                lang,
                base_url,
                confirm_hash,
            )
        return True

    async def address(self, seat_id: int) -> Address | None:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT address, confirmed_at IS NOT NULL FROM seat_emails"
                " WHERE seat_id = $1",
                seat_id,
            )
        return None if row is None else Address(row[0], row[1])

    async def delete_address(self, seat_id: int) -> None:
        async with self._conn() as conn:
            await conn.execute("DELETE FROM seat_emails WHERE seat_id = $1", seat_id)

    async def confirm(self, confirm_hash: bytes) -> str | None:
        """Confirm the address whose link carries this token; the address, or None."""
        async with self._conn() as conn:
            address: str | None = await conn.fetchval(
                "UPDATE seat_emails SET confirmed_at = now(), confirm_hash = NULL"
                " WHERE confirm_hash = $1 RETURNING address",
                confirm_hash,
            )
        return address

    async def unsubscribe(self, address: str) -> int:
        """Forget `address` on every seat; how many it was left for."""
        async with self._conn() as conn:
            done: str = await conn.execute(
                "DELETE FROM seat_emails WHERE address = $1", address
            )
        return int(done.rpartition(" ")[2])

    async def due(
        self, period_s: float, wait_s: float, ahead_s: float, limit: int
    ) -> list[str]:
        """Addresses with games waiting on them and no digest for a period."""
        async with self._conn() as conn:
            rows = await conn.fetch(_DUE, ahead_s, wait_s, period_s, limit)
        return [row[0] for row in rows]

    async def claim(self, address: str, period_s: float, ahead_s: float) -> bool:
        """Take this period's digest of `address` (False: another instance, or an earlier
        digest of the period, has it)."""
        async with self._conn() as conn:
            taken = await conn.fetchval(_CLAIM, address, ahead_s, period_s)
        return taken is not None

    async def release(
        self, address: str, period_s: float, retry_s: float, ahead_s: float
    ) -> None:
        """The digest could not be sent: due again in `retry_s` seconds."""
        async with self._conn() as conn:
            await conn.execute(
                "UPDATE mail_digests SET sent = sent - 1, last_sent_at ="
                f" {sql_now('$4')} - make_interval(secs => $2)"
                " + make_interval(secs => $3) WHERE address = $1",
                address,
                period_s,
                retry_s,
                ahead_s,
            )

    async def waiting(
        self, address: str, wait_s: float, ahead_s: float
    ) -> list[Waiting]:
        """The games waiting on `address`'s seats, the longest waiting first."""
        async with self._conn() as conn:
            rows = await conn.fetch(_WAITING_SQL, ahead_s, wait_s, address)
        return [
            Waiting(
                row["room_id"],
                row["game"],
                row["seat"],
                tuple(row["names"] or ()),
                row["updated_at"],
                row["base_url"],
                row["lang"],
            )
            for row in rows
        ]


_WAITING_SQL = (
    "SELECT s.room_id, r.game, s.seat, g.updated_at, e.base_url, e.lang,"
    " (SELECT array_agg(name ORDER BY seat) FROM seats WHERE room_id = s.room_id) AS names"
    + _WAITING_SEAT.replace(
        " JOIN games g", " JOIN rooms r ON r.id = s.room_id JOIN games g"
    )
    + " AND e.address = $3 ORDER BY g.updated_at LIMIT 50"
)
