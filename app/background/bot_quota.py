"""All-bot rooms per client address: a quota on tables where nobody plays but bots.

A room of four hard bots costs a worker process a second of search per move and plays on
whether anyone watches; one host could start dozens. So the address that seats the last
bot of a room (every seat a bot: `seat_bot` filling the last free seat, or `hand_to_bot`
handing the last person's seat) may hold at most `limit` such rooms that are not finished
yet (`ISHTAR_BOT_ROOMS_PER_ADDRESS`); beyond it the call is refused with
`too_many_bot_rooms` (429) and changes nothing.

A room counts against the address that filled it with bots (`bot_room_owners`, migration
0009; the address kept as the keyed hash of app/play/limits.py) while it has no person's seat
and is not finished: handing one of its seats to a person, or the end of its game, gives the
place back. The check and the record are one transaction under an advisory lock per address,
so all instances share one count and two calls at once cannot both take the last place (its
SQL: app/store/bot_rooms.py).
"""

from __future__ import annotations

from app.play.limits import SharedRoomLimit
from app.play.protocol import ServiceError, msg
from app.store.bot_rooms import BotRoomStore
from app.store.rows import RoomRow


def fills_with_bots(room: RoomRow, handing: int | None = None) -> bool:
    """Whether one more bot leaves `room` with bots only: a bot in its last free seat
    (`handing` None), or in the taken seat of id `handing`."""
    others = [seat for seat in room.seats if seat.id != handing]
    full = len(others) == room.players - 1
    return full and all(seat.bot_level is not None for seat in others)


class BotRoomQuota:
    """Rooms of bots only per client address, shared by every instance."""

    def __init__(
        self, store: BotRoomStore, limit: int, addresses: SharedRoomLimit
    ) -> None:
        self.store, self.limit, self.addresses = store, limit, addresses

    async def admit(
        self, room: RoomRow, address: str, handing: int | None = None
    ) -> None:
        """Let `address` put one more bot in `room`, or raise too_many_bot_rooms.

        Nothing is counted unless that bot leaves the room with bots only; then the room is
        recorded as this address's.
        """
        if not fills_with_bots(room, handing):
            return
        digest = self.addresses.address_hash(await self.addresses.shared_key(), address)
        held = await self.store.take(digest, room.id, self.limit)
        if held >= self.limit:
            raise ServiceError(
                "too_many_bot_rooms",
                f"Your address already has {held} room(s) of bots only in play"
                f" (at most {self.limit}): wait until one ends, or seat a person"
                " here, before filling another room with bots.",
                extra={"limit": self.limit},
                message=msg("error.too_many_bot_rooms.held", held=held, max=self.limit),
            )
