"""A player or a script can play a whole game over HTTP alone (issue 4, HTTP JSON API)."""

from __future__ import annotations

import random
import uuid

import httpx
import pytest

from tests.app.clients import bearer, open_room, pick
from tests.app.conftest import GAMES

ISHTAR = "engine.ishtar"


async def play_over_http(
    http: httpx.AsyncClient, room_id: str, tokens: list[str], seed: int
) -> int:
    """Play to the end by the legal actions; the number of moves made."""
    rng = random.Random(seed)
    moves = 0
    while True:
        public = (await http.get(f"/api/rooms/{room_id}/view")).json()
        assert public["legal"] == []
        assert public["seat"] is None
        if public["view"]["phase"] == "over":
            return moves
        seat = public["view"]["current"]
        mine = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[seat]))
        ).json()
        assert mine["seat"] == seat
        assert mine["legal"], "the seat to act gets its legal actions"
        for other, token in enumerate(tokens):
            if other != seat:
                theirs = await http.get(
                    f"/api/rooms/{room_id}/view", headers=bearer(token)
                )
                assert theirs.json()["legal"] == []
        choice = pick(rng, mine["legal"])
        answer = await http.post(
            f"/api/rooms/{room_id}/moves",
            json={
                "move": choice,
                "expected_version": mine["version"],
                "move_id": uuid.uuid4().hex,
            },
            headers=bearer(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == mine["version"] + 1
        moves += 1


@pytest.mark.parametrize("game_module", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_whole_game_over_http(
    http: httpx.AsyncClient, players: int, game_module: str
) -> None:
    room_id, _host, tokens = await open_room(http, players, seat_order="random")
    moves = await play_over_http(http, room_id, tokens, seed=players)
    log = (await http.get(f"/api/rooms/{room_id}/moves")).json()
    assert log["version"] == moves
    assert [m["seq"] for m in log["moves"]] == list(range(1, moves + 1))
    assert all(m["text"] for m in log["moves"])
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert status["status"] == "finished"
    assert status["version"] == moves
    final = (await http.get(f"/api/rooms/{room_id}/view")).json()
    assert final["status"] == "finished"
    assert final["view"]["scores"]["winners"]


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_seats_show_the_engines_player_colours(
    http: httpx.AsyncClient, game_module: str
) -> None:
    """Each seat of the room status wears the colour the engine gives that seat."""
    from engine import ishtar

    room_id, _host, _tokens = await open_room(http, 4)
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    colours = [
        seat["colour"] for seat in sorted(status["seats"], key=lambda s: s["seat"])
    ]
    assert colours == ishtar.catalogue()["player_colours"]
