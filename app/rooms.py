"""The room service: rooms, seats and games, where every decision about play is the engine's.

Operations here are what the HTTP routes and the websocket handler delegate to. Each one
validates with the engine, persists through `Store` (committed before anyone is told) and
reports the commit to `on_commit`, which the hub turns into messages. Errors are
`ServiceError`s with the codes of docs/protocol.md; nothing here sends anything.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app import clock, tokens
from app.announcer import Announcer
from app.positions import Position, Positions, Rules, catalogue_colours
from app.presence import Presence
from app.protocol import (
    CreateRoom,
    JoinSeat,
    MoveRequest,
    ServiceError,
    dumps,
    sync_message,
    valid_name,
)
from app.store import (
    DuplicateMoveId,
    Event,
    RoomClosed,
    RoomRow,
    SeatRow,
    SeatTaken,
    Store,
    iso,
    notice,
)

log = logging.getLogger("ishtar.rooms")

RECENT_EVENTS = 50
# The snapshot is written with every SNAPSHOT_EVERY-th move and the last one; in between a
# commit is only the compare-and-set and the log insert (a third of the cost).
SNAPSHOT_EVERY = 16
CATCH_UP_LIMIT = (
    64  # beyond this many missed moves, decode the snapshot instead of replaying
)


@dataclass(frozen=True)
class Accepted:
    """A committed move (or the earlier commit of a retried move_id)."""

    event: Event
    duplicate: bool

    @property
    def version(self) -> int:
        return self.event.seq


@dataclass(frozen=True)
class GameContext:
    """What never changes once a game has started: its id and who sits where."""

    game_id: int
    seats_by_id: dict[int, int]
    names: dict[int, str]


def _seat_label(names: dict[int, str], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    name = names.get(seat)
    return f"{name} (seat {seat})" if name else f"seat {seat}"


class RoomService:
    """Room, seat and game operations over a store, an engine and the position cache."""

    def __init__(
        self, store: Store, rules: Rules, positions: Positions, presence: Presence
    ) -> None:
        self.store = store
        self.rules = rules
        self.positions = positions
        self.presence = presence
        self.on_commit: Callable[[str, Event], None] = lambda room_id, event: None
        # More facts for the room status from other features (app/archive.py: the shuffle
        # commitment and the rematch), each an async function of the room row.
        self.status_extensions: list[
            Callable[[RoomRow], Awaitable[dict[str, Any]]]
        ] = []
        self._games: dict[str, GameContext] = {}
        self.announcer = Announcer(store.announce_many)
        # Whether another instance listens (app/peers.py); until told, assume one does.
        self.others_listen: Callable[[], bool] = lambda: True
        # Rooms with a commit of this process in flight, and their waiters (the hub: a
        # NOTIFY can overtake the commit it announces, and the move is about to be handed
        # to it by `on_commit`; no need to read it back from the database).
        self._landing: Counter[str] = Counter()
        self._settled: dict[str, asyncio.Event] = {}
        self._colours = catalogue_colours(self.rules)

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
        seats = []
        for number in range(room.players):
            seat = room.seat(number)
            seats.append(
                {
                    "seat": number,
                    "name": seat.name if seat else None,
                    "colour": self._colours[number]
                    if number < len(self._colours)
                    else None,
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
        status: dict[str, Any] = {
            "room_id": room.id,
            "status": room.status,
            "players": room.players,
            "layout": room.layout,
            "first_player": room.first_player,
            "seat_order": room.seat_order,
            "seats": seats,
            "spectators": presence["spectators"],
            "version": room.game.version if room.game else 0,
            "revision": room.revision,
            "created_at": iso(room.created_at),
        }
        await clock.decorate(self.store.engine, room.id, status)
        for extend in self.status_extensions:
            status |= await extend(room)
        return status

    async def create_room(self, request: CreateRoom) -> dict[str, Any]:
        if request.first_player is not None and request.first_player >= request.players:
            raise ServiceError("malformed", "first_player must be a seat of this room.")
        if request.name is not None and not valid_name(request.name):
            raise ServiceError(
                "malformed", "A name may not contain control characters."
            )
        if request.time_control is not None:
            clock.check(self.rules, request.time_control)
        room_id, host_token = tokens.new_room_id(), tokens.new_token()
        await self.store.create_room(
            room_id=room_id,
            players=request.players,
            layout=request.layout,
            first_player=request.first_player,
            seat_order=request.seat_order,
            host_token_hash=tokens.hash_token(host_token),
        )
        if request.time_control is not None:
            await clock.save(self.store.engine, room_id, request.time_control)
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
        first = room.first_player
        if first is None:
            first = secrets.randbelow(room.players)
        seed = secrets.randbits(63)
        setup = {
            "players": room.players,
            "seed": seed,
            "layout": room.layout,
            "first_player": first,
        }
        state = self.rules.new_game(
            room.players, seed, layout=room.layout, first_player=first
        )
        position = Position(self.rules, 0, state)
        started = await self.store.start_game(
            room_id,
            revision=room.revision,
            seat_numbers={seat_id: number for number, seat_id in enumerate(order)},
            engine_name=f"{getattr(self.rules, 'GAME', '?')} {getattr(self.rules, 'ENGINE_VERSION', '?')}",
            seed=seed,
            setup=setup,
            snapshot_json=position.encoded(),
            current_seat=position.current,
        )
        if not started:  # a seat was taken or the game started meanwhile: judge afresh
            return await self.start(room_id, bearer)
        room = await self.room(room_id)
        assert room.game is not None
        self.positions.put(room.game.id, position)
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

    # --- positions --------------------------------------------------------------------------

    async def game(self, room_id: str, room: RoomRow | None = None) -> GameContext:
        """The started game of a room (cached: it never changes)."""
        context = self._games.get(room_id)
        if context is not None:
            return context
        room = (
            room
            if room is not None and room.game is not None
            else await self.room(room_id)
        )
        if room.game is None:
            raise ServiceError(
                "game_not_started", "The game has not started yet.", version=0
            )
        context = GameContext(
            game_id=room.game.id,
            seats_by_id={seat.id: seat.seat for seat in room.seats},
            names={seat.seat: seat.name for seat in room.seats},
        )
        self._games[room_id] = context
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
        at, snapshot = await self.store.snapshot(game_id)
        events = await self.store.moves_since(game_id, at)
        rules = self.rules
        state = rules.decode_state(snapshot)
        for event in events:
            state = rules.apply(state, rules.decode_action(event.action))
        version = events[-1].seq if events else at
        return self.positions.put(game_id, Position(rules, version, state))

    # --- reading ----------------------------------------------------------------------------

    async def view(self, room_id: str, token: str | None) -> dict[str, Any]:
        room, seat = await self.identify(room_id, token)
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

    async def moves(self, room_id: str, since: int) -> dict[str, Any]:
        game = await self.game(room_id)
        events = await self.store.moves_since(game.game_id, since)
        version = (
            events[-1].seq if events else await self.store.game_version(game.game_id)
        )
        return {"version": version, "moves": [event.as_dict() for event in events]}

    async def events(
        self, game_id: int, since: int | None, version: int
    ) -> list[Event]:
        """What a client that saw `since` missed (None: the recent log)."""
        if since is None:
            return await self.store.recent_moves(game_id, RECENT_EVENTS)
        if since >= version:
            return []
        return await self.store.moves_since(game_id, since)

    async def why(self, room_id: str, move: dict[str, Any]) -> dict[str, Any]:
        game = await self.game(room_id)
        position = await self.position(game.game_id)
        action = self._decode(move)
        try:
            reason = self.rules.why_illegal(position.state, action)
        except Exception:
            log.exception("engine failed on why_illegal(%s)", move)
            reason = "The engine could not judge this move."
        return {"version": position.version, "legal": reason is None, "reason": reason}

    # --- moves ------------------------------------------------------------------------------

    def _decode(self, move: dict[str, Any]) -> Any:
        try:
            return self.rules.decode_action(move)
        except ValueError as error:
            reason = getattr(error, "reason", None) or str(error)
            code = getattr(error, "code", None) or "malformed_action"
            raise ServiceError(
                "malformed_action" if code == "illegal_move" else code, reason
            ) from None
        except Exception:
            raise ServiceError(
                "malformed_action", "The move is not an action of this game."
            ) from None

    def _judge(
        self, position: Position, seat: int, request: MoveRequest, names: dict[int, str]
    ) -> tuple[dict[str, Any], Position, str]:
        """The canonical action, the next position and the log line; or a ServiceError."""
        version = position.version
        if position.over:
            raise ServiceError("game_over", "The game is over.", version=version)
        if request.expected_version != version:
            raise ServiceError(
                "stale_version",
                f"The game is at version {version}; your move was made against version "
                f"{request.expected_version}.",
                version=version,
            )
        if position.current != seat:
            raise ServiceError(
                "not_your_turn",
                f"It is {_seat_label(names, position.current)}'s turn, not yours.",
                version=version,
            )
        action = self._decode(request.move)
        try:
            state = self.rules.apply(position.state, action)
        except ValueError as error:
            reason = (
                getattr(error, "reason", None)
                or str(error)
                or "That move is not legal."
            )
            raise ServiceError("illegal_move", reason, version=version) from None
        except Exception:
            log.exception("engine failed on apply(%s)", request.move)
            raise ServiceError(
                "illegal_move", "The engine could not apply this move.", version=version
            ) from None
        text = str(self.rules.narrate(position.state, action))
        encoded: dict[str, Any] = self.rules.encode_action(action)
        return encoded, Position(self.rules, version + 1, state), text

    async def submit(
        self, room_id: str, seat: SeatRow, request: MoveRequest
    ) -> Accepted:
        """Validate a move with the engine and commit it; idempotent by move_id."""
        game = await self.game(room_id)
        number = game.seats_by_id.get(seat.id, seat.seat)
        position = self.positions.latest(game.game_id)
        if position is None or position.version != request.expected_version:
            position = await self.position(game.game_id)
        for _attempt in range(2):
            try:
                action, after, text = self._judge(position, number, request, game.names)
            except ServiceError as refusal:
                earlier = await self._earlier(game.game_id, number, request.move_id)
                if earlier is not None:
                    return earlier
                if refusal.code == "stale_version":
                    await self._explain_stale(
                        refusal, game.game_id, number, request, position
                    )
                raise
            try:
                event = await self._commit_move(
                    room_id=room_id,
                    game_id=game.game_id,
                    expected_version=position.version,
                    seat=number,
                    action=action,
                    move_id=request.move_id,
                    text_=text,
                    snapshot_json=after.encoded()
                    if after.over or after.version % SNAPSHOT_EVERY == 0
                    else None,
                    finished=after.over,
                    current_seat=after.current,
                )
            except DuplicateMoveId:
                earlier = await self._earlier(game.game_id, number, request.move_id)
                if earlier is None:  # pragma: no cover - the log is append-only
                    raise ServiceError(
                        "internal", "Duplicate move id vanished."
                    ) from None
                return earlier
            if event is not None:
                self.positions.put(game.game_id, after)
                self.on_commit(room_id, event)
                self._announce(room_id, event.seq)
                return Accepted(event, duplicate=False)
            # Another writer moved first: judge again against what it made.
            position = await self.position(game.game_id)
        raise ServiceError(
            "stale_version", "The game moved on; try again.", version=position.version
        )

    async def _commit_move(self, room_id: str, **move: Any) -> Event | None:
        self._landing[room_id] += 1
        try:
            return await self.store.commit_move(room_id=room_id, **move)
        finally:
            self._landing[room_id] -= 1
            if not self._landing[room_id]:
                del self._landing[room_id]
                # The waiter wakes after our caller's on_commit has handed the event over.
                waiter = self._settled.pop(room_id, None)
                if waiter is not None:
                    waiter.set()

    async def settled(self, room_id: str) -> None:
        """Once no commit of this process is in flight in the room (at once if none is)."""
        if room_id in self._landing:
            await self._settled.setdefault(room_id, asyncio.Event()).wait()

    def _announce(self, room_id: str, version: int) -> None:
        """Tell the other instances, in the background: the mover's ack need not wait.

        Should this process die before the notice is out, the others still catch up within
        their heartbeat (app/runtime.py), reading the version from the database. With no
        other instance listening (app/peers.py), no notice is sent at all.
        """
        if self.others_listen():
            self.announcer.announce(notice(room_id, "m", version))

    async def _earlier(self, game_id: int, seat: int, move_id: str) -> Accepted | None:
        event = await self.store.move_by_id(game_id, move_id)
        if event is None:
            return None
        if event.seat != seat:
            raise ServiceError(
                "malformed", "This move_id was already used by another seat."
            )
        return Accepted(event, duplicate=True)

    async def _explain_stale(
        self,
        refusal: ServiceError,
        game_id: int,
        seat: int,
        request: MoveRequest,
        position: Position,
    ) -> None:
        """Attach what the client missed: the events since its version and a fresh view."""
        missed = await self.events(game_id, request.expected_version, position.version)
        refusal.extra = {
            "missed": [event.as_dict() for event in missed],
            "view": position.view(seat),
            "legal": position.legal()
            if position.current == seat and not position.over
            else [],
        }


def stale_sync(refusal: ServiceError, you: dict[str, Any]) -> str:
    """The websocket `sync` that follows a stale_version error."""
    extra = refusal.extra
    return sync_message(
        refusal.version or 0,
        you,
        dumps(extra.get("missed", [])),
        dumps(extra.get("view")),
        dumps(extra.get("legal", [])),
    )
