"""A game the server knows by its descriptor alone gets everything (issue 39).

The toy game (tests/app/toygame.py) is named nowhere in the server, the conftest or the
benches: it is registered by its module's ``DESCRIPTOR`` (``ISHTAR_EXTRA_GAMES``), as the
bundled games are by `app.games.INSTALLED`. From that alone it is listed with its options
schema, its options are checked by its model and then its engine, its old records' options
are upgraded by its own rule, and a room of it is played to the end over websockets.
"""

from __future__ import annotations

import httpx
import pytest

from app.games import registry
from app.records.gamerecord import RecordError, record_setup
from tests.app import toygame
from tests.app.clients import WsClient, open_room
from tests.app.conftest import TOY
from tests.app.web.test_ws_game import play_over_ws

GAME = toygame.DESCRIPTOR


async def test_a_game_known_by_its_descriptor_alone_is_listed_checked_and_played(
    web: tuple[str, httpx.AsyncClient],
) -> None:
    base, http = web
    listed = {
        game["id"]: game for game in (await http.get("/api/games")).json()["games"]
    }
    assert listed[GAME.id]["title"] == GAME.title
    assert listed[GAME.id]["players"] == {"min": 1, "max": 4}
    assert listed[GAME.id]["options"] == GAME.options.model_json_schema()

    async def refusal(options: dict[str, object]) -> str:
        body = {"players": 2, "game": GAME.id, "options": options}
        answer = await http.post("/api/rooms", json=body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"]["code"] == "bad_options"
        return str(answer.json()["error"]["reason"])

    assert "has no option 'colour'" in await refusal({"colour": "red"})  # its model
    assert "seat from 0 to 1" in await refusal({"first_player": 3})  # then its engine

    room_id, _host, tokens = await open_room(
        http, 2, game=GAME.id, options={"first_player": 1}
    )
    seats = [await WsClient(base, room_id, token).open() for token in tokens]
    try:
        assert seats[0].welcome["view"]["current"] == 1
        assert await play_over_ws(seats, [], seed=5) > 0
    finally:
        for client in seats:
            await client.close()
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert (status["game"], status["status"]) == (GAME.id, "finished")
    assert status["options"] == {"first_player": 1}


def test_a_game_known_by_its_descriptor_alone_upgrades_its_old_records() -> None:
    record = {
        "format_version": 3,
        "game": GAME.id,
        "engine_version": "0",
        "setup": {"players": 2, "options": {"first": 1}},
    }
    assert record_setup(registry([TOY]), record) == {
        "game": GAME.id,
        "players": 2,
        "options": {"first_player": 1},
    }
    current = {**record, "engine_version": toygame.ENGINE_VERSION}
    with pytest.raises(RecordError, match="one option: first_player"):
        record_setup(registry([TOY]), current)  # today's engine has no option `first`
