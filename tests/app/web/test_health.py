"""The health probes: /healthz always answers; /readyz tells whether games can be served."""

from __future__ import annotations

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config.settings import Settings
from app.ops.main import create_app
from tests.support.databases import run_async


async def test_healthz_answers_ok(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz_is_ready_on_a_migrated_database(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    assert body["database"] == "ok"
    assert body["migrations"] == "head"
    assert body["revision"] == body["head"]


def test_readyz_reports_a_database_never_migrated(empty_database_url: str) -> None:
    settings = Settings(_env_file=None, database_url=empty_database_url)  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["migrations"] == "not migrated"
    assert response.json()["database"] == "ok"


def test_readyz_reports_a_revision_the_code_does_not_know(
    empty_database_url: str,
) -> None:
    """E.g. a newer server migrated the database during a rolling deploy."""

    async def stamp_unknown() -> None:
        engine = create_async_engine(empty_database_url)
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "CREATE TABLE alembic_version (version_num varchar(32) PRIMARY KEY)"
                )
            )
            await connection.execute(
                text("INSERT INTO alembic_version VALUES ('zzzz')")
            )
        await engine.dispose()

    run_async(stamp_unknown)
    settings = Settings(_env_file=None, database_url=empty_database_url)  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["migrations"] == "unknown revision"


def test_readyz_answers_503_when_the_database_is_unreachable() -> None:
    unreachable = "postgresql+asyncpg://nobody@127.0.0.1:1/nowhere"
    settings = Settings(_env_file=None, database_url=unreachable, readiness_timeout=2.0)  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as client:
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not ready"
    assert body["database"] == "unreachable"
    assert body["detail"]


def test_openapi_documents_the_probes(sync_client: TestClient) -> None:
    paths = sync_client.get("/openapi.json").json()["paths"]
    assert {"/healthz", "/readyz"} <= set(paths)
    assert sync_client.get("/docs").status_code == 200
