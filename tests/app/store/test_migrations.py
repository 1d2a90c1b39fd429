"""Schema migrations: the whole history upgrades an empty database and downgrades it back."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from app.notices.listener import asyncpg_dsn
from app.store import migrate, readiness
from app.store.models import NAMING_CONVENTION, Base
from engine.ishtar import check_options, new_game
from tests.support.live import LiveServer


def test_history_has_a_single_head() -> None:
    assert len(migrate.heads()) == 1
    assert migrate.head() in migrate.known_revisions()


def test_first_revision_is_the_baseline() -> None:
    assert "0001" in migrate.known_revisions()


def test_empty_database_upgrades_to_head_and_back_to_base(
    empty_database_url: str,
) -> None:
    assert migrate.current(empty_database_url) is None
    migrate.upgrade(empty_database_url)
    assert migrate.current(empty_database_url) == migrate.head()
    migrate.downgrade(empty_database_url, "base")
    assert migrate.current(empty_database_url) is None
    migrate.upgrade(empty_database_url, "head")
    assert migrate.current(empty_database_url) == migrate.head()


def test_each_revision_downgrades_one_step(empty_database_url: str) -> None:
    """Every revision's downgrade works on top of its own upgrade, not only from head."""
    migrate.upgrade(empty_database_url)
    steps = len(migrate.known_revisions())
    for _ in range(steps):
        migrate.downgrade(empty_database_url, "-1")
    assert migrate.current(empty_database_url) is None


def test_at_head_only_at_exactly_the_head(empty_database_url: str) -> None:
    assert not migrate.at_head(empty_database_url)  # never migrated
    migrate.upgrade(empty_database_url)
    assert migrate.at_head(empty_database_url)
    migrate.downgrade(empty_database_url, "-1")
    assert not migrate.at_head(empty_database_url)


def test_fixture_database_is_at_head(database_url: str) -> None:
    assert migrate.current(database_url) == migrate.head()


def test_models_use_the_naming_convention() -> None:
    assert Base.metadata.naming_convention == NAMING_CONVENTION


@pytest.mark.parametrize(
    ("current", "state"),
    [((), "not migrated"), (("nope",), "unknown revision")],
)
def test_migration_state(current: tuple[str, ...], state: str) -> None:
    assert readiness.migration_state(current) == state


def test_migration_state_at_head() -> None:
    assert readiness.migration_state(migrate.heads()) == "head"


def test_next_revision_id_follows_the_highest() -> None:
    highest = max(
        int(rev[:4]) for rev in migrate.known_revisions() if rev[:4].isdigit()
    )
    assert migrate.next_revision_id() == f"{highest + 1:04d}"


@pytest.mark.slow
def test_instances_starting_together_on_a_fresh_database_both_serve(
    empty_database_url: str, tmp_path: Path
) -> None:
    """Each `ishtar serve` upgrades at start; two at once take turns (an advisory lock)
    instead of racing to create Alembic's version table."""
    servers = [
        LiveServer(tmp_path / f"server-{n}.log", database_url=empty_database_url)
        for n in range(3)
    ]
    try:
        with ThreadPoolExecutor(len(servers)) as pool:
            list(pool.map(lambda server: server.start(90.0), servers))
        assert migrate.current(empty_database_url) == migrate.head()
    finally:
        for server in servers:
            server.stop()


def test_rooms_of_before_games_become_ishtar_rooms_with_their_options(
    empty_database_url: str,
) -> None:
    """Migration 0011 on a database with rooms and games of the old shape: each room is
    Ishtar's, its layout and first player are its options, and the game's set-up has them
    too; the downgrade gives the old columns back."""

    async def run(*statements: str) -> list[list[asyncpg.Record]]:
        conn = await asyncpg.connect(asyncpg_dsn(empty_database_url))
        try:
            return [await conn.fetch(statement) for statement in statements]
        finally:
            await conn.close()

    migrate.upgrade(empty_database_url, "0010")
    asyncio.run(
        run(
            "INSERT INTO rooms (id, players, layout, first_player, seat_order,"
            " host_token_hash) VALUES ('room0000000000aa', 3, 'random', 1, 'fixed',"
            " '\\x00'::bytea), ('room0000000000bb', 2, 'preset', NULL, 'random',"
            " '\\x00'::bytea)",
            "INSERT INTO games (room_id, engine, seed, setup, snapshot, current_seat)"
            " VALUES ('room0000000000aa', 'ishtar 1.1.0', 7, '{\"players\": 3,"
            ' "seed": 7, "layout": "random", "first_player": 1}\', \'{}\', 1)',
        )
    )
    migrate.upgrade(empty_database_url, "0011")
    rooms, games = asyncio.run(
        run(
            "SELECT id, game, options::text FROM rooms ORDER BY id",
            "SELECT setup::text FROM games",
        )
    )
    assert [(r["id"], r["game"], json.loads(r["options"])) for r in rooms] == [
        ("room0000000000aa", "ishtar", {"layout": "random", "first_player": 1}),
        ("room0000000000bb", "ishtar", {"layout": "preset", "first_player": None}),
    ]
    assert json.loads(games[0]["setup"])["options"] == {
        "layout": "random",
        "first_player": 1,
    }
    migrate.downgrade(empty_database_url, "0010")
    (back,) = asyncio.run(run("SELECT id, layout, first_player FROM rooms ORDER BY id"))
    assert [tuple(row) for row in back] == [
        ("room0000000000aa", "random", 1),
        ("room0000000000bb", "preset", None),
    ]


BABYLON = json.dumps({"floor": "lower"})
"""The options of the Babylon Gardens room the migrations must leave alone."""

Run = Callable[..., Coroutine[Any, Any, list[asyncpg.Record]]]


def sql_runner(url: str) -> Run:
    """`run(statement)` fetches its rows; `run(statement, *rows)` executes it for each row."""

    async def run(statement: str, *rows: tuple[object, ...]) -> list[asyncpg.Record]:
        conn = await asyncpg.connect(asyncpg_dsn(url))
        try:
            if rows:
                await conn.executemany(statement, rows)
                return []
            return await conn.fetch(statement)
        finally:
            await conn.close()

    return run


def seed_two_games(run: Run, url: str, revision: str, ishtar: str, engine: str) -> None:
    """At `revision`: rooms aa (Ishtar, options `ishtar`) and bb (Babylon Gardens) with a
    started game each (aa's of `engine`), and cc, an Ishtar room not started."""
    migrate.upgrade(url, revision)
    asyncio.run(
        run(
            "INSERT INTO rooms (id, game, options, players, seat_order, host_token_hash)"
            " VALUES ($1, $2, $3::jsonb, 2, 'fixed', '\\x00'::bytea)",
            ("room0000000000aa", "ishtar", ishtar),
            ("room0000000000bb", "babylon-gardens", BABYLON),
            ("room0000000000cc", "ishtar", ishtar),
        )
    )
    asyncio.run(
        run(
            "INSERT INTO games (room_id, engine, seed, setup, snapshot, current_seat)"
            " VALUES ($1, $2, 7, $3::jsonb, '{}', 0)",
            ("room0000000000aa", engine, f'{{"players": 2, "options": {ishtar}}}'),
            (
                "room0000000000bb",
                "babylon-gardens 1.0.0",
                f'{{"players": 2, "options": {BABYLON}}}',
            ),
        )
    )


def test_ishtar_games_begun_before_engine_1_2_keep_turns_that_end_by_themselves(
    empty_database_url: str,
) -> None:
    """Migration 0013: the set-up options of the Ishtar games already there say
    ``turn_end: "auto"`` (their move logs have no `end` where a turn ended by itself), rooms
    not yet started and games of other games are left alone; the downgrade takes it out."""

    run = sql_runner(empty_database_url)

    ishtar = json.dumps({"layout": "preset", "first_player": None})
    seed_two_games(run, empty_database_url, "0012", ishtar, "ishtar 1.1.0")
    select = "SELECT room_id, setup->'options' AS o FROM games ORDER BY room_id"
    migrate.upgrade(empty_database_url, "0013")
    upgraded = [(g["room_id"], json.loads(g["o"])) for g in asyncio.run(run(select))]
    assert upgraded == [
        (
            "room0000000000aa",
            {"layout": "preset", "first_player": None, "turn_end": "auto"},
        ),
        ("room0000000000bb", {"floor": "lower"}),
    ]
    (room,) = asyncio.run(
        run("SELECT options FROM rooms WHERE id = 'room0000000000cc'")
    )
    assert json.loads(room["options"]) == json.loads(ishtar), "not started: left alone"
    migrate.downgrade(empty_database_url, "0012")
    downgraded = [json.loads(g["o"]) for g in asyncio.run(run(select))]
    assert downgraded == [json.loads(ishtar), json.loads(BABYLON)]


def test_moves_logged_before_messages_keep_a_null_message(
    empty_database_url: str,
) -> None:
    """Migration 0014: `moves.message` is a nullable JSONB column; the moves already logged
    have none (their text stays), and the downgrade drops the column."""

    async def run(statement: str, *args: object) -> list[asyncpg.Record]:
        conn = await asyncpg.connect(asyncpg_dsn(empty_database_url))
        try:
            return await conn.fetch(statement, *args)
        finally:
            await conn.close()

    migrate.upgrade(empty_database_url, "0013")
    asyncio.run(
        run(
            "INSERT INTO rooms (id, game, options, players, seat_order, host_token_hash)"
            " VALUES ('room0000000000aa', 'ishtar', '{}', 2, 'fixed', '\\x00'::bytea)"
        )
    )
    asyncio.run(
        run(
            "WITH g AS (INSERT INTO games (room_id, engine, seed, setup, snapshot,"
            " current_seat) VALUES ('room0000000000aa', 'ishtar 1.2.0', 7, '{}', '{}', 0)"
            " RETURNING id)"
            " INSERT INTO moves (game_id, seq, seat, action, move_id, text)"
            " SELECT id, 1, 0, '{\"type\": \"end\"}', 'm1', 'Blue ended the turn' FROM g"
        )
    )
    migrate.upgrade(empty_database_url, "0014")
    (move,) = asyncio.run(run("SELECT text, message FROM moves"))
    assert (move["text"], move["message"]) == ("Blue ended the turn", None)
    (column,) = asyncio.run(
        run(
            "SELECT data_type, is_nullable FROM information_schema.columns"
            " WHERE table_name = 'moves' AND column_name = 'message'"
        )
    )
    assert (column["data_type"], column["is_nullable"]) == ("jsonb", "YES")
    migrate.downgrade(empty_database_url, "0013")
    assert (
        asyncio.run(
            run(
                "SELECT 1 FROM information_schema.columns"
                " WHERE table_name = 'moves' AND column_name = 'message'"
            )
        )
        == []
    )


def test_ishtar_games_begun_before_editions_keep_the_first_edition(
    empty_database_url: str,
) -> None:
    """Migration 0015: the set-up options of the Ishtar games already there say
    ``edition: "1"`` (the numbers they were played with), and the engine sets them up so;
    rooms not yet started and games of other games are left alone; the downgrade takes it
    out, and refuses while a game of another edition is there."""

    run = sql_runner(empty_database_url)

    ishtar = json.dumps(
        {"layout": "preset", "first_player": None, "turn_end": "explicit"}
    )
    seed_two_games(run, empty_database_url, "0014", ishtar, "ishtar 1.2.0")
    select = "SELECT room_id, setup->'options' AS o FROM games ORDER BY room_id"
    migrate.upgrade(empty_database_url, "head")
    upgraded = [(g["room_id"], json.loads(g["o"])) for g in asyncio.run(run(select))]
    assert upgraded == [
        ("room0000000000aa", {**json.loads(ishtar), "edition": "1"}),
        ("room0000000000bb", {"floor": "lower"}),
    ]
    options = upgraded[0][1]
    assert check_options(2, options)["edition"] == "1"
    assert new_game(2, 7, options).edition == "1"
    (room,) = asyncio.run(
        run("SELECT options FROM rooms WHERE id = 'room0000000000cc'")
    )
    assert json.loads(room["options"]) == json.loads(ishtar), "not started: left alone"
    assert check_options(2, json.loads(room["options"]))["edition"] == "4", (
        "it starts with the default of new games"
    )

    migrate.downgrade(empty_database_url, "0014")
    downgraded = [json.loads(g["o"]) for g in asyncio.run(run(select))]
    assert downgraded == [json.loads(ishtar), json.loads(BABYLON)]
    migrate.upgrade(empty_database_url, "head")
    asyncio.run(
        run(
            "UPDATE games SET setup = jsonb_set(setup, '{options,edition}', '\"2\"')"
            " WHERE room_id = 'room0000000000aa'"
        )
    )
    with pytest.raises(Exception, match="edition other than 1"):
        migrate.downgrade(empty_database_url, "0014")
