"""Alembic environment: runs the revisions over an async (asyncpg) connection.

The URL comes, in order, from ``config.attributes["url"]`` (set by `app.store.migrate`), the
``sqlalchemy.url`` option, or the service settings (``DATABASE_URL``). A caller that already
holds a synchronous connection can pass it as ``config.attributes["connection"]``.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

import app.store.models
from app.config.settings import get_settings, normalise_database_url

config = context.config
target_metadata = app.store.models.Base.metadata


def _database_url() -> str:
    url = (
        config.attributes.get("url")
        or config.get_main_option("sqlalchemy.url")
        or get_settings().database_url
    )
    if not url:
        raise RuntimeError(
            "no database URL: set DATABASE_URL or pass one to app.store.migrate"
        )
    return normalise_database_url(str(url))


def run_migrations_offline() -> None:
    """Emit SQL to stdout instead of running it (``--sql`` mode)."""
    context.configure(
        url=_database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


# Several instances may start at once on one fresh database: each upgrades to head at start.
# A transaction-scoped advisory lock makes them take turns; the later ones then find the
# schema at head and do nothing (instead of racing to CREATE TABLE alembic_version).
MIGRATION_LOCK = 0x15_47_A2  # any constant shared by every instance


def _run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection, target_metadata=target_metadata, compare_type=True
    )
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
            )
        context.run_migrations()


async def _run_async_migrations(url: str) -> None:
    engine = create_async_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run_migrations)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_migrations(connection)
    else:
        asyncio.run(_run_async_migrations(_database_url()))


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
