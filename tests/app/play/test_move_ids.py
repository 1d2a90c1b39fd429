"""Move ids (docs/protocol.md, "Idempotent moves"): one seat's id is not another's, and an
id PostgreSQL cannot store (a NUL) is refused with a reason, over HTTP and the websocket."""

from __future__ import annotations

import httpx
import pytest

from tests.app.clients import WsClient, bearer, open_room


async def log_of(http: httpx.AsyncClient, room_id: str) -> list[dict]:
    return (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]


async def first_legal(http: httpx.AsyncClient, room_id: str, token: str) -> dict:
    view = (await http.get(f"/api/rooms/{room_id}/view", headers=bearer(token))).json()
    return dict(view["legal"][0]["action"])


async def move(
    http: httpx.AsyncClient,
    room_id: str,
    token: str,
    action: dict,
    version: int,
    id_: str,
) -> httpx.Response:
    return await http.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": action, "expected_version": version, "move_id": id_},
        headers=bearer(token),
    )


@pytest.mark.parametrize("move_id", ["a\x00b", "\x00", "tab\there", "bell\x07"])
async def test_a_move_id_with_a_control_character_is_malformed_over_http(
    http: httpx.AsyncClient, move_id: str
) -> None:
    room_id, _, tokens = await open_room(http, 2, first_player=0)
    action = await first_legal(http, room_id, tokens[0])
    answer = await move(http, room_id, tokens[0], action, 0, move_id)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "malformed"
    assert "move_id" in error["reason"]
    assert "control characters" in error["reason"]
    assert await log_of(http, room_id) == []


async def test_a_move_id_with_a_nul_is_malformed_on_the_websocket(web) -> None:
    url, http = web
    room_id, _, tokens = await open_room(http, 2, first_player=0)
    async with WsClient(url, room_id, tokens[0]) as mover:
        await mover.send(
            {
                "type": "move",
                "move": mover.legal[0]["action"],
                "expected_version": 0,
                "move_id": "a\x00b",
            }
        )
        error = await mover.expect("error")  # an id that cannot be one is not echoed
        assert error["code"] == "malformed"
        assert "control characters" in error["reason"]
        ack = await mover.move(mover.legal[0]["action"])  # and the connection goes on
        assert ack["type"] == "ack"
    assert len(await log_of(http, room_id)) == 1


async def test_a_move_id_of_another_seat_is_taken_over_http(
    http: httpx.AsyncClient,
) -> None:
    room_id, _, tokens = await open_room(http, 2, first_player=0)
    action = await first_legal(http, room_id, tokens[0])
    assert (await move(http, room_id, tokens[0], action, 0, "mine")).status_code == 200
    taken = await move(http, room_id, tokens[1], {"type": "pass"}, 1, "mine")
    assert taken.status_code == 409, taken.text
    error = taken.json()["error"]
    assert error["code"] == "move_id_taken"
    assert "another seat" in error["reason"]
    again = await move(http, room_id, tokens[0], action, 0, "mine")  # its own seat
    assert again.status_code == 200, again.text
    assert again.json()["duplicate"] is True
    assert len(await log_of(http, room_id)) == 1


async def test_a_move_id_of_another_seat_is_taken_on_the_websocket(web) -> None:
    url, http = web
    room_id, _, tokens = await open_room(http, 2, first_player=0)
    async with (
        WsClient(url, room_id, tokens[0]) as first,
        WsClient(url, room_id, tokens[1]) as second,
    ):
        ack = await first.move(first.legal[0]["action"], move_id="shared")
        await second.until_version(ack["version"])
        action = second.legal[0]["action"] if second.legal else {"type": "pass"}
        error = await second.move(action, move_id="shared")
        assert error["type"] == "error"
        assert error["code"] == "move_id_taken"
        assert error["move_id"] == "shared"
    assert len(await log_of(http, room_id)) == 1
