"""The asyncpg pools of the store: how they are made, and connections taken from them.

Every statement of the server goes through an asyncpg pool: a move is one round trip (no
BEGIN, COMMIT or pre-ping around it), which is most of what the server waits for per move. A
database that cannot be reached shows as `Unavailable`, whatever asyncpg raised; `unreachable`
and `DATABASE_ERRORS` let the layers above classify the driver's errors without naming it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import orjson
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError


class Unavailable(Exception):
    """The database cannot be reached right now (restarting, network): retry later."""


# Errors that mean "the database is not there", as opposed to "the query was refused".
CONNECTION_ERRORS = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    # A connection whose protocol is stuck mid-operation (seen after PostgreSQL restarts).
    asyncpg.InternalClientError,
)

# What a query may raise besides `Unavailable`: the web layer answers these with
# `unavailable` (503) or `internal` (500), by `unreachable`. SQLAlchemy's errors are here only
# while app/play/seats.py and app/background/bot_runner.py still write through
# `Store.engine`.
DATABASE_ERRORS: tuple[type[Exception], ...] = (asyncpg.PostgresError, DBAPIError)


def unreachable(exc: BaseException) -> bool:
    """Whether an exception means the database cannot be reached (retry later: 503).

    The cause chain counts too: SQLAlchemy wraps a connection that broke while being
    opened (PostgreSQL restarting) in a plain DBAPIError, not flagged as invalidated.
    """
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(
            seen, (Unavailable, *CONNECTION_ERRORS, OperationalError, InterfaceError)
        ):
            return True
        if isinstance(seen, DBAPIError) and seen.connection_invalidated:
            return True
        seen = seen.__cause__
    return False


def asyncpg_dsn(database_url: str) -> str:
    """The SQLAlchemy URL of the settings as a plain libpq-style DSN that asyncpg accepts.

    >>> asyncpg_dsn("postgresql+asyncpg://u:p@db:5432/ishtar")
    'postgresql://u:p@db:5432/ishtar'
    """
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def _json_out(value: Any) -> str:
    return value if isinstance(value, str) else orjson.dumps(value).decode()


async def _init_connection(conn: asyncpg.Connection) -> None:
    # JSON(B) in and out as Python values; a str is taken as JSON text already encoded.
    for kind in ("json", "jsonb"):
        await conn.set_type_codec(
            kind,
            schema="pg_catalog",
            encoder=_json_out,
            decoder=orjson.loads,
            format="text",
        )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Pool release without asyncpg's default reset query (``RESET ALL; UNLISTEN *; …``).

    That query is one more round trip on every release: 13 % of the server's CPU samples
    under load (docs/journal/benchmarks-history.md, "Changes made in the first session").
    Nothing here changes session state (no SET, LISTEN or advisory lock on pooled
    connections); asyncpg still rolls back an open transaction before this runs.
    """


Warm = Callable[[asyncpg.Connection], Awaitable[None]]


async def create_pool(
    dsn: str,
    max_size: int,
    *,
    durable: bool = True,
    warm: Warm | None = None,
    idle_s: float = 0,
) -> asyncpg.Pool:
    """A pool; with ``durable=False`` its commits do not wait for the disk (notices, presence:
    nothing there must survive a crash of PostgreSQL).

    No connection is opened here (the server starts, and /readyz explains, while the
    database is down); once opened, a connection is kept, or with `idle_s` closed once unused
    for that long (the extra connections of app/store/overflow.py). `warm` runs on each new
    connection after the codecs are set: the first use of a statement on a connection costs
    a parse, a plan and asyncpg's type introspection (tens of milliseconds under load),
    better paid when the connection opens than by the move that happens to use it first
    (see `open_connections`)."""
    # Every statement is a lookup by key: a generic plan from the first execution on, rather
    # than five planned executions per statement and connection first (PostgreSQL's default).
    settings = {"plan_cache_mode": "force_generic_plan"}
    if not durable:
        settings["synchronous_commit"] = "off"

    async def init(conn: asyncpg.Connection) -> None:
        await _init_connection(conn)
        if warm is not None:
            await warm(conn)

    pool: asyncpg.Pool = await asyncpg.create_pool(
        dsn,
        min_size=0,
        max_size=max_size,
        # kept by default: reopening is what warming avoids
        max_inactive_connection_lifetime=idle_s,
        init=init,
        reset=_keep_session,
        command_timeout=30,
        server_settings=settings,
    )
    return pool


async def open_connections(
    pool: asyncpg.Pool, count: int, within_s: float = 5.0
) -> int:
    """Open (and warm) up to `count` connections of `pool` before they are needed; how many
    are open. A database that is down or slow is not an error here (the server starts and
    /readyz explains): connections then open on demand."""
    held: list[asyncpg.Connection] = []
    try:
        async with asyncio.timeout(within_s):
            for _ in range(count):
                held.append(await pool.acquire())
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        logging.getLogger("ishtar.pool").info("pool not warmed: %s", e)
    finally:
        for conn in held:
            await pool.release(conn)
    return len(held)


async def close_pool(pool: asyncpg.Pool, name: str, within_s: float = 10.0) -> bool:
    """Close `pool` at shutdown: gracefully, waiting for the connections in use to come back,
    but for `within_s` seconds at most; then at once (`terminate`). Whether it closed
    gracefully.

    asyncpg's own `close` waits for every connection without a bound, so one that a task
    still holds kept a server's SIGTERM from ever ending its shutdown (a chaos test's
    server waited over 60 s, 2026-12-06)."""
    try:
        await asyncio.wait_for(pool.close(), within_s)
        return True
    except TimeoutError:
        logging.getLogger("ishtar.pool").warning(
            "the %s pool still had a connection in use %.0f s into the shutdown:"
            " closed at once",
            name,
            within_s,
        )
        pool.terminate()  # asyncpg terminates a pool whose close was cancelled, too
        return False


class Pools:
    """The pools a store queries through, and its connections and transactions.

    `light` (default: `pool`) is a pool whose commits do not wait for the disk, for what
    needs no durability: the notice of a move (sent after the move's own, durable commit)
    and presence. PostgreSQL serialises the commits of all transactions that NOTIFY on one
    global lock held through their WAL flush; a NOTIFY inside each move's transaction made
    every move of every game wait for the flushes of all the others (measured: commit p50
    35 ms with 10 busy rooms, against 4 ms alone).
    """

    def __init__(self, pool: asyncpg.Pool, light: asyncpg.Pool | None = None) -> None:
        self.pool = pool
        self.light = light or pool

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[asyncpg.Connection]:
        try:
            async with self.pool.acquire() as conn:
                try:
                    yield conn
                except asyncpg.InternalClientError:
                    # Seen after a PostgreSQL restart: the connection's protocol is stuck
                    # in a state no query can use. Drop it; the pool opens a fresh one.
                    conn.terminate()
                    raise
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._conn() as conn, conn.transaction():
            yield conn

    @asynccontextmanager
    async def _light_conn(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the light pool, for one statement (its own transaction)."""
        try:
            async with self.light.acquire() as conn:
                yield conn
        except CONNECTION_ERRORS as error:
            raise Unavailable(str(error)) from error

    @asynccontextmanager
    async def _light_transaction(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._light_conn() as conn, conn.transaction():
            yield conn
