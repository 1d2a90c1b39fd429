"""Rematch (issue 8): one call from a player of a finished game makes a new room with the same
players, seated; the old room's status points to it, and each player exchanges their old seat
token for a seat token in the new room."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.config.settings import Settings
from tests.app.clients import WsClient, bearer, open_room
from tests.app.conftest import GAMES
from tests.app.records.test_records import play


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


# --- the host role of a rematch is handed on (issue 13, "A rematch dies when its asker
# leaves"): nobody holds a rematch room's host token, so its host is a seat.


async def a_rematch(
    http: httpx.AsyncClient, players: int, asker: int, claim: tuple[int, ...]
) -> tuple[str, str, list[str], dict[int, str]]:
    """A finished room's rematch asked by seat `asker`, then claimed by the seats in
    `claim`: (old room, rematch room, old tokens by seat, new tokens by seat)."""
    room_id, _host, tokens = await open_room(http, players)
    await play(http, room_id, tokens, seed=3)
    fresh: dict[int, str] = {}
    for n in (asker, *claim):
        answer = await ask(http, room_id, tokens[n])
        assert answer.status_code == 200, answer.text
        fresh[n] = answer.json()["token"]
    return room_id, answer.json()["room_id"], tokens, fresh


def hosts(room: dict[str, Any]) -> list[int]:
    return [s["seat"] for s in room["seats"] if s["is_host"]]


async def start(http: httpx.AsyncClient, room_id: str, token: str) -> httpx.Response:
    return await http.post(f"/api/rooms/{room_id}/start", headers=bearer(token))


async def leave(http: httpx.AsyncClient, room_id: str, token: str) -> dict[str, Any]:
    left = await http.post(f"/api/rooms/{room_id}/leave", headers=bearer(token))
    assert left.status_code == 200, left.text
    room: dict[str, Any] = left.json()["room"]
    return room


async def test_when_the_asker_leaves_the_next_player_hosts_the_rematch(
    http: httpx.AsyncClient,
) -> None:
    _, new_id, _old, fresh = await a_rematch(http, 3, asker=1, claim=(0, 2))
    assert hosts(await status(http, new_id)) == [1]
    assert hosts(await leave(http, new_id, fresh[1])) == [2], (
        "the seat after the asker's"
    )
    cleo = await http.post(f"/api/rooms/{new_id}/seats", json={"name": "Cleo"})
    assert cleo.status_code == 201, cleo.text
    assert hosts(cleo.json()["room"]) == [2], "a newcomer is not the host"
    assert (await start(http, new_id, fresh[0])).status_code == 403
    assert (await start(http, new_id, cleo.json()["token"])).status_code == 403
    started = await start(http, new_id, fresh[2])
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "playing"


async def test_the_host_role_waits_for_a_player_yet_to_claim_their_seat(
    http: httpx.AsyncClient,
) -> None:
    """A player who came over comes before one who has not; with none left, the seat kept
    for the one who has not: they host once they claim it."""
    old_id, new_id, old, fresh = await a_rematch(http, 3, asker=0, claim=(2,))
    assert hosts(await leave(http, new_id, fresh[0])) == [2], "claimed before unclaimed"
    assert hosts(await leave(http, new_id, fresh[2])) == [1]
    claimed = await ask(http, old_id, old[1])
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["room"]["seats"][1]["is_host"]
    for name in ("Cleo", "Dan"):
        joined = await http.post(f"/api/rooms/{new_id}/seats", json={"name": name})
        assert joined.status_code == 201, joined.text
    started = await start(http, new_id, claimed.json()["token"])
    assert started.status_code == 200, started.text


async def test_when_the_host_leaves_a_started_rematch_the_next_player_hands_seats_on(
    http: httpx.AsyncClient,
) -> None:
    _, new_id, _old, fresh = await a_rematch(http, 2, asker=0, claim=(1,))
    assert (await start(http, new_id, fresh[0])).status_code == 200
    seat_of = {
        n: (await http.get(f"/api/rooms/{new_id}/view", headers=bearer(token))).json()[
            "seat"
        ]
        for n, token in fresh.items()
    }
    room = await leave(http, new_id, fresh[0])
    assert hosts(room) == [seat_of[1]]
    handed = await http.post(
        f"/api/rooms/{new_id}/seats/{seat_of[0]}/person",
        json={"name": "Cleo"},
        headers=bearer(fresh[1]),
    )
    assert handed.status_code == 201, handed.text
    assert hosts(handed.json()["room"]) == [seat_of[1]], "the new person is not host"


async def test_a_host_handing_their_own_rematch_seat_on_hands_the_host_role_too(
    http: httpx.AsyncClient,
) -> None:
    _, new_id, _old, fresh = await a_rematch(http, 2, asker=1, claim=(0,))
    handed = await http.post(
        f"/api/rooms/{new_id}/seats/1/person",
        json={"name": "Cleo"},
        headers=bearer(fresh[1]),
    )
    assert handed.status_code == 201, handed.text
    assert hosts(handed.json()["room"]) == [0]
    assert (await start(http, new_id, handed.json()["token"])).status_code == 403
    assert (await start(http, new_id, fresh[0])).status_code == 200
