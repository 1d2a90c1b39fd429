"""The FastAPI application factory: `create_app(settings)`.

The lifespan starts every service of the process through the composition root
(app/ops/composition.py) and stops them on shutdown; routers come from `app.web.routes`.
Add a router by importing its module and including it below.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

from fastapi import FastAPI

from app.config.settings import Settings, get_settings
from app.games import DEFAULT_GAME, registry
from app.ops.composition import start
from app.play.limits import BodyLimit
from app.records.archive import MAX_RECORD_BYTES
from app.web import ws
from app.web.assets import Assets, VersionedStatic
from app.web.documents import ComponentData
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
        services = await start(app, settings)  # the composition root
        try:
            yield
        finally:
            await services.stop()

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
    # Each game's component data, encoded at its first request (app/web/documents.py).
    app.state.component_data = ComponentData(app.state.games)
    if settings.static_dir.is_dir():
        app.mount("/static", VersionedStatic(app.state.assets), name="static")
    return app
