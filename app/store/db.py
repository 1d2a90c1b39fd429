"""The SQLAlchemy engine, for what still writes through SQLAlchemy rather than the store's
asyncpg pools (app/store/pool.py): see `Store.engine`. Alembic makes its own (migrations/env.py).

Nothing is created at import time: `create_app` builds the engine in its lifespan, so each app
(and each test) owns its own connection pool.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.config.settings import Settings


class DatabaseNotConfigured(RuntimeError):
    """Raised when the service needs a database but `database_url` is unset."""


def create_engine(settings: Settings) -> AsyncEngine:
    """A pooled async engine for `settings.database_url`."""
    if not settings.database_url:
        raise DatabaseNotConfigured(
            "DATABASE_URL is not set; `ishtar serve` starts an embedded PostgreSQL for you"
        )
    return create_async_engine(
        settings.database_url,
        pool_pre_ping=True,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
    )
