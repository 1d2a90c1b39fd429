"""Records and replays of games: export a room's game record, import one, and the board at
any move of either (docs/records.md, docs/protocol.md "Replays and records").

Replays show the public (spectator) view at every move, whoever asks: the same hiding rules
as live play. A game in progress replays only up to its current move, and its record carries
the SHA-256 commitment of the seed but not the seed, which is revealed once the game is over.
Replayed states are computed from the set-up and the move log with the engine and kept for
a few games (a cache: the log is the truth). An imported record is checked by replaying it
(app/gamerecord.py) before it is stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from app.gamerecord import (
    RecordError,
    Replayed,
    build_record,
    check_record,
    seed_commitment,
)
from app.positions import Rules, catalogue_colours
from app.protocol import ServiceError
from app.provenance import Provenance
from app.record_store import GameFacts, RecordStore
from app.rooms import RoomService
from app.rows import RoomRow, iso

RECORD_ID_CHARS = 16
CACHED_REPLAYS = 32
MAX_RECORD_BYTES = 2 << 20
"""Largest record accepted for import (a long 4-player game with undos is ~150 KB)."""


@dataclass
class _Replay:
    """The states of a game after each move (index = version) and the events that led there."""

    states: list[Any]
    events: list[dict[str, Any]] = field(default_factory=list)


def record_id(record: Any) -> str:
    """The id of an imported record: from the SHA-256 of its canonical JSON."""
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:RECORD_ID_CHARS]


class Archive:
    """Export, import and replay of game records, over the rooms service and its engine."""

    def __init__(
        self, store: RecordStore, rooms: RoomService, provenance: Provenance
    ) -> None:
        self.store = store
        self.provenance = provenance
        self.rooms = rooms
        self.rules: Rules = rooms.rules
        self._replays: OrderedDict[tuple[str, str], _Replay] = OrderedDict()
        self._colours = catalogue_colours(self.rules)
        self._seeds: dict[str, int] = {}  # room -> seed (never changes)
        self._rematches: dict[str, str] = {}  # room -> its rematch (never changes)

    # --- rooms ------------------------------------------------------------------------------

    async def _facts(self, room_id: str) -> GameFacts:
        facts = await self.store.game(room_id) if len(room_id) <= 16 else None
        if facts is None:
            await self.rooms.room(room_id)  # unknown_room if there is no such room
            raise ServiceError(
                "game_not_started", "The game has not started yet.", version=0
            )
        return facts

    async def _room_replay(self, facts: GameFacts) -> _Replay:
        """The replay of a room's game up to its current version (cached, extended)."""
        key = ("room", facts.room_id)
        replay = self._cached(key)
        if replay is None:
            setup = {**facts.setup, "seed": facts.seed}
            state = self.rules.new_game(
                setup["players"],
                setup["seed"],
                setup.get("layout"),
                setup.get("first_player"),
            )
            replay = self._keep(key, _Replay([state]))
        known = len(replay.events)
        if known < facts.version:
            for event in await self.store.moves(facts.game_id, known, facts.version):
                if event.seq != len(replay.events) + 1:
                    continue  # a concurrent request extended the replay meanwhile
                action = self.rules.decode_action(event.action)
                replay.states.append(self.rules.apply(replay.states[-1], action))
                replay.events.append(event.as_dict())
        return replay

    async def record(self, room_id: str) -> dict[str, Any]:
        """The game record of a room, signed: the seed only once the game is over."""
        facts = await self._facts(room_id)
        replay = await self._room_replay(facts)
        states, events = replay.states, replay.events[: facts.version]
        final = states[facts.version]
        finished = facts.finished and bool(self.rules.is_over(final))
        colours = self._colours
        players = [
            {
                "seat": seat,
                "name": name,
                "colour": colours[seat] if seat < len(colours) else None,
                "bot": bot,
            }
            for seat, name, bot in facts.seats
        ]
        engine_version = facts.engine.rpartition(" ")[2] or str(
            getattr(self.rules, "ENGINE_VERSION", "?")
        )
        record = build_record(
            self.rules,
            room_id=room_id,
            engine_version=engine_version,
            players=players,
            setup=facts.setup,
            seed=facts.seed,
            moves=events,
            started_at=iso(facts.started_at),
            finished_at=events[-1]["at"] if finished and events else None,
            layout=self.rules.view_for(states[0], None).get("layout"),
            result=self.rules.final_scores(final) if finished else None,
        )
        return await self.provenance.sign(record)

    async def room_view(self, room_id: str, move: int | None) -> dict[str, Any]:
        """The public view of a room's game after `move` (None: the latest)."""
        facts = await self._facts(room_id)
        replay = await self._room_replay(facts)
        return self._view(
            replay, facts.version, move, "finished" if facts.finished else "playing"
        )

    async def status_facts(self, room: RoomRow) -> dict[str, Any]:
        """For the room status: the seed's SHA-256 commitment from the start, the seed
        once the game is over, and the room of the rematch if there is one."""
        if room.game is None:
            return {"seed_sha256": None, "seed": None, "rematch": None}
        seed = self._seeds.get(room.id)
        rematch = self._rematches.get(room.id)
        if seed is None or (room.status == "finished" and rematch is None):
            seed, _finished, rematch = await self.store.shuffle_facts(room.id)
            if seed is None:  # pragma: no cover - a started room has a game
                return {"seed_sha256": None, "seed": None, "rematch": None}
            self._seeds[room.id] = seed
            if rematch is not None:
                self._rematches[room.id] = rematch
        finished = room.status == "finished"
        return {
            "seed_sha256": seed_commitment(seed),
            "seed": str(seed) if finished else None,
            "rematch": rematch if finished else None,
        }

    # --- imported records -------------------------------------------------------------------

    async def import_record(self, record: Any) -> dict[str, Any]:
        """Check a record by replaying it and where it comes from, and keep it; its id,
        link and what was checked (a forgery of a room here is refused)."""
        try:  # up to a few thousand engine steps: off the event loop
            checked = await asyncio.to_thread(check_record, self.rules, record)
        except RecordError as error:
            raise ServiceError("bad_record", error.reason) from None
        provenance = await self.provenance.check(record)
        rid = record_id(record)
        await self.store.save_record(
            rid, json.dumps(record, ensure_ascii=False), len(checked.states) - 1
        )
        self._keep(("record", rid), self._from_checked(checked))
        return {
            "record_id": rid,
            "url": f"/records/{rid}",
            "version": len(checked.states) - 1,
            "status": record["status"],
            "provenance": provenance,
            "warnings": checked.warnings,
        }

    async def provenance_of(self, record: Any) -> dict[str, Any]:
        """Where a record comes from (its signature, its room here), without replaying it."""
        if not isinstance(record, dict):
            raise ServiceError("bad_record", "A game record is a JSON object.")
        return await self.provenance.check(record)

    async def imported(self, rid: str) -> dict[str, Any]:
        body = (
            await self.store.load_record(rid) if len(rid) == RECORD_ID_CHARS else None
        )
        if body is None:
            raise ServiceError("unknown_record", f"There is no record {rid[:16]!r}.")
        record: dict[str, Any] = json.loads(body)
        return record

    async def imported_view(self, rid: str, move: int | None) -> dict[str, Any]:
        replay = self._cached(("record", rid))
        if replay is None:
            record = await self.imported(rid)
            try:
                checked = await asyncio.to_thread(check_record, self.rules, record)
            except RecordError as error:  # pragma: no cover - checked on import
                raise ServiceError("bad_record", error.reason) from None
            replay = self._keep(("record", rid), self._from_checked(checked))
        version = len(replay.states) - 1
        status = "finished" if self.rules.is_over(replay.states[-1]) else "playing"
        return self._view(replay, version, move, status)

    # --- shared -----------------------------------------------------------------------------

    def _from_checked(self, checked: Replayed) -> _Replay:
        return _Replay(list(checked.states), list(checked.record["moves"]))

    def _view(
        self, replay: _Replay, version: int, move: int | None, status: str
    ) -> dict[str, Any]:
        at = version if move is None else move
        if not 0 <= at <= version:
            raise ServiceError(
                "no_such_move",
                f"Move {at} has not been played: this game has moves 0 to {version}.",
                version=version,
            )
        return {
            "move": at,
            "version": version,
            "status": status,
            "view": self.rules.view_for(replay.states[at], None),
            "event": replay.events[at - 1] if at else None,
        }

    def _cached(self, key: tuple[str, str]) -> _Replay | None:
        replay = self._replays.get(key)
        if replay is not None:
            self._replays.move_to_end(key)
        return replay

    def _keep(self, key: tuple[str, str], replay: _Replay) -> _Replay:
        self._replays[key] = replay
        self._replays.move_to_end(key)
        while len(self._replays) > CACHED_REPLAYS:
            self._replays.popitem(last=False)
        return replay
