"""Whole games over websockets against a live server, with spectators, checked message by
message for hidden information (issue 4: websocket protocol, spectators, no hidden info).

One real `ishtar serve` (with the toy game registered) serves the module's games, each in a
room of its own that names its game: a server start and stop cost more than a game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator

import httpx
import pytest

from tests.app.clients import WsClient, open_room, pick
from tests.app.conftest import GAME_IDS, GAMES, TOY
from tests.app.hidden import assert_no_secret, game_record, states
from tests.support.databases import TestDatabases
from tests.support.live import LiveServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def shared_server(
    test_databases: TestDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LiveServer, str]]:
    """A real server for the module's games, and the URL of its database."""
    database_url = test_databases.create(migrated=True)
    log = tmp_path_factory.mktemp("ws-game") / "server.log"
    server = LiveServer(log, database_url=database_url, env={"ISHTAR_EXTRA_GAMES": TOY})
    server.start()
    try:
        yield server, database_url
    finally:
        server.stop()
        test_databases.drop(database_url)


async def play_over_ws(
    seats: list[WsClient], watchers: list[WsClient], seed: int
) -> int:
    """Play by the legal actions until the end; every client sees every version."""
    rng = random.Random(seed)
    everyone = seats + watchers
    moves = 0
    while True:
        version = seats[0].version
        for client in everyone:
            await client.until_version(version)
        assert seats[0].view is not None
        if seats[0].view["phase"] == "over":
            return moves
        acting = [client for client in seats if client.legal]
        assert len(acting) == 1, "exactly one seat holds legal actions"
        mover = acting[0]
        assert mover.you["seat"] == seats[0].view["current"]
        answer = await mover.move(pick(rng, mover.legal))
        assert answer["type"] == "ack", answer
        assert answer["version"] == version + 1
        for client in everyone:
            await client.until_version(version + 1)
        moves += 1


@pytest.mark.parametrize("game_module", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_whole_game_over_websockets_leaks_nothing(
    shared_server: tuple[LiveServer, str], players: int, game_module: str
) -> None:
    server, database_url = shared_server
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        room_id, _host, tokens = await open_room(
            http, players, seat_order="random", game=GAME_IDS[game_module]
        )
    seats = [await WsClient(server.url, room_id, token).open() for token in tokens]
    watchers = [await WsClient(server.url, room_id).open() for _ in range(2)]
    try:
        for n, client in enumerate(seats):
            assert client.welcome["you"] == {
                "seat": n,
                "role": "player",
                "name": client.welcome["you"]["name"],
                "is_host": n == client.welcome["you"]["seat"]
                and client.welcome["you"]["is_host"],
            }
        assert watchers[0].welcome["you"]["role"] == "spectator"
        moves = await play_over_ws(seats, watchers, seed=players)
        assert moves > 0
        for client in seats + watchers:
            updates = client.of_type("update")
            assert [u["version"] for u in updates] == list(range(1, moves + 1))
            assert [u["event"]["seq"] for u in updates] == list(range(1, moves + 1))
            assert client.of_type("error") == []
    finally:
        for client in seats + watchers:
            await client.close()

    rules = importlib.import_module(game_module)
    setup, actions = await game_record(database_url, room_id)
    timeline = states(rules, setup, actions)
    assert len(timeline) == moves + 1
    checked = 0
    for viewer, client in [*enumerate(seats), *((None, w) for w in watchers)]:
        for raw, message in zip(client.raw, client.received):
            assert_no_secret(rules, timeline, viewer, raw, message)
            checked += 1
    assert checked >= (moves + 1) * (players + 2)


def test_the_secret_check_catches_a_leak() -> None:
    """The check above is not vacuous: the full state, sent to anyone, is caught."""
    import json

    rules = importlib.import_module("tests.app.toygame")
    state = rules.new_game(2, 123456789012345, {"first_player": 0})
    leaked = {"type": "update", "version": 0, "view": rules.encode_state(state)}
    with pytest.raises(AssertionError):
        assert_no_secret(
            rules, [state], None, json.dumps(leaked, separators=(",", ":")), leaked
        )
