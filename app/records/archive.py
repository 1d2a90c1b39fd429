"""Records and replays of games: export a room's game record, import one, and the board at
any move of either (docs/records.md, docs/protocol.md "Replays and records").

Replays show the public (spectator) view at every move, whoever asks: the same hiding rules
as live play. A game in progress replays only up to its current move, and its record carries
the SHA-256 commitment of the seed but not the seed, which is revealed once the game is over.
Replayed views are computed from the nearest stored snapshot, off the event loop, and cached
in bytes (app/records/replays.py; the log is the truth). An imported record is checked by replaying
it (app/records/gamerecord.py), in a worker thread, before it is stored with its replay rows.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache

from app.games import Registry
from app.play.positions import catalogue_colours
from app.play.protocol import ServiceError, msg
from app.play.rules import A, Rules, S
from app.play.service import RoomService
from app.records import loglines
from app.records.gamerecord import RecordError, build_record, seed_commitment
from app.records.provenance import Provenance
from app.records.replays import CheckedRecord, Replays, check_for_replays, state_after
from app.store.records import GameFacts, RecordStore
from app.store.replays import RecordFacts, ReplayGame
from app.store.rows import RoomRow, iso

RECORD_ID_CHARS = 16
MAX_RECORD_BYTES = 2 << 20
"""Largest record accepted for import (a long 4-player game with undos is ~150 KB)."""
SHUFFLE_FACTS_BYTES = 1 << 20
"""Bytes of rooms' shuffle facts kept (a seed and the rematch's id): some 2,700 rooms. Every
room whose status was ever read stayed before (issue 17: idle games must cost nothing)."""
SHUFFLE_FACTS_ENTRY_BYTES = 384
"""One room's facts with its key and the cache's bookkeeping: 321 bytes measured with
tracemalloc (tests/app/play/test_idle_games_memory.py), rounded up."""


def record_id(record: Any) -> str:
    """The id of an imported record: from the SHA-256 of its canonical JSON."""
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:RECORD_ID_CHARS]


@dataclass(frozen=True)
class _Import:
    """A record checked for import: its id, its text as stored, and what replays need."""

    record_id: str
    body: str
    checked: CheckedRecord


def _check_import(registry: Registry, record: Any) -> _Import:
    """Check a record and serialise it: CPU-bound (a 2 MiB record), in a worker thread."""
    checked = check_for_replays(registry, record)
    return _Import(record_id(record), json.dumps(record, ensure_ascii=False), checked)


def _ends(
    rules: Rules[S, A], game: ReplayGame, final: Any
) -> tuple[dict[str, Any], Any]:
    """What the set-up drew in public, and the final scores if `final` (a checkpoint at the
    last move of a finished game) ends the game. CPU-bound, in a worker thread."""
    setup = game.setup

    def start() -> S:
        return rules.new_game(setup["players"], game.seed, setup["options"])

    public = rules.public_setup(start())
    if final is None:
        return public, None
    state, _passed = state_after(rules, start, final, game.version)
    return public, rules.final_scores(state) if rules.is_over(state) else None


def _plausible(key: str, most: int) -> bool:
    """Whether an id could be one: not too long, no NUL (which PostgreSQL text refuses)."""
    return len(key) <= most and "\x00" not in key


class Archive:
    """Export, import and replay of game records, over the rooms service and its engine."""

    def __init__(
        self,
        store: RecordStore,
        rooms: RoomService,
        provenance: Provenance,
        replays: Replays,
    ) -> None:
        self.store = store
        self.provenance = provenance
        self.rooms = rooms
        self.replays = replays
        self.registry = rooms.registry
        self._colours = {g.id: catalogue_colours(g.rules) for g in self.registry}
        # room -> its seed (never changes) and its rematch (never changes once made)
        self._shuffles: LRUCache[str, tuple[int, str | None]] = LRUCache(
            maxsize=SHUFFLE_FACTS_BYTES, getsizeof=lambda _: SHUFFLE_FACTS_ENTRY_BYTES
        )

    # --- rooms ------------------------------------------------------------------------------

    async def _facts(self, room_id: str) -> GameFacts:
        facts = await self.store.game(room_id) if len(room_id) <= 16 else None
        if facts is None:
            await self._not_started(room_id)
        assert facts is not None
        return facts

    async def facts(self, room_id: str) -> GameFacts:
        """What the store knows of a room's started game (unknown_room if there is no such
        room, game_not_started before its start)."""
        return await self._facts(room_id)

    async def _not_started(self, room_id: str) -> None:
        await self.rooms.rooms.room(room_id)  # unknown_room if there is no such room
        raise ServiceError(
            "game_not_started",
            "The game has not started yet.",
            version=0,
            message=msg("error.game_not_started.yet"),
        )

    async def record(self, room_id: str) -> dict[str, Any]:
        """The game record of a room, signed: the seed only once the game is over."""
        facts = await self._facts(room_id)
        events = [
            event.as_dict()
            for event in await self.store.moves(facts.game_id, 0, facts.version)
        ]
        kind = self.registry.get(facts.game)
        game = ReplayGame(
            facts.game,
            facts.game_id,
            facts.version,
            facts.finished,
            facts.seed,
            facts.setup,
        )
        final = (
            await self.replays.store.room_checkpoint(facts.game_id, facts.version)
            if facts.finished
            else None
        )
        public, result = await self.replays.offload.thread(
            _ends, kind.rules, game, final
        )
        finished = result is not None
        colours = self._colours[kind.id]
        players = [
            {
                "seat": seat,
                "name": name,
                "colour": colours[seat] if seat < len(colours) else None,
                "bot": bot,
            }
            for seat, name, bot in facts.seats
        ]
        engine_version = facts.engine.rpartition(" ")[2] or kind.rules.ENGINE_VERSION
        record = build_record(
            kind,
            room_id=room_id,
            engine_version=engine_version,
            players=players,
            setup=facts.setup,
            seed=facts.seed,
            moves=events,
            started_at=iso(facts.started_at),
            finished_at=events[-1]["at"] if finished and events else None,
            public_setup=public,
            result=result,
        )
        return await self.provenance.sign(record)

    async def room_view(self, room_id: str, move: int | None) -> str:
        """The public view of a room's game after `move` (None: the latest), as the JSON
        text of the replay answer."""
        if not _plausible(room_id, 16):  # not sent to the database: no room has it
            raise ServiceError(
                "unknown_room",
                f"There is no room {room_id[:16]!r}.",
                message=msg("error.unknown_room.id", room=room_id[:16]),
            )
        game = await self.replays.store.game(room_id)
        if game is None:
            await self._not_started(room_id)
        assert game is not None
        return await self.replays.room(room_id, game, move)

    async def status_facts(self, room: RoomRow) -> dict[str, Any]:
        """For the room status: the seed's SHA-256 commitment from the start, the seed
        once the game is over, and the room of the rematch if there is one."""
        if room.started is None:
            return {"seed_sha256": None, "seed": None, "rematch": None}
        known = self._shuffles.get(room.id)
        seed, rematch = known if known is not None else (None, None)
        if seed is None or (room.status == "finished" and rematch is None):
            seed, _finished, rematch = await self.store.shuffle_facts(room.id)
            if seed is None:  # pragma: no cover - a started room has a game
                return {"seed_sha256": None, "seed": None, "rematch": None}
            self._shuffles[room.id] = (seed, rematch)
        finished = room.status == "finished"
        return {
            "seed_sha256": seed_commitment(seed),
            "seed": str(seed) if finished else None,
            "rematch": rematch if finished else None,
        }

    # --- imported records -------------------------------------------------------------------

    async def import_record(self, record: Any) -> dict[str, Any]:
        """Check a record by replaying it and where it comes from, and keep it with its
        replay rows; its id, link and what was checked (a forgery of a room here is refused)."""
        try:  # up to a few thousand engine steps: off the event loop
            checked = await self.replays.offload.thread(
                _check_import, self.registry, record
            )
        except RecordError as error:
            raise ServiceError(
                "bad_record", error.reason, message=error.message
            ) from None
        provenance = await self.provenance.check(record)
        rid = checked.record_id
        await self.store.save_record(
            rid, checked.checked.game, checked.body, checked.checked.moves
        )
        await self.replays.keep(rid, checked.checked)
        return {
            "record_id": rid,
            "url": f"/records/{rid}",
            "version": checked.checked.moves,
            "status": checked.checked.status,
            "provenance": provenance,
            "warnings": checked.checked.warnings,
        }

    async def provenance_of(self, record: Any) -> dict[str, Any]:
        """Where a record comes from (its signature, its room here), without replaying it."""
        if not isinstance(record, dict):
            raise ServiceError(
                "bad_record",
                "A game record is a JSON object.",
                message=msg("error.bad_record.not_object"),
            )
        return await self.provenance.check(record)

    async def imported(self, rid: str) -> dict[str, Any]:
        body = (
            await self.store.load_record(rid) if len(rid) == RECORD_ID_CHARS else None
        )
        if body is None:
            raise ServiceError(
                "unknown_record",
                f"There is no record {rid[:16]!r}.",
                message=msg("error.unknown_record.id", record=rid[:16]),
            )
        record: dict[str, Any] = json.loads(body)
        return record

    async def imported_view(self, rid: str, move: int | None) -> str:
        """The public view of an imported record after `move`, as the JSON text of the
        replay answer."""
        facts = await self._record_facts(rid)
        return await self.replays.record(rid, facts, move, self.store.load_record)

    async def _record_facts(self, rid: str) -> RecordFacts:
        facts = (
            await self.replays.store.record(rid)
            if _plausible(rid, RECORD_ID_CHARS)
            else None
        )
        if facts is None:
            raise ServiceError(
                "unknown_record",
                f"There is no record {rid[:16]!r}.",
                message=msg("error.unknown_record.id", record=rid[:16]),
            )
        return facts

    # --- the move list's lines (app/records/loglines.py) ------------------------------------

    async def room_log(self, room_id: str) -> str:
        """Each move's message of a room's game so far, as the JSON text of the answer."""
        facts = await self._facts(room_id)
        return loglines.answer(await self.store.messages(facts.game_id, facts.version))

    async def imported_log(self, rid: str) -> str:
        """Each move's message of an imported record, found by replaying it once; the
        answer is kept in the replays' cache (bounded in bytes), as a replayed view is."""
        await self._record_facts(rid)
        key = ("log", rid, 0)
        cached = self.replays.cache.get(key)
        if cached is not None:
            return cached[0]

        async def replay() -> str:
            body = await self.store.load_record(rid)
            if body is None:  # pragma: no cover - deleted meanwhile
                raise ServiceError(
                    "unknown_record",
                    f"There is no record {rid[:16]!r}.",
                    message=msg("error.unknown_record.id", record=rid[:16]),
                )
            messages = await self.replays.offload.thread(
                loglines.record_messages, self.registry, body
            )
            text = loglines.answer(messages)
            self.replays.cache.put(key, (text, ""))
            return text

        return await self.replays.offload.once(key, replay)
