"""Each move's log entry carries the engine's message next to its English text, over HTTP and
websockets, stored with the move; a refused move's error carries the refusal's message
(docs/i18n.md, docs/protocol.md "Messages in the log")."""

from __future__ import annotations

import importlib
import json
import random
import uuid
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from app.notices.listener import asyncpg_dsn
from app.play.submission import MESSAGE_BYTES, bounded
from app.store.pool import create_pool
from app.store.rows import Event
from app.store.store import Store
from engine.messages import render
from tests.app.clients import WsClient, bearer, open_room, pick

ISHTAR = "engine.ishtar"
BABYLON = "engine.babylon"

ILLEGAL = {
    ISHTAR: ({"type": "choose", "pile": 9, "pay": []}, "ishtar.reason.no_pile"),
    BABYLON: ({"type": "harvest"}, "babylon.reason.harvest_empty"),
}


def _english(game_module: str, message: dict[str, Any]) -> str:
    """The message in English as the engine renders it (a seat as its colour)."""
    words = importlib.import_module(f"{game_module}.words")
    return str(words.english(message))


async def _move(
    http: httpx.AsyncClient,
    room_id: str,
    tokens: list[str],
    move: dict[str, Any] | None,
) -> httpx.Response:
    """Post ``move`` (None: the first legal one) for the seat to act."""
    public = (await http.get(f"/api/rooms/{room_id}/view")).json()
    seat = public["view"]["current"]
    mine = (
        await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[seat]))
    ).json()
    return await http.post(
        f"/api/rooms/{room_id}/moves",
        json={
            "move": move or mine["legal"][0]["action"],
            "expected_version": mine["version"],
            "move_id": uuid.uuid4().hex,
        },
        headers=bearer(tokens[seat]),
    )


@pytest.mark.parametrize("game_module", [ISHTAR, BABYLON])
async def test_a_move_s_log_entry_carries_its_message_and_the_log_keeps_it(
    http: httpx.AsyncClient, game_module: str
) -> None:
    room_id, _host, tokens = await open_room(http, 2)
    made = []
    for _ in range(3):
        answer = await _move(http, room_id, tokens, None)
        assert answer.status_code == 200, answer.text
        made.append(answer.json()["event"])
    prefix = game_module.rsplit(".", 1)[1]
    for event in made:
        assert event["message"]["key"].startswith(f"{prefix}.log.")
        assert _english(game_module, event["message"]) == event["text"]
    # Read back from the database: the whole log, and a page of it.
    log = (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    assert [(m["text"], m["message"]) for m in log] == [
        (e["text"], e["message"]) for e in made
    ]
    page = (await http.get(f"/api/rooms/{room_id}/moves?before=3&limit=1")).json()
    assert page["moves"][0]["message"] == made[1]["message"]


@pytest.mark.parametrize("game_module", [ISHTAR, BABYLON])
async def test_an_illegal_move_s_error_carries_the_engine_s_message(
    http: httpx.AsyncClient, game_module: str
) -> None:
    room_id, _host, tokens = await open_room(http, 2)
    move, key = ILLEGAL[game_module]
    answer = await _move(http, room_id, tokens, move)
    assert answer.status_code in (400, 409, 422), answer.text
    error = answer.json()["error"]
    assert error["code"] == "illegal_move"
    assert error["message"]["key"] == key
    assert _english(game_module, error["message"]) == error["reason"]
    words = importlib.import_module(f"{game_module}.words")
    french = render(words.CATALOGUES["fr"], error["message"])
    assert french and french != error["reason"]


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_bad_options_carry_the_engine_s_message(
    http: httpx.AsyncClient, game_module: str
) -> None:
    answer = await http.post(
        "/api/rooms", json={"players": 2, "options": {"first_player": 3}}
    )
    error = answer.json()["error"]
    assert error["code"] == "bad_options", error
    # pydantic allows 0..3; the engine refuses a seat beyond the players, with its message.
    assert error["message"]["key"] == "ishtar.reason.options.first_player"
    assert error["reason"] == "The first player must be a seat from 0 to 1."


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_a_move_logged_without_a_message_is_sent_with_its_text_alone(
    http: httpx.AsyncClient, database_url: str, game_module: str
) -> None:
    """As the moves of before migration 0014 (whose message is null) are."""
    room_id, _host, tokens = await open_room(http, 2)
    assert (await _move(http, room_id, tokens, None)).status_code == 200
    public = (await http.get(f"/api/rooms/{room_id}/view")).json()
    seat = public["view"]["current"]
    mine = (
        await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[seat]))
    ).json()
    pool = await create_pool(asyncpg_dsn(database_url), 1)
    try:
        store = Store(pool)
        async with pool.acquire() as conn:
            game_id = await conn.fetchval(
                "SELECT id FROM games WHERE room_id = $1", room_id
            )
        event = await store.commit_move(
            room_id=room_id,
            game_id=game_id,
            expected_version=1,
            seat=seat,
            action=mine["legal"][0]["action"],
            move_id=uuid.uuid4().hex,
            text_="Blue placed a tile",
            snapshot_json=None,
            finished=False,
            current_seat=seat,
        )
    finally:
        await pool.close()
    assert event is not None and event.message is None
    log = (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    assert log[0]["message"]["key"].startswith("ishtar.log.")
    assert log[1]["text"] == "Blue placed a tile" and "message" not in log[1]


def test_a_log_entry_without_a_message_has_no_message_field() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    assert (
        "message"
        not in Event(1, 0, {"type": "end"}, "Blue ended the turn", at).as_dict()
    )
    said = {"key": "ishtar.log.move", "params": {}}
    entry = Event(1, 0, {}, "x", at, message=said).as_dict()
    assert entry["message"] == said


def test_a_message_beyond_the_bound_is_dropped_and_a_small_one_kept() -> None:
    small = {"key": "ishtar.log.move", "params": {"deed": "x" * 100}}
    assert bounded(small) is small
    assert bounded({"key": "k", "params": {"deed": "x" * MESSAGE_BYTES}}) is None
    assert bounded("not a message") is None
    assert bounded({"params": {}}) is None
    assert len(json.dumps(small)) < MESSAGE_BYTES


@pytest.mark.slow
@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_over_websockets_updates_the_welcome_and_errors_carry_messages(
    web: tuple[str, httpx.AsyncClient], game_module: str
) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(http, 2)
    seats = [await WsClient(url, room_id, token).open() for token in tokens]
    try:
        mover = next(client for client in seats if client.legal)
        other = next(client for client in seats if client is not mover)
        refused = await mover.move(ILLEGAL[game_module][0])
        assert refused["type"] == "error"
        assert refused["message"]["key"] == ILLEGAL[game_module][1]
        answer = await mover.move(pick(random.Random(1), mover.legal))
        assert answer["type"] == "ack"
        update = await other.expect("update", version=1)
        assert update["event"]["message"]["key"].startswith("ishtar.log.")
        assert (
            _english(game_module, update["event"]["message"]) == update["event"]["text"]
        )
        late = await WsClient(url, room_id).open()
        try:
            assert late.welcome["events"][-1]["message"] == update["event"]["message"]
        finally:
            await late.close()
    finally:
        for client in seats:
            await client.close()
