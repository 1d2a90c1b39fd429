"""Time control (issue 8): a per-move deadline stored in the database; when it passes, the
room's policy applies (the seat is marked overdue, or a bot plays that turn), exactly once,
by whichever instance gets there first, across restarts.

In-process, the app's deadline watch runs on manual time (app/config/timesource.py): a deadline
passes when a test advances the clock, so none waits for one or sleeps to show that nothing
happened. The restart test runs real servers, so it moves deadlines in the database instead."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

import engine.ishtar as ishtar
from app.background.deadlines import DeadlineWatch
from app.config.settings import Settings
from app.config.timesource import ManualTime
from app.play.positions import Positions
from app.play.service import RoomService
from tests.app.clients import WsClient, bearer, open_room
from tests.app.conftest import game_settings
from tests.support.databases import FEW_CONNECTIONS

FAST = {"bot_delay_s": 0, "bot_think_s": 0.05}


@pytest.fixture
def room_settings(database_url: str, tmp_path: Path, game_module: str) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        data_dir=tmp_path / "data",
        **FEW_CONNECTIONS,
        **game_settings(game_module),
        **FAST,
    )


@pytest.fixture
async def db(database_url: str) -> Any:
    engine = create_async_engine(database_url)
    yield engine
    await engine.dispose()


async def rows(db: AsyncEngine, sql: str, **params: Any) -> list[Any]:
    async with db.connect() as conn:
        return list((await conn.execute(text(sql), params)).all())


def control(seconds: int, policy: str = "wait", **more: Any) -> dict[str, Any]:
    return {"time_control": {"per_move_s": seconds, "policy": policy, **more}}


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


async def manual_watch(room_app: FastAPI, clock: ManualTime) -> DeadlineWatch:
    """Put the app's deadline watch (lifespan running) on `clock`, not started: a deadline
    passes only when the test advances the clock, and is handled when the test runs the
    watch (or starts it)."""
    play = room_app.state.async_play
    await play.deadlines.stop()
    settings: Settings = room_app.state.settings
    play.deadlines = DeadlineWatch(
        play.service,
        play.deadlines.instance,
        seeds=play.deadlines.seeds,
        poll_s=settings.deadline_poll_s,
        lease_s=settings.deadline_lease_s,
        think_s=settings.bot_think_s,
        time=clock,
    )
    return play.deadlines  # stopped with the app, as its own watch would be


async def wait_for(check: Any, timeout: float = 10.0) -> Any:
    async with asyncio.timeout(timeout):
        while True:
            value = await check()
            if value:
                return value
            await asyncio.sleep(0.05)


async def test_no_time_control_by_default(http: httpx.AsyncClient) -> None:
    room_id, _host, _tokens = await open_room(http, 2)
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert status["time_control"] is None and status["clock"] is None
    assert not any(seat["overdue"] for seat in status["seats"])


async def test_the_clock_starts_with_the_game(http: httpx.AsyncClient) -> None:
    created = (
        await http.post(
            "/api/rooms", json={"players": 2, "name": "Ana", **control(86400)}
        )
    ).json()
    assert created["room"]["time_control"] == {
        "per_move_s": 86400,
        "policy": "wait",
        "bot": None,
    }
    assert created["room"]["clock"] is None
    room_id, _host, tokens = await open_room(http, 2, **control(3600))
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    clock = status["clock"]
    assert clock["version"] == 0 and clock["overdue"] is False
    view = await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))
    assert clock["seat"] == view.json()["view"]["current"]
    due = datetime.fromisoformat(clock["due_at"].replace("Z", "+00:00"))
    left = (due - datetime.now(UTC)).total_seconds()
    assert 3500 < left <= 3600


@pytest.mark.parametrize(
    "time_control",
    [
        {"per_move_s": 0},
        {"per_move_s": -5},
        {"per_move_s": 31 * 24 * 3600},
        {"per_move_s": "soon"},
        {"per_move_s": 60, "policy": "nap"},
        {"per_move_s": 60, "policy": "bot", "bot": "godlike"},
        {"per_move_s": 60, "extra": True},
        {"policy": "wait"},
        {"per_move_s": 60, "policy": "bot"},  # the toy game has no bots
    ],
)
async def test_a_bad_time_control_is_refused_and_creates_nothing(
    http: httpx.AsyncClient, db: AsyncEngine, time_control: dict[str, Any]
) -> None:
    answer = await http.post(
        "/api/rooms", json={"players": 2, "time_control": time_control}
    )
    assert answer.status_code == 400, answer.text
    # The toy game has no bots: a bot policy is refused as such, whatever its level.
    expected = "no_bots" if time_control.get("policy") == "bot" else "malformed"
    assert answer.json()["error"]["code"] == expected
    assert await rows(db, "SELECT id FROM rooms") == []


async def test_wait_marks_the_late_seat_overdue_for_everyone_then_moves_on(
    web: tuple[str, httpx.AsyncClient],
    db: AsyncEngine,
    room_app: FastAPI,
    clock: ManualTime,
) -> None:
    url, http = web
    watch = await manual_watch(room_app, clock)
    room_id, _host, tokens = await open_room(
        http, 2, first_player=1, seat_order="fixed", **control(3600)
    )
    watch.start()
    async with WsClient(url, room_id) as fan:
        assert fan.welcome["room"]["clock"]["overdue"] is False
        await clock.sleeping()  # it looked once and waits for its next poll
        clock.advance(3000)
        await clock.sleeping()  # it looked again, 10 minutes before the deadline
        assert await rows(db, "SELECT id FROM deadline_log") == [], "not yet due"
        clock.advance(600)
        room = await fan.expect("room", timeout=10)
        assert room["room"]["clock"]["overdue"] is True
        assert room["room"]["clock"]["seat"] == 1
        assert [s["overdue"] for s in room["room"]["seats"]] == [False, True]
        assert fan.version == 0, "the game waits"
        logged = await rows(db, "SELECT seat, version, policy FROM deadline_log")
        assert [tuple(r) for r in logged] == [(1, 0, "wait")]
        # The late player moves after all: the clock runs again, for the next move.
        view = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[1]))
        ).json()
        moved = await http.post(
            f"/api/rooms/{room_id}/moves",
            headers=bearer(tokens[1]),
            json={
                "move": view["legal"][0]["action"],
                "expected_version": 0,
                "move_id": str(uuid.uuid4()),
            },
        )
        assert moved.status_code == 200, moved.text
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert status["clock"]["version"] == 1
    assert status["clock"]["overdue"] is False
    assert not any(seat["overdue"] for seat in status["seats"])


@pytest.mark.parametrize("game_module", ["engine.ishtar"])
async def test_bot_plays_the_whole_turn_of_the_late_seat(
    http: httpx.AsyncClient,
    db: AsyncEngine,
    room_app: FastAPI,
    clock: ManualTime,
    game_module: str,
) -> None:
    watch = await manual_watch(room_app, clock)
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed", **control(60, "bot", bot="easy")
    )
    clock.advance(30)
    assert await watch.run_once() == 0, "not yet due"
    clock.advance(30)
    assert await watch.run_once() == 1  # the bot played seat 0's turn, all of it
    clock = (await http.get(f"/api/rooms/{room_id}")).json()["clock"]
    assert clock["seat"] == 1
    log = (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    played = [m for m in log if m["seq"] <= clock["version"]]
    assert played and all(m["seat"] == 0 for m in played)
    ids = await rows(
        db,
        "SELECT move_id FROM moves m JOIN games g ON g.id = m.game_id"
        " WHERE g.room_id = :room AND m.seq <= :v ORDER BY m.seq",
        room=room_id,
        v=clock["version"],
    )
    assert all(row.move_id.startswith("~deadline-") for row in ids)
    handled = await rows(db, "SELECT seat, version, policy FROM deadline_log")
    assert (0, 0, "bot") in [tuple(r) for r in handled]
    # The absent seat 0 still holds its seat and token.
    view = await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))
    assert view.status_code == 200


@pytest.mark.parametrize("game_module", ["engine.ishtar"])
async def test_a_player_taking_the_late_seats_move_ids_cannot_stop_its_turn(
    http: httpx.AsyncClient,
    db: AsyncEngine,
    room_app: FastAPI,
    clock: ManualTime,
    game_module: str,
) -> None:
    """Issue 33: the bot move of a late seat had the id `deadline-<game>-<version>`. The
    seat before it sent its own moves under the ids to come, so the bot's was refused
    (`move_id_taken`) and the late seat's turn fell back to waiting, every time."""
    watch = await manual_watch(room_app, clock)
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed", **control(60, "bot", bot="easy")
    )
    game = await room_app.state.rooms.reading.game(room_id)
    url, ana = f"/api/rooms/{room_id}/moves", bearer(tokens[0])
    view = (await http.get(f"/api/rooms/{room_id}/view", headers=ana)).json()
    forged = await http.post(
        url,
        headers=ana,
        json={
            "move": view["legal"][0]["action"],
            "expected_version": view["version"],
            "move_id": f"~deadline-{game.game_id}-{view['version']}-1",
        },
    )
    assert forged.status_code == 400
    assert forged.json()["error"]["code"] == "malformed"
    while view["legal"]:  # Ana's whole turn, each move under the next version's old id
        action = [i["action"] for i in view["legal"] if i["action"]["type"] != "undo"]
        version = view["version"]
        moved = await http.post(
            url,
            headers=ana,
            json={
                "move": action[-1],
                "expected_version": version,
                "move_id": f"deadline-{game.game_id}-{version + 1}",
            },
        )
        assert moved.status_code == 200, moved.text
        view = (await http.get(f"/api/rooms/{room_id}/view", headers=ana)).json()
    late = (await http.get(f"/api/rooms/{room_id}")).json()["clock"]
    assert late["seat"] == 1
    clock.advance(61)
    assert await watch.run_once() == 1
    after = (await http.get(f"/api/rooms/{room_id}")).json()["clock"]
    assert after["seat"] == 0 and after["version"] > late["version"], after
    played = await rows(
        db,
        "SELECT m.seat, m.move_id FROM moves m WHERE m.game_id = :game AND m.seq > :v"
        " ORDER BY m.seq",
        game=game.game_id,
        v=late["version"],
    )
    assert played and all(row.seat == 1 for row in played)
    assert all(row.move_id.startswith("~deadline-") for row in played)
    assert after["overdue"] is False
    handled = await rows(
        db,
        "SELECT seat, version, policy FROM deadline_log WHERE game_id = :game",
        game=game.game_id,
    )
    assert [tuple(r) for r in handled] == [(1, late["version"], "bot")]


async def force_due(db: AsyncEngine, rooms: list[str] | None = None) -> None:
    """Let these rooms' deadlines (all: None) have passed a second ago, and no later ones:
    the moves the watches make set new deadlines an hour off."""
    async with db.begin() as conn:
        await conn.execute(
            text(
                "UPDATE turn_deadlines SET due_at = now() - '1 s'::interval"
                " WHERE CAST(:rooms AS text[]) IS NULL OR room_id = ANY(:rooms)"
            ),
            {"rooms": rooms},
        )


def watcher(room_app: FastAPI, name: str) -> DeadlineWatch:
    """A deadline watch on its own service, as another instance would have."""
    service: RoomService = room_app.state.rooms
    other = RoomService(
        service.store,
        service.registry,
        Positions(),
        service.presence,
        default_game=service.default_game,
    )
    return DeadlineWatch(other, name, seeds=room_app.state.bots.seeds, think_s=0.05)


async def test_two_instances_racing_handle_each_deadline_once(
    http: httpx.AsyncClient, room_app: FastAPI, db: AsyncEngine, clock: ManualTime
) -> None:
    await manual_watch(room_app, clock)  # the app's own watch stands still
    rooms = [(await open_room(http, 2, **control(3600)))[0] for _ in range(30)]
    await force_due(db)
    first, second = watcher(room_app, "first"), watcher(room_app, "second")
    counts = await asyncio.gather(first.run_once(), second.run_once())
    counts += await asyncio.gather(first.run_once(), second.run_once())
    assert sum(counts) == 30
    log = await rows(db, "SELECT game_id, version, instance FROM deadline_log")
    assert len(log) == 30
    assert len({(r.game_id, r.version) for r in log}) == 30
    assert {r.instance for r in log} == {"first", "second"}
    for room_id in rooms:
        status = (await http.get(f"/api/rooms/{room_id}")).json()
        assert status["clock"]["overdue"] is True


@pytest.mark.parametrize("game_module", ["engine.ishtar"])
async def test_two_instances_racing_play_each_late_turn_once(
    http: httpx.AsyncClient,
    room_app: FastAPI,
    db: AsyncEngine,
    clock: ManualTime,
    game_module: str,
) -> None:
    await manual_watch(room_app, clock)  # the app's own watch stands still
    rooms = [
        (await open_room(http, 2, **control(3600, "bot", bot="easy")))[0]
        for _ in range(4)
    ]
    await force_due(db)
    first, second = watcher(room_app, "first"), watcher(room_app, "second")
    await asyncio.gather(first.run_once(), second.run_once(), first.run_once())
    log = await rows(db, "SELECT game_id, version FROM deadline_log")
    assert sorted((r.game_id, r.version) for r in log) == sorted(
        {(r.game_id, r.version) for r in log}
    )
    assert len(log) == 4
    for room_id in rooms:
        moves = await rows(
            db,
            "SELECT m.seq, m.move_id FROM moves m JOIN games g ON g.id = m.game_id"
            " WHERE g.room_id = :room ORDER BY m.seq",
            room=room_id,
        )
        assert moves, "the late turn was played"
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
        assert all(m.move_id.startswith("~deadline-") for m in moves)
        status = (await http.get(f"/api/rooms/{room_id}")).json()
        assert status["clock"]["version"] == len(moves)
    # The log replays to the stored state: nothing was applied twice.
    service: RoomService = room_app.state.rooms
    for room_id in rooms:
        game = await service.reading.game(room_id)
        setup = await service.store.setup(game.game_id)
        position = await service.reading.position(game.game_id)
        actions = [m.action for m in await service.store.moves_since(game.game_id, 0)]
        assert len(actions) == position.version
        assert ishtar.encode_state(
            ishtar.replay(setup, actions)
        ) == ishtar.encode_state(position.state)


@pytest.mark.slow
async def test_deadlines_survive_a_restart_and_two_racing_instances_handle_each_once(
    serve: Any, db: AsyncEngine
) -> None:
    fast = {"ISHTAR_DEADLINE_POLL_S": "0.02", "ISHTAR_ROOMS_PER_MINUTE": "100000"}
    first = serve(**fast)
    async with httpx.AsyncClient(base_url=first.url, timeout=10) as http:
        # Due together once two servers run ...
        later = [(await open_room(http, 2, **control(3600)))[0] for _ in range(40)]
        # ... and due while no server runs.
        early = [(await open_room(http, 2, **control(3600)))[0] for _ in range(5)]
    first.kill()  # SIGKILL: the deadlines live on in the database only
    assert await rows(db, "SELECT id FROM deadline_log") == []
    await force_due(db, early)
    second, third = await asyncio.gather(
        asyncio.to_thread(serve, **fast), asyncio.to_thread(serve, **fast)
    )
    async with db.begin() as conn:
        await conn.execute(
            text(
                "UPDATE turn_deadlines SET due_at = now() + '1 s'::interval"
                " WHERE room_id = ANY(:rooms)"
            ),
            {"rooms": later},
        )

    async def all_handled() -> bool:
        overdue = await rows(db, "SELECT game_id FROM turn_deadlines WHERE overdue")
        return len(overdue) == 45

    await wait_for(all_handled, timeout=20)
    async with httpx.AsyncClient(base_url=third.url, timeout=10) as http:
        for room_id in early + later:
            status = (await http.get(f"/api/rooms/{room_id}")).json()
            assert status["clock"]["overdue"] is True
    # Stopped, neither can handle anything more: the log is final, and a second handling
    # of any deadline, had one come, is in it.
    second.stop()
    third.stop()
    log = await rows(db, "SELECT game_id, version, instance FROM deadline_log")
    assert len(log) == 45
    assert len({(r.game_id, r.version) for r in log}) == 45
    by_instance: dict[str, int] = {}
    for row in log:
        by_instance[row.instance] = by_instance.get(row.instance, 0) + 1
    print(f"deadlines handled per instance: {sorted(by_instance.values())}")
