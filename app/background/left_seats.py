"""Left seats: a seat whose person left a game in play goes to a bot after a stated time.

When a player leaves a started game (`service.seats.leave`) their seat stays in the game
without a holder, and the game waits on it when its turn comes. The host may hand it on at
once (the seat menu); if nobody does, after ``left_seat_bot_s`` seconds (a setting,
docs/async-play.md) this watch hands it to a bot of the game's middle level, through
`service.seats.hand_left_seat_to_bot`, which judges whether it still may (the game in play,
the seat still left, another seat still held by a person) — no rule lives here. A room with
a time control is left alone: there the seat follows the clock's policy (a bot plays its
overdue turns, or the game waits), as any late seat does (app/background/deadlines.py).

Like the deadline watch, nothing of it is kept in memory: the database says since when
each seat is left (``seats.joined_at``, set by the trigger ``seats_holder_changed``), and
the hand-over is a conditional update, so any number of instances may run it and a seat is
handed on once. Its time is a `TimeSource` (app/config/timesource.py): a test advances a
`ManualTime` past the delay and runs the watch once.
"""

from __future__ import annotations

import asyncio
import logging

from app.config.tasks import cancel_and_wait
from app.config.timesource import SYSTEM_TIME, TimeSource
from app.play.service import RoomService

log = logging.getLogger("ishtar.left_seats")

BATCH = 20


class LeftSeatWatch:
    """This instance's look for seats left long enough ago, handed to bots."""

    def __init__(
        self,
        service: RoomService,
        *,
        after_s: float,
        poll_s: float = 5.0,
        time: TimeSource = SYSTEM_TIME,
    ) -> None:
        self.service = service
        self.after_s = after_s
        self.poll_s = poll_s
        self.time = time
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.after_s > 0:  # 0: never by itself, the host decides
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await cancel_and_wait(self._task)

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as error:
                log.warning("left seat watch failed: %s", error)
            await self.time.sleep(self.poll_s)

    async def run_once(self) -> list[tuple[str, int, str]]:
        """Hand the seats due to bots; (room id, seat, bot's name) of each handed."""
        due = await self.service.store.left_seats_due(
            self.after_s, self.time.ahead_s(), BATCH
        )
        handed = []
        for room_id, seat in due:
            name = await self.service.seats.hand_left_seat_to_bot(room_id, seat)
            if name is not None:
                log.info("left seat %s of room %s handed to %s", seat, room_id, name)
                handed.append((room_id, seat, name))
        return handed
