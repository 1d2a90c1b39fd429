"""One server process plays every registered game (issue 14): the registry, `GET /api/games`,
rooms that record their game and options, and a room of each game played to the end over
websockets, replayed, exported, imported and verified side by side."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config.settings import get_settings
from app.games import Registry, bundled, registry
from app.ops import cli
from app.play.protocol import ServiceError
from engine.ishtar.editions import DEFAULT, EDITIONS
from games.babylon import DESCRIPTOR as BABYLON
from games.ishtar import DESCRIPTOR as ISHTAR
from tests.app import toygame
from tests.app.clients import WsClient, bearer, open_room
from tests.app.web.test_ws_game import play_over_ws


def test_the_registry_names_the_bundled_games_and_the_extra_ones() -> None:
    games = registry(["tests.app.toygame"])
    assert [game.id for game in games] == [*(g.id for g in bundled()), "toy"]
    assert games.get("ishtar") is ISHTAR and games.get("toy") is toygame.DESCRIPTOR
    with pytest.raises(ServiceError) as refused:
        games.get("chess")
    assert refused.value.code == "unknown_game" and "'toy'" in refused.value.reason
    with pytest.raises(ValueError, match="two games"):
        Registry([ISHTAR, ISHTAR])


def test_a_game_checks_its_options_with_its_model_then_its_engine() -> None:
    assert ISHTAR.check_options(3, {}) == {
        "layout": "preset",
        "first_player": None,
        "turn_end": "explicit",
        "edition": DEFAULT,
    }
    assert ISHTAR.check_options(2, {"layout": "random", "first_player": 1}) == {
        "layout": "random",
        "first_player": 1,
        "turn_end": "explicit",
        "edition": DEFAULT,
    }
    assert ISHTAR.check_options(2, {"edition": "2"})["edition"] == "2"
    refusals = [
        (5, {}, "2 to 4 players"),
        (2, {"layout": "spiral"}, "'layout'"),
        (
            2,
            {"first_player": 3},
            "seat from 0 to 1",
        ),  # the model allows 3, the engine not
        (2, {"first_player": "x"}, "'first_player'"),
        (2, {"colour": "red"}, "no option 'colour'"),
        (2, [1], "JSON object"),
        (2, {"edition": "9"}, "edition of the components is one of 1, 2, 3"),
        (2, {"edition": 1}, "'edition'"),
    ]
    for players, options, words in refusals:
        with pytest.raises(ServiceError) as refused:
            ISHTAR.check_options(players, options)
        assert refused.value.code == "bad_options", options
        assert words in refused.value.reason, (options, refused.value.reason)


def test_the_form_offers_every_edition_of_ishtar_the_default_first_and_selected() -> (
    None
):
    edition = ISHTAR.options.model_json_schema()["properties"]["edition"]
    assert edition["default"] == DEFAULT
    choices = [choice["const"] for choice in edition["oneOf"]]
    assert choices[0] == DEFAULT == "4" and sorted(choices) == sorted(EDITIONS)
    assert edition["oneOf"][0] == {"const": "4", "title": "Recommended (balanced)"}
    assert edition["oneOf"][1] == {"const": "1", "title": "Classic numbers"}
    assert edition["title"] == "Edition"


def test_babylon_gardens_checks_its_options_with_its_model_then_its_engine() -> None:
    assert BABYLON.check_options(2, {}) == {
        "floor": "lower",
        "scoreboards": "random",
        "teams": False,
        "first_player": None,
    }
    assert BABYLON.check_options(4, {"floor": "tammuz", "teams": True})["teams"] is True
    refusals = [
        (
            3,
            {"teams": True},
            "exactly 4 players",
        ),  # the model allows it, the engine not
        (2, {"floor": "attic"}, "'floor'"),
        (2, {"scoreboards": "auction"}, "'scoreboards'"),
        (2, {"first_player": 2}, "seat from 0 to 1"),
        (2, {"layout": "random"}, "no option 'layout'"),
        (5, {}, "2 to 4 players"),
    ]
    for players, options, words in refusals:
        with pytest.raises(ServiceError) as refused:
            BABYLON.check_options(players, options)
        assert refused.value.code == "bad_options", options
        assert words in refused.value.reason, (options, refused.value.reason)


async def test_a_babylon_room_refuses_team_mode_for_three_and_records_its_floor(
    http: httpx.AsyncClient,
) -> None:
    body = {"players": 3, "game": "babylon-gardens", "options": {"teams": True}}
    refused = await http.post("/api/rooms", json=body)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "bad_options"
    assert "exactly 4 players" in refused.json()["error"]["reason"]
    body = {"players": 2, "game": "babylon-gardens", "options": {"floor": "roof"}}
    created = await http.post("/api/rooms", json=body)
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    assert room["game"] == "babylon-gardens" and room["options"]["floor"] == "roof"


async def test_the_games_are_listed_with_their_options_schema_and_bots(
    http: httpx.AsyncClient,
) -> None:
    answer = (await http.get("/api/games")).json()
    listed = {game["id"]: game for game in answer["games"]}
    assert list(listed) == ["ishtar", "babylon-gardens", "toy"]
    assert answer["default"] == "toy"
    ishtar = listed["ishtar"]
    assert ishtar["title"] == "Ishtar: Gardens of Babylon"
    assert ishtar["players"] == {"min": 2, "max": 4}
    assert ishtar["bots"] == ["easy", "medium", "hard"]
    layout = ishtar["options"]["properties"]["layout"]
    assert layout["enum"] == ["preset", "random"] and layout["default"] == "preset"
    assert ishtar["client"].startswith("/static/") and ishtar["client"].endswith(".js")
    assert listed["toy"]["bots"] == [] and listed["toy"]["players"]["min"] == 1
    babylon = listed["babylon-gardens"]
    assert babylon["title"] == "Babylon Gardens" and babylon["players"] == {
        "min": 2,
        "max": 4,
    }
    floor = babylon["options"]["properties"]["floor"]
    assert floor["default"] == "lower" and len(floor["oneOf"]) == 6
    assert floor["oneOf"][0] == {"const": "lower", "title": "Lower Garden"}
    for game_id in listed:
        catalogue = await http.get(f"/api/games/{game_id}/catalogue")
        assert catalogue.status_code == 200
    assert (await http.get("/api/catalogue")).json() == (
        await http.get("/api/games/ishtar/catalogue")
    ).json()
    missing = await http.get("/api/games/chess/catalogue")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "unknown_game"


async def test_a_room_records_its_game_and_options(http: httpx.AsyncClient) -> None:
    created = await http.post(
        "/api/rooms",
        json={"players": 3, "game": "ishtar", "options": {"layout": "random"}},
    )
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    assert room["game"] == "ishtar"
    assert room["options"] == {
        "layout": "random",
        "first_player": None,
        "turn_end": "explicit",
        "edition": DEFAULT,
    }
    # Clients from before games read the options at the top level of the status.
    assert (room["layout"], room["first_player"]) == ("random", None)
    old_style = await http.post("/api/rooms", json={"players": 2, "first_player": 1})
    assert old_style.json()["room"]["game"] == "toy"  # this server's default game
    assert old_style.json()["room"]["options"] == {"first_player": 1}


async def test_a_game_without_bots_refuses_bot_seats_and_the_bot_policy(
    http: httpx.AsyncClient,
) -> None:
    created = (await http.post("/api/rooms", json={"players": 2, "game": "toy"})).json()
    answer = await http.post(
        f"/api/rooms/{created['room_id']}/bots",
        json={"level": "easy"},
        headers=bearer(created["host_token"]),
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == {
        "code": "no_bots",
        "reason": "Toy cards has no bots yet.",
        "message": {"key": "error.no_bots.game", "params": {"game": "Toy cards"}},
    }
    timed = await http.post(
        "/api/rooms",
        json={
            "players": 2,
            "game": "toy",
            "time_control": {"per_move_s": 60, "policy": "bot"},
        },
    )
    assert timed.json()["error"]["code"] == "no_bots"
    ishtar = await http.post(
        "/api/rooms",
        json={
            "players": 2,
            "game": "ishtar",
            "time_control": {"per_move_s": 60, "policy": "bot"},
        },
    )
    assert ishtar.status_code == 201, ishtar.text
    assert ishtar.json()["room"]["time_control"]["bot"] == "easy"  # its weakest


@pytest.mark.slow
async def test_both_games_play_replay_export_and_verify_in_one_process(
    live: tuple[Any, httpx.AsyncClient], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, http = live
    monkeypatch.setenv("ISHTAR_EXTRA_GAMES", "tests.app.toygame")  # for `ishtar verify`
    get_settings.cache_clear()
    played = {}
    for game_id in ("toy", "ishtar"):
        room_id, _host, tokens = await open_room(http, 2, game=game_id)
        seats = [await WsClient(server.url, room_id, t).open() for t in tokens]
        watcher = await WsClient(server.url, room_id).open()
        try:
            moves = await play_over_ws(seats, [watcher], seed=7)
        finally:
            for client in [*seats, watcher]:
                await client.close()
        status = (await http.get(f"/api/rooms/{room_id}")).json()
        assert (status["game"], status["status"]) == (game_id, "finished")
        assert watcher.view is not None and watcher.view["game"] == game_id
        replay = (await http.get(f"/api/rooms/{room_id}/replay?move={moves}")).json()
        assert replay["view"] == watcher.view
        first = (await http.get(f"/api/rooms/{room_id}/replay?move=0")).json()
        assert first["view"]["game"] == game_id
        record = (await http.get(f"/api/rooms/{room_id}/record")).json()
        assert record["game"] == game_id and record["format_version"] == 3
        played[game_id] = (room_id, record, moves)
    for game_id, (_room_id, record, moves) in played.items():
        imported = await http.post("/api/records", json=record)
        assert imported.status_code == 201, imported.text
        rid = imported.json()["record_id"]
        last = (await http.get(f"/api/records/{rid}/replay")).json()
        assert last["move"] == moves and last["view"]["game"] == game_id
        path = tmp_path / f"{game_id}.json"
        path.write_text(json.dumps(record))
        code = await asyncio.to_thread(cli.main, ["verify", str(path)])
        assert code == 0, game_id
    get_settings.cache_clear()


async def test_a_room_from_before_an_option_records_the_options_its_game_is_played_with(
    http: httpx.AsyncClient, room_app: Any
) -> None:
    """A room created before editions (its options name none) starts a game of the default
    edition, and its game's set-up says so: a later engine's default would not replay it."""
    created = (
        await http.post(
            "/api/rooms",
            json={"players": 2, "game": "ishtar", "name": "Ana", "seat_order": "fixed"},
        )
    ).json()
    room_id, host = created["room_id"], created["host_token"]
    pool = room_app.state.rooms.store.pool
    async with pool.acquire() as conn:
        await conn.execute(
            "UPDATE rooms SET options = options - 'edition' WHERE id = $1", room_id
        )
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})
        started = await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host))
        assert started.status_code == 200, started.text
        setup = await conn.fetchval(
            "SELECT setup->'options' FROM games WHERE room_id = $1", room_id
        )
    options = setup if isinstance(setup, dict) else json.loads(setup)
    assert options["edition"] == DEFAULT
