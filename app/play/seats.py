"""Every operation on a room's seats: creating a room (with the host's seat), joining,
starting, seating a bot, leaving, handing a seat to a person or to a bot, and the seats'
history.

A part of the room service (app/play/service.py), `service.seats`. Each operation judges
its faults with the shared checks of app/play/seat_checks.py, in their one order and with
their one code each (docs/protocol.md, "Seat operations"), then commits through the store,
which bumps the room's revision and sends its notice in the same transaction.

- A player leaves (`leave`): before the start their seat is freed; once the game has
  started the seat stays in the game (its moves keep their seat) but its token stops
  working, and the seat shows as left until the host hands it on.
- The host hands a seat to a new person (`hand_to_person`): a fresh token (returned once,
  as a rejoin link for the host to pass on) replaces the old one, which stops working at
  once, websockets included (the hub closes them with 4401); or to a bot (`hand_to_bot`),
  and the bot runner, which listens (`bot_seated`), looks at the room at once. It hears of
  each game started here too (`started`), so a bot that opens the game need not wait for
  its sweep, and a room with no bot costs its moves no look at all.
- Seating a bot that would leave a room with bots only is subject to a quota per client
  address (app/background/bot_quota.py), handed in by the route as a `BotAdmission`.
- The host of a rematch is a seat, not a host token (nobody holds the rematch room's host
  token): when that seat's holder leaves, or the seat is handed to someone new or to a bot,
  the host role passes on to the next person's seat (app/store/seats.py), so the rematch can
  still be started. In a room made by `POST /api/rooms` the host token stays the host.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from app.play import clock, tokens
from app.play.listeners import Listeners
from app.play.positions import Position, Positions
from app.play.protocol import CreateRoom, JoinSeat, ServiceError, msg
from app.play.reading import Reading
from app.play.rooms import Rooms
from app.play.seat_checks import (
    STARTED,
    check_bot_level,
    check_name,
    every_seat_taken,
    has_bots,
    is_host,
    middle_bot,
    require_free,
    require_full,
    require_host,
    require_not_over,
    require_open,
    require_taken,
    seat_number,
    that_seat_taken,
)
from app.store.rooms import RoomClosed, SeatTaken
from app.store.rows import RoomRow, iso
from app.store.seats import SeatGone
from app.store.store import Store

if TYPE_CHECKING:  # types only: the registry is handed in, not imported
    from app.games import Registry

BOT_NAMES = ("Nabu", "Ninlil", "Enki", "Gula", "Shamash", "Nisaba", "Adad", "Nanna")
"""The names bots take in a room, the first one no seat of it has: with its level, a bot's
name reads "Nabu (medium)", and three bots at one table are three players."""


class BotAdmission(Protocol):
    """The quota of rooms of bots only (app/background/bot_quota.py): raises its refusal
    when seating a bot (in a free seat, or in the taken seat of id `handing`) would make
    one too many."""

    async def admit(
        self, room: RoomRow, address: str, handing: int | None = None
    ) -> None: ...


def bot_name(level: str, taken: Iterable[str] = ()) -> str:
    """A bot's name: the first of `BOT_NAMES` that no name in `taken` starts with, and its
    level ("Nabu (medium)"); after all of them, numbered ("Nabu 2 (hard)").

    >>> bot_name("medium"), bot_name("hard", ["Nabu (medium)", "Ana"])
    ('Nabu (medium)', 'Ninlil (hard)')
    """
    used = {name.split(" (")[0] for name in taken}
    count = 1
    while True:
        for base in BOT_NAMES:
            name = base if count == 1 else f"{base} {count}"
            if name not in used:
                return f"{name} ({level})"
        count += 1


class Seats:
    """Seat operations (`service.seats`)."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        positions: Positions,
        rooms: Rooms,
        reading: Reading,
        *,
        default_game: str,
    ) -> None:
        self.store = store
        self.registry = registry
        self.positions = positions
        self.rooms = rooms
        self.reading = reading
        self.default_game = default_game
        self.bot_seated: Listeners[[str]] = Listeners("seats handed to bots")
        """Told the room id once a seat of a started game is handed to a bot."""
        self.started: Listeners[[RoomRow]] = Listeners("games started")
        """Told the room, as it is once its game has started here."""

    async def _answer(self, room_id: str, answer: dict[str, Any]) -> dict[str, Any]:
        """An operation's answer: what it says, and the room's status after it."""
        rooms = self.rooms
        return answer | {"room": await rooms.status(await rooms.room(room_id))}

    # --- before the start -------------------------------------------------------------------

    async def create_room(self, request: CreateRoom) -> dict[str, Any]:
        """A new room (and the host's seat 0 if a name is given); its host token."""
        game = self.registry.get(request.game or self.default_game)
        options = game.check_options(request.players, request.all_options())
        name = None if request.name is None else check_name(request.name)
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
        if name is not None:
            seat_token = tokens.new_token()
            seat = await self.store.add_seat(
                room_id,
                seat=0,
                name=name,
                token_hash=tokens.hash_token(seat_token),
                is_host=True,
            )
            answer |= {
                "seat": seat,
                "token": seat_token,
                "rejoin_url": tokens.rejoin_url(room_id, seat_token),
            }
        return await self._answer(room_id, answer)

    async def join(
        self, room_id: str, request: JoinSeat, bearer: str | None
    ) -> dict[str, Any]:
        """Take a seat (the lowest free one without `request.seat`); the seat's token."""
        room = await self.rooms.room(room_id)
        name = check_name(request.name)
        if request.seat is not None:
            seat_number(room, request.seat)
        require_open(room)
        require_free(room, request.seat)
        seat_token = tokens.new_token()
        number = await self._add_seat(
            room_id,
            request.seat,
            name=name,
            token_hash=tokens.hash_token(seat_token),
            is_host=is_host(room, bearer),
        )
        return await self._answer(
            room_id,
            {
                "seat": number,
                "token": seat_token,
                "rejoin_url": tokens.rejoin_url(room_id, seat_token),
            },
        )

    async def add_bot(
        self,
        room_id: str,
        level: str,
        seat: int | None,
        bearer: str | None,
        *,
        quota: BotAdmission,
        address: str,
    ) -> dict[str, Any]:
        """The host puts a bot of `level` in a free seat before the start."""
        room = await self.rooms.room(room_id)
        require_host(room, bearer, "seat a bot")
        check_bot_level(self.registry.get(room.game), level)
        if seat is not None:
            seat_number(room, seat)
        require_open(room)
        require_free(room, seat)
        await quota.admit(room, address)
        number = await self._add_seat(
            room_id,
            seat,
            name=bot_name(level, (s.name for s in room.seats)),
            token_hash=None,
            is_host=False,
            bot_level=level,
        )
        return await self._answer(room_id, {"seat": number})

    async def _add_seat(self, room_id: str, seat: int | None, **holder: Any) -> int:
        """Seat someone; a seat taken, or the game started, meanwhile is refused as the
        checks before would have refused it."""
        try:
            return await self.store.add_seat(room_id, seat=seat, **holder)
        except SeatTaken:
            raise (
                that_seat_taken() if seat is not None else every_seat_taken()
            ) from None
        except RoomClosed:
            raise ServiceError("game_started", STARTED) from None

    async def start(self, room_id: str, bearer: str | None) -> dict[str, Any]:
        """The host starts the game: seats shuffled (unless fixed), the engine sets up."""
        room = await self.rooms.room(room_id)
        require_host(room, bearer, "start the game")
        require_open(room, "The game has already started.")
        require_full(room)
        order = [seat.id for seat in room.seats]
        if room.seat_order == "random":
            secrets.SystemRandom().shuffle(order)
        # The engine draws what the options leave open (the first player among them).
        seed = secrets.randbits(63)
        rules = self.registry.get(room.game).rules
        # The options as the engine plays them, every default named: a room created before
        # an option existed (Ishtar's edition) records what its game is played with, which
        # a later engine's default would not be.
        options = rules.check_options(room.players, room.options)
        setup = {"players": room.players, "seed": seed, "options": options}
        state = rules.new_game(room.players, seed, options)
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
        room = await self.rooms.room(room_id)
        assert room.started is not None
        self.positions.put(room.started.id, position)
        self.started(room)
        return await self.rooms.status(room)

    # --- seats changing hands ---------------------------------------------------------------

    async def leave(self, room_id: str, token: str | None) -> dict[str, Any]:
        """The holder of `token` leaves their seat; their token stops working."""
        seat = await self.rooms.seat_of(room_id, token)
        assert token is not None
        try:
            await self.store.leave_seat(room_id, seat.id, tokens.hash_token(token))
        except SeatGone:  # left (or was replaced) a moment ago through another call
            raise ServiceError(
                "bad_token",
                "This token holds no seat in this room.",
                message=msg("error.bad_token.no_seat"),
            ) from None
        return await self._answer(room_id, {"left": True, "seat": seat.seat})

    async def hand_to_person(
        self, room_id: str, number: int, name: str, bearer: str | None
    ) -> dict[str, Any]:
        """The host gives a taken seat to a new person: a fresh token, the old one revoked."""
        room = await self.rooms.room(room_id)
        require_host(room, bearer, "hand a seat to someone else")
        name = check_name(name)
        seat_number(room, number)
        require_not_over(room)
        seat = require_taken(room, number, "send the room link to take it")
        token = tokens.new_token()
        await self.store.hand_to_person(
            room_id, seat.id, name=name, token_hash=tokens.hash_token(token)
        )
        # The cached names of this game (used in refusals) are stale here; other instances
        # keep the old name in "not your turn" sentences until they drop the game's context.
        self.reading.forget(room_id)
        return await self._answer(
            room_id,
            {
                "seat": number,
                "token": token,
                "rejoin_url": tokens.rejoin_url(room_id, token),
            },
        )

    async def hand_to_bot(
        self,
        room_id: str,
        number: int,
        level: str,
        bearer: str | None,
        *,
        quota: BotAdmission,
        address: str,
    ) -> dict[str, Any]:
        """The host hands a taken seat to a bot (its person left): the token stops working."""
        room = await self.rooms.room(room_id)
        require_host(room, bearer, "seat a bot")
        check_bot_level(self.registry.get(room.game), level)
        seat_number(room, number)
        require_not_over(room)
        seat = require_taken(room, number, "seat a bot in it instead")
        await quota.admit(room, address, handing=seat.id)
        # the seat takes the bot's name: its panel, the log and the final table say who
        # plays it now (the person stays in the seat's history)
        name = bot_name(level, (s.name for s in room.seats if s.id != seat.id))
        await self.store.hand_to_bot(room_id, seat.id, level, name)
        self.reading.forget(room_id)
        self.bot_seated(room_id)
        return await self._answer(room_id, {"seat": number, "name": name})

    async def hand_left_seat_to_bot(self, room_id: str, number: int) -> str | None:
        """A seat whose person left long enough ago goes to a bot of the game's middle
        level (app/background/left_seats.py says when): only in a game in play with bots,
        while the seat is still left and another seat is still held by a person (a room
        everyone left is not played on by bots alone). The bot's name, or None."""
        room = await self.rooms.room(room_id)
        game = self.registry.get(room.game)
        seat = room.seat(number)
        if (
            room.status != "playing"
            or not has_bots(game)
            or seat is None
            or seat.token_hash is not None
            or seat.bot_level is not None
            or not any(s.token_hash is not None for s in room.seats if s.id != seat.id)
        ):
            return None
        level = middle_bot(game.bots)
        name = bot_name(level, (s.name for s in room.seats if s.id != seat.id))
        try:
            await self.store.hand_to_bot(room_id, seat.id, level, name, left=True)
        except SeatGone:  # handed on (or taken by another instance) meanwhile
            return None
        self.reading.forget(room_id)
        self.bot_seated(room_id)
        return name

    # --- history ----------------------------------------------------------------------------

    async def history(self, room_id: str) -> dict[str, Any]:
        """Who held each seat, oldest first, the current holders last (public: names only)."""
        room = await self.rooms.room(room_id)
        past, since = await self.store.seat_history(room_id)
        numbers = {seat.id: seat.seat for seat in room.seats}
        holders = [
            {
                "seat": numbers.get(row["seat_id"]),
                "name": row["name"],
                "bot": row["bot_level"],
                "from": iso(row["held_from"]),
                "until": iso(row["held_until"]),
                "until_version": row["until_version"],
                "ended": row["ended"],
            }
            for row in past
        ]
        for seat in room.seats:
            vacant = seat.token_hash is None and seat.bot_level is None
            holders.append(
                {
                    "seat": seat.seat,
                    "name": None if vacant else seat.name,
                    "bot": seat.bot_level,
                    "from": iso(since[seat.id]),
                    "until": None,
                    "until_version": None,
                    "ended": None,
                }
            )
        version = room.started.version if room.started else 0
        return {"room_id": room_id, "version": version, "holders": holders}
