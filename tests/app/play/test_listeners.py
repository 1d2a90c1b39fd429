"""Commit listeners subscribe (`RoomService.subscribe`, app/play/listeners.py): each hears
every commit, in the order they subscribed; one that raises is logged and the others, the
hub included, still hear; an unsubscribed listener hears nothing more."""

from __future__ import annotations

import logging

import httpx
import pytest
from fastapi import FastAPI

from app.play.listeners import Listeners
from app.play.service import RoomService
from app.store.rows import Event
from tests.app.clients import WsClient, bearer
from tests.app.play.test_seats import play_one


def test_listeners_are_called_in_order_and_a_failing_one_stops_none(
    caplog: pytest.LogCaptureFixture,
) -> None:
    heard: list[tuple[str, int]] = []
    listeners: Listeners[[int]] = Listeners("numbers")
    listeners.subscribe(lambda n: heard.append(("first", n)))

    def broken(n: int) -> None:
        raise ValueError("a broken listener")

    listeners.subscribe(broken)
    unsubscribe = listeners.subscribe(lambda n: heard.append(("third", n)))
    with caplog.at_level(logging.ERROR, "ishtar.listeners"):
        listeners(1)
        listeners(2)
    assert heard == [("first", 1), ("third", 1), ("first", 2), ("third", 2)]
    assert sum("a listener of numbers failed" in r.message for r in caplog.records) == 2
    unsubscribe()
    unsubscribe()  # a second time: nothing
    listeners(3)
    assert heard[-1] == ("first", 3)
    assert len(listeners) == 2


async def test_two_subscribers_hear_every_commit_in_order_despite_a_broken_one(
    web: tuple[str, httpx.AsyncClient], room_app: FastAPI
) -> None:
    base_url, http = web
    service: RoomService = room_app.state.rooms
    first: list[tuple[str, int]] = []
    second: list[tuple[str, int]] = []

    def broken(room_id: str, event: Event) -> None:
        raise RuntimeError("this listener always fails")

    unsubscribe = [
        service.subscribe(broken),
        service.subscribe(lambda room_id, event: first.append((room_id, event.seq))),
        service.subscribe(lambda room_id, event: second.append((room_id, event.seq))),
    ]
    created = (
        await http.post(
            "/api/rooms", json={"players": 2, "name": "Ana", "seat_order": "fixed"}
        )
    ).json()
    room_id = created["room_id"]
    bo = (await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Bo"})).json()
    await http.post(
        f"/api/rooms/{room_id}/start", headers=bearer(created["host_token"])
    )
    # A spectator: the hub, which subscribed before any of these, publishes to it.
    async with WsClient(base_url, room_id) as watcher:
        versions = [
            await play_one(http, room_id, [created["token"], bo["token"]])
            for _ in range(3)
        ]
        # Every move was committed and answered despite the broken listener, and the hub
        # (the first listener of all) still published each one.
        assert versions == [1, 2, 3]
        for version in versions:
            assert (await watcher.expect("update"))["version"] == version
    for stop in unsubscribe:
        stop()
    assert first == second == [(room_id, 1), (room_id, 2), (room_id, 3)]
    await play_one(http, room_id, [created["token"], bo["token"]])
    assert len(first) == 3  # unsubscribed: the fourth move is not heard
