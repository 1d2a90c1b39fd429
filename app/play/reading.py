"""A started game as the room service reads it: who sits where, its position, its log.

A part of the room service (app/play/service.py), `service.reading`. A game's context never changes once it has
started, so it is cached; its position comes from the position cache when it is at the
database's version, else from the log or the stored snapshot.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache

from app.play.listeners import Listeners
from app.play.positions import Position, Positions
from app.play.protocol import ServiceError, msg
from app.play.rooms import Rooms
from app.play.rules import A, Rules, S
from app.store.rows import Event, RoomRow
from app.store.store import Store

if TYPE_CHECKING:  # types only: the registry is handed in, not imported
    from app.games import Registry

log = logging.getLogger("ishtar.rooms")

RECENT_EVENTS = 50
CATCH_UP_LIMIT = (
    64  # beyond this many missed moves, decode the snapshot instead of replaying
)
CONTEXT_CACHE_BYTES = 4 << 20
"""Bytes of games' contexts kept (by `context_size`): some 3,400 four-seat games, more of
two. Every game ever read stayed before (issue 17: idle games must cost nothing); a game
dropped is read again with its room, one query."""
CONTEXT_ENTRY_BYTES = 512
"""What a cached context holds besides its two dicts and the names: the object, its key,
the seats' ids and the cache's bookkeeping. A four-seat context measured 1,169 bytes with
tracemalloc (tests/app/play/test_idle_games_memory.py), counted 1,252."""


@dataclass(frozen=True)
class GameContext:
    """What never changes once a game has started: its id and who sits where."""

    rules: Rules[Any, Any]
    game_id: int
    seats_by_id: dict[int, int]
    names: dict[int, str]


def context_size(context: GameContext) -> int:
    """The bytes a cached context holds, by estimate (never under what it holds)."""
    names = sum(map(sys.getsizeof, context.names.values()))
    dicts = sys.getsizeof(context.seats_by_id) + sys.getsizeof(context.names)
    return names + dicts + CONTEXT_ENTRY_BYTES


class Reading:
    """Reading started games (`service.reading`)."""

    def __init__(
        self, store: Store, registry: Registry, positions: Positions, rooms: Rooms
    ) -> None:
        self.store = store
        self.registry = registry
        self.positions = positions
        self.rooms = rooms
        self._games: LRUCache[str, GameContext] = LRUCache(
            maxsize=CONTEXT_CACHE_BYTES, getsizeof=context_size
        )
        # Told the room row each time a started game's context is made from it here (the
        # first time this instance reads the game, or again once the cache let it go): the
        # bot runner learns from it whether the game has a bot seat, without a read of its
        # own at the game's next move.
        self.seen: Listeners[[RoomRow]] = Listeners("started games read")

    def forget(self, room_id: str) -> None:
        """Drop a room's cached game context (its seats' names changed)."""
        self._games.pop(room_id, None)

    # --- positions --------------------------------------------------------------------------

    async def game(self, room_id: str, room: RoomRow | None = None) -> GameContext:
        """The started game of a room (cached: it never changes)."""
        context = self._games.get(room_id)
        if context is not None:
            return context
        room = (
            room
            if room is not None and room.started is not None
            else await self.rooms.room(room_id)
        )
        if room.started is None:
            raise ServiceError(
                "game_not_started", "The game has not started yet.", version=0
            )
        context = GameContext(
            rules=self.registry.get(room.game).rules,
            game_id=room.started.id,
            seats_by_id={seat.id: seat.seat for seat in room.seats},
            names={seat.seat: seat.name for seat in room.seats},
        )
        self._games[room_id] = context
        self.seen(room)
        return context

    async def position(self, game_id: int) -> Position:
        """The game's position at the version the database has now."""
        row = await self.store.game_version(game_id)
        cached = self.positions.get(game_id, row)
        if cached is not None:
            return cached
        latest = self.positions.latest(game_id)
        if latest is not None and 0 < row - latest.version <= CATCH_UP_LIMIT:
            position: Position | None = latest
            for event in await self.store.moves_since(game_id, latest.version):
                position = self.positions.advance(game_id, event.action, event.seq)
            if position is not None and position.version >= row:
                return position
        return await self._from_snapshot(game_id)

    async def _from_snapshot(self, game_id: int) -> Position:
        """Decode the stored snapshot and replay the few moves logged after it.

        Replayed here, not through the cache: concurrent callers may evict its entries.
        """
        at, snapshot, kind = await self.store.snapshot(game_id)
        events = await self.store.moves_since(game_id, at)
        rules = self.registry.get(kind).rules
        state = rules.decode_state(snapshot)
        for event in events:
            state = rules.apply(state, rules.decode_action(event.action))
        version = events[-1].seq if events else at
        return self.positions.put(game_id, Position(rules, version, state))

    # --- reading ----------------------------------------------------------------------------

    async def view(self, room_id: str, token: str | None) -> dict[str, Any]:
        room, seat = await self.rooms.identify(room_id, token)
        game = await self.game(room_id, room)
        position = await self.position(game.game_id)
        number = seat.seat if seat else None
        return {
            "version": position.version,
            "seat": number,
            "role": "player" if seat else "spectator",
            "status": "finished" if position.over else "playing",
            "view": position.view(number),
            "legal": position.legal()
            if number is not None and number == position.current
            else [],
        }

    async def moves(
        self, room_id: str, since: int, before: int | None = None, limit: int = 100
    ) -> dict[str, Any]:
        """The public move log: every move after `since`; or (`before`) a page of the
        `limit` moves before that one, with `earlier`: whether older moves remain."""
        game = await self.game(room_id)
        if before is not None:
            page = await self.store.moves_before(game.game_id, before, limit)
            version = await self.store.game_version(game.game_id)
            return {
                "version": version,
                "moves": [event.as_dict() for event in page],
                "earlier": bool(page) and page[0].seq > 1,
            }
        events = await self.store.moves_since(game.game_id, since)
        version = (
            events[-1].seq if events else await self.store.game_version(game.game_id)
        )
        return {"version": version, "moves": [event.as_dict() for event in events]}

    async def events(
        self, game_id: int, since: int | None, version: int
    ) -> list[Event]:
        """What a client that saw `since` missed (None: the recent log), up to `version`: a
        move committed since the position was read comes after, as its own update."""
        if since is None:
            events = await self.store.recent_moves(game_id, RECENT_EVENTS)
        elif since >= version:
            return []
        else:
            events = await self.store.moves_since(game_id, since)
        return [event for event in events if event.seq <= version]

    async def why(self, room_id: str, move: dict[str, Any]) -> dict[str, Any]:
        game = await self.game(room_id)
        position = await self.position(game.game_id)
        action = decode(game.rules, move)
        # The reason as a message too, for the reader's language (docs/i18n.md).
        rules = game.rules
        reason: str | None = None
        try:
            message = rules.why_illegal(position.state, action)
            if message is not None:
                reason = rules.english(message)
        except Exception:
            log.exception("engine failed on why_illegal(%s)", move)
            reason = "The engine could not judge this move."
            message = msg("error.internal.judge")
        answer: dict[str, Any] = {
            "version": position.version,
            "legal": reason is None,
            "reason": reason,
        }
        if message is not None:
            answer["message"] = message
        return answer


def decode(rules: Rules[S, A], move: dict[str, Any]) -> A:
    """The engine's action for a move's JSON, or `malformed_action` saying why not."""
    try:
        return rules.decode_action(move)
    except rules.IllegalAction as error:
        raise ServiceError(
            "malformed_action", error.reason or str(error), message=error.message
        ) from None
    except ValueError as error:
        raise ServiceError("malformed_action", str(error)) from None
    except Exception:
        raise ServiceError(
            "malformed_action",
            "The move is not an action of this game.",
            message=msg("error.malformed_action.not_an_action"),
        ) from None
