"""The HTTP JSON API (docs/protocol.md): rooms, seats, start, view, moves, log, and a clear
error for every bad input, which changes nothing (issue 4: rooms and seats, bad input)."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config.settings import Settings
from app.ops.main import create_app
from tests.app.clients import bearer, open_room

ISHTAR = "engine.ishtar"


async def snapshot(http: httpx.AsyncClient, room_id: str) -> tuple[Any, ...]:
    """Everything observable about a room, to show a refused request changed nothing."""
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    status.pop("spectators")
    log = await http.get(f"/api/rooms/{room_id}/moves")
    view = await http.get(f"/api/rooms/{room_id}/view")
    return status, log.json(), view.json()


def error_of(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert body["error"]["reason"]
    return str(body["error"]["reason"])


async def test_create_a_room_and_take_seats(http: httpx.AsyncClient) -> None:
    created = await http.post(
        "/api/rooms", json={"players": 3, "game": "ishtar", "layout": "random"}
    )
    assert created.status_code == 201
    body = created.json()
    room_id = body["room_id"]
    assert len(room_id) >= 11
    assert body["url"] == f"/r/{room_id}"
    assert len(body["host_token"]) >= 22, "at least 128 bits"
    assert "token" not in body
    assert body["room"]["status"] == "open"
    assert [s["taken"] for s in body["room"]["seats"]] == [False, False, False]

    ana = await http.post(
        f"/api/rooms/{room_id}/seats",
        json={"name": "  Ana 🌸  ", "seat": 2},
        headers=bearer(body["host_token"]),
    )
    assert ana.status_code == 201
    assert ana.json()["seat"] == 2
    assert ana.json()["rejoin_url"] == f"/r/{room_id}#t={ana.json()['token']}"
    seats = ana.json()["room"]["seats"]
    assert seats[2] == {
        "seat": 2,
        "name": "Ana 🌸",
        "colour": seats[2]["colour"],
        "bot": None,
        "taken": True,
        "connected": False,
        "is_host": True,
        "left": False,
        "away_until": None,
        "overdue": False,
    }
    bo = await http.post(f"/api/rooms/{room_id}/seats", json={"name": "渤海"})
    assert bo.json()["seat"] == 0, "the lowest free seat"
    assert bo.json()["room"]["seats"][0]["is_host"] is False


async def test_tokens_are_stored_only_as_hashes(
    http: httpx.AsyncClient, database_url: str
) -> None:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "A"})).json()
    engine = create_async_engine(database_url)
    async with engine.connect() as conn:
        dump = str((await conn.execute(text("SELECT * FROM seats"))).all())
        dump += str((await conn.execute(text("SELECT * FROM rooms"))).all())
    await engine.dispose()
    assert created["token"] not in dump
    assert created["host_token"] not in dump
    assert created["token"].encode() not in dump.encode()


@pytest.mark.parametrize(
    "body",
    [
        {"players": 0},
        {"players": 9},
        {"players": "two"},
        {},
        {"players": 2, "seat_order": "alphabetical"},
        {"players": 2, "name": ""},
        {"players": 2, "name": "   "},
        {"players": 2, "name": "x" * 25},
        {"players": 2, "name": "bell\x07"},
        {"players": 2, "game": "Ishtar!"},
        {"players": 2, "options": {}, "layout": "random"},
        {"players": 2, "options": [1]},
    ],
)
async def test_bad_room_requests_are_malformed(
    http: httpx.AsyncClient, body: dict[str, Any]
) -> None:
    error_of(await http.post("/api/rooms", json=body), 400, "malformed")


@pytest.mark.parametrize("game_module", [ISHTAR])
@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"players": 1}, "played by 2 to 4 players"),
        ({"players": 5}, "played by 2 to 4 players"),
        ({"players": 2, "layout": "spiral"}, "'layout'"),
        ({"players": 2, "options": {"layout": "spiral"}}, "'layout'"),
        ({"players": 2, "first_player": 2}, "seat from 0 to 1"),
        ({"players": 2, "colour": "red"}, "no option 'colour'"),
        ({"players": 2, "options": {"colour": "red"}}, "no option 'colour'"),
    ],
)
async def test_options_a_game_refuses_are_bad_options(
    http: httpx.AsyncClient, body: dict[str, Any], reason: str
) -> None:
    """The game checks its options (its model, then its engine) and says what is wrong;
    top-level options are the old clients' spelling of the same."""
    assert reason in error_of(
        await http.post("/api/rooms", json=body), 400, "bad_options"
    )


async def test_a_room_of_an_unknown_game_is_refused(http: httpx.AsyncClient) -> None:
    answer = await http.post("/api/rooms", json={"players": 2, "game": "chess"})
    assert "'chess'" in error_of(answer, 404, "unknown_game")


async def test_not_json_and_too_large_bodies(http: httpx.AsyncClient) -> None:
    headers = {"content-type": "application/json"}
    reason = error_of(
        await http.post("/api/rooms", content=b"{players: 2", headers=headers),
        400,
        "malformed",
    )
    assert "JSON" in reason
    error_of(
        await http.post("/api/rooms", content=b"[2]", headers=headers), 400, "malformed"
    )
    huge = b'{"players": 2, "name": "' + b"a" * 20000 + b'"}'
    error_of(
        await http.post("/api/rooms", content=huge, headers=headers), 413, "too_large"
    )


async def test_seat_errors(http: httpx.AsyncClient) -> None:
    error_of(
        await http.post("/api/rooms/nope/seats", json={"name": "A"}),
        404,
        "unknown_room",
    )
    created = (await http.post("/api/rooms", json={"players": 2, "name": "A"})).json()
    room_id = created["room_id"]
    before = await snapshot(http, room_id)
    error_of(
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "B", "seat": 0}),
        409,
        "seat_taken",
    )
    error_of(
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "B", "seat": 2}),
        400,
        "malformed",
    )
    error_of(
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": ""}),
        400,
        "malformed",
    )
    error_of(
        await http.post(f"/api/rooms/{room_id}/seats", json={"seat": 1}),
        400,
        "malformed",
    )
    assert await snapshot(http, room_id) == before
    await http.post(f"/api/rooms/{room_id}/seats", json={"name": "B"})
    error_of(
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "C"}),
        409,
        "seat_taken",
    )


async def test_start_errors(http: httpx.AsyncClient) -> None:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "A"})).json()
    room_id, host = created["room_id"], created["host_token"]
    error_of(
        await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host)),
        409,
        "seats_open",
    )
    guest = (await http.post(f"/api/rooms/{room_id}/seats", json={"name": "B"})).json()[
        "token"
    ]
    before = await snapshot(http, room_id)
    error_of(await http.post(f"/api/rooms/{room_id}/start"), 403, "forbidden")
    error_of(
        await http.post(f"/api/rooms/{room_id}/start", headers=bearer(guest)),
        403,
        "forbidden",
    )
    error_of(
        await http.post(f"/api/rooms/{room_id}/start", headers=bearer("x" * 43)),
        403,
        "forbidden",
    )
    error_of(
        await http.post(
            f"/api/rooms/{room_id}/start", headers={"Authorization": "Basic abc"}
        ),
        401,
        "bad_token",
    )
    error_of(await http.get(f"/api/rooms/{room_id}/view"), 409, "game_not_started")
    error_of(await http.get(f"/api/rooms/{room_id}/moves"), 409, "game_not_started")
    assert await snapshot(http, room_id) == before
    # The host seat's own token also starts the game.
    started = await http.post(
        f"/api/rooms/{room_id}/start", headers=bearer(created["token"])
    )
    assert started.status_code == 200
    assert started.json()["status"] == "playing"
    error_of(
        await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host)),
        409,
        "game_started",
    )
    error_of(
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Late"}),
        409,
        "game_started",
    )


async def test_the_start_shuffles_seats_and_picks_the_first_player(
    http: httpx.AsyncClient,
) -> None:
    orders, firsts = set(), set()
    for _ in range(16):
        room_id, _host, _tokens = await open_room(http, 2, seat_order="random")
        status = (await http.get(f"/api/rooms/{room_id}")).json()
        orders.add(tuple(seat["name"] for seat in status["seats"]))
        firsts.add(
            (await http.get(f"/api/rooms/{room_id}/view")).json()["view"]["current"]
        )
    assert orders == {("P0", "P1"), ("P1", "P0")}, (
        "seats are shuffled (2^-15 to fail by chance)"
    )
    assert firsts == {0, 1}, "the first player is drawn"


async def test_first_player_and_seat_order_can_be_fixed(
    http: httpx.AsyncClient,
) -> None:
    room_id, _host, _tokens = await open_room(
        http, 3, first_player=2, seat_order="fixed"
    )
    view = (await http.get(f"/api/rooms/{room_id}/view")).json()
    assert view["view"]["current"] == 2
    names = [
        s["name"] for s in (await http.get(f"/api/rooms/{room_id}")).json()["seats"]
    ]
    assert names == ["P0", "P1", "P2"]


def move(
    action: dict[str, Any], expected: int, move_id: str | None = None
) -> dict[str, Any]:
    return {
        "move": action,
        "expected_version": expected,
        "move_id": move_id or uuid.uuid4().hex,
    }


async def test_move_errors_change_nothing(http: httpx.AsyncClient) -> None:
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    _other_room, _h, other_tokens = await open_room(http, 2)
    url = f"/api/rooms/{room_id}/moves"
    draw = {"type": "draw"}
    before = await snapshot(http, room_id)
    error_of(
        await http.post(
            "/api/rooms/nope/moves", json=move(draw, 0), headers=bearer(tokens[0])
        ),
        404,
        "unknown_room",
    )
    error_of(
        await http.post("/api/rooms/nope/moves", json=move(draw, 0)),
        404,
        "unknown_room",
    )
    error_of(await http.post(url, json=move(draw, 0)), 403, "forbidden")
    error_of(
        await http.post(url, json=move(draw, 0), headers=bearer("forged-token")),
        401,
        "bad_token",
    )
    error_of(
        await http.post(url, json=move(draw, 0), headers=bearer(other_tokens[0])),
        401,
        "bad_token",
    )
    error_of(
        await http.post(url, json=move(draw, 0), headers=bearer(tokens[1])),
        409,
        "not_your_turn",
    )
    error_of(
        await http.post(url, json=move(draw, 7), headers=bearer(tokens[0])),
        409,
        "stale_version",
    )
    error_of(
        await http.post(url, json={"move": draw}, headers=bearer(tokens[0])),
        400,
        "malformed",
    )
    error_of(
        await http.post(url, json=move({"type": "fly"}, 0), headers=bearer(tokens[0])),
        400,
        "malformed_action",
    )
    reason = error_of(
        await http.post(
            url, json=move({"type": "play", "card": 3}, 0), headers=bearer(tokens[0])
        ),
        422,
        "illegal_move",
    )
    assert "draw" in reason, "the engine's reason"
    assert await snapshot(http, room_id) == before


async def test_a_stale_http_move_says_what_was_missed(http: httpx.AsyncClient) -> None:
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    url = f"/api/rooms/{room_id}/moves"
    assert (
        await http.post(url, json=move({"type": "draw"}, 0), headers=bearer(tokens[0]))
    ).status_code == 200
    stale = await http.post(
        url, json=move({"type": "draw"}, 0), headers=bearer(tokens[0])
    )
    error_of(stale, 409, "stale_version")
    error = stale.json()["error"]
    assert error["version"] == 1
    assert [m["seq"] for m in error["missed"]] == [1]
    assert error["view"]["viewer"] == 0
    assert error["legal"], "seat 0 must now play a card"


async def test_moves_after_the_end_are_refused(http: httpx.AsyncClient) -> None:
    room_id, _host, tokens = await open_room(http, 2, first_player=0)
    while True:
        view = (await http.get(f"/api/rooms/{room_id}/view")).json()
        if view["view"]["phase"] == "over":
            break
        token = tokens[view["view"]["current"]]
        mine = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
        ).json()
        await http.post(
            f"/api/rooms/{room_id}/moves",
            json=move(mine["legal"][0]["action"], mine["version"]),
            headers=bearer(token),
        )
    before = await snapshot(http, room_id)
    answer = await http.post(
        f"/api/rooms/{room_id}/moves",
        json=move({"type": "draw"}, view["version"]),
        headers=bearer(tokens[0]),
    )
    error_of(answer, 409, "game_over")
    assert await snapshot(http, room_id) == before


async def test_the_move_log_since(http: httpx.AsyncClient) -> None:
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    await http.post(
        f"/api/rooms/{room_id}/moves",
        json=move({"type": "draw"}, 0),
        headers=bearer(tokens[0]),
    )
    view = (
        await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))
    ).json()
    await http.post(
        f"/api/rooms/{room_id}/moves",
        json=move(view["legal"][0]["action"], 1),
        headers=bearer(tokens[0]),
    )
    full = (await http.get(f"/api/rooms/{room_id}/moves")).json()
    assert full["version"] == 2
    assert [(m["seq"], m["seat"]) for m in full["moves"]] == [(1, 0), (2, 0)]
    assert set(full["moves"][0]) == {"seq", "seat", "action", "text", "at", "message"}
    since = (await http.get(f"/api/rooms/{room_id}/moves", params={"since": 1})).json()
    assert [m["seq"] for m in since["moves"]] == [2]
    assert (
        await http.get(f"/api/rooms/{room_id}/moves", params={"since": 9})
    ).json() == {"version": 2, "moves": []}
    error_of(
        await http.get(f"/api/rooms/{room_id}/moves", params={"since": -1}),
        400,
        "malformed",
    )


async def test_the_move_log_in_pages_before_a_move(http: httpx.AsyncClient) -> None:
    """The page's "Earlier moves" (issue 18 point 6): the moves before one, latest first
    kept, oldest first given, and whether older ones remain."""
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    for _ in range(5):
        view = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))
        ).json()
        seat = view["view"]["current"]
        mine = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[seat]))
        ).json()
        answer = await http.post(
            f"/api/rooms/{room_id}/moves",
            json=move(mine["legal"][0]["action"], mine["version"]),
            headers=bearer(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text
    full = (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    assert [m["seq"] for m in full] == [1, 2, 3, 4, 5]

    async def page(**params: int) -> dict[str, Any]:
        answer = await http.get(f"/api/rooms/{room_id}/moves", params=params)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    latest = await page(before=5, limit=2)
    assert [m["seq"] for m in latest["moves"]] == [3, 4]
    assert latest["earlier"] is True and latest["version"] == 5
    assert latest["moves"] == full[2:4], "the same moves as the whole log"
    rest = await page(before=3, limit=100)
    assert [m["seq"] for m in rest["moves"]] == [1, 2] and rest["earlier"] is False
    assert (await page(before=1))["moves"] == []
    for bad in ({"before": 0}, {"limit": 0}, {"limit": 501}, {"before": 2**31}):
        error_of(
            await http.get(f"/api/rooms/{room_id}/moves", params=bad), 400, "malformed"
        )


async def test_why_a_move_is_illegal(http: httpx.AsyncClient) -> None:
    room_id, _host, _tokens = await open_room(http, 2, first_player=0)
    answer = (
        await http.post(
            f"/api/rooms/{room_id}/why", json={"move": {"type": "play", "card": 1}}
        )
    ).json()
    assert answer["legal"] is False
    assert answer["reason"]
    assert (
        await http.post(f"/api/rooms/{room_id}/why", json={"move": {"type": "draw"}})
    ).json()["legal"] is True
    error_of(
        await http.post(f"/api/rooms/{room_id}/why", json={"move": {"type": "x"}}),
        400,
        "malformed_action",
    )


async def test_catalogue_and_openapi(http: httpx.AsyncClient) -> None:
    # /api/catalogue stays Ishtar's, whatever the server's default game (here the toy's).
    assert (await http.get("/api/catalogue")).json()["player_colours"][0] == "blue"
    toy = (await http.get("/api/games/toy/catalogue")).json()
    assert toy["colours"][0] == "blue"
    paths = (await http.get("/openapi.json")).json()["paths"]
    for path in (
        "/api/games",
        "/api/games/{game_id}/catalogue",
        "/api/rooms",
        "/api/rooms/{room_id}/moves",
        "/api/rooms/{room_id}/view",
    ):
        assert path in paths
    assert (await http.get("/docs")).status_code == 200


async def test_http_moves_are_rate_limited(room_settings: Settings) -> None:
    app = create_app(room_settings.model_copy(update={"http_moves_per_s": 1.0}))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            room_id, _host, tokens = await open_room(
                http, 2, first_player=0, seat_order="fixed"
            )
            codes = []
            for _ in range(4):
                answer = await http.post(
                    f"/api/rooms/{room_id}/moves",
                    json=move({"type": "draw"}, 0, "one"),
                    headers=bearer(tokens[0]),
                )
                codes.append(answer.status_code)
            assert codes[:2] == [200, 200]
            assert 429 in codes
            assert (await http.get(f"/api/rooms/{room_id}/moves")).json()[
                "version"
            ] == 1
