"""Throw-away PostgreSQL databases for tests: one migrated template, cloned per test.

`TestDatabases` works against any server it can reach with an admin URL: the one in
``ISHTAR_TEST_DATABASE_URL`` or an embedded one started for the test session. Cloning a
template (``CREATE DATABASE ... TEMPLATE``) is quicker than migrating each database from
scratch, but still copies the template's 8 MB of files and took 0.4-1.4 s a test on a loaded
2-core machine. So a test's database is recycled when the test is done with it (`release`):
if nothing is connected to it any more and its schema is still the template's (a fingerprint
of tables, columns, indexes, constraints, triggers, functions, schemas, database settings
and the Alembic version), every table is emptied and every sequence restarted, and the next
test gets it. Anything else (a server still attached, a schema a test changed) is dropped as
before.

Emptying deletes the rows, with the triggers and foreign keys off for the transaction
(``session_replication_role = replica``, a superuser's setting: the moves' append-only
trigger would refuse, and no order of deletes need be found), and sets each sequence back
to its start. A TRUNCATE of the 29 tables made new files for each table, index and TOAST
table and unlinked the old ones, and ``ALTER SEQUENCE ... RESTART`` one for each sequence:
35-42 ms of the server's CPU a test, most of it in the kernel, against 9-14 ms for deleting
the few rows a test leaves. A role that is no superuser (``ISHTAR_TEST_DATABASE_URL`` may
name one) still empties with TRUNCATE.

The fixtures recycle in the background (`release_later`): a test's database is emptied in a
thread of its own while the next test runs on another (two take turns), so no test waits for
it. Emptying one by TRUNCATE took 0.15-0.3 s, most of it a new server backend loading the
catalogue of 29 tables to truncate them, on every database test.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Coroutine
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import pool, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from app.config.settings import Settings, normalise_database_url
from app.store import migrate
from app.store.pool import asyncpg_dsn

T = TypeVar("T")

# Durability buys nothing in tests; these make CREATE DATABASE and commits fast.
FAST_SERVER_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
}

_FIELDS = Settings.model_fields
FEW_CONNECTIONS = {
    "db_pool_size": 1,
    "db_max_overflow": _FIELDS["db_pool_size"].default
    + _FIELDS["db_max_overflow"].default
    - 1,
}
"""Settings of an in-process app in a test: one pooled connection opened (and warmed) at
start instead of ten, the same thirty at most, opened as moves need them. Each connection
at start cost PostgreSQL a backend and the warming rehearsal, and the test process its
codecs: an app's start and stop 140-170 ms of the server's CPU and 45 ms of the test's with
ten, 45-55 and 20 ms with one (docs/journal/benchmarks-history.md, "Seventh pass"); no test
uses ten at once."""


SPARE_DATABASES = 2
"""Emptied databases kept for the next tests of a session (a test uses one at a time),
counting those being emptied."""

SCHEMA_FINGERPRINT = """
SELECT md5(concat_ws('|',
  (SELECT string_agg(table_name || '.' || column_name || ':' || data_type || ':'
                     || coalesce(column_default, '') || is_nullable, ','
                     ORDER BY table_name, column_name)
     FROM information_schema.columns WHERE table_schema = 'public'),
  (SELECT string_agg(indexdef, ',' ORDER BY indexdef)
     FROM pg_indexes WHERE schemaname = 'public'),
  (SELECT string_agg(conname || pg_get_constraintdef(oid), ',' ORDER BY conname)
     FROM pg_constraint WHERE connamespace = 'public'::regnamespace),
  (SELECT string_agg(t.tgname || c.relname, ',' ORDER BY t.tgname, c.relname)
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
    WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(proname || md5(prosrc), ',' ORDER BY proname, md5(prosrc))
     FROM pg_proc WHERE pronamespace = 'public'::regnamespace),
  (SELECT string_agg(relname || relkind::text, ',' ORDER BY relname)
     FROM pg_class WHERE relnamespace = 'public'::regnamespace),
  (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace),
  (SELECT string_agg(array_to_string(setconfig, ';'), ',' ORDER BY setrole)
     FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())),
  (SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension),
  (SELECT string_agg(version_num, ',') FROM alembic_version)
))
"""

OTHERS_CONNECTED = """
SELECT count(*) FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid()
"""

TABLES = """
SELECT string_agg(format('%I', relname), ', ' ORDER BY relname)
  FROM pg_class
 WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')
   AND relname <> 'alembic_version'
"""

SEQUENCES = """
SELECT format('%I', relname) FROM pg_class
 WHERE relnamespace = 'public'::regnamespace AND relkind = 'S'
"""

DELETES = """
SELECT string_agg(format('DELETE FROM %I', relname), '; ' ORDER BY relname)
  FROM pg_class
 WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')
   AND relname <> 'alembic_version'
"""

RESTART_SEQUENCES = """
SELECT count(setval(s.seqrelid, s.seqstart, false))
  FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid
 WHERE c.relnamespace = 'public'::regnamespace
"""
"""Every sequence back to its start, as ``ALTER SEQUENCE ... RESTART`` would set it, without
the new file that statement makes for each sequence."""


def run_sync(function: Callable[..., T], *args: Any) -> T:
    """Run `function` in a fresh thread: safe even while an event loop runs in this one."""
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(function, *args).result()


def run_async(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on its own loop, in its own thread."""
    return run_sync(lambda: asyncio.run(factory()))


def database_url_for(url: str, database: str) -> str:
    """`url` pointing at another database of the same server."""
    return (
        make_url(normalise_database_url(url))
        .set(database=database)
        .render_as_string(hide_password=False)
    )


class TestDatabases:
    """Creates and drops databases on the server behind `admin_url`."""

    __test__ = False  # not a test class, despite the name

    def __init__(self, admin_url: str, prefix: str) -> None:
        self.admin_url = normalise_database_url(admin_url)
        self.prefix = prefix
        self.template = f"{prefix}_template_{uuid.uuid4().hex[:8]}"
        self._fingerprint: str | None = None
        self._superuser = False  # whether rows may be deleted with the triggers off
        self._spare: list[str] = []
        self._lock = threading.Lock()  # guards _spare and _emptying
        self._emptying: set[Future[None]] = set()
        self._recycler = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="recycle-database"
        )

    def _execute(self, *statements: str) -> None:
        async def go() -> None:
            engine = create_async_engine(
                self.admin_url, poolclass=pool.NullPool, isolation_level="AUTOCOMMIT"
            )
            try:
                async with engine.connect() as connection:
                    for statement in statements:
                        await connection.execute(text(statement))
            finally:
                await engine.dispose()

        run_async(go)

    def url(self, database: str) -> str:
        return database_url_for(self.admin_url, database)

    def create_template(self) -> None:
        """Create the template database and migrate it to head."""
        self._execute(f'CREATE DATABASE "{self.template}"')
        run_sync(migrate.upgrade, self.url(self.template))

        async def fingerprint() -> tuple[str, bool]:
            conn = await asyncpg.connect(asyncpg_dsn(self.url(self.template)))
            try:
                value: str = await conn.fetchval(SCHEMA_FINGERPRINT)
                superuser = await conn.fetchval("SHOW is_superuser")
                return value, superuser == "on"
            finally:
                await conn.close()

        self._fingerprint, self._superuser = run_async(fingerprint)

    def create(self, *, migrated: bool = True) -> str:
        """A new database (a clone of the migrated template, or empty); returns its URL.

        A migrated one may be a recycled database (`release`): empty, at the template's
        schema, nothing connected."""
        if migrated:
            spare = self._take_spare()
            if spare is not None:
                return spare
        name = f"{self.prefix}_{uuid.uuid4().hex[:12]}"
        template = self.template if migrated else "template0"
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return self.url(name)

    def _take_spare(self) -> str | None:
        """An emptied database if one is ready; None if a new one is to be made (the
        spares and those being emptied are fewer than `SPARE_DATABASES`: so a second one
        joins the rotation, and the next test finds one ready while its predecessor's is
        emptied); else the first of those being emptied."""
        while True:
            with self._lock:
                if self._spare:
                    return self._spare.pop()
                emptying = {future for future in self._emptying if not future.done()}
            if len(emptying) < SPARE_DATABASES:
                return None
            wait(emptying, return_when=FIRST_COMPLETED)

    def release(self, url: str) -> None:
        """The test is done with the migrated database of `url`: empty it for the next
        test if nothing is connected to it and its schema is the template's, else drop it."""
        with self._lock:
            full = len(self._spare) + len(self._emptying) >= SPARE_DATABASES
        if self._fingerprint is None or full:
            self.drop(url)
            return
        self._recycle(url)

    def release_later(self, url: str) -> None:
        """`release`, in a thread of its own: returns at once. `create` waits for it when
        it has no other spare; `drop_template` waits for it."""
        with self._lock:
            full = len(self._spare) + len(self._emptying) >= SPARE_DATABASES
            if self._fingerprint is not None and not full:
                future = self._recycler.submit(self._recycle, url)
                self._emptying.add(future)
                future.add_done_callback(self._done_emptying)
                return
        self.drop(url)

    def _done_emptying(self, future: Future[None]) -> None:
        with self._lock:
            self._emptying.discard(future)

    def settle(self) -> None:
        """Wait until every database released in the background is a spare or dropped;
        raises what emptying or dropping one raised."""
        with self._lock:
            emptying = set(self._emptying)
        for future in emptying:
            future.result()

    def _recycle(self, url: str) -> None:
        if run_async(lambda: self._empty(url)):
            with self._lock:
                self._spare.append(url)
        else:
            self.drop(url)

    async def _empty(self, url: str) -> bool:
        """Empty every table and restart every sequence of `url` when it can be reused."""
        try:
            conn = await asyncpg.connect(asyncpg_dsn(url))
        except (OSError, asyncpg.PostgresError):
            return False
        try:
            if await conn.fetchval(OTHERS_CONNECTED):
                return False
            if await conn.fetchval(SCHEMA_FINGERPRINT) != self._fingerprint:
                return False
            async with conn.transaction():
                if self._superuser:
                    await conn.execute("SET LOCAL session_replication_role = replica")
                    deletes = await conn.fetchval(DELETES)
                    if deletes:
                        await conn.execute(deletes)
                    await conn.fetchval(RESTART_SEQUENCES)
                else:
                    tables = await conn.fetchval(TABLES)
                    if tables:
                        await conn.execute(
                            f"TRUNCATE {tables} RESTART IDENTITY CASCADE"
                        )
                    for (sequence,) in await conn.fetch(SEQUENCES):
                        await conn.execute(f"ALTER SEQUENCE {sequence} RESTART")
            # a session that connects after this one would find it empty; one that had
            # connected meanwhile makes the database unsafe to hand on
            return not await conn.fetchval(OTHERS_CONNECTED)
        except asyncpg.PostgresError:
            return False
        finally:
            await conn.close()

    def drop(self, url: str) -> None:
        """Drop the database of `url`, closing any connection still open to it."""
        name = make_url(url).database
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def drop_template(self) -> None:
        try:
            self.settle()
        finally:
            self._recycler.shutdown(wait=True)
        for url in self._spare:
            self.drop(url)
        self._spare.clear()
        self._execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
