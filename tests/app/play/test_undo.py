"""Undo through the server (issue 8): the player to act takes back a step of their turn as an
ordinary move; the other players and the spectators see it in the log and on the board; no
one else can undo, and nothing before the tile was chosen can be undone."""

from __future__ import annotations

import pytest

from tests.app.clients import WsClient, open_room

ISHTAR = "engine.ishtar"


def first(legal: list[dict], kind: str) -> dict:
    return next(entry["action"] for entry in legal if entry["action"]["type"] == kind)


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_others_see_the_undo_in_the_log_and_on_the_board(web) -> None:
    url, http = web
    room_id, _host, tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    async with (
        WsClient(url, room_id, tokens[0]) as blue,
        WsClient(url, room_id, tokens[1]) as yellow,
        WsClient(url, room_id) as watcher,
    ):
        assert (await blue.move(first(blue.legal, "choose")))["type"] == "ack"
        await watcher.until_version(1)
        assert all(e["action"]["type"] != "undo" for e in blue.legal)
        refused = await blue.move({"type": "undo"})
        assert refused["type"] == "error" and refused["code"] == "illegal_move"
        assert "nothing to undo" in refused["reason"]

        before = watcher.view
        place = first(blue.legal, "place")
        assert (await blue.move(place))["type"] == "ack"
        await yellow.until_version(2)
        assert {"type": "undo"} in [e["action"] for e in blue.legal]
        offered = next(e for e in blue.legal if e["action"]["type"] == "undo")
        assert offered["preview"]["undoes"] == place

        not_yours = await yellow.move({"type": "undo"})
        assert not_yours["type"] == "error" and not_yours["code"] == "not_your_turn"

        assert (await blue.move({"type": "undo"}))["type"] == "ack"
        for client in (yellow, watcher):
            update = await client.expect("update", version=3)
            assert update["event"]["action"] == {"type": "undo"}
            assert update["event"]["seat"] == 0
            assert update["event"]["text"].startswith("Blue took back: placed a")
        assert watcher.view == before, (
            "the board is back as it was before the placement"
        )
        assert blue.view is not None and blue.view["phase"] == "place"

    log = (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    assert [m["action"]["type"] for m in log] == ["choose", "place", "undo"]
    assert log[2]["text"] == update["event"]["text"]
    replayed = (await http.get(f"/api/rooms/{room_id}/replay?move=3")).json()
    assert replayed["view"] == before
