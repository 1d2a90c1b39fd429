"""Readiness: is the database reachable, and is its schema at the head revision?

`/readyz` answers with this report; load balancers and `live_server` wait for it. A server
whose database is behind (or ahead of, during a rolling deploy) the code reports why.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Literal

import asyncpg  # type: ignore[import-untyped]
from pydantic import BaseModel

from app.store import migrate

MigrationState = Literal[
    "head", "behind", "not migrated", "unknown revision", "unchecked"
]


class Readiness(BaseModel):
    """What /readyz reports."""

    status: Literal["ready", "not ready"]
    database: Literal["ok", "unreachable"]
    migrations: MigrationState
    revision: str | None = None
    head: str
    detail: str | None = None

    @property
    def ready(self) -> bool:
        return self.status == "ready"


@lru_cache(maxsize=1)
def _code_heads() -> tuple[str, ...]:
    return migrate.heads()


@lru_cache(maxsize=1)
def _known_revisions() -> frozenset[str]:
    return migrate.known_revisions()


def migration_state(current: tuple[str, ...]) -> MigrationState:
    """Compare the database's revisions with the code's heads."""
    if set(current) == set(_code_heads()):
        return "head"
    if not current:
        return "not migrated"
    if not set(current) <= _known_revisions():
        return "unknown revision"
    return "behind"


async def check(pool: asyncpg.Pool, timeout: float) -> Readiness:
    """Probe the database behind `pool` within `timeout` seconds.

    Give it a pool whose connections run nothing when they open (the store's `light` one):
    the main pool prepares the game's statements on each new connection, which fails on a
    database not migrated yet, and that is a state to report rather than "unreachable"."""
    head = ",".join(_code_heads())
    try:
        async with asyncio.timeout(timeout):
            async with pool.acquire() as connection:
                await connection.fetchval("SELECT 1")
                current = await migrate.current_revisions(connection)
    except Exception as error:  # any failure to reach the database means "not ready"
        return Readiness(
            status="not ready",
            database="unreachable",
            migrations="unchecked",
            head=head,
            detail=f"{type(error).__name__}: {error}"[:500],
        )
    state = migration_state(current)
    return Readiness(
        status="ready" if state == "head" else "not ready",
        database="ok",
        migrations=state,
        revision=",".join(sorted(current)) or None,
        head=head,
        detail=None if state == "head" else "run `ishtar db upgrade`",
    )
