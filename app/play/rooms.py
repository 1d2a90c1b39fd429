"""Rooms as the service reads them: a room by id, its public status, and who a token is.

A part of the room service (app/play/service.py), `service.rooms`: every other part and
every caller that needs a room, its status or the seat a token holds asks here. The status
is the room's own facts, its presence and its clock, and whatever facts other features add
(`add_status_facts`: app/records/archive.py adds the shuffle commitment and the rematch).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app.play import clock, tokens
from app.play.positions import catalogue_colours
from app.play.protocol import ServiceError, msg
from app.store.rows import RoomRow, SeatRow, iso
from app.store.store import Store

if TYPE_CHECKING:  # types only: the registry and presence are handed in, not imported
    from app.games import Registry
    from app.live.presence import Presence

StatusFacts = Callable[[RoomRow], Awaitable[dict[str, Any]]]
"""More facts for a room's status, an async function of the room row."""


class Rooms:
    """Rooms by id, their status and the seats tokens hold (`service.rooms`)."""

    def __init__(self, store: Store, registry: Registry, presence: Presence) -> None:
        self.store = store
        self.presence = presence
        self._facts: list[StatusFacts] = []
        self._colours = {game.id: catalogue_colours(game.rules) for game in registry}

    def add_status_facts(self, facts: StatusFacts) -> None:
        """Add `facts(room)` to every room status from now on (after the earlier ones)."""
        self._facts.append(facts)

    async def room(self, room_id: str) -> RoomRow:
        room = await self.store.load_room(room_id) if len(room_id) <= 16 else None
        if room is None:
            raise ServiceError(
                "unknown_room",
                f"There is no room {room_id[:16]!r}.",
                message=msg("error.unknown_room.id", room=room_id[:16]),
            )
        return room

    async def status(self, room: RoomRow) -> dict[str, Any]:
        """The public room status, presence included (docs/protocol.md, "Room status")."""
        presence = await self.presence.snapshot(room.id)
        connected = set(presence["connected_seats"])
        colours = self._colours.get(room.game, [])
        seats = []
        for number in range(room.players):
            seat = room.seat(number)
            seats.append(
                {
                    "seat": number,
                    "name": seat.name if seat else None,
                    "colour": colours[number] if number < len(colours) else None,
                    "bot": seat.bot_level if seat else None,
                    "taken": seat is not None,
                    "connected": seat is not None
                    and (seat.bot_level is not None or number in connected),
                    "is_host": bool(seat and seat.is_host),
                    # A seat of a started game whose person left (nobody holds its token).
                    "left": bool(
                        seat
                        and room.status != "open"
                        and seat.token_hash is None
                        and seat.bot_level is None
                    ),
                    # The holder is away until then: their clock stands still.
                    "away_until": iso(seat.away_until)
                    if seat and seat.away_until and seat.token_hash is not None
                    else None,
                }
            )
        # Each option is also at the top level, where clients from before rooms had games
        # read the options of the one game there was; the platform's keys win.
        status: dict[str, Any] = dict(room.options)
        status |= {
            "room_id": room.id,
            "game": room.game,
            "options": room.options,
            "status": room.status,
            "players": room.players,
            "seat_order": room.seat_order,
            "seats": seats,
            "spectators": presence["spectators"],
            "version": room.started.version if room.started else 0,
            "revision": room.revision,
            "created_at": iso(room.created_at),
        }
        await clock.decorate(self.store.time_controls, room.id, status)
        for facts in self._facts:
            status |= await facts(room)
        return status

    async def identify(
        self, room_id: str, token: str | None
    ) -> tuple[RoomRow, SeatRow | None]:
        """The room and the seat a token holds in it (None: a spectator)."""
        room = await self.room(room_id)
        if token is None:
            return room, None
        if tokens.looks_like_token(token):
            digest = tokens.hash_token(token)
            for seat in room.seats:
                if tokens.same_hash(digest, seat.token_hash):
                    return room, seat
        raise ServiceError(
            "bad_token",
            "This token holds no seat in this room.",
            message=msg("error.bad_token.no_seat"),
        )

    async def seat_of(self, room_id: str, token: str | None) -> SeatRow:
        """The seat of a token, for acting: a spectator (no token) may not act."""
        if token is None:
            await self.room(room_id)
            raise ServiceError(
                "forbidden",
                "Spectators cannot move: take a seat first.",
                message=msg("error.forbidden.spectator_move"),
            )
        seat = (
            await self.store.seat_by_token(room_id, tokens.hash_token(token))
            if tokens.looks_like_token(token)
            else None
        )
        if seat is None:
            await self.room(room_id)
            raise ServiceError(
                "bad_token",
                "This token holds no seat in this room.",
                message=msg("error.bad_token.no_seat"),
            )
        return seat
