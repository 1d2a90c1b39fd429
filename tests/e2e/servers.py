"""Real servers for the browser tests of a module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.databases import TestDatabases
from tests.support.live import LiveServer


def serve(
    test_databases: TestDatabases,
    tmp_path_factory: pytest.TempPathFactory,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """Base URL of a real `ishtar serve` on a database of its own, for a session- or
    module-scoped fixture (`yield from`): stopped after its tests' pages are closed, not
    under them (a function-scoped server was stopped before the pages of its test).

    The rooms-per-address limit is lifted: every test of the module creates rooms from
    127.0.0.1 within the same minute (tests/security tests that limit, on servers of
    their own)."""
    url = test_databases.create(migrated=True)
    server = LiveServer(
        tmp_path_factory.mktemp("e2e-server") / "server.log",
        database_url=url,
        env={"ISHTAR_ROOMS_PER_MINUTE": "100000", **(env or {})},
    )
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
        test_databases.drop(url)
