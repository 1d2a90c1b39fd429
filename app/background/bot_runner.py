"""Bots in rooms: a bot seat moves through the same path as a person's move.

When a bot is to act, the runner waits a humane delay, asks the bot (bots/) for an action on
that seat's view and legal actions (in an executor: the search never blocks the event loop),
and submits it through `service.moves.submit` (app/play/submission.py), which validates it
with the engine, commits it with a compare-and-set on the version and broadcasts it, exactly
as for a person.

Several server instances may drive the same game. The move id of a bot move is a function of
the game, the version and the seat (`~bot-<game>-<version>-<seat>`, in a namespace clients
cannot send, so no player's move holds it), and so is the bot's seed: an HMAC of the game and
the version under the server's secret key (app/background/bot_seeds.py, kept in the
database and handed to the runner at start), the same on every instance and unguessable
without it, so a bot's choices give no game id away. The racing instances submit the same
move under the same id: the first commit wins, the others get the duplicate acknowledgement
or a stale version, and only one move ever lands.

Nothing a player sends can stop a bot: should its id be taken all the same, the move goes
once more under a fresh id (`submit_as_server`; the version's compare-and-set still lands at
most one), and any other refusal only ends this attempt: the next move or sweep tries again.

Every instance is poked by the moves it commits itself, by the seats it hands to bots and by
the games it starts (the runner subscribes to all three while it runs: a game started here
with no bot is remembered as botless at once, so its moves cost the runner nothing, and one
with a bot is looked at at once). A game started elsewhere is remembered as botless the
first time this instance reads it with no bot seated (`game_seen`: the welcome of its first
socket here; with `--workers`, most often another worker than the one that started it).
Every instance also sweeps the database every `sweep_s` for games waiting on a bot (a game
started or a seat handed to a bot on another instance, an instance that died between two
moves), so no notice needs to reach it.

Thinking is shared fairly between rooms (app/background/bot_scheduler.py): each room has at most one
bot thinking, the worker processes are handed out in weighted-fair order (cheap bots and
rooms with people first, a busy table never ahead of a newcomer). The hard bot's searches
(about a second each) have `workers` slots; the medium bot (milliseconds) has a slot of its
own, so it never waits for a search; and the easy bot, which costs less than the hand-off
to a worker, thinks on the event loop. Seating a bot is a seat operation of the room service
(app/play/seats.py); the runner only drives the bots that sit.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from cachetools import LRUCache

from app.background.bot_scheduler import PERSON_WEIGHT, FairScheduler, SchedulerFull
from app.background.bot_seeds import BotSeeds
from app.config.tasks import cancel_and_wait
from app.games import AnyGame, BotThink
from app.play.listeners import Unsubscribe
from app.play.protocol import MoveRequest, ServiceError
from app.play.seat_checks import has_bots
from app.play.service import RoomService
from app.play.submission import SERVER_MOVE_ID, Accepted
from app.store.rows import Event, RoomRow, SeatRow

log = logging.getLogger("ishtar.bots")

SWEEP_S = 2.0
LOST_RACE = {"stale_version", "not_your_turn", "game_over"}
# What a bot of each level is expected to think before this process has timed any (the
# hard bot's is its time limit): docs/benchmarks.md "Bots (Ishtar)", CPU per move, rounded
# up.
FIRST_GUESS_S = {"easy": 0.02, "medium": 0.02, "hard": None}
# Levels that think on the event loop and wait in no line: none since issue 36. The easy
# bot used to pick a random legal action (0.03 ms a move, where pickling its view for a
# worker takes 0.46 ms); it now plays the medium bot's move most of the time (Ishtar: CPU
# mean 3.6 ms, p99 25 ms, max 91 ms a move, docs/benchmarks.md "Bots (Ishtar)"), too long
# to hold the loop, so it thinks in the medium bot's line like the medium bot.
INLINE_LEVELS: frozenset[str] = frozenset()

BOTLESS_BYTES = 8 * 1024 * 1024
"""The memory of rooms known to have no bot seat: at most this many bytes (by
`BOTLESS_ENTRY_BYTES`); the least recently seen are forgotten first, and a forgotten room is
only looked at again (two reads) on its next move."""
BOTLESS_ENTRY_BYTES = 420
"""One remembered room: its id (a 12-character str, 61 bytes) and the cache's two dict slots
and order link (about 320 bytes with the dicts grown in steps, measured with tracemalloc in
tests/app/background/test_bot_runner.py), rounded up."""


def bot_move_id(game_id: int, version: int, seat: int) -> str:
    """The move id every instance gives the bot move of `seat` at `version` of a game: in
    the server's namespace (no client may send it) and naming the seat (no other seat's
    move ever holds it). Moves stored under the old `bot-<game>-<version>` keep theirs."""
    return f"{SERVER_MOVE_ID}bot-{game_id}-{version}-{seat}"


def fresh_move_id(move_id: str) -> str:
    """Another id for a server move whose id was refused as taken: a move the server must
    make is never stopped by an id (the compare-and-set on the version still lands one)."""
    return f"{move_id}-{secrets.token_hex(4)}"


async def submit_as_server(
    service: RoomService, room_id: str, seat: SeatRow, request: MoveRequest
) -> Accepted:
    """Submit a server-made move; should its id be taken, once more under a fresh one."""
    try:
        return await service.moves.submit(room_id, seat, request, by_server=True)
    except ServiceError as error:
        if error.code != "move_id_taken":
            raise
        log.warning("server move id %s was taken; a fresh one", request.move_id)
        again = request.model_copy(update={"move_id": fresh_move_id(request.move_id)})
        return await service.moves.submit(room_id, seat, again, by_server=True)


def think(
    play: BotThink,
    level: str,
    view: dict[str, Any],
    legal: Sequence[Any],
    seed: int,
    think_s: float | None,
) -> Any:
    """The action of the game's bot of `level` (`play`, the descriptor's `think`), run in
    the executor; a searching bot thinks for at most `think_s`."""
    return play(level, view, list(legal), seed, think_s)


def bot_game(service: RoomService, room: RoomRow) -> AnyGame | None:
    """The room's game if it has bots (a game without them never seats one)."""
    game = service.registry.get(room.game)
    return game if has_bots(game) else None


def seated_bots(service: RoomService, room: RoomRow) -> AnyGame | None:
    """The room's game if a bot of it sits in the room (None: a botless room)."""
    kind = bot_game(service, room)
    if kind is None or not any(seat.bot_level in kind.bots for seat in room.seats):
        return None
    return kind


class BotRunner:
    """Drives the bot seats of the rooms of one server process."""

    def __init__(
        self,
        service: RoomService,
        *,
        seeds: BotSeeds,
        delay_s: float = 0.8,
        think_s: float = 0.9,
        sweep_s: float = SWEEP_S,
        executor: Executor | None = None,
        workers: int | None = None,
    ) -> None:
        self.service = service
        self.seeds = seeds
        self.delay_s = delay_s
        self.think_s = think_s
        self.sweep_s = sweep_s
        self._executor = executor
        self._own_executor = executor is None
        self.workers = workers or default_workers()
        # Two lines: searches share `workers` processes, the medium bot has one more of its
        # own. Together they never hand the pool more than it has processes, so nothing
        # ever queues inside it, where the order would be first come, first served.
        self.scheduler = FairScheduler(self.workers)
        self.light = FairScheduler(1)
        # Seconds each level took to think here lately (a moving average), the scheduler's
        # guess of what the next move of that level will cost.
        self._costs: dict[str, float] = {
            level: self.think_s if guess is None else guess
            for level, guess in FIRST_GUESS_S.items()
        }
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._unsubscribe: list[Unsubscribe] = []
        # Rooms that had no bot seat when last looked at: a move there pokes nothing (two
        # database reads per move saved). Any explicit poke (a bot seated or handed a seat
        # here, the sweep finding a room waiting on a bot) forgets the room.
        self._botless: LRUCache[str, bool] = LRUCache(
            maxsize=BOTLESS_BYTES, getsizeof=lambda _: BOTLESS_ENTRY_BYTES
        )

    # --- life -------------------------------------------------------------------------------

    def start(self) -> None:
        """Listen to this instance's commits and to seats handed to bots, and sweep the
        database for waiting bots."""
        self._unsubscribe = [
            self.service.subscribe(self.committed),
            self.service.seats.bot_seated.subscribe(self.poke),
            self.service.seats.started.subscribe(self.game_started),
            self.service.reading.seen.subscribe(self.game_seen),
        ]
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def stop(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        await cancel_and_wait(self._sweeper, *self._drivers.values())
        if self._own_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    @property
    def executor(self) -> Executor:
        """Where bots think: by default worker processes (one per core for searches and
        one for the medium bot, started on first use), so a search uses its own core and
        the event loop keeps serving."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers + self.light.workers,
                mp_context=multiprocessing.get_context("spawn"),
            )
        return self._executor

    def committed(self, room_id: str, event: Event) -> None:
        """A move committed here: the room's next seat may be a bot's."""
        if self._botless.get(room_id) is None:  # get: a hit counts as recent use
            self.poke(room_id)

    def game_started(self, room: RoomRow) -> None:
        """A game started here: remembered as botless, or looked at now if a bot sits."""
        if seated_bots(self.service, room) is None:
            self._botless[room.id] = True
        else:
            self.poke(room.id)

    def game_seen(self, room: RoomRow) -> None:
        """A started game read here (a welcome, a view, a move): remembered as botless if
        no bot sits, as a game started here is, so that its next move pokes nothing. One
        with a bot stays unknown: its next move here pokes the runner, which looks."""
        if room.status == "playing" and seated_bots(self.service, room) is None:
            self._botless[room.id] = True

    def poke(self, room_id: str) -> None:
        """Look at a room soon: if a bot is to act there, it will."""
        self._botless.pop(room_id, None)
        if room_id in self._drivers:
            self._again.add(room_id)
            return
        task = asyncio.get_running_loop().create_task(self._drive(room_id))
        self._drivers[room_id] = task

    async def _sweep(self) -> None:
        while True:
            try:
                for room_id in await self.waiting_rooms():
                    self.poke(room_id)
            except Exception as error:
                log.warning("bot sweep failed: %s", error)
            await asyncio.sleep(self.sweep_s)

    async def waiting_rooms(self) -> list[str]:
        """Rooms whose game waits on a bot seat."""
        return await self.service.store.waiting_on_bots()

    # --- moving -----------------------------------------------------------------------------

    async def _drive(self, room_id: str) -> None:
        try:
            while True:
                self._again.discard(room_id)
                try:
                    moved = await self.step(room_id)
                except ServiceError as error:
                    log.info("bot in room %s stopped: %s", room_id, error.reason)
                    moved = False
                except SchedulerFull as error:  # the sweep comes back to this room
                    log.info("bot in room %s waits for the sweep: %s", room_id, error)
                    moved = False
                except Exception:
                    log.exception("bot in room %s failed", room_id)
                    moved = False
                if not moved and room_id not in self._again:
                    return
        finally:
            self._drivers.pop(room_id, None)

    async def step(self, room_id: str) -> bool:
        """Make the move of the bot to act in a room, if any; True if the game moved on."""
        service = self.service
        room = await service.rooms.room(room_id)
        if room.status != "playing" or room.started is None:
            return False
        kind = seated_bots(service, room)
        if kind is None:
            self._botless[room_id] = True
            return False
        game = await service.reading.game(room_id, room)
        position = await service.reading.position(game.game_id)
        if position.over or position.current is None:
            return False
        seat = room.seat(position.current)
        if seat is None or seat.bot_level not in kind.bots:
            return False
        assert kind.think is not None
        view = position.view(seat.seat)
        delay = self.delay_s if view.get("phase") == "choose" else self.delay_s / 3
        if delay > 0:  # a whole pause before a turn, shorter ones between its steps
            await asyncio.sleep(delay)
        level, version = seat.bot_level, position.version
        if level in INLINE_LEVELS:
            seed = await self.seeds.seed("bot", game.game_id, version)
            action = think(
                kind.think, level, view, legal_of(position), seed, self.think_s
            )
        else:
            action = await self._think_in_line(
                kind.think, room, seat, game.game_id, view, version
            )
            if action is None:  # the game moved on while this bot waited
                return True
        request = MoveRequest(
            move=action,
            expected_version=version,
            move_id=bot_move_id(game.game_id, version, seat.seat),
        )
        try:
            await submit_as_server(service, room_id, seat, request)
        except ServiceError as error:
            if error.code not in LOST_RACE:
                raise
        return True

    async def _think_in_line(
        self,
        play: BotThink,
        room: RoomRow,
        seat: SeatRow,
        game_id: int,
        view: dict[str, Any],
        version: int,
    ) -> Any | None:
        """The action of a worker's bot, once the room's turn in its line came; None if
        the game moved on meanwhile (another instance moved)."""
        assert seat.bot_level is not None
        level = seat.bot_level
        # People waiting for this bot (a seat whose holder left counts for nobody) put the
        # room ahead of rooms of bots only.
        person = any(
            s.bot_level is None and s.token_hash is not None for s in room.seats
        )
        line = self.scheduler if level == "hard" else self.light
        async with line.turn(
            room.id,
            cost=self._costs.get(level, self.think_s),
            weight=PERSON_WEIGHT if person else 1.0,
        ):
            # The wait may have been long: rather than think about a past position, look
            # again.
            position = await self.service.reading.position(game_id)
            if position.version != version or position.current != seat.seat:
                return None
            seed = await self.seeds.seed("bot", game_id, version)
            began = time.monotonic()
            action = await asyncio.get_running_loop().run_in_executor(
                self.executor,
                think,
                play,
                level,
                view,
                legal_of(position),
                seed,
                self.think_s,
            )
            spent = time.monotonic() - began
            self._costs[level] = self._costs.get(level, spent) * 7 / 8 + spent / 8
            return action


def default_workers() -> int:
    """Bot worker processes by default: one per core, two at most."""
    return max(1, min(2, os.cpu_count() or 1))


def legal_of(position: Any) -> list[Any]:
    """The legal actions of a position, as a bot receives them."""
    return [item["action"] for item in position.legal()]
