"""All-bot rooms per client address (issue 13, "Under attack" 6): app/background/bot_quota.py.

One address may have `ISHTAR_BOT_ROOMS_PER_ADDRESS` unfinished rooms whose every seat is a
bot (here 1); filling one more with bots is refused with `too_many_bot_rooms` and changes
nothing. Real PostgreSQL and the real app, clients on two addresses.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.ops.main import create_app
from tests.app.background.test_bot_runner import (
    add_bot,
    bot_settings,
    create,
    until_finished,
)
from tests.app.clients import bearer

HOME, ELSEWHERE = "203.0.113.7", "198.51.100.9"


@pytest.fixture
def bot_app(database_url: str, tmp_path: Path) -> FastAPI:
    settings = bot_settings(
        database_url,
        tmp_path,
        bot_rooms_per_address=1,
    )
    return create_app(settings)


@pytest.fixture
async def clients(
    bot_app: FastAPI,
) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Two clients of the app, from two addresses."""
    async with bot_app.router.lifespan_context(bot_app):
        made = [
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=bot_app, client=(address, 4000)),
                base_url="http://testserver",
                timeout=60,
            )
            for address in (HOME, ELSEWHERE)
        ]
        try:
            yield made[0], made[1]
        finally:
            for client in made:
                await client.aclose()


async def status(api: httpx.AsyncClient, room: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = (await api.get(f"/api/rooms/{room['room_id']}")).json()
    return answer


def refused(answer: httpx.Response) -> None:
    assert answer.status_code == 429, answer.text
    error = answer.json()["error"]
    assert error["code"] == "too_many_bot_rooms"
    assert "bots only" in error["reason"] and error["limit"] == 1


async def bot_room(api: httpx.AsyncClient, level: str = "easy") -> dict[str, Any]:
    """A 2-player room filled with bots from `api`'s address."""
    room = await create(api, 2)
    for _ in range(2):
        answer = await add_bot(api, room, level)
        assert answer.status_code == 201, answer.text
    return room


async def test_an_address_fills_only_so_many_rooms_with_bots(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    home, elsewhere = clients
    first = await bot_room(home)
    second = await create(home, 2)
    assert (await add_bot(home, second, "hard")).status_code == 201, "not all bots yet"
    before = await status(home, second)
    refused(await add_bot(home, second, "hard"))
    after = await status(home, second)
    assert after["revision"] == before["revision"]
    assert [s["taken"] for s in after["seats"]] == [True, False], "nothing changed"

    await bot_room(elsewhere)  # another address has a quota of its own
    person = await home.post(
        f"/api/rooms/{second['room_id']}/seats", json={"name": "Ana"}
    )
    assert person.status_code == 201, "a person may always sit with bots"

    # Handing a seat of the first room to a person gives its place back.
    third = await create(home, 2)
    await add_bot(home, third, "medium")
    refused(await add_bot(home, third, "medium"))
    handed = await home.post(
        f"/api/rooms/{first['room_id']}/seats/0/person",
        json={"name": "Björn"},
        headers=bearer(first["host_token"]),
    )
    assert handed.status_code == 201, handed.text
    assert (await add_bot(home, third, "medium")).status_code == 201


async def test_handing_the_last_persons_seat_to_a_bot_counts_too(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    home, _ = clients
    await bot_room(home)
    room = await create(home, 2, name="Ana")
    bo = await home.post(f"/api/rooms/{room['room_id']}/seats", json={"name": "Bo"})
    assert bo.status_code == 201
    url = f"/api/rooms/{room['room_id']}/seats/{{}}/bot"
    host = bearer(room["host_token"])
    bot = await home.post(url.format(1), json={"level": "hard"}, headers=host)
    assert bot.status_code == 200, "Ana still plays"
    refused(await home.post(url.format(0), json={"level": "hard"}, headers=host))
    seats = (await status(home, room))["seats"]
    assert [s["bot"] for s in seats] == [None, "hard"]
    view = await home.get(
        f"/api/rooms/{room['room_id']}/view", headers=bearer(room["token"])
    )
    assert view.status_code != 401, "Ana's token still works"


async def test_a_finished_room_of_bots_gives_its_place_back(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    home, _ = clients
    played = await bot_room(home)
    waiting = await create(home, 2)
    await add_bot(home, waiting, "easy")
    refused(await add_bot(home, waiting, "easy"))
    started = await home.post(
        f"/api/rooms/{played['room_id']}/start", headers=bearer(played["host_token"])
    )
    assert started.status_code == 200, started.text
    await until_finished(home, played["room_id"])
    assert (await add_bot(home, waiting, "easy")).status_code == 201


async def test_two_rooms_filled_at_once_take_one_place(
    clients: tuple[httpx.AsyncClient, httpx.AsyncClient],
) -> None:
    home, _ = clients
    rooms = [await create(home, 2) for _ in range(2)]
    for room in rooms:
        await add_bot(home, room, "easy")
    answers = await asyncio.gather(*(add_bot(home, room, "easy") for room in rooms))
    assert sorted(a.status_code for a in answers) == [201, 429]
