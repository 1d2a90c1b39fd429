"""The room service: rooms, seats and games, where every decision about play is the engine's.

The HTTP routes and the websocket handler delegate to it. Each operation validates with the
engine, persists through `Store` (committed before anyone is told) and reports what it
committed to its listeners; errors are `ServiceError`s with the codes of docs/protocol.md;
nothing here sends anything.

`RoomService` builds its parts and hands each what it needs, explicitly:

- `rooms` (app/play/rooms.py): a room by id, its status, the seat a token holds;
- `reading` (app/play/reading.py): a started game's context, position, views and move log;
- `seats` (app/play/seats.py): every seat operation (create, join, start, bots, leave,
  hand on), with the shared checks of app/play/seat_checks.py;
- `moves` (app/play/submission.py): submitting a move, and the commits in flight;
- `your_games` (app/play/your_games.py): the rooms a browser holds tokens for;
- `chat` (app/play/chat.py): table chat (its setting is part of every room status).

Callers name the part they use (``service.seats.join(...)``, ``service.moves.submit(...)``):
the service keeps no delegating methods, so where an operation lives reads from its call.
What belongs to the whole service is here: `subscribe` (the listeners of committed moves,
called in order; one that raises is logged and the others still hear) and
`add_status_facts` (more facts in every room status). The composition root
(app/ops/runtime.py, app/ops/main.py, app/web/routes/records.py) wires them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.notices.announcer import Announcer
from app.play.chat import Chat
from app.play.listeners import Unsubscribe
from app.play.positions import Positions
from app.play.reading import Reading
from app.play.rooms import Rooms, StatusFacts
from app.play.seats import Seats
from app.play.snapshots import Snapshots
from app.play.submission import Committed, Moves
from app.play.your_games import YourGames
from app.store.rows import Event
from app.store.store import Store

if TYPE_CHECKING:  # types only: the registry and presence are handed in, not imported
    from app.games import Registry
    from app.live.presence import Presence


def _always(_room_id: str) -> bool:
    return True


class RoomService:
    """Room, seat and game operations over a store, the registry and the position cache."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        positions: Positions,
        presence: Presence,
        *,
        default_game: str,
        announcer: Announcer | None = None,
        snapshots: Snapshots | None = None,
        others_serve: Callable[[str], bool] = _always,
    ) -> None:
        """`announcer` sends move notices to the other instances (default: through
        `store`); `others_serve` says whether another instance serves a room
        (app/notices/peers.py; default: assume one does); `snapshots` writes mid-game
        snapshots (default: to `store`)."""
        self.store = store
        self.registry = registry
        self.default_game = default_game
        self.positions = positions
        self.presence = presence
        self.announcer = announcer or Announcer(store.announce_many)
        self.snapshots = snapshots or Snapshots(store.save_snapshot)
        self._committed: Committed = Committed("committed moves")
        self.rooms = Rooms(store, registry, presence)
        self.reading = Reading(store, registry, positions, self.rooms)
        self.seats = Seats(
            store,
            registry,
            positions,
            self.rooms,
            self.reading,
            default_game=default_game,
        )
        self.moves = Moves(
            store,
            positions,
            self.reading,
            self._committed,
            announcer=self.announcer,
            snapshots=self.snapshots,
            others_serve=others_serve,
        )
        self.your_games = YourGames(store, self.reading)
        self.chat = Chat(store.chat, self.rooms)
        self.rooms.add_status_facts(self.chat.facts)

    def subscribe(self, listener: Callable[[str, Event], None]) -> Unsubscribe:
        """Tell `listener(room_id, event)` of every move this process commits, after the
        listeners subscribed before it; the function returned unsubscribes it."""
        return self._committed.subscribe(listener)

    def add_status_facts(self, facts: StatusFacts) -> None:
        """Add `facts(room)` (an async function of the room row) to every room status."""
        self.rooms.add_status_facts(facts)
