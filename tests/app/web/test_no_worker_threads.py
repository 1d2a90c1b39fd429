"""Requests are served on the event loop, never handed to worker threads.

FastAPI runs an endpoint or a dependency written as a plain `def` in a worker thread
(anyio's pool, up to 40 threads): a hand-off for every request, and under load a thread for
every request in flight, each with its stack and its allocator arena. Four such
dependencies (the room service, the bearer token, the bot quota, the client's address)
did that for every room request: ten rooms created at once started nine threads, a step of
2.1 MiB in the server's memory (docs/benchmarks.md, "A live room's memory at 10 rooms").
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Iterator
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute

from tests.app.clients import bearer, open_room

POOL_THREAD = "AnyIO worker thread"
"""The name anyio gives the threads of the pool FastAPI hands plain functions to."""


def calls(dependant: Any) -> Iterator[Any]:
    """The endpoint and every dependency FastAPI calls for a route."""
    if dependant.call is not None:
        yield dependant.call
    for sub in dependant.dependencies:
        yield from calls(sub)


def runs_on_the_loop(call: Any) -> bool:
    """What FastAPI awaits rather than hands to a thread: a coroutine function (or an
    object whose `__call__` is one)."""
    return inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(
        getattr(call, "__call__", None)  # noqa: B004 - a callable object's method
    )


def api_routes(routes: list[Any]) -> Iterator[APIRoute | APIWebSocketRoute]:
    """The app's routes, those of the routers it includes too (FastAPI keeps an included
    router whole, behind an `_IncludedRouter` that holds it as `original_router`)."""
    for route in routes:
        if isinstance(route, APIRoute | APIWebSocketRoute):
            yield route
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from api_routes(included.routes)


def test_every_endpoint_and_dependency_is_a_coroutine(room_app: FastAPI) -> None:
    routes = list(api_routes(room_app.routes))
    assert len(routes) > 20, [getattr(r, "path", r) for r in room_app.routes]
    threaded = sorted(
        {
            f"{route.path}: {getattr(call, '__qualname__', call)}"
            for route in routes
            for call in calls(route.dependant)
            if not runs_on_the_loop(call)
        }
    )
    assert threaded == [], threaded


async def test_rooms_created_and_read_at_once_start_no_thread(
    http: httpx.AsyncClient,
) -> None:
    """The pool's threads are anyio's (by their name): other threads may start meanwhile
    for reasons of their own (a new database connection resolving a host name, say)."""
    room_id, _host, tokens = await open_room(http, 2)
    before = {thread.ident for thread in threading.enumerate()}
    answers = await asyncio.gather(
        *(
            http.post("/api/rooms", json={"players": 2, "name": "Ana"})
            for _ in range(10)
        ),
        *(
            http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[0]))
            for _ in range(10)
        ),
    )
    assert [answer.status_code for answer in answers] == [201] * 10 + [200] * 10
    started = [
        thread.name
        for thread in threading.enumerate()
        if thread.ident not in before and thread.name.startswith(POOL_THREAD)
    ]
    assert started == [], [t.name for t in threading.enumerate()]
