"""Submitting a move: judged by the engine, committed once, handed over, announced.

A part of the room service (app/play/service.py), `service.moves`. A move is judged against the position at the
client's version, committed with a compare-and-set on the game's version (a lost race is
judged again), and idempotent by its move_id; a stale move is answered with what the
client missed. Each committed move is handed to the commit listeners (`committed`: the hub
first, then whoever subscribed through `RoomService.subscribe`), then announced to the
other instances.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.notices.announcer import Announcer
from app.play.listeners import Listeners
from app.play.positions import Position, Positions
from app.play.protocol import MoveRequest, ServiceError, dumps
from app.play.reading import GameContext, Reading, decode
from app.play.snapshots import Snapshots
from app.store.channel import NoticeKind, notice
from app.store.games import DuplicateMoveId
from app.store.rows import Event, SeatRow
from app.store.store import Store

log = logging.getLogger("ishtar.rooms")

SERVER_MOVE_ID = "~"
"""The first character of the move ids the server makes (bots, time control): a client's
move_id may not begin with it (`malformed`), so no player can take a server move's id
(docs/security.md, "Server-made moves")."""

MESSAGE_BYTES = 4096
"""The most a log line's message may take as JSON (docs/protocol.md, "Messages"). The engines'
messages are a few hundred bytes (tests/engine/*/test_messages.py); a larger one is a bug of
the engine, and the move is kept with its English text alone rather than a message that would
swell every log page."""


def bounded(message: Any) -> dict[str, Any] | None:
    """The engine's message if it is a message (an object with a key) of at most
    `MESSAGE_BYTES`, else None (logged: the text stands alone)."""
    if not isinstance(message, dict) or not isinstance(message.get("key"), str):
        return None
    size = len(dumps(message).encode())
    if size > MESSAGE_BYTES:
        log.error("a log message of %d bytes (%s) was dropped", size, message["key"])
        return None
    return message


@dataclass(frozen=True)
class Accepted:
    """A committed move (or the earlier commit of a retried move_id)."""

    event: Event
    duplicate: bool

    @property
    def version(self) -> int:
        return self.event.seq


def _seat_label(names: dict[int, str], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    name = names.get(seat)
    return f"{name} (seat {seat})" if name else f"seat {seat}"


Committed = Listeners[[str, Event]]
"""The listeners of committed moves, told the room id and the move's event."""


class Moves:
    """Move submission (`service.moves`)."""

    def __init__(
        self,
        store: Store,
        positions: Positions,
        reading: Reading,
        committed: Committed,
        *,
        announcer: Announcer,
        snapshots: Snapshots,
        others_serve: Callable[[str], bool],
    ) -> None:
        self.store = store
        self.positions = positions
        self.reading = reading
        self.committed = committed
        self.announcer = announcer
        self.snapshots = snapshots
        # Whether another instance serves a room (app/notices/peers.py).
        self.others_serve = others_serve
        # Rooms with a commit of this process in flight, and their waiters (the hub: a
        # NOTIFY can overtake the commit it announces, and the move is about to be handed
        # to it by `committed`; no need to read it back from the database).
        self._landing: Counter[str] = Counter()
        self._settled: dict[str, asyncio.Event] = {}

    def _judge(
        self, position: Position, seat: int, request: MoveRequest, game: GameContext
    ) -> tuple[dict[str, Any], Position, str, dict[str, Any] | None]:
        """The canonical action, the next position, the log line and its message (docs/i18n.md);
        or a ServiceError, with the engine's message when it refuses the move."""
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
                f"It is {_seat_label(game.names, position.current)}'s turn, not yours.",
                version=version,
            )
        rules = game.rules
        action = decode(rules, request.move)
        try:
            state = rules.apply(position.state, action)
        except rules.IllegalAction as error:
            raise ServiceError(
                "illegal_move",
                error.reason or str(error) or "That move is not legal.",
                version=version,
                message=bounded(error.message),
            ) from None
        except ValueError as error:
            raise ServiceError(
                "illegal_move", str(error) or "That move is not legal.", version=version
            ) from None
        except Exception:
            log.exception("engine failed on apply(%s)", request.move)
            raise ServiceError(
                "illegal_move", "The engine could not apply this move.", version=version
            ) from None
        said = rules.narrate(position.state, action)
        text = rules.english(said)
        message = bounded(said)
        encoded: dict[str, Any] = rules.encode_action(action)
        return encoded, Position(rules, version + 1, state, position), text, message

    async def submit(
        self,
        room_id: str,
        seat: SeatRow,
        request: MoveRequest,
        *,
        by_server: bool = False,
    ) -> Accepted:
        """Validate a move with the engine and commit it; idempotent by move_id. Only the
        server's own moves (`by_server`) may carry an id in its namespace."""
        if not by_server and request.move_id.startswith(SERVER_MOVE_ID):
            raise ServiceError(
                "malformed",
                f"move_id: ids beginning with '{SERVER_MOVE_ID}' are the server's own; "
                "choose another.",
            )
        reading = self.reading
        game = await reading.game(room_id)
        number = game.seats_by_id.get(seat.id, seat.seat)
        position = self.positions.latest(game.game_id)
        if position is None or position.version != request.expected_version:
            position = await reading.position(game.game_id)
        for _attempt in range(2):
            try:
                action, after, text, message = self._judge(
                    position, number, request, game
                )
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
                    message=message,
                    snapshot_json=after.encoded() if after.over else None,
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
                # The version before too: other games may have pushed this one out of the
                # cache while the commit waited, and the hub's update is the change from it
                # (without it every connection of the room would be sent a `sync`).
                self.positions.put(game.game_id, position)
                self.positions.put(game.game_id, after)
                self.committed(room_id, event)
                self._announce(room_id, event)
                if not after.over and self.snapshots.due(after.version):
                    self.snapshots.save(game.game_id, after.version, after.encoded)
                return Accepted(event, duplicate=False)
            # Another writer moved first: judge again against what it made.
            position = await reading.position(game.game_id)
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
                # The waiter wakes after our caller's listeners have been handed the event.
                waiter = self._settled.pop(room_id, None)
                if waiter is not None:
                    waiter.set()

    async def settled(self, room_id: str) -> None:
        """Once no commit of this process is in flight in the room (at once if none is)."""
        if room_id in self._landing:
            await self._settled.setdefault(room_id, asyncio.Event()).wait()

    def _announce(self, room_id: str, event: Event) -> None:
        """Tell the other instances, in the background: the mover's ack need not wait.
        The notice carries the move's log entry, so that they need not read it back
        (unless it is too long for a notice: app/store/channel.py).

        Should this process die before the notice is out, the others still catch up within
        their heartbeat (app/ops/runtime.py), reading the version from the database. With no
        other instance serving the room (app/notices/peers.py), no notice is sent at all.
        """
        if self.others_serve(room_id):
            detail = dumps(event.as_dict())
            self.announcer.announce(notice(room_id, NoticeKind.MOVE, event.seq, detail))

    async def _earlier(self, game_id: int, seat: int, move_id: str) -> Accepted | None:
        event = await self.store.move_by_id(game_id, move_id)
        if event is None:
            return None
        if event.seat != seat:
            raise ServiceError(
                "move_id_taken",
                "This move_id was already used by another seat of this game; "
                "send your move with a new one.",
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
        missed = await self.reading.events(
            game_id, request.expected_version, position.version
        )
        refusal.extra = {
            "missed": [event.as_dict() for event in missed],
            "view": position.view(seat),
            "legal": position.legal()
            if position.current == seat and not position.over
            else [],
        }
