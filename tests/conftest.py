"""Shared fixtures: a real PostgreSQL, clean databases, the app, and live servers.

PostgreSQL comes from ``ISHTAR_TEST_DATABASE_URL`` (an admin URL: the role must be allowed
to CREATE DATABASE) or, when unset, from an embedded server started once per test session
(once per xdist worker) in a temporary directory. It starts only if a test needs it.

Fixtures for everyone:
- ``database_url`` -> str: a clean database migrated to head (asyncpg URL), dropped afterwards.
- ``empty_database_url`` -> str: a clean database with no schema at all.
- ``postgres`` -> str: the admin URL of the server itself (for programs that make their own).
- ``settings`` -> Settings: bound to ``database_url``, with a temporary data dir (and
  one pooled connection opened at start, `FEW_CONNECTIONS` in tests/support/databases.py).
- ``app`` -> FastAPI: ``create_app(settings)`` (lifespan not started).
- ``client`` -> httpx.AsyncClient: talks to ``app`` in-process, lifespan running (async tests).
- ``sync_client`` -> starlette TestClient: the same for sync tests, with websocket support.
- ``live_server`` -> str: base URL of a real ``ishtar serve`` subprocess on ``database_url``.
- ``live_server_factory`` -> callable(**kwargs) -> LiveServer: start more, kill or restart them.
- ``data_dir`` -> Path: an empty directory for an embedded PostgreSQL (``ISHTAR_DATA_DIR``).

Embedded PostgreSQL data never lives under pytest's ``tmp_path``: as root the server runs as
another user, and every pytest session start resets ``/tmp/pytest-of-root`` to mode 0700,
which would cut a running server (of this or a concurrent session) off its own files.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import hypothesis
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.config.settings import Settings
from app.ops.embedded import EmbeddedPostgres
from app.ops.main import create_app
from tests.support.databases import (
    FAST_SERVER_SETTINGS,
    FEW_CONNECTIONS,
    TestDatabases,
)
from tests.support.examples import QUICK_SHARE
from tests.support.live import LiveServer
from tests.support.scheduling import ModuleUnits, work_unit

# In-process clients name made-up hosts (TestClient's "testserver", httpx base URLs such as
# "http://t"), which the Host check (ISHTAR_ALLOWED_HOSTS, app/web/security.py) would refuse;
# tests/security/test_headers.py tests that check with its own settings. Live servers
# (tests/support/live.py drops every ISHTAR_ variable) keep the real default.
os.environ.setdefault("ISHTAR_ALLOWED_HOSTS", "*")

# A loaded 2-core CI machine makes per-example deadlines flaky; keep examples bounded instead.
hypothesis.settings.register_profile("ishtar", deadline=None)
# The developers' quick loop (`scripts/test --quick`): a quarter of the examples, for the
# tests that name no count as for those that do (tests/support/examples.py). CI runs all.
hypothesis.settings.register_profile(
    "quick",
    deadline=None,
    max_examples=hypothesis.settings.get_profile("default").max_examples // QUICK_SHARE,
)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ishtar"))


@contextmanager
def scratch_dir(prefix: str) -> Iterator[Path]:
    """A new directory in the system temp dir (not pytest's), removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """An empty directory outside pytest's tmp_path, removed after the test."""
    with scratch_dir("ishtar-test-data-") as path:
        yield path


@pytest.fixture(scope="session")
def test_databases() -> Iterator[TestDatabases]:
    """The database server of this session (per xdist worker), with a migrated template."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    external = os.environ.get("ISHTAR_TEST_DATABASE_URL")
    if external:
        databases = TestDatabases(external, prefix=f"ishtar_test_{worker}")
        yield from _serve_databases(databases, None)
        return
    with scratch_dir(f"ishtar-test-pg-{worker}-") as scratch:
        server = EmbeddedPostgres(scratch / "pg", server_settings=FAST_SERVER_SETTINGS)
        server.start()
        databases = TestDatabases(server.admin_url, prefix=f"ishtar_test_{worker}")
        yield from _serve_databases(databases, server)


def _serve_databases(
    databases: TestDatabases, server: EmbeddedPostgres | None
) -> Iterator[TestDatabases]:
    try:
        databases.create_template()
        yield databases
    finally:
        try:
            databases.drop_template()
        finally:
            if server is not None:
                server.stop()


@pytest.fixture
def postgres(test_databases: TestDatabases) -> str:
    """The admin URL of this session's PostgreSQL server, for a program that makes and drops
    its own databases on it (the benchmarks)."""
    return test_databases.admin_url


@pytest.fixture
def database_url(test_databases: TestDatabases) -> Iterator[str]:
    """A clean database migrated to head, emptied for another test or dropped afterwards,
    in the background (tests/support/databases.py, `release_later`)."""
    url = test_databases.create(migrated=True)
    yield url
    test_databases.release_later(url)


@pytest.fixture
def empty_database_url(test_databases: TestDatabases) -> Iterator[str]:
    """A clean database without any schema, dropped after the test."""
    url = test_databases.create(migrated=False)
    yield url
    test_databases.drop(url)


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        data_dir=tmp_path / "data",
        **FEW_CONNECTIONS,
    )


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver"
        ) as client:
            yield client


@pytest.fixture
def sync_client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture
def live_server_factory(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Start `ishtar serve` subprocesses; all still running are stopped after the test.

    Call it with ``database_url=...`` (or ``data_dir=...`` for an embedded PostgreSQL),
    optionally ``env={...}``, ``port=...``, ``args=(...)``, ``timeout=...``.
    """
    servers: list[LiveServer] = []
    numbers = itertools.count()  # one log each, also when threads start servers at once

    def start(*, timeout: float = 60.0, **kwargs: Any) -> LiveServer:
        server = LiveServer(tmp_path / f"server-{next(numbers)}.log", **kwargs)
        servers.append(server)
        return server.start(timeout)

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def live_server(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> str:
    """Base URL (http://127.0.0.1:PORT) of a real server on a clean database."""
    return live_server_factory(database_url=database_url).url


TESTS = Path(__file__).resolve().parent


def _kind(path: Path) -> str | None:
    """The marker of a test module's kind by its place: browser, chaos or load (benchmark)
    tests. (A module of tests/e2e that forgot its `pytestmark` still drives Chromium: two,
    the browser pool's own tests, ran in the quick loop.)"""
    if path.is_relative_to(TESTS / "e2e"):
        return "browser"
    if path.is_relative_to(TESTS / "chaos"):
        return "chaos"
    if path.parent == TESTS and "bench" in path.name:
        return "load"
    return None


UNIT_WEIGHT = {"chaos": 30.0, "load": 30.0, "browser": 6.0, "slow": 10.0}
"""A rough cost of one test by its marker, against 1 for any other test (measured sums of
one full run: a benchmark smoke or chaos run takes 20-90 s, a browser test 2-20 s, a
database test about 0.5 s). Only the order of the work units depends on it."""


def _weight(item: pytest.Item) -> float:
    for marker, weight in UNIT_WEIGHT.items():
        if item.get_closest_marker(marker) is not None:
            return weight
    return 1.0


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadgroup` (scripts/test) schedules our work units, dearest first
    (tests/support/scheduling.py)."""
    if config.getoption("dist") == "loadgroup":
        return ModuleUnits(config, log)
    return None


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m selection
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Mark browser, chaos and load tests by their place (`scripts/test --quick` leaves them
    out); then order the work units (tests/support/scheduling.py) by their
    estimated cost, the dearest first.

    `scripts/test` hands each work unit (a module sharing a live server or a browser, or a
    single test) to the next idle worker in collection order. Dearest
    first is the longest-processing-time rule, which leaves only small units for the end.
    (With `worksteal` each worker first got a contiguous third of the collection, so one
    worker got every slow test at the head of its third, and the others, stealing from the
    tail, left it alone with them: the run's last minutes were one worker's benchmarks.)
    """
    units: dict[str, float] = {}
    unit_of: dict[int, str] = {}
    for item in items:
        kind = _kind(Path(item.path))
        if kind is not None:
            item.add_marker(kind)
        unit = work_unit(item.nodeid)
        units[unit] = units.get(unit, 0.0) + _weight(item)
        unit_of[id(item)] = unit
    order = {id(item): index for index, item in enumerate(items)}
    first: dict[str, int] = {}
    for item in items:
        first.setdefault(unit_of[id(item)], order[id(item)])
    items.sort(
        key=lambda item: (
            -units[unit_of[id(item)]],
            first[unit_of[id(item)]],
            order[id(item)],
        )
    )
