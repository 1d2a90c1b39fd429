"""Bots in rooms (issue 6): seated by the host, moving through the server's move path.

Real PostgreSQL, the real engine and the real app in-process; bots move with no delay.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest
from fastapi import FastAPI

from app.background.bot_runner import BotRunner, bot_move_id, submit_as_server
from app.background.bot_seeds import BOT_SEED_KEY, BotSeeds, new_key
from app.config.settings import Settings
from app.ops.main import create_app
from app.play.positions import Positions
from app.play.protocol import MoveRequest, ServiceError
from app.play.service import RoomService
from app.store.rows import SeatRow
from engine import ishtar
from tests.app.clients import bearer
from tests.app.conftest import game_settings
from tests.support.databases import FEW_CONNECTIONS

ISHTAR = "engine.ishtar"


def bot_settings(database_url: str, tmp_path: Path, **extra: Any) -> Settings:
    """Settings of an app whose bots play Ishtar at once (no pauses, a short think)."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        data_dir=tmp_path / "data",
        **FEW_CONNECTIONS,
        **game_settings(ISHTAR),
        bot_delay_s=0,
        bot_think_s=0.05,
        **extra,
    )


@pytest.fixture
def bot_app(database_url: str, tmp_path: Path) -> FastAPI:
    return create_app(bot_settings(database_url, tmp_path))


async def create(api: httpx.AsyncClient, players: int, **extra: Any) -> dict[str, Any]:
    answer = await api.post(
        "/api/rooms", json={"players": players, "seat_order": "fixed", **extra}
    )
    assert answer.status_code == 201, answer.text
    room: dict[str, Any] = answer.json()
    return room


async def add_bot(
    api: httpx.AsyncClient, room: dict[str, Any], level: str, seat: int | None = None
) -> httpx.Response:
    return await api.post(
        f"/api/rooms/{room['room_id']}/bots",
        json={"level": level, "seat": seat},
        headers=bearer(room["host_token"]),
    )


async def until_finished(
    api: httpx.AsyncClient,
    room_id: str,
    tokens: dict[int, str] | None = None,
    timeout: float = 240,
) -> dict[str, Any]:
    """Wait for the end, playing the last legal action (never undo) for each person."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = (await api.get(f"/api/rooms/{room_id}")).json()
        if status["status"] == "finished":
            return status
        for token in (tokens or {}).values():
            view = (
                await api.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
            ).json()
            actions = [
                item["action"]
                for item in view.get("legal", [])
                if item["action"]["type"] != "undo"
            ]
            if actions:
                move = {
                    "move": actions[-1],
                    "expected_version": view["version"],
                    "move_id": f"person-{view['version']}",
                }
                await api.post(
                    f"/api/rooms/{room_id}/moves", json=move, headers=bearer(token)
                )
        await asyncio.sleep(0.05)
    raise AssertionError(f"room {room_id} did not finish within {timeout} s")


async def final_view(api: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    view: dict[str, Any] = (await api.get(f"/api/rooms/{room_id}/view")).json()
    return view


@pytest.mark.slow
async def test_a_table_of_bots_plays_a_game_to_the_end(
    api: httpx.AsyncClient, bot_app: FastAPI
) -> None:
    room = await create(api, 3)
    for level in ("medium", "easy", "hard"):
        answer = await add_bot(api, room, level)
        assert answer.status_code == 201, answer.text
    status = answer.json()["room"]
    assert [s["bot"] for s in status["seats"]] == ["medium", "easy", "hard"]
    assert all(s["connected"] for s in status["seats"])
    start = await api.post(
        f"/api/rooms/{room['room_id']}/start", headers=bearer(room["host_token"])
    )
    assert start.status_code == 200, start.text
    await until_finished(api, room["room_id"])
    view = await final_view(api, room["room_id"])
    assert view["view"]["phase"] == "over"
    assert view["view"]["scores"]["winners"]
    log = (await api.get(f"/api/rooms/{room['room_id']}/moves")).json()
    assert [m["seq"] for m in log["moves"]] == list(range(1, view["version"] + 1))
    await assert_log_replays_to_snapshot(bot_app, room["room_id"])


async def assert_log_replays_to_snapshot(app: FastAPI, room_id: str) -> None:
    service: RoomService = app.state.rooms
    game = await service.reading.game(room_id)
    setup = await service.store.setup(game.game_id)
    version, snapshot, _game = await service.store.snapshot(game.game_id)
    moves = await service.store.moves_since(game.game_id, 0)
    assert len(moves) == version
    replayed = ishtar.replay(setup, [m.action for m in moves])
    assert ishtar.encode_state(replayed) == ishtar.encode_state(
        ishtar.decode_state(snapshot)
    )


async def test_a_table_of_babylon_gardens_bots_plays_to_the_end(
    api: httpx.AsyncClient, bot_app: FastAPI
) -> None:
    """The second game's bots through the same runner: its descriptor's levels, steps of
    a path one move at a time (R-16), a chosen scoreboard side (R-5) by each bot."""
    room = await create(
        api,
        2,
        game="babylon-gardens",
        options={"floor": "lower", "scoreboards": "choose"},
    )
    for level in ("hard", "medium"):
        answer = await add_bot(api, room, level)
        assert answer.status_code == 201, answer.text
    start = await api.post(
        f"/api/rooms/{room['room_id']}/start", headers=bearer(room["host_token"])
    )
    assert start.status_code == 200, start.text
    await until_finished(api, room["room_id"])
    view = (await final_view(api, room["room_id"]))["view"]
    assert view["game"] == "babylon-gardens" and view["phase"] == "over"
    assert all(p["side"] for p in view["players"])
    assert (
        max(len(p["winks"]) for p in view["players"]) == 25
    )  # a full scoreboard
    log = (await api.get(f"/api/rooms/{room['room_id']}/moves")).json()
    kinds = {m["action"]["type"] for m in log["moves"]}
    assert {"scoreboard", "irrigate", "harvest"} <= kinds and "undo" not in kinds


@pytest.mark.slow
async def test_a_person_plays_against_bots(api: httpx.AsyncClient) -> None:
    room = await create(api, 2, name="Ana", first_player=0)
    assert (await add_bot(api, room, "hard", seat=1)).status_code == 201
    await api.post(
        f"/api/rooms/{room['room_id']}/start", headers=bearer(room["host_token"])
    )
    status = await until_finished(api, room["room_id"], {0: room["token"]})
    assert status["seats"][1]["bot"] == "hard"
    view = await final_view(api, room["room_id"])
    assert view["view"]["scores"]["winners"]


def looks_counted(runner: BotRunner, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The rooms the runner looks at from now on, in order; its sweep finds nothing."""
    looked: list[str] = []
    step = runner.step

    async def counted(room_id: str) -> bool:
        looked.append(room_id)
        return await step(room_id)

    async def nothing_waits() -> list[str]:
        return []

    monkeypatch.setattr(runner, "step", counted)
    monkeypatch.setattr(runner, "waiting_rooms", nothing_waits)
    return looked


async def looks_ended(runner: BotRunner) -> None:
    """Once every look the runner has begun has ended."""
    async with asyncio.timeout(10):  # a hang guard
        while runner._drivers:  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def test_a_game_started_here_is_known_botless_or_its_bot_moves_at_once(
    api: httpx.AsyncClient, bot_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner hears of the games this instance starts: one with no bot is remembered
    at once (its moves never make the runner read the room), and a bot that opens the
    game moves without waiting for the sweep (which here finds nothing)."""
    runner: BotRunner = bot_app.state.bots
    looked = looks_counted(runner, monkeypatch)

    people = await create(api, 2, name="Ana", first_player=0)
    joined = await api.post(
        f"/api/rooms/{people['room_id']}/seats", json={"name": "Bo"}
    )
    await api.post(
        f"/api/rooms/{people['room_id']}/start", headers=bearer(people["host_token"])
    )
    assert people["room_id"] in runner._botless, "known botless from its start"
    view = (
        await api.get(
            f"/api/rooms/{people['room_id']}/view", headers=bearer(people["token"])
        )
    ).json()
    moved = await api.post(
        f"/api/rooms/{people['room_id']}/moves",
        json={
            "move": view["legal"][0]["action"],
            "expected_version": 0,
            "move_id": "a",
        },
        headers=bearer(people["token"]),
    )
    assert moved.status_code == 200, moved.text
    assert joined.status_code == 201
    await looks_ended(runner)
    assert people["room_id"] not in looked, "a room without bots is never looked at"

    opened = await create(api, 2, name="Cy", first_player=1)
    assert (await add_bot(api, opened, "easy", seat=1)).status_code == 201
    await api.post(
        f"/api/rooms/{opened['room_id']}/start", headers=bearer(opened["host_token"])
    )
    deadline = time.monotonic() + 30  # a hang guard, not a timing assertion
    while (await api.get(f"/api/rooms/{opened['room_id']}/view")).json()["version"] < 1:
        assert time.monotonic() < deadline, "the bot that opens the game never moved"
        await asyncio.sleep(0.02)
    assert looked.count(opened["room_id"]) >= 1


async def test_a_game_started_elsewhere_is_known_botless_once_read_here(
    api: httpx.AsyncClient, bot_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With several instances (`--workers`) a game is most often started on another one
    than the one that serves its sockets. The first read of it here (a welcome, a view)
    tells the runner whether a bot sits: one with none is remembered botless, so its moves
    here make the runner read nothing; one with a bot is not, and its bot moves right
    after the person's move here (the sweep, which would find it too, finds nothing)."""
    runner: BotRunner = bot_app.state.bots
    service: RoomService = bot_app.state.rooms
    looked = looks_counted(runner, monkeypatch)

    async def started_elsewhere(room: dict[str, Any]) -> dict[str, Any]:
        """Start the room, then forget what starting it here taught this instance."""
        started = await api.post(
            f"/api/rooms/{room['room_id']}/start", headers=bearer(room["host_token"])
        )
        assert started.status_code == 200, started.text
        await looks_ended(runner)
        runner._botless.pop(room["room_id"], None)
        service.reading.forget(room["room_id"])
        view = await api.get(
            f"/api/rooms/{room['room_id']}/view", headers=bearer(room["token"])
        )
        assert view.status_code == 200, view.text
        return cast(dict[str, Any], view.json())

    people = await create(api, 2, name="Ana", first_player=0)
    assert (
        await api.post(f"/api/rooms/{people['room_id']}/seats", json={"name": "Bo"})
    ).status_code == 201
    view = await started_elsewhere(people)
    assert people["room_id"] in runner._botless, "known botless once read"
    looked.clear()
    moved = await api.post(
        f"/api/rooms/{people['room_id']}/moves",
        json={
            "move": view["legal"][0]["action"],
            "expected_version": 0,
            "move_id": "a",
        },
        headers=bearer(people["token"]),
    )
    assert moved.status_code == 200, moved.text
    await looks_ended(runner)
    assert people["room_id"] not in looked, "a room without bots is never looked at"

    mixed = await create(api, 2, name="Cy", first_player=0)
    assert (await add_bot(api, mixed, "easy", seat=1)).status_code == 201
    view = await started_elsewhere(mixed)
    assert mixed["room_id"] not in runner._botless, "a bot sits: not botless"
    seat_view = (
        await api.get(
            f"/api/rooms/{mixed['room_id']}/view", headers=bearer(mixed["token"])
        )
    ).json()
    version = seat_view["version"]
    moves = 0
    deadline = time.monotonic() + 30  # a hang guard, not a timing assertion
    # The person plays their turn (one or more steps) until the bot's seat is to act.
    while seat_view["view"]["current"] == seat_view["seat"]:
        assert time.monotonic() < deadline, "the person's turn never ended"
        action = next(
            (o["action"] for o in seat_view["legal"] if o["action"]["type"] != "undo"),
            seat_view["legal"][0]["action"],
        )
        moved = await api.post(
            f"/api/rooms/{mixed['room_id']}/moves",
            json={"move": action, "expected_version": version, "move_id": f"m{moves}"},
            headers=bearer(mixed["token"]),
        )
        assert moved.status_code == 200, moved.text
        moves += 1
        seat_view = (
            await api.get(
                f"/api/rooms/{mixed['room_id']}/view", headers=bearer(mixed["token"])
            )
        ).json()
        version = seat_view["version"]
    while (await api.get(f"/api/rooms/{mixed['room_id']}/view")).json()[
        "version"
    ] <= version:
        assert time.monotonic() < deadline, "the bot never moved after the person"
        await asyncio.sleep(0.02)
    assert mixed["room_id"] in looked


async def test_only_the_host_seats_a_bot_in_an_open_seat(
    api: httpx.AsyncClient,
) -> None:
    room = await create(api, 2, name="Ana")
    url = f"/api/rooms/{room['room_id']}/bots"
    stranger = await api.post(url, json={"level": "easy"})
    assert stranger.status_code == 403
    assert stranger.json()["error"]["code"] == "forbidden"
    unknown = await api.post(
        url, json={"level": "godlike"}, headers=bearer(room["host_token"])
    )
    assert unknown.status_code == 400
    taken = await add_bot(api, room, "easy", seat=0)
    assert taken.status_code == 409
    assert taken.json()["error"]["code"] == "seat_taken"
    assert (await add_bot(api, room, "easy")).status_code == 201
    await api.post(
        f"/api/rooms/{room['room_id']}/start", headers=bearer(room["host_token"])
    )
    late = await add_bot(api, room, "easy", seat=1)
    assert late.status_code == 409
    assert late.json()["error"]["code"] == "game_started"


async def test_a_bot_takes_over_the_seat_of_a_player_who_left(
    api: httpx.AsyncClient,
) -> None:
    room = await create(api, 2, name="Ana", first_player=0)
    joined = await api.post(f"/api/rooms/{room['room_id']}/seats", json={"name": "Bo"})
    leaver = joined.json()["token"]
    await api.post(
        f"/api/rooms/{room['room_id']}/start", headers=bearer(room["host_token"])
    )
    handover = await api.post(
        f"/api/rooms/{room['room_id']}/seats/1/bot",
        json={"level": "medium"},
        headers=bearer(room["host_token"]),
    )
    assert handover.status_code == 200, handover.text
    assert handover.json()["room"]["seats"][1]["bot"] == "medium"
    gone = await api.get(f"/api/rooms/{room['room_id']}/view", headers=bearer(leaver))
    assert gone.status_code == 401
    await until_finished(api, room["room_id"], {0: room["token"]})


async def test_racing_instances_land_each_bot_move_once(
    api: httpx.AsyncClient, bot_app: FastAPI
) -> None:
    """A second runner on its own service (another instance) drives the same bots."""
    service: RoomService = bot_app.state.rooms
    other = RoomService(
        service.store,
        service.registry,
        Positions(),
        service.presence,
        default_game=service.default_game,
    )
    # Another instance reads the same key from the database: its bots choose alike.
    seeds = BotSeeds(await service.store.secrets.secret(BOT_SEED_KEY, new_key()))
    rival = BotRunner(other, seeds=seeds, delay_s=0, think_s=0.05, sweep_s=0.05)
    rival.start()
    try:
        room = await create(api, 2)
        await add_bot(api, room, "medium")
        await add_bot(api, room, "easy")
        await api.post(
            f"/api/rooms/{room['room_id']}/start", headers=bearer(room["host_token"])
        )
        await until_finished(api, room["room_id"])
    finally:
        await rival.stop()
    await assert_log_replays_to_snapshot(bot_app, room["room_id"])
    game = await service.reading.game(room["room_id"])
    # The first player is drawn: the first move is the bot's of seat 0 or of seat 1.
    firsts = [
        await service.store.move_by_id(game.game_id, bot_move_id(game.game_id, 0, seat))
        for seat in (0, 1)
    ]
    assert [move.seq for move in firsts if move is not None] == [1]


async def test_a_runner_listens_while_it_runs_and_unsubscribes_when_it_stops(
    api: httpx.AsyncClient, bot_app: FastAPI
) -> None:
    """Its listeners come and go with it; the app's own (the hub, the app's runner, the
    webhook courier) stay."""
    service: RoomService = bot_app.state.rooms
    commits, bot_seats = len(service.moves.committed), len(service.seats.bot_seated)
    starts = len(service.seats.started)
    runner = BotRunner(
        service, seeds=bot_app.state.bots.seeds, delay_s=0, think_s=0.05, sweep_s=60
    )
    runner.start()
    assert len(service.moves.committed) == commits + 1
    assert len(service.seats.bot_seated) == bot_seats + 1
    assert len(service.seats.started) == starts + 1
    await runner.stop()
    assert len(service.moves.committed) == commits
    assert len(service.seats.bot_seated) == bot_seats
    assert len(service.seats.started) == starts
    await runner.stop()  # twice: nothing more
    assert len(service.moves.committed) == commits


def test_the_memory_of_botless_rooms_is_bounded_in_bytes() -> None:
    """Rooms without bots are remembered (a move there reads nothing), but not for ever: past
    BOTLESS_BYTES the oldest are forgotten, and what the memory holds, measured, stays within
    its bound (the entry's estimate is honest)."""
    import secrets
    import sys
    import tracemalloc

    from app.background.bot_runner import BOTLESS_BYTES, BOTLESS_ENTRY_BYTES

    runner = BotRunner(cast(RoomService, None), seeds=BotSeeds(new_key()), workers=1)
    capacity = BOTLESS_BYTES // BOTLESS_ENTRY_BYTES
    ids = [secrets.token_urlsafe(9) for _ in range(capacity * 2)]  # room ids: 12 chars
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for room_id in ids:
            runner._botless[room_id] = True
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    bookkeeping = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    held = bookkeeping + sum(sys.getsizeof(room_id) for room_id in runner._botless)
    assert len(runner._botless) == capacity
    assert ids[-1] in runner._botless and ids[0] not in runner._botless
    assert held <= BOTLESS_BYTES, (held, BOTLESS_BYTES)


async def test_a_player_sending_the_bots_next_id_cannot_stop_the_bot(
    api: httpx.AsyncClient, bot_app: FastAPI
) -> None:
    """Issue 33: a move under the bot's next id (old or new form) froze the bot for good."""
    room = await create(api, 2, name="Ana", first_player=0)
    assert (await add_bot(api, room, "easy", seat=1)).status_code == 201
    room_id, token = room["room_id"], room["token"]
    await api.post(f"/api/rooms/{room_id}/start", headers=bearer(room["host_token"]))
    game = await bot_app.state.rooms.reading.game(room_id)
    view = (await api.get(f"/api/rooms/{room_id}/view", headers=bearer(token))).json()
    action = [i["action"] for i in view["legal"] if i["action"]["type"] != "undo"][-1]
    move = {"move": action, "expected_version": view["version"]}
    url = f"/api/rooms/{room_id}/moves"
    forged = await api.post(
        url, json={**move, "move_id": "~bot-1-1-1"}, headers=bearer(token)
    )
    assert forged.status_code == 400
    assert forged.json()["error"]["code"] == "malformed"
    # Ana plays her turn, each move under the id the old runner gave the bot move after it.
    while view["legal"]:
        action = [i["action"] for i in view["legal"] if i["action"]["type"] != "undo"][
            -1
        ]
        version = view["version"]
        taken = await api.post(
            url,
            json={
                "move": action,
                "expected_version": version,
                "move_id": f"bot-{game.game_id}-{version + 1}",
            },
            headers=bearer(token),
        )
        assert taken.status_code == 200, taken.text
        view = (
            await api.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
        ).json()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = (
            await api.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
        ).json()
        log = (await api.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
        if any(m["seat"] == 1 for m in log):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the bot did not move after a player took its old id")


class StubMoves:
    """A move service that refuses with `refusals` in turn, then accepts."""

    def __init__(self, *refusals: str) -> None:
        self.refusals = list(refusals)
        self.ids: list[str] = []

    async def submit(
        self, room_id: str, seat: SeatRow, request: MoveRequest, *, by_server: bool
    ) -> Any:
        assert by_server, "a server move is submitted as the server's"
        self.ids.append(request.move_id)
        if self.refusals:
            raise ServiceError(self.refusals.pop(0), "refused by the stub")
        return "accepted"


async def submitted(moves: StubMoves) -> Any:
    service = cast(RoomService, SimpleNamespace(moves=moves))
    request = MoveRequest(
        move={"type": "pass"}, expected_version=4, move_id=bot_move_id(9, 4, 1)
    )
    return await submit_as_server(service, "room", cast(SeatRow, None), request)


async def test_a_server_move_whose_id_is_taken_goes_again_under_a_fresh_id() -> None:
    moves = StubMoves("move_id_taken")
    assert await submitted(moves) == "accepted"
    first, again = moves.ids
    assert first == "~bot-9-4-1"
    assert again.startswith(first + "-") and len(again) <= 64
    other = StubMoves("move_id_taken")
    await submitted(other)
    assert other.ids[1] != again, "a fresh id is not guessable from the last"


@pytest.mark.parametrize("code", ["stale_version", "not_your_turn", "unavailable"])
async def test_a_server_move_refused_otherwise_is_not_sent_again(code: str) -> None:
    moves = StubMoves(code)
    with pytest.raises(ServiceError) as refused:
        await submitted(moves)
    assert refused.value.code == code and len(moves.ids) == 1


async def test_a_fresh_id_taken_too_is_a_refusal_not_a_loop() -> None:
    moves = StubMoves("move_id_taken", "move_id_taken")
    with pytest.raises(ServiceError) as refused:
        await submitted(moves)
    assert refused.value.code == "move_id_taken" and len(moves.ids) == 2


async def test_a_bot_refused_through_no_fault_of_its_own_moves_at_the_next_sweep(
    api: httpx.AsyncClient, bot_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: refused with `move_id_taken`, the runner stopped and came back at every
    sweep with the same id, refused for ever. Here the bot's own id stays taken, and its
    first fresh try meets a database that is away: the next sweep must land the move."""
    service: RoomService = bot_app.state.rooms
    await bot_app.state.bots.stop()  # this test's runner alone drives the bot
    room = await create(api, 2, name="Ana", first_player=1)
    assert (await add_bot(api, room, "easy", seat=1)).status_code == 201
    room_id = room["room_id"]
    started = await api.post(
        f"/api/rooms/{room_id}/start", headers=bearer(room["host_token"])
    )
    assert started.status_code == 200, started.text
    game = await service.reading.game(room_id)
    held = bot_move_id(game.game_id, 0, 1)
    refused: list[str] = []
    submit = service.moves.submit

    async def hostile(
        room_id: str, seat: SeatRow, request: MoveRequest, *, by_server: bool = False
    ) -> Any:
        if request.move_id == held:
            refused.append("move_id_taken")
            raise ServiceError("move_id_taken", "held by the test")
        if "unavailable" not in refused:
            refused.append("unavailable")
            raise ServiceError("unavailable", "the database is away")
        return await submit(room_id, seat, request, by_server=by_server)

    monkeypatch.setattr(service.moves, "submit", hostile)
    runner = BotRunner(
        service, seeds=bot_app.state.bots.seeds, delay_s=0, think_s=0.05, sweep_s=0.05
    )
    runner.start()  # its first sweep finds the bot waiting
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            log = (await api.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
            if log:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the bot never moved; refused: {refused}")
    finally:
        await runner.stop()
    assert refused[:3] == ["move_id_taken", "unavailable", "move_id_taken"]
    assert log[0]["seat"] == 1
    move = await service.store.move_by_id(game.game_id, held)
    assert move is None, "the held id stayed the test's"
