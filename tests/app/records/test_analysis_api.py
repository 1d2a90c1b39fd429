"""The analysis of a finished game over HTTP and its job table (issue 38): asked for once,
computed by the background workers, served to everyone; refusals that change nothing; the
order of the line, leases taken over from a dead instance, attempts that run out."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import httpx
import pytest

from app.config.settings import Settings
from app.notices.listener import asyncpg_dsn
from tests.app.clients import open_room
from tests.app.conftest import TOY
from tests.app.records.test_records import finished_room, play

BABYLON = "engine.babylon"


@pytest.fixture
def room_settings(room_settings: Settings, request: pytest.FixtureRequest) -> Settings:
    cpu = getattr(
        request, "param", None
    )  # a test's CPU bound per analysis, if it sets one
    return room_settings.model_copy(
        update={
            "analysis_cpu_s": cpu or 300.0,
            "http_moves_per_s": 10_000.0,
            "rooms_per_minute": 10_000,
            "analysis_rollouts": 2,
            "analysis_policy": "random",  # cheap rollouts: the test is of the plumbing
            "analysis_luck_samples": 2,
            "analysis_per_address_per_day": 2,
        }
    )


async def jobs(database_url: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        return list(
            await conn.fetch(
                "SELECT room_id, engine_version, status, attempts FROM analysis_jobs"
                " ORDER BY id"
            )
        )
    finally:
        await conn.close()


async def analysed(http: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    """The analysis once the workers are done with it (each read is an event to wait on)."""
    deadline = time.monotonic() + 120
    while True:
        answer = (await http.get(f"/api/rooms/{room_id}/analysis")).json()
        if answer["status"] in ("done", "failed") or time.monotonic() > deadline:
            return answer
        await asyncio.sleep(0.2)


@pytest.mark.parametrize("game_module", [BABYLON])
async def test_a_finished_game_is_analysed_once_and_served_to_everyone(
    http: httpx.AsyncClient, database_url: str
) -> None:
    room_id, _tokens, seen, _ = await finished_room(http, players=2, seed=5)
    asked = await http.post(f"/api/rooms/{room_id}/analysis")
    assert asked.status_code == 202, asked.text
    assert asked.json()["status"] in ("queued", "running")
    answer = await analysed(http, room_id)
    assert answer["status"] == "done", answer
    analysis = answer["analysis"]
    assert answer["done"] == answer["total"] == len(seen) - 1
    assert analysis["complete"] and analysis["game"] == "babylon-gardens"
    assert len(analysis["points"]) == len(seen)
    assert analysis["depth"]["rollouts"] == 2
    assert analysis["depth"]["policy"] == "random"
    # another reader, even one over their bound, reads it: nothing is recomputed
    again = await http.post(f"/api/rooms/{room_id}/analysis")
    assert again.status_code == 202 and again.json()["analysis"] == analysis
    rows = await jobs(database_url)
    assert [(r["room_id"], r["status"], r["attempts"]) for r in rows] == [
        (room_id, "done", 1)
    ]


@pytest.mark.parametrize("game_module", [BABYLON])
async def test_refusals_are_clear_and_change_nothing(
    http: httpx.AsyncClient, database_url: str
) -> None:
    unknown = await http.post("/api/rooms/nosuchroom0000/analysis")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "unknown_room"
    room_id, _host, tokens = await open_room(http, 2)
    await play(http, room_id, tokens, seed=2, until=6)
    not_over = await http.post(f"/api/rooms/{room_id}/analysis")
    assert not_over.status_code == 409
    error = not_over.json()["error"]
    assert error["code"] == "game_not_over"
    assert error["message"]["key"] == "error.game_not_over.analysis"
    assert (await http.get(f"/api/rooms/{room_id}/analysis")).status_code == 409
    finished = [(await finished_room(http, players=2, seed=s))[0] for s in (1, 2, 3)]
    never = await http.get(f"/api/rooms/{finished[0]}/analysis")
    assert never.status_code == 404
    assert never.json()["error"]["code"] == "no_analysis"
    assert await jobs(database_url) == []
    # a flood: two new analyses a day from one address, the third refused
    for room in finished[:2]:
        assert (await http.post(f"/api/rooms/{room}/analysis")).status_code == 202
    flood = await http.post(f"/api/rooms/{finished[2]}/analysis")
    assert flood.status_code == 429
    assert flood.json()["error"]["code"] == "too_many_analyses"
    assert flood.json()["error"]["limit"] == 2
    assert [r["room_id"] for r in await jobs(database_url)] == finished[:2]
    for room in finished[:2]:
        assert (await analysed(http, room))["status"] == "done"


@pytest.mark.parametrize("game_module", [TOY])
async def test_a_game_without_bots_is_refused(
    http: httpx.AsyncClient, database_url: str, game_module: str
) -> None:
    room_id, _tokens, _seen, _ = await finished_room(http, players=2, seed=1)
    answer = await http.post(f"/api/rooms/{room_id}/analysis")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "no_bots"
    assert await jobs(database_url) == []


@pytest.mark.parametrize("game_module", [BABYLON])
@pytest.mark.parametrize("room_settings", [0.01], indirect=True)
async def test_an_analysis_past_its_cpu_time_fails_and_says_so(
    http: httpx.AsyncClient, database_url: str
) -> None:
    room_id, *_ = await finished_room(http, players=2, seed=5)
    assert (await http.post(f"/api/rooms/{room_id}/analysis")).status_code == 202
    answer = await analysed(http, room_id)
    assert answer["status"] == "failed"
    assert answer["error"].startswith("too costly")
    rows = await jobs(database_url)
    assert [(r["status"], r["attempts"]) for r in rows] == [("failed", 1)]
