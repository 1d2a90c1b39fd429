"""What the database says happened, checked against what the clients were told.

After a chaos run, `check_games` reads every game's move log and snapshot and asserts:

- the log is gap-free (seq 1..version) and every ``move_id`` in it was sent by a client;
- every move a client saw acknowledged is in the log, at the acknowledged version, with the
  action the client sent (no acknowledged move lost), and appears exactly once (none
  applied twice: the retries of a move reused its id);
- replaying the log from the game's set-up reproduces the stored snapshot exactly (the
  snapshot is of ``snapshot_version``: kept every few moves and at the end), and the whole
  log replays to a finished game exactly when the game is stored as finished.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import pool, text
from sqlalchemy.ext.asyncio import create_async_engine

from engine import ishtar
from tests.chaos.players import Player


@dataclass
class GameRecord:
    room_id: str
    status: str
    version: int
    setup: dict[str, Any]
    seed: int
    snapshot: dict[str, Any]
    snapshot_version: int  # the snapshot is the state after this many moves
    moves: list[dict[str, Any]]


async def read_games(database_url: str) -> dict[str, GameRecord]:
    db = create_async_engine(database_url, poolclass=pool.NullPool)
    try:
        async with db.connect() as conn:
            games = (
                await conn.execute(
                    text(
                        "SELECT id, room_id, status, version, setup, seed, snapshot,"
                        " snapshot_version FROM games"
                    )
                )
            ).all()
            out = {}
            for game in games:
                rows = await conn.execute(
                    text(
                        "SELECT seq, seat, action, move_id FROM moves"
                        " WHERE game_id = :id ORDER BY seq"
                    ),
                    {"id": game.id},
                )
                out[game.room_id] = GameRecord(
                    game.room_id,
                    game.status,
                    game.version,
                    game.setup,
                    game.seed,
                    game.snapshot,
                    game.snapshot_version,
                    [row._asdict() for row in rows],
                )
            return out
    finally:
        await db.dispose()


def replay_setup(game: GameRecord) -> dict[str, Any]:
    """The `engine.replay` set-up of a stored game (the seed may live beside it; the
    options, the edition among them, under ``options`` as the server stores them)."""
    setup = dict(game.setup)
    setup.setdefault("seed", game.seed)
    keys = ("players", "seed", "layout", "first_player", "options")
    return {k: setup.get(k) for k in keys}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def check_games(games: dict[str, GameRecord], players: Iterable[Player]) -> None:
    by_room: dict[str, list[Player]] = {}
    for player in players:
        by_room.setdefault(player.table.room_id, []).append(player)
    for room_id, seats in by_room.items():
        game = games[room_id]
        sent = {mid: move for p in seats for mid, move in p.sent.items()}
        logged = {row["move_id"]: row for row in game.moves}
        assert [row["seq"] for row in game.moves] == list(range(1, game.version + 1))
        assert len(logged) == len(game.moves), "a move_id was applied twice"
        assert set(logged) <= set(sent), "the log holds a move no client sent"
        for player in seats:
            for move_id, (version, move) in player.acked.items():
                row = logged.get(move_id)
                assert row is not None, f"acknowledged move {move_id} was lost"
                assert row["seq"] == version
                assert row["seat"] == player.seat
                assert canonical(row["action"]) == canonical(move)
        # The snapshot is written every few moves (app/play/snapshots.py, after the move) and at the end.
        actions = [row["action"] for row in game.moves]
        state = ishtar.replay(replay_setup(game), actions[: game.snapshot_version])
        assert canonical(ishtar.encode_state(state)) == canonical(game.snapshot)
        final = ishtar.replay(replay_setup(game), actions)
        assert ishtar.is_over(final) == (game.status == "finished")
