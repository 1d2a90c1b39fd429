"""The rooms runtime of one server process: store, caches, hub, listener and heartbeat.

`create_app` starts it in its lifespan (`start_rooms`) and stops it on shutdown. Each process
gets a random instance id, under which it records its presence rows; processes share
nothing but the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass

from fastapi import FastAPI

from app.background.bot_seeds import BOT_SEED_KEY, BotSeeds, new_key
from app.config.settings import Settings
from app.config.tasks import cancel_and_wait
from app.games import Registry
from app.live.connection import SYNC_REASONS
from app.live.hub import Hub
from app.live.presence import Presence
from app.notices.announcer import Announcer
from app.notices.listener import Listener, asyncpg_dsn
from app.notices.peers import Peers
from app.ops.warmup import warm_once
from app.play.limits import RateLimits
from app.play.positions import Positions
from app.play.service import RoomService
from app.play.snapshots import Snapshots
from app.store.channel import PEER_KINDS, NoticeKind
from app.store.games import warm_statements
from app.store.pool import (
    DATABASE_ERRORS,
    Unavailable,
    close_pool,
    create_pool,
    open_connections,
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


async def start_rooms(app: FastAPI, settings: Settings) -> RoomsRuntime:
    """Build the rooms service on the store's pools and publish it on ``app.state``."""
    assert settings.database_url is not None
    registry: Registry = app.state.games
    instance = secrets.token_hex(8)
    if settings.warm_up:
        for game in registry:
            warm_once(game.rules, players=game.players)
    pool = await create_pool(
        asyncpg_dsn(settings.database_url),
        settings.db_pool_size + settings.db_max_overflow,
        warm=warm_statements,
    )
    await open_connections(pool, settings.db_pool_size)
    # Notices and presence need no durability: their commits need not wait for the disk.
    light = await create_pool(asyncpg_dsn(settings.database_url), 2, durable=False)
    store = Store(pool, light)
    bot_seeds = await load_bot_seeds(store)
    presence = Presence(store, instance)
    announcer = Announcer(store.announce_many)
    peers = Peers(instance, announcer.announce)
    service = RoomService(
        store,
        registry,
        Positions(settings.position_cache_bytes),
        presence,
        default_game=app.state.default_game,
        announcer=announcer,
        snapshots=Snapshots(store.save_snapshot),
        others_listen=peers.any,
    )
    hub = Hub(service, presence)
    # The hub hears each commit first, before the bot runner and the webhook courier,
    # which subscribe after it (app/ops/main.py): the order the moves were always told in.
    service.subscribe(hub.committed)

    def on_notice(
        room_id: str, kind: NoticeKind, number: int, detail: str | None
    ) -> None:
        if kind in PEER_KINDS:
            peers.heard(room_id, kind)
        else:
            hub.notice(room_id, kind, number, detail)

    async def on_reconnect() -> None:
        peers.hello()  # out before we serve: the others notify us from now on
        await service.announcer.flush()
        await hub.resync()

    listener = Listener(settings.database_url, on_notice, on_reconnect)
    await listener.start()
    app.state.rooms = service
    app.state.hub = hub
    app.state.rate_limits = {
        "moves": RateLimits(settings.http_moves_per_s, settings.http_moves_per_s * 2),
        "why": RateLimits(settings.http_moves_per_s, settings.http_moves_per_s * 2),
    }
    heartbeat = asyncio.get_running_loop().create_task(_beat(presence, hub, peers))
    log.info("rooms service up as instance %s", instance)
    return RoomsRuntime(
        instance, service, hub, presence, listener, heartbeat, peers, bot_seeds
    )


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


async def _beat(presence: Presence, hub: Hub, peers: Peers) -> None:
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
