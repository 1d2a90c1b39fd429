"""Rooms and who sits where: creating a room, taking a seat, starting the game, identity.

Part of the room service (app/play/service.py): the operations before play and the room status,
and which seat a token holds. The engine makes the starting position; the store commits.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app.play import clock, tokens
from app.play.positions import Position, Positions
from app.play.protocol import CreateRoom, JoinSeat, ServiceError, valid_name
from app.store.rooms import RoomClosed, SeatTaken
from app.store.rows import RoomRow, SeatRow, iso
from app.store.store import Store

if TYPE_CHECKING:  # types only: the registry and presence are handed in, not imported
    from app.games import Registry
    from app.live.presence import Presence


class Seating:
    """Room and seat operations (a part of `RoomService`, which sets these attributes)."""

    store: Store
    registry: Registry
    positions: Positions
    presence: Presence
    default_game: str
    status_extensions: list[Callable[[RoomRow], Awaitable[dict[str, Any]]]]
    _colours: dict[str, list[str | None]]

    # --- rooms and seats --------------------------------------------------------------------

    async def room(self, room_id: str) -> RoomRow:
        room = await self.store.load_room(room_id) if len(room_id) <= 16 else None
        if room is None:
            raise ServiceError("unknown_room", f"There is no room {room_id[:16]!r}.")
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
        for extend in self.status_extensions:
            status |= await extend(room)
        return status

    async def create_room(self, request: CreateRoom) -> dict[str, Any]:
        game = self.registry.get(request.game or self.default_game)
        options = game.check_options(request.players, request.all_options())
        if request.name is not None and not valid_name(request.name):
            raise ServiceError(
                "malformed", "A name may not contain control characters."
            )
        control = request.time_control
        if control is not None:
            control = clock.check(game, control)
        room_id, host_token = tokens.new_room_id(), tokens.new_token()
        await self.store.create_room(
            room_id=room_id,
            game=game.id,
            options=options,
            players=request.players,
            seat_order=request.seat_order,
            host_token_hash=tokens.hash_token(host_token),
        )
        if control is not None:
            await clock.save(self.store.time_controls, room_id, control)
        answer: dict[str, Any] = {
            "room_id": room_id,
            "url": tokens.room_url(room_id),
            "host_token": host_token,
        }
        if request.name is not None:
            seat_token = tokens.new_token()
            seat = await self.store.add_seat(
                room_id,
                seat=0,
                name=request.name,
                token_hash=tokens.hash_token(seat_token),
                is_host=True,
            )
            answer |= {
                "seat": seat,
                "token": seat_token,
                "rejoin_url": tokens.rejoin_url(room_id, seat_token),
            }
        answer["room"] = await self.status(await self.room(room_id))
        return answer

    def _is_host(self, room: RoomRow, bearer: str | None) -> bool:
        if not tokens.looks_like_token(bearer):
            return False
        assert bearer is not None
        digest = tokens.hash_token(bearer)
        if tokens.same_hash(digest, room.host_token_hash):
            return True
        return any(
            s.is_host and tokens.same_hash(digest, s.token_hash) for s in room.seats
        )

    async def join(
        self, room_id: str, request: JoinSeat, bearer: str | None
    ) -> dict[str, Any]:
        room = await self.room(room_id)
        if not valid_name(request.name):
            raise ServiceError(
                "malformed", "A name may not contain control characters."
            )
        if request.seat is not None and request.seat >= room.players:
            raise ServiceError(
                "malformed", f"This room has seats 0 to {room.players - 1}."
            )
        if room.status != "open":
            raise ServiceError(
                "game_started", "Seats of a started game cannot be taken."
            )
        seat_token = tokens.new_token()
        try:
            seat = await self.store.add_seat(
                room_id,
                seat=request.seat,
                name=request.name,
                token_hash=tokens.hash_token(seat_token),
                is_host=self._is_host(room, bearer),
            )
        except SeatTaken:
            which = "That seat is" if request.seat is not None else "Every seat is"
            raise ServiceError("seat_taken", f"{which} already taken.") from None
        except RoomClosed:
            raise ServiceError(
                "game_started", "Seats of a started game cannot be taken."
            ) from None
        return {
            "seat": seat,
            "token": seat_token,
            "rejoin_url": tokens.rejoin_url(room_id, seat_token),
            "room": await self.status(await self.room(room_id)),
        }

    async def start(self, room_id: str, bearer: str | None) -> dict[str, Any]:
        room = await self.room(room_id)
        if not self._is_host(room, bearer):
            raise ServiceError("forbidden", "Only the host can start the game.")
        if room.status != "open":
            raise ServiceError("game_started", "The game has already started.")
        if len(room.seats) < room.players:
            free = room.players - len(room.seats)
            raise ServiceError(
                "seats_open", f"{free} seat(s) still free: fill them first."
            )
        order = [seat.id for seat in room.seats]
        if room.seat_order == "random":
            secrets.SystemRandom().shuffle(order)
        # The engine draws what the options leave open (the first player among them).
        seed = secrets.randbits(63)
        rules = self.registry.get(room.game).rules
        setup = {"players": room.players, "seed": seed, "options": room.options}
        state = rules.new_game(room.players, seed, room.options)
        position = Position(rules, 0, state)
        started = await self.store.start_game(
            room_id,
            revision=room.revision,
            seat_numbers={seat_id: number for number, seat_id in enumerate(order)},
            engine_name=f"{rules.GAME} {rules.ENGINE_VERSION}",
            seed=seed,
            setup=setup,
            snapshot_json=position.encoded(),
            current_seat=position.current,
        )
        if not started:  # a seat was taken or the game started meanwhile: judge afresh
            return await self.start(room_id, bearer)
        room = await self.room(room_id)
        assert room.started is not None
        self.positions.put(room.started.id, position)
        return await self.status(room)

    # --- identity ---------------------------------------------------------------------------

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
        raise ServiceError("bad_token", "This token holds no seat in this room.")

    async def seat_of(self, room_id: str, token: str | None) -> SeatRow:
        """The seat of a token, for acting: a spectator (no token) may not act."""
        if token is None:
            await self.room(room_id)
            raise ServiceError(
                "forbidden", "Spectators cannot move: take a seat first."
            )
        seat = (
            await self.store.seat_by_token(room_id, tokens.hash_token(token))
            if tokens.looks_like_token(token)
            else None
        )
        if seat is None:
            await self.room(room_id)
            raise ServiceError("bad_token", "This token holds no seat in this room.")
        return seat

    def you(self, seat: SeatRow | None) -> dict[str, Any]:
        if seat is None:
            return {"seat": None, "role": "spectator", "name": None, "is_host": False}
        return {
            "seat": seat.seat,
            "role": "player",
            "name": seat.name,
            "is_host": seat.is_host,
        }
