"""Several `ishtar serve` processes on one PostgreSQL (issue 4: several instances).

They share nothing but the database: a move made through A reaches B's clients through
LISTEN/NOTIFY (how fast: `python -m bench.instances`), concurrent moves through both never fork the game, and a
server killed with SIGKILL mid-game leaves a game that continues exactly where it was.
"""

from __future__ import annotations

import asyncio
import importlib
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.app.clients import WsClient, bearer, open_room
from tests.app.conftest import GAMES, TOY, game_env
from tests.app.hidden import game_record
from tests.app.web.test_ws_game import play_over_ws
from tests.support.databases import TestDatabases
from tests.support.live import LiveServer

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def two_instances(
    test_databases: TestDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers on one database for the module's tests that neither kill them nor
    touch the database's connections, each in rooms of its own (as `serve` starts them,
    playing the toy game by default)."""
    url = test_databases.create(migrated=True)
    logs = tmp_path_factory.mktemp("instances")
    servers = [
        LiveServer(logs / f"server-{n}.log", database_url=url, env=game_env(TOY))
        for n in range(2)
    ]
    try:
        for server in servers:
            server.start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()
        test_databases.drop(url)


async def test_a_move_through_a_reaches_clients_of_b(
    two_instances: tuple[LiveServer, LiveServer],
) -> None:
    a, b = two_instances
    async with httpx.AsyncClient(base_url=a.url) as http_a:
        room_id, _host, tokens = await open_room(
            http_a, 2, first_player=0, seat_order="fixed"
        )
    async with (
        WsClient(a.url, room_id, tokens[0]) as mover,
        WsClient(b.url, room_id, tokens[1]) as other,
        WsClient(b.url, room_id) as watcher,
    ):
        for _ in range(5):
            actor = mover if mover.legal else other
            version = actor.version
            ack = await actor.move(actor.legal[0]["action"])
            assert ack["type"] == "ack"
            # The latency itself is a benchmark figure (docs/benchmarks.md), not an
            # assertion: the timeout here only keeps a lost update from hanging the test.
            for client in (mover, other, watcher):
                await client.until_version(version + 1, timeout=15.0)
        assert mover.version == other.version == watcher.version
        assert watcher.view is not None
        assert watcher.view["viewer"] is None

        def seats_seen() -> set[int]:
            latest = [m["presence"] for m in watcher.of_type("presence")]
            return set((latest or [watcher.welcome["presence"]])[-1]["connected_seats"])

        # Presence crosses instances too: the seat connected through A shows on B (the
        # timeout is a hang guard, as generous as the updates' on a loaded machine).
        async with asyncio.timeout(15):
            while seats_seen() != {0, 1}:
                await watcher.recv()


async def test_concurrent_moves_through_two_instances_never_fork(
    two_instances: tuple[LiveServer, LiveServer],
) -> None:
    a, b = two_instances
    async with (
        httpx.AsyncClient(base_url=a.url) as http_a,
        httpx.AsyncClient(base_url=b.url) as http_b,
    ):
        room_id, _host, tokens = await open_room(
            http_a, 2, first_player=0, seat_order="fixed"
        )
        async with WsClient(a.url, room_id) as on_a, WsClient(b.url, room_id) as on_b:
            for round_ in range(10):
                view = (
                    await http_a.get(
                        f"/api/rooms/{room_id}/view",
                        headers=bearer(tokens[on_a.view["current"]]),
                    )
                ).json()
                token = tokens[view["view"]["current"]]
                legal = view["legal"]
                bodies = [
                    {
                        "move": legal[i % len(legal)]["action"],
                        "expected_version": view["version"],
                        "move_id": uuid.uuid4().hex,
                    }
                    for i in range(2)
                ]
                answers = await asyncio.gather(
                    http_a.post(
                        f"/api/rooms/{room_id}/moves",
                        json=bodies[0],
                        headers=bearer(token),
                    ),
                    http_b.post(
                        f"/api/rooms/{room_id}/moves",
                        json=bodies[1],
                        headers=bearer(token),
                    ),
                )
                codes = sorted(answer.status_code for answer in answers)
                assert codes == [200, 409], [a.text for a in answers]
                loser = next(answer for answer in answers if answer.status_code == 409)
                assert loser.json()["error"]["code"] == "stale_version"
                assert loser.json()["error"]["version"] == view["version"] + 1
                await on_a.until_version(view["version"] + 1)
                await on_b.until_version(view["version"] + 1)
                assert on_a.view == on_b.view, (
                    f"both instances show the same game after round {round_}"
                )
                if on_a.view["phase"] == "over":
                    break
    log = (
        await httpx.AsyncClient(base_url=b.url).get(f"/api/rooms/{room_id}/moves")
    ).json()
    assert [m["seq"] for m in log["moves"]] == list(range(1, log["version"] + 1))
    for client in (on_a, on_b):
        assert [u["version"] for u in client.of_type("update")] == list(
            range(1, log["version"] + 1)
        )


@pytest.mark.parametrize("game_module", GAMES)
async def test_a_killed_server_restarts_where_the_game_was(
    serve, database_url: str, game_module: str
) -> None:
    rules = importlib.import_module(game_module)
    first = serve()
    async with httpx.AsyncClient(base_url=first.url) as http:
        room_id, _host, tokens = await open_room(http, 2, seat_order="random")
    seats = [await WsClient(first.url, room_id, token).open() for token in tokens]
    acked = []
    for _ in range(6):
        actor = next(client for client in seats if client.legal)
        version = actor.version
        ack = await actor.move(actor.legal[0]["action"])
        acked.append(ack["version"])
        for client in seats:
            await client.until_version(version + 1)
    before = {client.you["seat"]: (client.version, client.view) for client in seats}
    first.kill()  # SIGKILL: no shutdown, no cleanup
    for client in seats:
        await asyncio.wait_for(client.closed.wait(), 5)

    second = serve()
    back = [
        await WsClient(second.url, room_id, token, since=seats[n].version).open()
        for n, token in enumerate(tokens)
    ]
    for client in back:
        seat = client.you["seat"]
        assert client.welcome["version"] == before[seat][0] == acked[-1]
        assert client.welcome["view"] == before[seat][1]
        assert client.welcome["events"] == []
    moves = await play_over_ws(back, [], seed=3)
    assert moves > 0
    setup, actions = await game_record(database_url, room_id)
    assert len(actions) == acked[-1] + moves, "nothing lost, nothing applied twice"
    assert rules.is_over(rules.replay(setup, actions))
    for client in back:
        await client.close()


async def test_instances_recover_when_postgresql_drops_their_connections(
    serve, database_url: str
) -> None:
    """Every server connection cut (as by a PostgreSQL restart): listeners reconnect and
    catch up, pools reconnect, and a move through A still reaches B's clients."""
    from sqlalchemy import pool, text
    from sqlalchemy.ext.asyncio import create_async_engine

    a, b = serve(), serve()
    async with httpx.AsyncClient(base_url=a.url) as http_a:
        room_id, _host, tokens = await open_room(
            http_a, 2, first_player=0, seat_order="fixed"
        )
        async with WsClient(b.url, room_id) as watcher:
            admin = create_async_engine(database_url, poolclass=pool.NullPool)
            async with admin.connect() as conn:
                killed = (
                    await conn.execute(
                        text(
                            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        )
                    )
                ).scalar_one()
            await admin.dispose()
            assert killed >= 4, "both pools and both listeners were cut"
            answer = None
            for _ in range(
                50
            ):  # a request may meet a dying connection: 503, then retry
                answer = await http_a.post(
                    f"/api/rooms/{room_id}/moves",
                    json={
                        "move": {"type": "draw"},
                        "expected_version": 0,
                        "move_id": "after-cut",
                    },
                    headers=bearer(tokens[0]),
                )
                if answer.status_code != 503:
                    break
                await asyncio.sleep(0.1)
            assert answer is not None
            assert answer.status_code == 200, answer.text
            await watcher.until_version(1, timeout=15)
