"""A move's notice carries its log entry (app/store/channel.py `notice`), so the instances
that did not make the move publish it without reading it back from the database; a notice
without it (too long, or from an older instance) or with a garbled one is read back as
before."""

from __future__ import annotations

from typing import Any

import pytest

from app.live.hub import Hub
from app.play.protocol import dumps
from app.play.service import RoomService
from app.store.channel import NOTICE_BYTES, NoticeKind, notice
from app.store.rows import Event
from tests.app.clients import WsClient, open_room
from tests.app.live.test_heartbeat import idle


async def move_elsewhere(service: RoomService, room_id: str, number: int) -> Event:
    """Commit the first legal move straight to the database, as another instance would:
    this one's hub is not told."""
    game = await service.reading.game(room_id)
    position = await service.reading.position(game.game_id)
    rules = game.rules
    action = rules.legal_actions(position.state)[0]
    after = rules.apply(position.state, action)
    event = await service.store.commit_move(
        room_id=room_id,
        game_id=game.game_id,
        expected_version=position.version,
        seat=position.current,
        action=rules.encode_action(action),
        move_id=f"elsewhere-{number}",
        text_=f"move {number}, made elsewhere",
        message=None,
        snapshot_json=None,
        finished=False,
        current_seat=rules.current_player(after),
    )
    assert event is not None
    return event


async def test_a_notice_with_the_move_is_published_without_reading_it_back(
    room_app: Any, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, http = web
    hub: Hub = room_app.state.hub
    service: RoomService = room_app.state.rooms
    room_id, _host, _tokens = await open_room(
        http, 2, first_player=0, seat_order="fixed"
    )
    reads: list[int] = []
    read = service.store.moves_since

    async def counted(game_id: int, since: int) -> list[Event]:
        reads.append(since)
        return await read(game_id, since)

    monkeypatch.setattr(service.store, "moves_since", counted)
    async with WsClient(url, room_id) as watcher:
        await idle(hub, room_id)
        first = await move_elsewhere(service, room_id, 1)
        hub.notice(room_id, NoticeKind.MOVE, first.seq, dumps(first.as_dict()))
        await watcher.until_version(first.seq, timeout=15.0)
        update = watcher.of_type("update")[-1]
        assert update["event"]["text"] == "move 1, made elsewhere"
        assert reads == [], "the notice's entry was enough"

        second = await move_elsewhere(service, room_id, 2)
        hub.notice(
            room_id, NoticeKind.MOVE, second.seq
        )  # an older instance's, or too long
        await watcher.until_version(second.seq, timeout=15.0)
        assert reads == [first.seq], "read back from the database"

        third = await move_elsewhere(service, room_id, 3)
        hub.notice(room_id, NoticeKind.MOVE, third.seq, '{"seq": "garbled"')
        await watcher.until_version(third.seq, timeout=15.0)
        assert reads == [first.seq, second.seq], "a garbled entry is read back too"
        texts = [u["event"]["text"] for u in watcher.of_type("update")]
        assert texts == [f"move {n}, made elsewhere" for n in (1, 2, 3)]
        assert watcher.of_type("sync") == []


def test_a_notice_too_long_for_postgresql_goes_without_its_detail() -> None:
    short = notice("room", NoticeKind.MOVE, 7, dumps({"seq": 7}))
    assert short == 'room m 7 {"seq":7}'
    long = notice("room", NoticeKind.MOVE, 7, "x" * NOTICE_BYTES)
    assert long == "room m 7"
