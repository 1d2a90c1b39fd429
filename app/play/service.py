"""The room service: rooms, seats and games, where every decision about play is the engine's.

Operations here are what the HTTP routes and the websocket handler delegate to. Each one
validates with the engine, persists through `Store` (committed before anyone is told) and
reports the commit to `on_commit`, which the hub turns into messages. Errors are
`ServiceError`s with the codes of docs/protocol.md; nothing here sends anything.

The service is one class in parts: rooms and seats (app/play/seating.py), reading started games
(app/games.py) and submitting moves (app/play/submission.py).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app.notices.announcer import Announcer
from app.play.positions import Positions, catalogue_colours
from app.play.reading import GameContext
from app.play.snapshots import Snapshots
from app.play.submission import Submission
from app.store.rows import Event, RoomRow
from app.store.store import Store

if TYPE_CHECKING:  # types only: the registry and presence are handed in, not imported
    from app.games import Registry
    from app.live.presence import Presence


class RoomService(Submission):
    """Room, seat and game operations over a store, an engine and the position cache."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        positions: Positions,
        presence: Presence,
        *,
        default_game: str,
    ) -> None:
        self.store = store
        self.registry = registry
        self.default_game = default_game
        self.positions = positions
        self.presence = presence
        self.on_commit: Callable[[str, Event], None] = lambda room_id, event: None
        # More facts for the room status from other features (app/records/archive.py: the shuffle
        # commitment and the rematch), each an async function of the room row.
        self.status_extensions: list[
            Callable[[RoomRow], Awaitable[dict[str, Any]]]
        ] = []
        self._games: dict[str, GameContext] = {}
        self.announcer = Announcer(store.announce_many)
        self.snapshots = Snapshots(store.save_snapshot)
        # Whether another instance listens (app/notices/peers.py); until told, assume one does.
        self.others_listen: Callable[[], bool] = lambda: True
        # Rooms with a commit of this process in flight, and their waiters (the hub: a
        # NOTIFY can overtake the commit it announces, and the move is about to be handed
        # to it by `on_commit`; no need to read it back from the database).
        self._landing: Counter[str] = Counter()
        self._settled: dict[str, asyncio.Event] = {}
        self._colours = {game.id: catalogue_colours(game.rules) for game in registry}
