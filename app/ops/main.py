"""The FastAPI application factory: `create_app(settings)`.

The lifespan starts the rooms runtime (app/ops/runtime.py: the store's asyncpg pools, the
service, the hub) and the services over it, and subscribes the service's listeners; routers
come from `app.web.routes`. Add a router by importing its module and including it below.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

from fastapi import FastAPI

from app.background.async_play import start_async_play
from app.background.bot_runner import BotRunner
from app.config.settings import Settings, get_settings
from app.games import DEFAULT_GAME, registry
from app.ops import heap_dump
from app.ops.collector import Collector
from app.ops.runtime import start_rooms
from app.play.limits import BodyLimit, SharedRoomLimit
from app.records.archive import MAX_RECORD_BYTES
from app.web import ws
from app.web.assets import Assets, VersionedStatic
from app.web.i18n import Catalogues
from app.web.routes import (
    analyses,
    app_shell,
    async_play,
    bots,
    chat,
    games,
    health,
    i18n,
    pages,
    reach,
    records,
    rooms,
)
from app.web.security import AllowedHosts, SecurityHeaders, host_allow_list
from app.web.socket_door import Site, SocketDoor


def _version() -> str:
    try:
        return version("ishtar-online")
    except PackageNotFoundError:
        return "0.0.0"


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new application bound to `settings` (default: the process settings)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runtime = await start_rooms(app, settings)
        store = runtime.service.store
        # Rooms per address per minute: one count in PostgreSQL for all instances.
        app.state.room_limit = SharedRoomLimit(
            store.room_limits, settings.rooms_per_minute
        )
        records.install(app, store)  # adds the archive's facts to the room status
        analysis_workers = analyses.install(app, runtime.instance)
        # Commit listeners, in this order after the hub's (app/ops/runtime.py): the bot
        # runner, then the webhook courier; each unsubscribes when it stops.
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
        try:
            yield
        finally:
            heap_dump.uninstall(dumps)
            await collector.stop()
            await analysis_workers.stop()
            await background.stop()
            await app.state.bots.stop()
            await runtime.stop()

    app = Site(title="Ishtar Online", version=_version(), lifespan=lifespan)
    app.state.settings = settings
    app.state.games = registry(settings.extra_games)
    app.state.default_game = settings.default_game or DEFAULT_GAME
    app.state.games.get(app.state.default_game)  # a typo in the settings fails at start
    # Any other Host (a rebound DNS name, say) gets 400, websockets included; added before
    # SecurityHeaders so that the refusal carries the security headers too.
    allowed_hosts = host_allow_list(
        settings.allowed_hosts, settings.host, settings.public_url
    )
    app.add_middleware(AllowedHosts, allowed_hosts=allowed_hosts)
    # Room sockets on an allowed Host skip the stack (app/web/socket_door.py).
    app.door = SocketDoor(allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.include_router(health.router)
    app.include_router(rooms.router)
    app.include_router(games.router)
    app.include_router(bots.router)
    app.include_router(async_play.router)
    app.include_router(reach.router)
    app.include_router(reach.pages)
    app.include_router(app_shell.router)
    app.include_router(records.router)
    app.include_router(analyses.router)
    app.include_router(chat.router)
    app.include_router(pages.router)
    app.include_router(i18n.router)
    app.include_router(ws.router)
    rooms.install_error_handlers(app)
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_message_bytes,
        larger=dict.fromkeys(
            ("/api/records", "/api/records/provenance"), MAX_RECORD_BYTES
        ),
    )
    # The static tree is hashed once, here: pages link /static/<hash>/... (app/web/assets.py).
    app.state.assets = Assets.scan(settings.static_dir)
    # Every language's keys, merged once: the shell's, each game's engine's and screen's.
    app.state.catalogues = Catalogues.build(settings.static_dir, app.state.games)
    if settings.static_dir.is_dir():
        app.mount("/static", VersionedStatic(app.state.assets), name="static")
    return app
