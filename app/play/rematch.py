"""Rematch: from a finished room, one click makes a new room with the same players, seated.

The first player to ask creates the rematch room: the same game, number of players, options,
seat order and time control, every seat given to the same person (names kept)
or the same bot, the asker as host. A seat whose person left during the game stays free in
the rematch, whether a bot finished the game for them or nobody did: the bot stood in for
someone who went, not for a player the table chose, so the room link fills it (or the host
seats a bot there again). Only the bots seated from the start come back. The old room's status then points to it (`rematch`), so
every browser in the old room hears of it. Each person's seat in the rematch is claimed by
an authenticated call with their old seat token, which is exchanged for a new seat token:
the new token is derived from the old one (HMAC-SHA256 keyed with the old token over the new
room id), so every device holding the old token gets the same new one, and the server, which
stores only hashes, never needs to keep either.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from app.play import tokens
from app.play.protocol import ServiceError, msg
from app.play.rooms import Rooms
from app.store.records import RecordStore, RematchSeat


def rematch_token(old_token: str, rematch_room_id: str) -> str:
    """The seat token in the rematch room of the holder of `old_token` (43 URL-safe chars)."""
    digest = hmac.new(
        old_token.encode(),
        b"ishtar-rematch:" + rematch_room_id.encode(),
        hashlib.sha256,
    ).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class Rematches:
    """Create the rematch of a finished room and hand each of its players their new seat."""

    def __init__(self, store: RecordStore, rooms: Rooms) -> None:
        self.store = store
        self.rooms = rooms

    async def rematch(self, room_id: str, bearer: str | None) -> dict[str, Any]:
        room, seat = await self.rooms.identify(room_id, bearer)
        if seat is None or bearer is None:
            raise ServiceError(
                "forbidden",
                "Only a player of this game can ask for a rematch.",
                message=msg("error.forbidden.rematch"),
            )
        if room.status != "finished":
            raise ServiceError(
                "game_not_over",
                "A rematch can be asked for once the game is over.",
                message=msg("error.game_not_over.rematch"),
            )
        new_id = await self.store.rematch_of(room.id)
        if new_id is None:
            past, _since = await self.rooms.store.seat_history(room.id)
            stood_in = {row["seat_id"] for row in past if row["bot_level"] is None}
            seats = [
                RematchSeat(
                    old_seat_id=s.id,
                    seat=s.seat,
                    name=s.name,
                    bot_level=s.bot_level,
                    is_host=s.id == seat.id,
                )
                for s in room.seats
                if (s.bot_level is None and s.token_hash is not None)
                or (s.bot_level is not None and s.id not in stood_in)
            ]
            new_id = await self.store.create_rematch(
                old_room_id=room.id,
                new_room_id=tokens.new_room_id(),
                host_token_hash=tokens.hash_token(tokens.new_token()),
                seats=seats,
            )
        token = rematch_token(bearer, new_id)
        number = await self.store.claim_seat(seat.id, tokens.hash_token(token))
        if number is None:
            raise ServiceError(
                "seat_taken",
                "Your seat in the rematch is held by someone else.",
                message=msg("error.seat_taken.rematch"),
            )
        return {
            "room_id": new_id,
            "url": tokens.room_url(new_id),
            "seat": number,
            "token": token,
            "rejoin_url": tokens.rejoin_url(new_id, token),
            "room": await self.rooms.status(await self.rooms.room(new_id)),
        }
