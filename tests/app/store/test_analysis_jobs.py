"""The analyses' job table (app/store/analyses.py, migration 0018): the order of the line
(people waiting first, then the oldest), a lease taken over from an instance that died,
attempts that run out. No workers run here (`analysis_share` 0): the test is the worker."""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from app.notices.listener import asyncpg_dsn
from app.store.analyses import AnalysisStore
from tests.app.records.test_analysis_api import jobs
from tests.app.records.test_records import finished_room

BABYLON = "engine.babylon"

pytestmark = pytest.mark.parametrize("game_module", [BABYLON])


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    return room_settings.model_copy(
        update={"http_moves_per_s": 10_000.0, "analysis_share": 0.0}
    )


async def test_the_line_serves_people_waiting_first_then_the_oldest(
    http: httpx.AsyncClient, room_app: FastAPI, database_url: str
) -> None:
    store: AnalysisStore = room_app.state.analyses.store
    room_id, *_ = await finished_room(http, players=2, seed=5)
    game_id = await _game_id(database_url, room_id)
    for version in ("a", "b", "c"):  # three jobs of one game, by engine version
        job, _ = await store.request(game_id, room_id, version, b"x" * 16, 10)
        assert job is not None
    await _execute(
        database_url,
        "UPDATE analysis_jobs SET watched_at = now() - interval '1 hour',"
        " created_at = now() - make_interval(mins => ascii(engine_version))",
    )
    await store.find(game_id, "b")  # someone waits for b now
    order = [(await store.claim("i1", 60, 3)) for _ in range(4)]
    assert [j.engine_version if j else None for j in order] == ["b", "c", "a", None]


async def test_a_job_whose_instance_died_is_taken_up_and_at_last_fails(
    http: httpx.AsyncClient, room_app: FastAPI, database_url: str
) -> None:
    store: AnalysisStore = room_app.state.analyses.store
    room_id, *_ = await finished_room(http, players=2, seed=5)
    game_id = await _game_id(database_url, room_id)
    await store.request(game_id, room_id, "v", b"x" * 16, 10)
    first = await store.claim("dead", 60, 3)
    assert first is not None and first.attempts == 1
    assert await store.claim("alive", 60, 3) is None  # leased: nobody else takes it
    await _execute(
        database_url, "UPDATE analysis_jobs SET claimed_until = now() - interval '1 s'"
    )
    second = await store.claim("alive", 60, 3)
    assert second is not None and second.id == first.id and second.attempts == 2
    # the dead instance's late word changes nothing
    assert not await store.progress(first.id, "dead", 5, 10, None, 60)
    assert await store.progress(first.id, "alive", 5, 10, {"moves": []}, 60)
    await _execute(
        database_url, "UPDATE analysis_jobs SET claimed_until = now() - interval '1 s'"
    )
    third = await store.claim("other", 60, 3)
    assert third is not None and third.attempts == 3
    await _execute(
        database_url, "UPDATE analysis_jobs SET claimed_until = now() - interval '1 s'"
    )
    assert await store.claim("other", 60, 3) is None
    rows = await jobs(database_url)
    assert [(r["status"], r["attempts"]) for r in rows] == [("failed", 3)]


async def _game_id(database_url: str, room_id: str) -> int:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        game_id: int = await conn.fetchval(
            "SELECT id FROM games WHERE room_id = $1", room_id
        )
    finally:
        await conn.close()
    return game_id


async def _execute(database_url: str, statement: str) -> None:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        await conn.execute(statement)
    finally:
        await conn.close()
