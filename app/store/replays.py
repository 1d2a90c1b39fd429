"""Persistence of replays: the SQL of app/records/replays.py.

A replay of move k reads the nearest stored state before k and the moves from there to k,
never the whole game: for a room's game, a row of `snapshots` (written every few moves,
app/play/snapshots.py) and the move log after it; for an imported record, one row of
`record_snapshots` (its state and the moves up to the next row, written on import).
Knows SQL and no rules.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.store.pool import Pools
from app.store.rows import Event


@dataclass(frozen=True)
class ReplayGame:
    """What a room's replay needs of its game besides the moves."""

    game: str
    """The registry's id of the room's game."""
    game_id: int
    version: int
    finished: bool
    seed: int
    setup: dict[str, Any]


@dataclass(frozen=True)
class RecordFacts:
    """What a replay of an imported record needs without reading its text."""

    moves: int
    status: str | None
    """"playing" or "finished"; None for records imported before migration 0010."""
    game: str


@dataclass(frozen=True)
class Checkpoint:
    """A stored state and the moves after it: `state` is the encoded state at `at` (None:
    the set-up, to be dealt again from the seed), `moves` the logged moves after `at`."""

    at: int
    state: Any
    moves: list[dict[str, Any]]


@dataclass(frozen=True)
class Chunk:
    """A row of `record_snapshots`: the state at `version` as JSON text, and the record's
    moves after it up to the next row, as JSON text."""

    version: int
    state_json: str
    moves_json: str


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


class ReplayStore(Pools):
    """SQL for replays (a part of `Store`: ``store.replays``)."""

    # --- rooms ------------------------------------------------------------------------------

    async def game(self, room_id: str) -> ReplayGame | None:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT g.id, r.game, g.version, g.status, g.seed, g.setup"
                " FROM games g JOIN rooms r ON r.id = g.room_id"
                " WHERE g.room_id = $1",
                room_id,
            )
        if row is None:
            return None
        return ReplayGame(
            game=row["game"],
            game_id=row["id"],
            version=row["version"],
            finished=row["status"] == "finished",
            seed=row["seed"],
            setup=_json(row["setup"]),
        )

    async def room_checkpoint(self, game_id: int, move: int) -> Checkpoint:
        """The latest snapshot before `move` (at 0 the set-up) and the moves up to `move`.

        Strictly before, so that move `move` itself is among the moves: its event is part
        of the answer."""
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT version, state FROM snapshots WHERE game_id = $1"
                " AND version < $2 ORDER BY version DESC LIMIT 1",
                game_id,
                move,
            )
            at, state = (row["version"], row["state"]) if row is not None else (0, None)
            rows = await conn.fetch(
                "SELECT seq, seat, action, text, created_at, message FROM moves"
                " WHERE game_id = $1 AND seq > $2 AND seq <= $3"
                " ORDER BY seq",
                game_id,
                at,
                move,
            )
        moves = [
            Event(
                r["seq"],
                r["seat"],
                _json(r["action"]),
                r["text"],
                r["created_at"],
                # The log line's message, as the live log sends it (docs/protocol.md).
                message=None if r["message"] is None else _json(r["message"]),
            ).as_dict()
            for r in rows
        ]
        return Checkpoint(at, state, moves)

    async def save_snapshots(
        self, game_id: int, states: Sequence[tuple[int, str]]
    ) -> None:
        """Store snapshots a replay passed through but did not find (lost writes, or games
        older than the `snapshots` table); one that is there already is kept."""
        async with self._transaction() as conn:
            await conn.executemany(
                "INSERT INTO snapshots (game_id, version, state)"
                " VALUES ($1, $2, $3::jsonb) ON CONFLICT DO NOTHING",
                [(game_id, version, state) for version, state in states],
            )

    # --- imported records -------------------------------------------------------------------

    async def record(self, record_id: str) -> RecordFacts | None:
        """(moves, status, game) of an imported record; None if there is no such record."""
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT moves, status, game FROM game_records WHERE id = $1", record_id
            )
        return None if row is None else RecordFacts(*row)

    async def record_checkpoint(self, record_id: str, move: int) -> Checkpoint | None:
        """The row of `record_snapshots` that holds move `move` (at 0 the first one);
        None if the record has none (imported before they were written)."""
        async with self._conn() as conn:
            row = await conn.fetchrow(
                "SELECT version, state, moves FROM record_snapshots"
                " WHERE record_id = $1 AND version < GREATEST($2, 1)"
                " ORDER BY version DESC LIMIT 1",
                record_id,
                move,
            )
        if row is None:
            return None
        moves: list[dict[str, Any]] = _json(row["moves"])
        version: int = row["version"]
        return Checkpoint(version, row["state"], moves[: move - version])

    async def save_record_chunks(
        self, record_id: str, status: str, chunks: Sequence[Chunk]
    ) -> None:
        """Store the replay rows of an imported record, and its status, in one transaction."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE game_records SET status = $2 WHERE id = $1", record_id, status
            )
            await conn.executemany(
                "INSERT INTO record_snapshots (record_id, version, state, moves)"
                " VALUES ($1, $2, $3::jsonb, $4::jsonb) ON CONFLICT DO NOTHING",
                [
                    (record_id, chunk.version, chunk.state_json, chunk.moves_json)
                    for chunk in chunks
                ],
            )
