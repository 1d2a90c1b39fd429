"""Schema migrations: Alembic driven from code, for the CLI, /readyz and the tests.

The functions here are synchronous (Alembic's command API is); from async code call them
with `asyncio.to_thread`. `current_revisions` is the async probe /readyz uses on an open
asyncpg connection. SQLAlchemy is here for Alembic only (the migrations run on it).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

import migrations
from app.config.settings import normalise_database_url
from app.store.pool import asyncpg_dsn

MIGRATIONS_DIR = Path(migrations.__file__).resolve().parent


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config for our migrations directory, without any alembic.ini."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        # Passed as an attribute, not an option: options go through configparser, which
        # would choke on the '%' of a URL-encoded password.
        config.attributes["url"] = normalise_database_url(url)
    return config


def upgrade(url: str, rev: str = "head") -> None:
    """Upgrade the database at `url` to `rev` (default: the latest revision)."""
    command.upgrade(alembic_config(url), rev)


def downgrade(url: str, rev: str) -> None:
    """Downgrade the database at `url` to `rev` ("base" empties the schema)."""
    command.downgrade(alembic_config(url), rev)


def heads() -> tuple[str, ...]:
    """The revisions at the tip of the migration history (one, unless branches exist)."""
    return tuple(ScriptDirectory.from_config(alembic_config()).get_heads())


def known_revisions() -> frozenset[str]:
    """Every revision id in the migration history."""
    script = ScriptDirectory.from_config(alembic_config())
    return frozenset(revision.revision for revision in script.walk_revisions())


def head() -> str:
    """The single latest revision; raises if the history has several heads."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if found is None:
        raise RuntimeError("the migration history is empty")
    return found


async def current_revisions(connection: asyncpg.Connection) -> tuple[str, ...]:
    """The revisions the connected database is at; empty when never migrated.

    Reads Alembic's version table directly (PostgreSQL only), so that probing it from
    /readyz logs nothing.
    """
    if await connection.fetchval("SELECT to_regclass('alembic_version')") is None:
        return ()
    rows = await connection.fetch("SELECT version_num FROM alembic_version")
    return tuple(sorted(row[0] for row in rows))


def current(url: str) -> str | None:
    """The revision the database at `url` is at, or None when never migrated."""

    async def _current() -> tuple[str, ...]:
        connection = await asyncpg.connect(asyncpg_dsn(normalise_database_url(url)))
        try:
            return await current_revisions(connection)
        finally:
            await connection.close()

    found = asyncio.run(_current())
    return ",".join(sorted(found)) or None


def at_head(url: str) -> bool:
    """Whether the database at `url` is at exactly the heads of the history (then
    `upgrade` would do nothing: `ishtar serve` skips it, about 0.25 s of Alembic)."""
    found = current(url)
    return found is not None and set(found.split(",")) == set(heads())


def next_revision_id() -> str:
    """The next sequential revision id: 0001, 0002, ..."""
    numbers = [
        int(match.group(1))
        for path in (MIGRATIONS_DIR / "versions").glob("*.py")
        if (match := re.match(r"(\d{4})_", path.name))
    ]
    return f"{max(numbers, default=0) + 1:04d}"


def new_revision(
    message: str, *, url: str | None = None, autogenerate: bool = False
) -> str:
    """Write a new revision file after the current head and return its id.

    With `autogenerate`, Alembic compares `app.store.models.Base.metadata` with the database at
    `url` (which must be at head) and drafts the operations; review them before committing.
    """
    rev_id = next_revision_id()
    command.revision(
        alembic_config(url), message=message, autogenerate=autogenerate, rev_id=rev_id
    )
    return rev_id
