"""Leaving and replacing (issue 8): a player leaves and their token stops working; the host
hands the seat to a new person (a fresh link, the old token refused, websockets included)
or to a bot; the seat's history and its moves stay. And "your games": the status of every
room a browser holds a token for, with nothing secret echoed."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.app.clients import WsClient, bearer, open_room

ISHTAR = "engine.ishtar"


async def play_one(http: httpx.AsyncClient, room_id: str, tokens: list[str]) -> int:
    """Whoever is to act makes their first legal move; the new version."""
    for token in tokens:
        view = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
        ).json()
        if view["legal"]:
            answer = await http.post(
                f"/api/rooms/{room_id}/moves",
                headers=bearer(token),
                json={
                    "move": view["legal"][0]["action"],
                    "expected_version": view["version"],
                    "move_id": str(uuid.uuid4()),
                },
            )
            assert answer.status_code == 200, answer.text
            return int(answer.json()["version"])
    raise AssertionError("nobody could move")


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code
    assert answer.json()["error"]["reason"]


async def test_leaving_before_the_start_frees_the_seat(http: httpx.AsyncClient) -> None:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "Ana"})).json()
    room_id = created["room_id"]
    bjorn = (
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Björn"})
    ).json()
    left = await http.post(
        f"/api/rooms/{room_id}/leave", headers=bearer(bjorn["token"])
    )
    assert left.status_code == 200, left.text
    assert left.json()["room"]["seats"][1]["taken"] is False
    refused(
        await http.post(f"/api/rooms/{room_id}/leave", headers=bearer(bjorn["token"])),
        401,
        "bad_token",
    )
    again = await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Cleo"})
    assert again.status_code == 201
    assert again.json()["seat"] == 1


async def test_a_player_who_leaves_a_game_loses_their_seat_but_not_their_moves(
    http: httpx.AsyncClient,
) -> None:
    room_id, _host, tokens = await open_room(http, 2)
    version = await play_one(http, room_id, tokens)
    log_before = (await http.get(f"/api/rooms/{room_id}/moves")).json()
    left = await http.post(f"/api/rooms/{room_id}/leave", headers=bearer(tokens[1]))
    assert left.status_code == 200, left.text
    seat = left.json()["room"]["seats"][1]
    assert seat["taken"] is True and seat["left"] is True and seat["name"] == "P1"
    refused(
        await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[1])),
        401,
        "bad_token",
    )
    refused(
        await http.post(
            f"/api/rooms/{room_id}/moves",
            headers=bearer(tokens[1]),
            json={
                "move": {"type": "draw"},
                "expected_version": version,
                "move_id": "x",
            },
        ),
        401,
        "bad_token",
    )
    assert (await http.get(f"/api/rooms/{room_id}/moves")).json() == log_before
    history = (await http.get(f"/api/rooms/{room_id}/seat-history")).json()
    past = [h for h in history["holders"] if h["until"] is not None]
    assert past == [
        {
            "seat": 1,
            "name": "P1",
            "bot": None,
            "from": past[0]["from"],
            "until": past[0]["until"],
            "until_version": version,
            "ended": "left",
        }
    ]


async def test_the_host_hands_a_seat_to_a_new_person(http: httpx.AsyncClient) -> None:
    room_id, host, tokens = await open_room(http, 2)
    await play_one(http, room_id, tokens)
    refused(
        await http.post(
            f"/api/rooms/{room_id}/seats/1/person",
            headers=bearer(tokens[1]),
            json={"name": "Cleo"},
        ),
        403,
        "forbidden",
    )
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/person",
        headers=bearer(host),
        json={"name": "Cleo"},
    )
    assert handed.status_code == 201, handed.text
    body = handed.json()
    assert body["seat"] == 1
    assert body["rejoin_url"] == f"/r/{room_id}#t={body['token']}"
    assert body["room"]["seats"][1]["name"] == "Cleo"
    assert body["room"]["seats"][1]["left"] is False
    assert body["room"]["seats"][1]["is_host"] is False
    refused(
        await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[1])),
        401,
        "bad_token",
    )
    view = await http.get(f"/api/rooms/{room_id}/view", headers=bearer(body["token"]))
    assert view.status_code == 200 and view.json()["seat"] == 1
    # The moves made by the seat keep their seat; the history says who held it.
    moves = (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    assert moves and all(isinstance(m["seat"], int) for m in moves)
    holders = (await http.get(f"/api/rooms/{room_id}/seat-history")).json()["holders"]
    seat1 = [(h["name"], h["ended"]) for h in holders if h["seat"] == 1]
    assert seat1 == [("P1", "new_person"), ("Cleo", None)]


@pytest.mark.parametrize(
    ("seat", "body", "status", "code"),
    [
        (5, {"name": "Cleo"}, 400, "malformed"),
        (1, {"name": ""}, 400, "malformed"),
        (1, {"name": "a\x07b"}, 400, "malformed"),
        (1, {"name": "Cleo", "extra": 1}, 400, "malformed"),
        (1, {}, 400, "malformed"),
    ],
)
async def test_handing_a_seat_refuses_bad_input(
    http: httpx.AsyncClient, seat: int, body: dict[str, Any], status: int, code: str
) -> None:
    room_id, host, _tokens = await open_room(http, 2)
    before = (await http.get(f"/api/rooms/{room_id}")).json()
    refused(
        await http.post(
            f"/api/rooms/{room_id}/seats/{seat}/person", headers=bearer(host), json=body
        ),
        status,
        code,
    )
    after = (await http.get(f"/api/rooms/{room_id}")).json()
    assert before["revision"] == after["revision"]


async def test_a_free_seat_cannot_be_handed_on(http: httpx.AsyncClient) -> None:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "Ana"})).json()
    refused(
        await http.post(
            f"/api/rooms/{created['room_id']}/seats/1/person",
            headers=bearer(created["host_token"]),
            json={"name": "Cleo"},
        ),
        409,
        "seat_free",
    )


async def test_an_open_websocket_of_a_replaced_token_is_closed(
    web: tuple[str, httpx.AsyncClient],
) -> None:
    url, http = web
    room_id, host, tokens = await open_room(http, 2)
    async with WsClient(url, room_id, tokens[1]) as old, WsClient(url, room_id) as fan:
        handed = await http.post(
            f"/api/rooms/{room_id}/seats/1/person",
            headers=bearer(host),
            json={"name": "Cleo"},
        )
        assert handed.status_code == 201
        error = await old.expect("error")
        assert error["code"] == "bad_token"
        assert error["reason"].startswith(
            "The host handed your seat to Cleo, who plays"
        )
        assert error["reason"].endswith("You are watching as a spectator.")
        await old.closed.wait()
        assert old.close_code == 4401
        room = await fan.expect("room")
        assert room["room"]["seats"][1]["name"] == "Cleo"
    async with WsClient(url, room_id, tokens[1], hello=False) as again:
        await again.send({"type": "hello", "token": tokens[1], "since": None})
        assert (await again.expect("error"))["code"] == "bad_token"


async def test_my_games_lists_status_turn_and_last_move_without_secrets(
    http: httpx.AsyncClient,
) -> None:
    room_id, host, tokens = await open_room(http, 2)
    version = await play_one(http, room_id, tokens)
    created = (await http.post("/api/rooms", json={"players": 3})).json()
    ask = [
        {"room_id": room_id, "token": tokens[0]},
        {"room_id": created["room_id"], "token": created["host_token"]},
        {"room_id": room_id, "token": "not-a-seat-token"},
        {"room_id": "nosuchroom00", "token": tokens[0]},
    ]
    answer = await http.post("/api/my-games", json={"rooms": ask})
    assert answer.status_code == 200, answer.text
    games = answer.json()["games"]
    assert [g["room_id"] for g in games] == [a["room_id"] for a in ask]
    mine = games[0]
    assert mine["status"] == "playing" and mine["role"] == "player"
    assert mine["seat"] == 0 and mine["name"] == "P0"
    assert mine["version"] == version
    assert mine["turn"]["seat"] in (0, 1)
    assert mine["your_turn"] == (mine["turn"]["seat"] == 0)
    assert mine["last_move_at"].endswith("Z")
    assert [s["name"] for s in mine["seats"]] == ["P0", "P1"]
    hosted = games[1]
    assert hosted["role"] == "host" and hosted["status"] == "open"
    assert hosted["seat"] is None and hosted["last_move_at"] is None
    assert games[2]["error"]["code"] == "bad_token"
    assert games[3]["error"]["code"] == "unknown_room"
    text = answer.text
    for secret in [*tokens, host, created["host_token"]]:
        assert secret not in text


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"rooms": "x"},
        {"rooms": [{"room_id": "a"}]},
        {"rooms": [{"room_id": "a", "token": "b", "extra": 1}]},
        {"rooms": [{"room_id": "a" * 40, "token": "b"}]},
        {"rooms": [{"room_id": "a", "token": "b"}] * 101},
    ],
)
async def test_my_games_refuses_bad_input(
    http: httpx.AsyncClient, body: dict[str, Any]
) -> None:
    refused(await http.post("/api/my-games", json=body), 400, "malformed")


@pytest.mark.parametrize("game_module", ["engine.ishtar"])
async def test_a_seat_handed_to_a_bot_keeps_its_history(
    http: httpx.AsyncClient, game_module: str
) -> None:
    room_id, host, tokens = await open_room(http, 2)
    await play_one(http, room_id, tokens)
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/bot",
        headers=bearer(host),
        json={"level": "easy"},
    )
    assert handed.status_code == 200, handed.text
    refused(
        await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[1])),
        401,
        "bad_token",
    )
    holders = (await http.get(f"/api/rooms/{room_id}/seat-history")).json()["holders"]
    seat1 = [(h["name"], h["bot"], h["ended"]) for h in holders if h["seat"] == 1]
    assert seat1 == [("P1", None, "bot"), ("Nabu (easy)", "easy", None)]


async def test_in_a_room_with_a_host_token_the_host_role_stays_with_it(
    http: httpx.AsyncClient,
) -> None:
    """Only a rematch hands its host role to the next player (tests/app/play/test_rematch.py):
    a room made with a host token keeps its host when the host's seat is left."""
    created = (await http.post("/api/rooms", json={"players": 2, "name": "Ana"})).json()
    room_id = created["room_id"]
    await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Björn"})
    left = await http.post(
        f"/api/rooms/{room_id}/leave", headers=bearer(created["token"])
    )
    assert left.status_code == 200, left.text
    assert not any(s["is_host"] for s in left.json()["room"]["seats"])
    cleo = await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Cleo"})
    assert cleo.status_code == 201, cleo.text
    started = await http.post(
        f"/api/rooms/{room_id}/start", headers=bearer(created["host_token"])
    )
    assert started.status_code == 200, started.text


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_a_seat_handed_to_a_bot_tells_its_player_in_plain_words(
    web: tuple[str, httpx.AsyncClient],
) -> None:
    url, http = web
    room_id, host, tokens = await open_room(http, 2)
    async with WsClient(url, room_id, tokens[1]) as old:
        handed = await http.post(
            f"/api/rooms/{room_id}/seats/1/bot",
            headers=bearer(host),
            json={"level": "easy"},
        )
        assert handed.status_code == 200, handed.text
        error = await old.expect("error")
        assert error["code"] == "bad_token"
        assert error["reason"] == (
            "The host handed your seat to an easy bot, which plays it from now on; your "
            "link no longer plays here. You are watching as a spectator."
        )
        await old.closed.wait()
        assert old.close_code == 4401


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_bots_at_one_table_have_names_of_their_own_with_their_level(
    http: httpx.AsyncClient,
) -> None:
    created = (await http.post("/api/rooms", json={"players": 4})).json()
    room_id, host = created["room_id"], created["host_token"]
    for level in ("medium", "medium", "hard"):
        added = await http.post(
            f"/api/rooms/{room_id}/bots", headers=bearer(host), json={"level": level}
        )
        assert added.status_code == 201, added.text
    seats = (await http.get(f"/api/rooms/{room_id}")).json()["seats"]
    names = [s["name"] for s in seats if s["bot"]]
    assert names == ["Nabu (medium)", "Ninlil (medium)", "Enki (hard)"]
