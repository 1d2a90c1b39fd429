"""Replays: the public view of a room's game or of an imported record after any move.

A replay of move k starts from the nearest stored state before k, not from move 0: a room's
game has a snapshot every `SNAPSHOT_EVERY` versions (the `snapshots` table, written after
the moves by app/play/snapshots.py), an imported record one row per `SNAPSHOT_EVERY` moves with
the moves that follow it (`record_snapshots`, written on import). So a replay decodes one
state and applies at most `SNAPSHOT_EVERY` moves, whatever the length of the game, and that
work runs in a worker thread (app/records/offload.py), not on the event loop that plays the games.

The answers are kept in a cache bounded in bytes (`ISHTAR_REPLAY_CACHE_BYTES`): each entry
is the view's JSON text and its event's, counted at their size in memory, plus a fixed
allowance for the key and the cache's bookkeeping. What a replay shows never changes (the
log is append-only; an undo is a move of its own), so an entry stays valid for as long as it
is kept. A replay that finds snapshots missing (a write that was lost, a game older than the
table) stores those it passed, so the next one is short; a record imported before its rows
existed gets them on its first replay.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache

from app.games import Registry
from app.play.protocol import ServiceError, dumps, msg
from app.play.rules import A, Rules, S
from app.play.snapshots import SNAPSHOT_EVERY
from app.records.gamerecord import RecordError, check_record
from app.records.offload import Offload
from app.store.replays import Checkpoint, Chunk, RecordFacts, ReplayGame, ReplayStore

ENTRY_BYTES = 640
"""What one cache entry costs besides its two texts: its key (a tuple of a short id and a
number), the tuple of the texts and the cache's own dict slots and order links, with a share of
the tables those grow in steps (a cache of a few large entries). Measured with
tracemalloc in tests/app/records/test_replay_cache.py: 440-450 bytes an entry in a cache of
17 large ones; 512 left a margin of 1.2 KB in 508 KB, which the noise of that measure once
crossed, so it is rounded up with room to spare."""

Key = tuple[str, str, int]  # ("room" | "record", id, move), or ("log", record id, 0)


@dataclass(frozen=True)
class Replayed:
    """A move replayed: its public view and its event as JSON text (event "null" at 0),
    and the snapshots it passed that were not stored (version, encoded state)."""

    view_json: str
    event_json: str
    missing: list[tuple[int, str]]


def entry_size(value: tuple[str, str]) -> int:
    """The bytes a cached replay holds: its texts as allocated, and `ENTRY_BYTES`."""
    view, event = value
    return sys.getsizeof(view) + sys.getsizeof(event) + ENTRY_BYTES


class ReplayCache:
    """Replayed views by (source, id, move), the least recently used dropped first, at
    most `max_bytes` of them (by `entry_size`)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._lru: LRUCache[Key, tuple[str, str]] = LRUCache(
            maxsize=max(max_bytes, 1), getsizeof=entry_size
        )

    def get(self, key: Key) -> tuple[str, str] | None:
        return self._lru.get(key)

    def put(self, key: Key, value: tuple[str, str]) -> None:
        if entry_size(value) <= self.max_bytes:  # one larger than the cache: not kept
            self._lru[key] = value

    @property
    def bytes(self) -> int:
        """The bytes the cache holds now, by `entry_size`."""
        return int(self._lru.currsize)

    def __len__(self) -> int:
        return len(self._lru)


def state_after(
    rules: Rules[S, A],
    start: Callable[[], S],
    checkpoint: Checkpoint,
    move: int,
    *,
    keep_passed: bool = False,
) -> tuple[S, list[tuple[int, str]]]:
    """The state after `move`: the checkpoint's state (or `start()`, the set-up) with its
    moves applied; with `keep_passed`, also the states at snapshot versions on the way,
    encoded, to be stored. Pure and CPU-bound: run in a worker thread."""
    if checkpoint.state is None:
        state = start()
    else:
        encoded = checkpoint.state
        state = rules.decode_state(
            json.loads(encoded) if isinstance(encoded, str) else encoded
        )
    passed: list[tuple[int, str]] = []
    for event in checkpoint.moves:
        state = rules.apply(state, rules.decode_action(event["action"]))
        seq = event["seq"]
        if keep_passed and seq % SNAPSHOT_EVERY == 0 and seq < move:
            passed.append((seq, dumps(rules.encode_state(state))))
    last = checkpoint.moves[-1]["seq"] if checkpoint.moves else checkpoint.at
    if last != move:  # pragma: no cover - the log is append-only and read after version
        raise RuntimeError(f"replay reached move {last}, not {move}")
    return state, passed


def replay_moves(
    rules: Rules[S, A],
    start: Callable[[], S],
    checkpoint: Checkpoint,
    move: int,
    *,
    keep_passed: bool,
) -> Replayed:
    """The public view and the event of `move`, as JSON text (`state_after`)."""
    state, passed = state_after(rules, start, checkpoint, move, keep_passed=keep_passed)
    event_json = dumps(checkpoint.moves[-1]) if move else "null"
    return Replayed(dumps(rules.view_for(state, None)), event_json, passed)


@dataclass(frozen=True)
class CheckedRecord:
    """A record that replays: its status, number of moves, the checker's warnings and its
    replay rows (the state at every `SNAPSHOT_EVERY`-th version before the last, and at 0,
    each with the moves up to the next)."""

    game: str
    status: str
    moves: int
    warnings: list[str]
    chunks: list[Chunk]


def check_for_replays(registry: Registry, record: Any) -> CheckedRecord:
    """Check a record by replaying it (RecordError if it does not) and cut it into replay
    rows. CPU-bound: run in a worker thread."""
    checked = check_record(registry, record)
    rules = checked.game.rules
    moves = checked.record["moves"]
    chunks = [
        Chunk(
            version,
            dumps(rules.encode_state(checked.states[version])),
            dumps(moves[version : version + SNAPSHOT_EVERY]),
        )
        for version in range(0, max(len(moves), 1), SNAPSHOT_EVERY)
    ]
    return CheckedRecord(
        checked.game.id, str(record["status"]), len(moves), checked.warnings, chunks
    )


def check_text(registry: Registry, body: str) -> CheckedRecord:
    """`check_for_replays` of a record's stored text."""
    return check_for_replays(registry, json.loads(body))


def answer(move: int, version: int, status: str, replayed: tuple[str, str]) -> str:
    """The replay answer (docs/protocol.md, "Replays") as JSON text."""
    view, event = replayed
    return (
        f'{{"move":{move},"version":{version},"status":{dumps(status)},'
        f'"view":{view},"event":{event}}}'
    )


def no_such_move(move: int, version: int) -> ServiceError:
    return ServiceError(
        "no_such_move",
        f"Move {move} has not been played: this game has moves 0 to {version}.",
        version=version,
        message=msg("error.no_such_move.range", move=move, version=version),
    )


class Replays:
    """Replays of rooms' games and of imported records, cached and off the event loop."""

    def __init__(
        self,
        store: ReplayStore,
        registry: Registry,
        cache: ReplayCache,
        offload: Offload,
    ) -> None:
        self.store = store
        self.registry = registry
        self.cache = cache
        self.offload = offload

    # --- rooms ------------------------------------------------------------------------------

    async def room(self, room_id: str, game: ReplayGame, move: int | None) -> str:
        """The replay answer of a room's game after `move` (None: the latest)."""
        version = game.version
        at = version if move is None else move
        if not 0 <= at <= version:
            raise no_such_move(at, version)
        status = "finished" if game.finished else "playing"
        key: Key = ("room", room_id, at)
        texts = self.cache.get(key)
        if texts is None:
            texts = await self.offload.once(key, lambda: self._room(key, game, at))
        return answer(at, version, status, texts)

    async def _room(self, key: Key, game: ReplayGame, at: int) -> tuple[str, str]:
        checkpoint = await self.store.room_checkpoint(game.game_id, at)
        rules = self.registry.get(game.game).rules

        def start() -> Any:
            setup = game.setup
            return rules.new_game(setup["players"], game.seed, setup["options"])

        replayed = await self.offload.thread(
            replay_moves,
            rules,
            start,
            checkpoint,
            at,
            keep_passed=len(checkpoint.moves) > SNAPSHOT_EVERY,
        )
        if replayed.missing:
            await self.store.save_snapshots(game.game_id, replayed.missing)
        texts = (replayed.view_json, replayed.event_json)
        self.cache.put(key, texts)
        return texts

    # --- imported records -------------------------------------------------------------------

    async def record(
        self,
        record_id: str,
        facts: RecordFacts,
        move: int | None,
        load: Callable[[str], Awaitable[str | None]],
    ) -> str:
        """The replay answer of an imported record after `move` (None: the latest).

        `facts` are its number of moves and status; `load` reads the record's text, needed
        only if its replay rows are missing (imported before they were written)."""
        version, status = facts.moves, facts.status
        at = version if move is None else move
        if not 0 <= at <= version:
            raise no_such_move(at, version)
        key: Key = ("record", record_id, at)
        cached = self.cache.get(key)
        if cached is not None and status is not None:
            return answer(at, version, status, cached)
        texts, known = await self.offload.once(
            key, lambda: self._record(key, record_id, facts.game, at, load)
        )
        return answer(at, version, known, texts)

    async def _record(
        self,
        key: Key,
        record_id: str,
        kind: str,
        at: int,
        load: Callable[[str], Awaitable[str | None]],
    ) -> tuple[tuple[str, str], str]:
        checkpoint = await self.store.record_checkpoint(record_id, at)
        facts = await self.store.record(record_id)
        status = facts.status if facts is not None else None
        if checkpoint is None or status is None:
            status = await self.offload.once(
                ("rows", record_id), lambda: self._rebuild(record_id, load)
            )
            checkpoint = await self.store.record_checkpoint(record_id, at)
        if checkpoint is None:  # pragma: no cover - deleted meanwhile
            raise ServiceError(
                "unknown_record",
                f"There is no record {record_id!r}.",
                message=msg("error.unknown_record.id", record=record_id),
            )
        replayed = await self.offload.thread(
            replay_moves,
            self.registry.get(kind).rules,
            _no_setup,
            checkpoint,
            at,
            keep_passed=False,
        )
        texts = (replayed.view_json, replayed.event_json)
        self.cache.put(key, texts)
        return texts, status

    async def _rebuild(
        self, record_id: str, load: Callable[[str], Awaitable[str | None]]
    ) -> str:
        """Write the replay rows of a record imported before they existed; its status."""
        body = await load(record_id)
        if body is None:  # pragma: no cover - deleted meanwhile
            raise ServiceError("unknown_record", f"There is no record {record_id!r}.")
        try:
            checked = await self.offload.thread(check_text, self.registry, body)
        except RecordError as error:  # pragma: no cover - checked on import
            raise ServiceError("bad_record", error.reason) from None
        await self.keep(record_id, checked)
        return checked.status

    async def keep(self, record_id: str, checked: CheckedRecord) -> None:
        """Store the replay rows of a checked record (after the record itself)."""
        await self.store.save_record_chunks(record_id, checked.status, checked.chunks)


def _no_setup() -> Any:  # pragma: no cover - a record's first row is its set-up
    raise RuntimeError("a record's replay rows start at move 0")
