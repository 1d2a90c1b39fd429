"""The composition root: every service of one server process, built and wired here.

`create_app`'s lifespan (app/ops/main.py) calls `start` and, on shutdown, `Services.stop`.
The rooms runtime comes first (the store's pools, the service, the hub, the listener and
the heartbeat: app/ops/runtime.py), then what stands on it: records and replays, the
analyses and their workers, the bot runner, the background work of play between sessions
(app/background/async_play.py), the garbage collector's schedule and the heap dumps. Each
is published on ``app.state`` for the routes, which only read it. Commit listeners
subscribe in this order: the hub, the bot runner, the webhook and push couriers.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from dataclasses import dataclass

from fastapi import FastAPI

from app.background.async_play import AsyncPlay, left_seat_fact, vapid_subject
from app.background.bot_runner import BotRunner
from app.background.deadlines import DeadlineWatch
from app.background.left_seats import LeftSeatWatch
from app.background.mail_digest import LINK_KEY, DigestCourier, LinkKey, Mailer
from app.background.push_keys import VAPID_KEY, VapidKey, new_key, unb64url
from app.background.web_push import PushCourier, Texts
from app.background.webhooks import WebhookCourier
from app.config.settings import Settings
from app.games import Registry
from app.live.hub import Hub
from app.live.presence import Presence
from app.notices.announcer import Announcer
from app.notices.listener import Listener, asyncpg_dsn
from app.notices.peers import Peers
from app.ops import heap_dump
from app.ops.collector import Collector
from app.ops.heap_dump import HeapDumps
from app.ops.runtime import RoomsRuntime, beat, load_bot_seeds
from app.ops.warmup import warm_once
from app.play.limits import RateLimits, SharedRoomLimit
from app.play.positions import Positions
from app.play.rematch import Rematches
from app.play.service import RoomService
from app.play.snapshots import Snapshots
from app.records.analysis_jobs import Analyses, AnalysisWorkers
from app.records.archive import Archive
from app.records.offload import Offload
from app.records.provenance import Provenance
from app.records.replays import ReplayCache, Replays
from app.store.channel import PEER_KINDS, NoticeKind
from app.store.games import warm_statements
from app.store.overflow import OverflowPool
from app.store.pool import create_pool, open_connections
from app.store.store import Store

log = logging.getLogger("ishtar.runtime")


@dataclass
class Services:
    """What `start` started, stopped in the reverse order."""

    rooms: RoomsRuntime
    analysis_workers: AnalysisWorkers
    bots: BotRunner
    async_play: AsyncPlay
    collector: Collector
    dumps: HeapDumps | None

    async def stop(self) -> None:
        heap_dump.uninstall(self.dumps)
        await self.collector.stop()
        await self.analysis_workers.stop()
        await self.async_play.stop()
        await self.bots.stop()
        await self.rooms.stop()


async def start(app: FastAPI, settings: Settings) -> Services:
    """Every service of this process, started, each on ``app.state`` for the routes."""
    runtime = await start_rooms(app, settings)
    store = runtime.service.store
    # Rooms per address per minute: one count in PostgreSQL for all instances.
    app.state.room_limit = SharedRoomLimit(store.room_limits, settings.rooms_per_minute)
    install_records(app, store)  # adds the archive's facts to the room status
    analysis_workers = install_analyses(app, runtime.instance)
    # Commit listeners, in this order after the hub's (start_rooms): the bot runner, then
    # the webhook courier; each unsubscribes when it stops.
    app.state.bots = BotRunner(
        runtime.service,
        seeds=runtime.bot_seeds,
        delay_s=settings.bot_delay_s,
        think_s=settings.bot_think_s,
    )
    app.state.bots.start()
    background = start_async_play(app, settings, runtime)
    # Everything alive now lives as long as the process, and what survives play a while
    # lives long too: out of the collector's reach (app/ops/collector.py; the load
    # benchmark's full collections 145-183 ms -> 10-34 ms;
    # docs/journal/benchmarks-history.md, "Changes made in the first session").
    collector = Collector(
        full_every_s=settings.gc_full_every_s,
        growth=settings.gc_full_growth,
        full_after_closed=settings.gc_full_after_closed,
    )
    collector.start()
    dumps = heap_dump.install(settings.heap_dump_dir, settings.heap_dump_frames)
    return Services(
        runtime, analysis_workers, app.state.bots, background, collector, dumps
    )


async def start_rooms(app: FastAPI, settings: Settings) -> RoomsRuntime:
    """Build the rooms service on the store's pools and publish it on ``app.state``."""
    assert settings.database_url is not None
    registry: Registry = app.state.games
    instance = secrets.token_hex(8)
    if settings.warm_up:
        for game in registry:
            warm_once(game.rules, players=game.players)
    dsn = asyncpg_dsn(settings.database_url)
    base = await create_pool(dsn, settings.db_pool_size, warm=warm_statements)
    await open_connections(base, settings.db_pool_size)
    extra = None
    if settings.db_max_overflow:
        extra = await create_pool(
            dsn,
            settings.db_max_overflow,
            warm=warm_statements,
            idle_s=settings.db_overflow_idle_s,
        )
    pool = OverflowPool(base, extra, settings.db_overflow_wait_ms / 1000)
    # Notices and presence need no durability: their commits need not wait for the disk.
    light = await create_pool(dsn, 2, durable=False)
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
        others_serve=peers.wants,
    )
    hub = Hub(service, presence, serving=peers.serving)
    peers.rooms = hub.rooms
    # The hub hears each commit first, before the bot runner and the webhook courier,
    # which subscribe after it (`start`): the order the moves were always told in.
    service.subscribe(hub.committed)

    def on_notice(
        room_id: str, kind: NoticeKind, number: int, detail: str | None
    ) -> None:
        if kind in PEER_KINDS:
            peers.heard(room_id, kind, number)
        elif kind is NoticeKind.SERVE:
            if detail is not None:
                peers.heard(detail, kind, number, room_id)
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
    heartbeat = asyncio.get_running_loop().create_task(beat(presence, hub, peers))
    log.info("rooms service up as instance %s", instance)
    return RoomsRuntime(
        instance, service, hub, presence, listener, heartbeat, peers, bot_seeds
    )


def install_records(app: FastAPI, store: Store) -> None:
    """Create the archive and rematch services on ``app.state`` (after the rooms service)."""
    settings: Settings = app.state.settings
    provenance = Provenance(store.records, settings.record_signing_key, app.state.games)
    replays = Replays(
        store.replays,
        app.state.games,
        ReplayCache(settings.replay_cache_bytes),
        Offload(),
    )
    archive = Archive(store.records, app.state.rooms, provenance, replays)
    app.state.replay_limits = RateLimits(
        settings.replay_requests_per_s, settings.replay_burst
    )
    app.state.archive = archive
    app.state.rematches = Rematches(store.records, app.state.rooms.rooms)
    app.state.rooms.add_status_facts(archive.status_facts)


def install_analyses(app: FastAPI, instance: str) -> AnalysisWorkers:
    """The analyses service on ``app.state`` and this instance's workers (started)."""
    settings: Settings = app.state.settings
    archive = app.state.archive
    store = archive.rooms.store.analyses
    workers = AnalysisWorkers(
        store,
        archive,
        instance,
        workers=AnalysisWorkers.share(len(_cores()), settings.analysis_share),
        cpu_s=settings.analysis_cpu_s,
        rollouts=settings.analysis_rollouts,
        policy=settings.analysis_policy,
        luck_samples=settings.analysis_luck_samples,
        extra_games=tuple(settings.extra_games),
    )
    app.state.analyses = Analyses(
        store,
        archive,
        app.state.room_limit,
        settings.analysis_per_address_per_day,
        poke=workers.poke,
    )
    workers.start()
    return workers


def _cores() -> set[int]:
    try:
        return os.sched_getaffinity(0)
    except AttributeError:  # pragma: no cover - not Linux
        return set(range(os.cpu_count() or 1))


def start_async_play(
    app: FastAPI, settings: Settings, rooms: RoomsRuntime
) -> AsyncPlay:
    """Start the deadline watch, the left seat watch and the webhook courier of this
    instance."""
    deadlines = DeadlineWatch(
        rooms.service,
        rooms.instance,
        seeds=rooms.bot_seeds,
        poll_s=settings.deadline_poll_s,
        lease_s=settings.deadline_lease_s,
        think_s=settings.bot_think_s,
    )
    left_seats = LeftSeatWatch(
        rooms.service,
        after_s=settings.left_seat_bot_s,
        poll_s=settings.left_seat_poll_s,
    )
    courier = WebhookCourier(
        rooms.service.store.webhooks,
        rooms.instance,
        poll_s=settings.webhook_poll_s,
        timeout_s=settings.webhook_timeout_s,
        max_attempts=settings.webhook_max_attempts,
        backoff_s=settings.webhook_backoff_s,
        allow_private=settings.webhook_allow_private,
    )
    store = rooms.service.store
    texts: Texts = app.state.catalogues.text
    vapid = VapidKey(
        unb64url(settings.vapid_private_key.get_secret_value())
        if settings.vapid_private_key
        else None,
        source=lambda: store.secrets.secret(VAPID_KEY, new_key()),
    )
    push = PushCourier(
        store.push,
        rooms.instance,
        key=vapid,
        subject=vapid_subject(settings),
        games=rooms.service.registry,
        texts=texts,
        ttl_s=settings.push_ttl_s,
        poll_s=settings.webhook_poll_s,
        timeout_s=settings.webhook_timeout_s,
        max_attempts=settings.webhook_max_attempts,
        backoff_s=settings.webhook_backoff_s,
        allow_private=settings.webhook_allow_private,
    )
    links = LinkKey(lambda: store.secrets.secret(LINK_KEY, secrets.token_bytes(32)))
    mailer = Mailer(settings) if settings.mail_enabled else None
    digest = (
        None
        if mailer is None
        else DigestCourier(
            store.mail,
            mailer,
            links,
            games=rooms.service.registry,
            texts=texts,
            period_s=settings.mail_digest_period_s,
            wait_s=settings.mail_digest_wait_s,
            poll_s=settings.mail_poll_s,
        )
    )
    app.state.vapid = vapid
    app.state.mailer = mailer
    app.state.mail_links = links
    app.state.rate_limits["my_games"] = RateLimits(5.0, 20.0)
    # subscribing and leaving an address: a few in a row, then one a minute per seat
    app.state.rate_limits["reach"] = RateLimits(1 / 60, 30.0)
    rooms.service.rooms.add_status_facts(left_seat_fact(settings.left_seat_bot_s))
    deadlines.start()
    left_seats.start()
    courier.start()
    if settings.push_enabled:
        push.start()
    if digest is not None:
        digest.start()
    background = AsyncPlay(rooms.service, deadlines, courier, left_seats, push, digest)
    background.unsubscribe = rooms.service.subscribe(background.committed)
    app.state.async_play = background
    return background
