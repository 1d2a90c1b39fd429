"""Issue 36, point 4: a seat whose person left a game in play goes to a bot after the stated
time (``left_seat_bot_s``) unless the host handed it on first; a room with a time control
keeps its clock's policy instead; a room nobody is left in is not played by bots alone. A
seat handed to a bot takes the bot's name, and is free again in the rematch.

The watch runs on manual time (app/config/timesource.py) against a real PostgreSQL: the
seat's leaving time is the database's, and time passes when the test advances it."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.background.left_seats import LeftSeatWatch
from app.config.settings import Settings
from app.config.timesource import ManualTime
from tests.app.clients import bearer, open_room
from tests.app.conftest import game_settings
from tests.support.databases import FEW_CONNECTIONS

ISHTAR = "engine.ishtar"

AFTER_S = 600.0


@pytest.fixture
def game_module() -> str:
    return ISHTAR


@pytest.fixture
def room_settings(database_url: str, tmp_path: Path, game_module: str) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        data_dir=tmp_path / "data",
        **FEW_CONNECTIONS,
        bot_delay_s=0,
        bot_think_s=0.05,
        left_seat_bot_s=AFTER_S,
        http_moves_per_s=10_000.0,
        rooms_per_minute=10_000,
        **game_settings(game_module),
    )


async def manual_watch(room_app: FastAPI, clock: ManualTime) -> LeftSeatWatch:
    """The app's left seat watch (lifespan running) replaced by one on `clock`, not started:
    the test runs it once when it has advanced the clock."""
    play = room_app.state.async_play
    await play.left_seats.stop()
    play.left_seats = LeftSeatWatch(play.service, after_s=AFTER_S, time=clock)
    return play.left_seats


async def status(http: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = (await http.get(f"/api/rooms/{room_id}")).json()
    return answer


async def leave(http: httpx.AsyncClient, room_id: str, token: str) -> None:
    left = await http.post(f"/api/rooms/{room_id}/leave", headers=bearer(token))
    assert left.status_code == 200, left.text


async def test_a_left_seat_goes_to_a_bot_after_the_stated_time(
    http: httpx.AsyncClient, room_app: FastAPI
) -> None:
    watch = await manual_watch(room_app, clock := ManualTime())
    room_id, _host, tokens = await open_room(http, 3)
    await leave(http, room_id, tokens[1])
    seat = (await status(http, room_id))["seats"][1]
    assert seat["left"] and seat["bot"] is None and seat["name"] == "P1"

    clock.advance(AFTER_S - 30)
    assert await watch.run_once() == []
    assert (await status(http, room_id))["seats"][1]["left"]

    clock.advance(60)
    assert await watch.run_once() == [(room_id, 1, "Nabu (medium)")]
    seat = (await status(http, room_id))["seats"][1]
    assert seat == {
        **seat,
        "name": "Nabu (medium)",
        "bot": "medium",
        "left": False,
        "connected": True,
    }
    assert await watch.run_once() == []  # handed once
    holders = (await http.get(f"/api/rooms/{room_id}/seat-history")).json()["holders"]
    seat1 = [(h["name"], h["bot"], h["ended"]) for h in holders if h["seat"] == 1]
    assert seat1 == [("P1", None, "left"), ("Nabu (medium)", "medium", None)]


async def test_the_host_handing_the_seat_on_first_wins(
    http: httpx.AsyncClient, room_app: FastAPI
) -> None:
    watch = await manual_watch(room_app, clock := ManualTime())
    room_id, host, tokens = await open_room(http, 2)
    await leave(http, room_id, tokens[1])
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/person",
        headers=bearer(host),
        json={"name": "Cleo"},
    )
    assert handed.status_code == 201, handed.text
    clock.advance(AFTER_S * 2)
    assert await watch.run_once() == []
    seat = (await status(http, room_id))["seats"][1]
    assert seat["name"] == "Cleo" and seat["bot"] is None


async def test_a_room_with_a_time_control_follows_its_clock_instead(
    http: httpx.AsyncClient, room_app: FastAPI
) -> None:
    watch = await manual_watch(room_app, clock := ManualTime())
    control = {"per_move_s": 3600, "policy": "wait"}
    room_id, _host, tokens = await open_room(http, 2, time_control=control)
    await leave(http, room_id, tokens[1])
    clock.advance(AFTER_S * 2)
    assert await watch.run_once() == []
    assert (await status(http, room_id))["seats"][1]["left"]


async def test_a_room_everyone_left_is_not_played_by_bots_alone(
    http: httpx.AsyncClient, room_app: FastAPI
) -> None:
    watch = await manual_watch(room_app, clock := ManualTime())
    room_id, _host, tokens = await open_room(http, 2)
    await leave(http, room_id, tokens[0])
    await leave(http, room_id, tokens[1])
    clock.advance(AFTER_S * 2)
    assert await watch.run_once() == []
    assert all(s["left"] for s in (await status(http, room_id))["seats"])


async def test_the_host_hands_a_seat_to_a_bot_of_the_level_chosen_under_its_name(
    http: httpx.AsyncClient,
) -> None:
    room_id, host, _tokens = await open_room(http, 2)
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/bot",
        headers=bearer(host),
        json={"level": "hard"},
    )
    assert handed.status_code == 200, handed.text
    assert handed.json()["name"] == "Nabu (hard)"
    seat = handed.json()["room"]["seats"][1]
    assert (seat["name"], seat["bot"]) == ("Nabu (hard)", "hard")


async def play_to_the_end(
    http: httpx.AsyncClient, room_id: str, tokens: dict[int, str]
) -> None:
    """The people's seats (`tokens`) play their first legal action; the bots theirs."""
    while True:
        view = (await http.get(f"/api/rooms/{room_id}/view")).json()
        if view["view"]["phase"] == "over":
            return
        seat = view["view"]["current"]
        if seat not in tokens:  # a bot's turn: wait for the next version
            async with asyncio.timeout(30):
                while True:
                    now = (await http.get(f"/api/rooms/{room_id}/view")).json()
                    if now["version"] != view["version"]:
                        break
                    await asyncio.sleep(0.02)
            continue
        mine = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[seat]))
        ).json()
        if mine["version"] != view["version"]:
            continue
        moved = await http.post(
            f"/api/rooms/{room_id}/moves",
            json={
                "move": mine["legal"][0]["action"],
                "expected_version": mine["version"],
                "move_id": uuid.uuid4().hex,
            },
            headers=bearer(tokens[seat]),
        )
        assert moved.status_code == 200, moved.text


async def test_the_rematch_frees_a_seat_a_bot_took_over_and_keeps_bots_from_the_start(
    http: httpx.AsyncClient,
) -> None:
    created = (
        await http.post(
            "/api/rooms",
            json={"players": 3, "name": "Ana", "seat_order": "fixed"},
        )
    ).json()
    room_id, host = created["room_id"], created["host_token"]
    bjorn = (
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Björn"})
    ).json()
    bot = await http.post(
        f"/api/rooms/{room_id}/bots", headers=bearer(host), json={"level": "easy"}
    )
    assert bot.status_code == 201, bot.text
    started = await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host))
    assert started.status_code == 200, started.text
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/{bjorn['seat']}/bot",
        headers=bearer(host),
        json={"level": "easy"},
    )
    assert handed.status_code == 200, handed.text
    await play_to_the_end(http, room_id, {0: created["token"]})

    asked = await http.post(
        f"/api/rooms/{room_id}/rematch", headers=bearer(created["token"])
    )
    assert asked.status_code == 200, asked.text
    seats = asked.json()["room"]["seats"]
    assert [(s["name"], s["bot"], s["taken"]) for s in seats] == [
        ("Ana", None, True),
        (None, None, False),  # Björn left: his seat is free for whoever comes
        (bot.json()["room"]["seats"][2]["name"], "easy", True),
    ]


async def test_your_games_names_the_winner_of_a_finished_game(
    http: httpx.AsyncClient,
) -> None:
    """Issue 36, point 8: "your games" says who won a finished game (here a bot that
    finished it for a person who left is the one named, under its own name)."""
    created = (
        await http.post(
            "/api/rooms", json={"players": 2, "name": "Ana", "seat_order": "fixed"}
        )
    ).json()
    room_id, host = created["room_id"], created["host_token"]
    bjorn = (
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Björn"})
    ).json()
    started = await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host))
    assert started.status_code == 200, started.text
    playing = await http.post(
        "/api/my-games", json={"rooms": [{"room_id": room_id, "token": bjorn["token"]}]}
    )
    assert "winners" not in playing.json()["games"][0]
    await http.post(
        f"/api/rooms/{room_id}/seats/1/bot",
        headers=bearer(host),
        json={"level": "easy"},
    )
    await play_to_the_end(http, room_id, {0: created["token"]})
    view = (await http.get(f"/api/rooms/{room_id}/view")).json()["view"]
    names = {0: "Ana", 1: "Nabu (easy)"}
    expected = [{"seat": s, "name": names[s]} for s in view["scores"]["winners"]]
    answer = await http.post(
        "/api/my-games",
        json={"rooms": [{"room_id": room_id, "token": created["token"]}]},
    )
    assert answer.status_code == 200, answer.text
    game = answer.json()["games"][0]
    assert game["status"] == "finished" and game["winners"] == expected
