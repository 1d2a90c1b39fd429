"""The rooms runtime of one server process: store, caches, hub, listener and heartbeat.

The composition root (app/ops/composition.py `start_rooms`) builds it in the app's lifespan,
and `RoomsRuntime.stop` stops it on shutdown. Each process gets a random instance id, under
which it records its presence rows; processes share nothing but the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

from app.background.bot_seeds import BOT_SEED_KEY, BotSeeds, new_key
from app.config.tasks import cancel_and_wait
from app.live.connection import SYNC_REASONS
from app.live.hub import Hub
from app.live.presence import Presence
from app.notices.listener import Listener
from app.notices.peers import Peers
from app.play.service import RoomService
from app.store.pool import (
    DATABASE_ERRORS,
    Unavailable,
    close_pool,
)
from app.store.store import Store

log = logging.getLogger("ishtar.runtime")

HEARTBEAT_S = 10.0
# A database not ready at start: down or slow (the store's), or not migrated yet (the driver's).
NOT_READY: tuple[type[Exception], ...] = (TimeoutError, Unavailable, *DATABASE_ERRORS)


@dataclass
class RoomsRuntime:
    instance: str
    service: RoomService
    hub: Hub
    presence: Presence
    listener: Listener
    heartbeat: asyncio.Task[None]
    peers: Peers
    bot_seeds: BotSeeds

    async def stop(self) -> None:
        await cancel_and_wait(self.heartbeat)
        await self.listener.stop()
        self.peers.bye()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.service.announcer.flush(), 2.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.service.snapshots.flush(), 2.0)
        await self.hub.close()
        await self.presence.close()
        await close_pool(self.service.store.pool, "store")
        await close_pool(self.service.store.light, "light")


async def load_bot_seeds(store: Store, within_s: float = 5.0) -> BotSeeds:
    """The bots' seeds under this database's key (the same for every instance), read now;
    should the database not be ready (down, not migrated: the server starts all the same
    and /readyz explains), read on the first bot move instead."""
    offer = new_key()
    seeds = BotSeeds(source=lambda: store.secrets.secret(BOT_SEED_KEY, offer))
    try:
        async with asyncio.timeout(within_s):
            await seeds.load()
    except NOT_READY as error:
        log.warning("the bots' seed key is read at their first move: %s", error)
    return seeds


async def beat(presence: Presence, hub: Hub, peers: Peers) -> None:
    """Refresh presence and catch up rooms now and then, whatever notices were lost.

    Each beat reads the versions of every served room in one query and wakes only the rooms
    behind them (a lost move or chat notice), then re-reads the rooms' status and presence
    a slice at a time over the period (a lost room or presence notice): its cost does not
    bunch up with the number of rooms (docs/scaling.md, "Heartbeat")."""
    told: dict[str, int] = {}
    while True:
        try:
            peers.here()
            await presence.heartbeat()
            await hub.catch_up()
            if told != SYNC_REASONS:
                told = dict(SYNC_REASONS)
                log.info("syncs sent by reason: %s", _reasons(told))
        except Exception as error:
            log.warning("heartbeat failed: %s", error)
        try:
            await hub.refresh(HEARTBEAT_S)
        except Exception as error:
            log.warning("heartbeat failed: %s", error)
            await asyncio.sleep(HEARTBEAT_S)


def _reasons(counts: dict[str, int]) -> str:
    """
    >>> _reasons({"overflow": 2, "joined_behind": 1})
    'joined_behind=1 overflow=2'
    """
    return " ".join(f"{reason}={counts[reason]}" for reason in sorted(counts))
