"""Every seat operation judges the same fault with the same code (app/play/seat_checks.py,
docs/protocol.md "Seat operations"): joining, starting, seating a bot, leaving, handing a
seat to a person or to a bot, each against each fault it can meet: not the host, a seat the
room does not have, a started or finished game, a free or taken seat, a bad name or bot
level, a game without bots. Each refusal changes nothing (the room's revision stays)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from tests.app.clients import bearer


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    """More rooms a minute than the default 30: the table makes a room per case."""
    return room_settings.model_copy(update={"rooms_per_minute": 1000})


@dataclass(frozen=True)
class Room:
    id: str
    host: str  # the room's host token (seat 0's holder, Ana, is the host's seat too)
    guest: str  # seat 1's holder, Bo, once the room is full


async def make_room(
    http: httpx.AsyncClient, pool: asyncpg.Pool, state: str, game: str
) -> Room:
    """A room of `game` for two: "open" (Ana at seat 0, seat 1 free), "full" (Bo at
    seat 1, not started), "playing" or "finished"."""
    created = (
        await http.post(
            "/api/rooms",
            json={"players": 2, "game": game, "name": "Ana", "seat_order": "fixed"},
        )
    ).json()
    room = Room(created["room_id"], created["host_token"], "")
    if state == "open":
        return room
    bo = await http.post(f"/api/rooms/{room.id}/seats", json={"name": "Bo"})
    room = Room(room.id, room.host, bo.json()["token"])
    if state == "full":
        return room
    started = await http.post(f"/api/rooms/{room.id}/start", headers=bearer(room.host))
    assert started.status_code == 200, started.text
    if state == "finished":  # how the game ended does not matter to seats
        async with pool.acquire() as conn:
            await conn.execute(
                "UPDATE rooms SET status = 'finished' WHERE id = $1", room.id
            )
    return room


def join(room: Room, seat: int = 1, name: str = "Cy") -> tuple[str, str, Any, str]:
    return ("POST", f"/api/rooms/{room.id}/seats", {"name": name, "seat": seat}, "")


def start(room: Room, token: str) -> tuple[str, str, Any, str]:
    return ("POST", f"/api/rooms/{room.id}/start", None, token)


def add_bot(
    room: Room, token: str, seat: int = 1, level: str = "easy"
) -> tuple[str, str, Any, str]:
    return ("POST", f"/api/rooms/{room.id}/bots", {"level": level, "seat": seat}, token)


def leave(room: Room, token: str) -> tuple[str, str, Any, str]:
    return ("POST", f"/api/rooms/{room.id}/leave", None, token)


def to_person(
    room: Room, token: str, seat: int = 1, name: str = "Cy"
) -> tuple[str, str, Any, str]:
    return ("POST", f"/api/rooms/{room.id}/seats/{seat}/person", {"name": name}, token)


def to_bot(
    room: Room, token: str, seat: int = 1, level: str = "easy"
) -> tuple[str, str, Any, str]:
    return ("POST", f"/api/rooms/{room.id}/seats/{seat}/bot", {"level": level}, token)


NOWHERE = Room("nowhere", "", "")

# (operation, fault): (the room's state, its game, the request, the expected answer).
ISHTAR, TOY = "ishtar", "toy"
CASES: dict[tuple[str, str], tuple[str, str, Any, tuple[int, str]]] = {
    ("join", "unknown seat"): ("open", TOY, lambda r: join(r, seat=7), (400, "malformed")),
    ("join", "bad name"): ("open", TOY, lambda r: join(r, name="a\x07b"), (400, "malformed")),
    ("join", "started game"): ("playing", TOY, lambda r: join(r), (409, "game_started")),
    ("join", "finished game"): ("finished", TOY, lambda r: join(r), (409, "game_started")),
    ("join", "seat taken"): ("open", TOY, lambda r: join(r, seat=0), (409, "seat_taken")),
    ("start", "not the host"): ("full", TOY, lambda r: start(r, r.guest), (403, "forbidden")),
    ("start", "started game"): ("playing", TOY, lambda r: start(r, r.host), (409, "game_started")),
    ("start", "seat free"): ("open", TOY, lambda r: start(r, r.host), (409, "seats_open")),
    ("seat a bot", "not the host"): ("open", ISHTAR, lambda r: add_bot(r, ""), (403, "forbidden")),
    ("seat a bot", "unknown seat"): ("open", ISHTAR, lambda r: add_bot(r, r.host, seat=3), (400, "malformed")),
    ("seat a bot", "bad level"): ("open", ISHTAR, lambda r: add_bot(r, r.host, level="godlike"), (400, "malformed")),
    ("seat a bot", "no bots"): ("open", TOY, lambda r: add_bot(r, r.host), (400, "no_bots")),
    ("seat a bot", "not the host, no bots"): ("open", TOY, lambda r: add_bot(r, ""), (403, "forbidden")),
    ("seat a bot", "started game"): ("playing", ISHTAR, lambda r: add_bot(r, r.host), (409, "game_started")),
    ("seat a bot", "seat taken"): ("open", ISHTAR, lambda r: add_bot(r, r.host, seat=0), (409, "seat_taken")),
    ("leave", "no token"): ("full", TOY, lambda r: leave(r, ""), (403, "forbidden")),
    ("leave", "bad token"): ("full", TOY, lambda r: leave(r, "x" * 43), (401, "bad_token")),
    ("hand to a person", "not the host"): ("playing", TOY, lambda r: to_person(r, r.guest), (403, "forbidden")),
    ("hand to a person", "unknown seat"): ("playing", TOY, lambda r: to_person(r, r.host, seat=7), (400, "malformed")),
    ("hand to a person", "bad name"): ("playing", TOY, lambda r: to_person(r, r.host, name="a\x07b"), (400, "malformed")),
    ("hand to a person", "finished game"): ("finished", TOY, lambda r: to_person(r, r.host), (409, "game_over")),
    ("hand to a person", "seat free"): ("open", TOY, lambda r: to_person(r, r.host), (409, "seat_free")),
    ("hand to a bot", "not the host"): ("playing", ISHTAR, lambda r: to_bot(r, r.guest), (403, "forbidden")),
    ("hand to a bot", "unknown seat"): ("playing", ISHTAR, lambda r: to_bot(r, r.host, seat=7), (400, "malformed")),
    ("hand to a bot", "bad level"): ("playing", ISHTAR, lambda r: to_bot(r, r.host, level="godlike"), (400, "malformed")),
    ("hand to a bot", "no bots"): ("playing", TOY, lambda r: to_bot(r, r.host), (400, "no_bots")),
    ("hand to a bot", "not the host, no bots"): ("playing", TOY, lambda r: to_bot(r, r.guest), (403, "forbidden")),
    ("hand to a bot", "unknown room"): ("open", ISHTAR, lambda r: to_bot(NOWHERE, r.host), (404, "unknown_room")),
    ("join", "unknown room"): ("open", TOY, lambda r: join(NOWHERE), (404, "unknown_room")),
    ("hand to a bot", "finished game"): ("finished", ISHTAR, lambda r: to_bot(r, r.host), (409, "game_over")),
    ("hand to a bot", "seat free"): ("open", ISHTAR, lambda r: to_bot(r, r.host), (409, "seat_free")),
}  # fmt: skip


async def revision(http: httpx.AsyncClient, room_id: str) -> int:
    return int((await http.get(f"/api/rooms/{room_id}")).json()["revision"])


async def test_each_seat_operation_answers_each_fault_with_its_one_code(
    http: httpx.AsyncClient, room_app: FastAPI
) -> None:
    pool: asyncpg.Pool = room_app.state.rooms.store.pool
    answers: dict[tuple[str, str], tuple[int, str]] = {}
    for case, (state, game, request, _expected) in CASES.items():
        room = await make_room(http, pool, state, game)
        before = await revision(http, room.id)
        method, url, body, token = request(room)
        answer = await http.request(
            method, url, json=body, headers=bearer(token) if token else {}
        )
        error = answer.json().get("error") or {}
        answers[case] = (answer.status_code, error.get("code", "accepted"))
        assert error.get("reason"), (case, answer.text)
        assert await revision(http, room.id) == before, case  # refused: nothing changed
    assert answers == {case: expected for case, (*_, expected) in CASES.items()}
