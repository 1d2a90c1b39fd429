"""Throw-away PostgreSQL databases for tests: one migrated template, cloned per test.

`TestDatabases` works against any server it can reach with an admin URL: the one in
``ISHTAR_TEST_DATABASE_URL`` or an embedded one started for the test session. Cloning a
template (``CREATE DATABASE ... TEMPLATE``) takes milliseconds, where migrating each
database from scratch would take a second once the history grows.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import pool, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from app.config.settings import normalise_database_url
from app.store import migrate

T = TypeVar("T")

# Durability buys nothing in tests; these make CREATE DATABASE and commits fast.
FAST_SERVER_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
}


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

    def create(self, *, migrated: bool = True) -> str:
        """A new database (a clone of the migrated template, or empty); returns its URL."""
        name = f"{self.prefix}_{uuid.uuid4().hex[:12]}"
        template = self.template if migrated else "template0"
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drop the database of `url`, closing any connection still open to it."""
        name = make_url(url).database
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def drop_template(self) -> None:
        self._execute(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
