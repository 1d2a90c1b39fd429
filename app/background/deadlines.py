"""Time control: a room's per-move deadline, and what happens when it passes.

A room may set a time control when it is created (`time_control` in POST /api/rooms):
`per_move_s` seconds for each move and a `policy` for a seat that lets it pass: ``wait``
(the game waits and the seat is shown overdue to everyone) or ``bot`` (a bot of level
`bot` plays that turn for the seat, through the same move path as a person's move).

The database keeps the clock, not this process. The trigger ``games_turn_changed``
(migration 0003) writes, in the transaction of every move and of the start, the deadline
of the seat to act: its seat, the version it must act on and when that is due. Every
server instance runs a `DeadlineWatch` that claims passed deadlines with
``FOR UPDATE SKIP LOCKED``, so each is handled by exactly one of them, whichever gets there
first, and a deadline set before a restart is handled after it:

- ``wait``: the claiming transaction itself marks the deadline overdue, logs the handling
  and bumps the room's revision with a NOTIFY; one commit, so exactly once.
- ``bot``: the claim takes a lease (``claimed_until``), then the bot plays the seat's turn
  through `service.moves.submit` with move ids ``~deadline-<game>-<version>-<seat>``. The version
  compare-and-set and the move ids make a second attempt harmless: if the instance dies
  mid-turn, the lease runs out and another instance finishes the turn, applying nothing
  twice. The bot's seed is keyed by the server's secret like the bot runner's
  (app/background/bot_seeds.py), so every instance plays the same turn and it gives no game
  id away. A bot that fails falls back to ``wait``.

The watch's time is a `TimeSource` (app/config/timesource.py). Since the database keeps the clock,
the source does not replace PostgreSQL's ``now()`` with this process's time (instances with
skewed clocks would then disagree on what is due, and on leases): the claim reads the present
as ``now()`` plus the source's lead, which is 0 s in production and what a test advanced a
`ManualTime` by. Its polls wait on the source too, so a test steps the watch past a deadline
(or to just before one) and sees what it did, without sleeping. Its SQL is the store's
(app/store/deadlines.py).
"""

from __future__ import annotations

import asyncio
import logging

from app.background.bot_runner import LOST_RACE, bot_game, submit_as_server, think
from app.background.bot_seeds import BotSeeds
from app.config.tasks import cancel_and_wait
from app.config.timesource import SYSTEM_TIME, TimeSource
from app.play.protocol import MoveRequest, ServiceError
from app.play.seat_checks import no_bots
from app.play.service import RoomService
from app.play.submission import SERVER_MOVE_ID
from app.store.deadlines import Due

log = logging.getLogger("ishtar.deadlines")

BATCH = 20


def deadline_move_id(game_id: int, version: int, seat: int) -> str:
    """The move id of the bot move made for late `seat` at `version` (the same everywhere),
    in the server's namespace, which no client may send (docs/security.md)."""
    return f"{SERVER_MOVE_ID}deadline-{game_id}-{version}-{seat}"


class DeadlineWatch:
    """This instance's share of the deadline work: claim what is due, apply the policy."""

    def __init__(
        self,
        service: RoomService,
        instance: str,
        *,
        seeds: BotSeeds,
        poll_s: float = 1.0,
        lease_s: float = 120.0,
        think_s: float = 0.9,
        time: TimeSource = SYSTEM_TIME,
    ) -> None:
        self.service = service
        self.instance = instance
        self.seeds = seeds
        self.poll_s = poll_s
        self.lease_s = lease_s
        self.think_s = think_s
        self.time = time
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await cancel_and_wait(self._task)

    async def _run(self) -> None:
        while True:
            try:
                handled = await self.run_once()
            except Exception as error:
                log.warning("deadline watch failed: %s", error)
                handled = 0
            if handled < BATCH:
                await self.time.sleep(self.poll_s)

    async def run_once(self) -> int:
        """Claim the deadlines due now and handle them; how many were claimed."""
        claimed = await self.claim()
        await asyncio.gather(
            *(self.play(due) for due in claimed if due.policy == "bot")
        )
        return len(claimed)

    async def claim(self) -> list[Due]:
        """One transaction: lock due rows (skipping rows others hold), apply or lease."""
        claimed = await self.service.store.deadlines.claim(
            self.instance, BATCH, self.lease_s, self.time.ahead_s()
        )
        # Told in transactions of their own: a move that ends a game locks its room before
        # the deadline row, so taking the room here could deadlock with it. Should this
        # process die before telling, every instance's heartbeat re-sends room statuses.
        for due in claimed:
            if due.policy == "wait":
                await self.announce(due.room_id)
        for due in claimed:
            log.info(
                "deadline of seat %s in room %s at version %s: %s",
                due.seat,
                due.room_id,
                due.version,
                due.policy,
            )
        return claimed

    async def play(self, due: Due) -> None:
        """A bot plays the late seat's turn; if it cannot, the seat is marked overdue."""
        try:
            await self._play(due)
        except Exception:
            log.exception("bot for a late seat in room %s failed", due.room_id)
            if await self.service.store.deadlines.mark_overdue(
                due.game_id, due.version
            ):
                await self.announce(due.room_id)

    async def announce(self, room_id: str) -> None:
        """Bump the room's revision with its notice: every instance re-sends its status."""
        try:
            await self.service.store.bump_room(room_id)
        except Exception as error:
            log.warning("room %s not told of its late seat: %s", room_id, error)

    async def _play(self, due: Due) -> None:
        service = self.service
        room = await service.rooms.room(due.room_id)
        kind = bot_game(service, room)
        if kind is None or kind.think is None:
            raise no_bots(service.registry.get(room.game))
        seat = room.seat(due.seat)
        if seat is None or room.started is None:
            return
        game = await service.reading.game(due.room_id, room)
        level = due.bot_level or kind.bots[0]
        version = due.version
        loop = asyncio.get_running_loop()
        while True:  # the whole turn: every step until another seat is to act
            position = await service.reading.position(game.game_id)
            if (
                position.version != version
                or position.over
                or position.current != due.seat
            ):
                return
            legal = [item["action"] for item in position.legal()]
            seed = await self.seeds.seed("deadline", game.game_id, version)
            action = await loop.run_in_executor(
                None,
                think,
                kind.think,
                level,
                position.view(due.seat),
                legal,
                seed,
                self.think_s,
            )
            request = MoveRequest(
                move=action,
                expected_version=version,
                move_id=deadline_move_id(game.game_id, version, due.seat),
            )
            try:
                accepted = await submit_as_server(service, due.room_id, seat, request)
            except ServiceError as error:
                if error.code in LOST_RACE:
                    return  # the seat moved after all, or another instance did it
                raise
            version = accepted.version
