"""Rematch (issue 8): one call from a player of a finished game makes a new room with the same
players, seated; the old room's status points to it, and each player exchanges their old seat
token for a seat token in the new room."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.settings import Settings
from tests.app.clients import WsClient, bearer, open_room
from tests.app.conftest import GAMES
from tests.app.test_records import play


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    return room_settings.model_copy(
        update={"http_moves_per_s": 10_000.0, "rooms_per_minute": 10_000}
    )


async def ask(
    http: httpx.AsyncClient, room_id: str, token: str | None
) -> httpx.Response:
    return await http.post(f"/api/rooms/{room_id}/rematch", headers=bearer(token))


async def status(http: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = (await http.get(f"/api/rooms/{room_id}")).json()
    return answer


@pytest.mark.parametrize("game_module", GAMES)
async def test_rematch_seats_the_same_players_in_a_new_room(
    web: tuple[str, httpx.AsyncClient], game_module: str
) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(http, 3)
    early = await ask(http, room_id, tokens[0])
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_over"
    await play(http, room_id, tokens, seed=2)
    old = await status(http, room_id)
    assert old["status"] == "finished" and old["rematch"] is None

    async with WsClient(url, room_id, tokens[2]) as third:
        answer = await ask(http, room_id, tokens[1])
        assert answer.status_code == 200, answer.text
        mine = answer.json()
        new_id = mine["room_id"]
        assert new_id != room_id and mine["url"] == f"/r/{new_id}"
        assert mine["rejoin_url"] == f"/r/{new_id}#t={mine['token']}"
        heard = await third.expect("room")
        assert heard["room"]["rematch"] == new_id

    assert (await status(http, room_id))["rematch"] == new_id
    new = mine["room"]
    assert new["status"] == "open" and new["players"] == 3
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]]
    assert all(s["taken"] for s in new["seats"])
    assert [s["is_host"] for s in new["seats"]] == [False, True, False]
    assert mine["seat"] == 1

    others = [await ask(http, room_id, tokens[n]) for n in (0, 2)]
    assert [o.json()["room_id"] for o in others] == [new_id, new_id]
    assert [o.json()["seat"] for o in others] == [0, 2]
    again = await ask(http, room_id, tokens[0])
    assert again.json()["token"] == others[0].json()["token"], "the same token again"
    fresh = [others[0].json()["token"], mine["token"], others[1].json()["token"]]
    assert len(set(fresh) | set(tokens)) == 6

    for n, token in enumerate(fresh):
        view = await http.get(f"/api/rooms/{new_id}/view", headers=bearer(token))
        assert view.json()["error"]["code"] == "game_not_started", n
    old_token = await http.post(f"/api/rooms/{new_id}/start", headers=bearer(tokens[1]))
    assert old_token.status_code == 403
    started = await http.post(f"/api/rooms/{new_id}/start", headers=bearer(fresh[1]))
    assert started.status_code == 200, started.text
    seats = set()
    for token in fresh:
        view = (
            await http.get(f"/api/rooms/{new_id}/view", headers=bearer(token))
        ).json()
        seats.add(view["seat"])
    assert seats == {0, 1, 2}


async def test_rematch_is_for_players_and_two_asking_at_once_get_one_room(
    http: httpx.AsyncClient,
) -> None:
    room_id, _host, tokens = await open_room(http, 2)
    await play(http, room_id, tokens, seed=4)
    spectator = await ask(http, room_id, None)
    assert spectator.status_code == 403
    stranger = await ask(http, room_id, "x" * 43)
    assert stranger.status_code == 401
    unknown = await ask(http, "nosuchroom00", tokens[0])
    assert unknown.status_code == 404
    answers = await asyncio.gather(*(ask(http, room_id, t) for t in tokens))
    assert [a.status_code for a in answers] == [200, 200]
    rooms = {a.json()["room_id"] for a in answers}
    assert len(rooms) == 1
    (new_id,) = rooms
    hosts = [s for s in (await status(http, new_id))["seats"] if s["is_host"]]
    assert len(hosts) == 1
