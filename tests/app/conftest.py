"""Fixtures of the server tests: the toy game and the real engine, in-process and live.

`game_module` is parametrised by tests that should hold for any game following the
contract: ``tests.app.toygame`` always, and the engine of every game the server bundles
(`app.games.INSTALLED`). A test about one game names its engine module itself.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from app.games import bundled, registry
from app.ops.main import create_app
from tests.support.databases import FEW_CONNECTIONS
from tests.support.live import LiveServer, client_of, uvicorn_serving

TOY = "tests.app.toygame"
GAME_IDS = {game.rules.__name__: game.id for game in registry([TOY])}
"""The registry's id of each engine module the tests parametrise over."""

GAMES = [TOY, *(game.rules.__name__ for game in bundled())]
"""The toy game first, then the bundled games in the registry's order."""


def game_settings(game_module: str) -> dict[str, Any]:
    """Settings of a server that registers the toy game beside the bundled ones, and
    gives rooms created without a game `game_module`'s game."""
    return {"extra_games": [TOY], "default_game": GAME_IDS[game_module]}


def game_env(game_module: str) -> dict[str, str]:
    """`game_settings` as the environment of a live server."""
    return {"ISHTAR_EXTRA_GAMES": TOY, "ISHTAR_DEFAULT_GAME": GAME_IDS[game_module]}


@pytest.fixture
def game_module() -> str:
    return TOY


@pytest.fixture
def rules(game_module: str) -> Any:
    return importlib.import_module(game_module)


@pytest.fixture
def room_settings(database_url: str, tmp_path: Path, game_module: str) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        data_dir=tmp_path / "data",
        **FEW_CONNECTIONS,
        **game_settings(game_module),
    )


@pytest.fixture
def room_app(room_settings: Settings) -> FastAPI:
    return create_app(room_settings)


@pytest.fixture
async def http(room_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An in-process client of the app (lifespan running) playing `game_module`."""
    async with room_app.router.lifespan_context(room_app):
        transport = httpx.ASGITransport(app=room_app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver"
        ) as client:
            yield client


@pytest.fixture
async def uvicorn_url(room_app: FastAPI) -> AsyncIterator[str]:
    """A real uvicorn serving `room_app` on a port it holds, in this test's event loop.

    Quicker than a subprocess for protocol tests; crash and multi-instance tests use
    `serve` (real `ishtar serve` processes) instead.
    """
    async with uvicorn_serving(
        room_app, log_level="warning", ws_max_size=1 << 20
    ) as server:
        yield f"http://127.0.0.1:{server.config.port}"


@pytest.fixture
async def web(uvicorn_url: str) -> AsyncIterator[tuple[str, httpx.AsyncClient]]:
    async with client_of(uvicorn_url, timeout=10) as client:
        yield uvicorn_url, client


@pytest.fixture
def serve(
    database_url: str, game_module: str, live_server_factory: Callable[..., LiveServer]
) -> Callable[..., LiveServer]:
    """Start a real `ishtar serve` on the test database, playing `game_module`."""

    def start(**env: str) -> LiveServer:
        variables = {**game_env(game_module), **env}
        return live_server_factory(database_url=database_url, env=variables)

    return start


@pytest.fixture
async def live(
    serve: Callable[..., LiveServer],
) -> AsyncIterator[tuple[LiveServer, httpx.AsyncClient]]:
    server = serve()
    async with client_of(server.url, timeout=10) as client:
        yield server, client
