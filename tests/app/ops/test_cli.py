"""The `ishtar` command: serve on an embedded PostgreSQL that keeps its data, and `ishtar db`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config.settings import get_settings
from app.ops import cli
from app.ops.embedded import EmbeddedPostgres
from app.store import migrate
from tests.support.databases import run_async
from tests.support.live import LiveServer, is_ready

pytestmark = pytest.mark.slow


def _sql(url: str, *statements: str) -> list[tuple[object, ...]]:
    """Run statements in one transaction; return the rows of the last one."""

    async def go() -> list[tuple[object, ...]]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as connection:
                result = None
                for statement in statements:
                    result = await connection.execute(text(statement))
                return (
                    [tuple(row) for row in result]
                    if result and result.returns_rows
                    else []
                )
        finally:
            await engine.dispose()

    return run_async(go)


def _ready(server: LiveServer) -> dict[str, object]:
    response = httpx.get(f"{server.url}/readyz", timeout=5)
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def test_serve_with_embedded_postgres_keeps_data_across_restarts(
    data_dir: Path, live_server_factory: Callable[..., LiveServer]
) -> None:
    pgdata = data_dir / "pg"
    url = EmbeddedPostgres(pgdata).url  # where `ishtar serve` puts it; not started here

    first = live_server_factory(data_dir=data_dir)
    assert _ready(first)["migrations"] == "head"
    # One process owns a data dir at a time.
    with pytest.raises(RuntimeError, match="in use by another process"):
        live_server_factory(data_dir=data_dir)
    _sql(url, "CREATE TABLE scratch (note text)", "INSERT INTO scratch VALUES ('kept')")

    # A clean stop (SIGTERM) stops PostgreSQL too.
    assert first.stop() == 0
    assert not (pgdata / "postmaster.pid").exists()

    second = live_server_factory(data_dir=data_dir)
    assert _ready(second)["revision"] == migrate.head()
    assert _sql(url, "SELECT note FROM scratch") == [("kept",)]

    # A crash (SIGKILL): its reaper stops PostgreSQL (tests/app/ops/test_server_lifetime.py),
    # or the next start finds it still running and stops it; either way it takes over.
    second.kill()
    third = live_server_factory(data_dir=data_dir)
    _ready(third)
    assert _sql(url, "SELECT note FROM scratch") == [("kept",)]
    assert third.stop() == 0
    assert not (pgdata / "postmaster.pid").exists()


def test_serve_with_database_url_starts_no_postgres_and_migrates_it(
    empty_database_url: str,
    data_dir: Path,
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(database_url=empty_database_url, data_dir=data_dir)
    assert _ready(server)["migrations"] == "head"
    assert not (data_dir / "pg").exists()


def test_serve_on_a_database_at_head_runs_no_migration(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    """At head, `serve` skips Alembic (a quarter of a second of each start); a database
    behind is migrated (the test above, and tests/app/store/test_migrations.py)."""
    server = live_server_factory(database_url=database_url)
    assert _ready(server)["migrations"] == "head"
    assert "alembic.runtime.migration" not in server.log(), server.log()


@pytest.fixture
def env_database(
    monkeypatch: pytest.MonkeyPatch, empty_database_url: str
) -> Iterator[str]:
    """DATABASE_URL set for in-process CLI calls, with the settings cache cleared around."""
    monkeypatch.setenv("DATABASE_URL", empty_database_url)
    get_settings.cache_clear()
    yield empty_database_url
    get_settings.cache_clear()


def test_db_upgrade_and_downgrade(
    env_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["db", "upgrade"]) == 0
    assert migrate.current(env_database) == migrate.head()
    assert cli.main(["db", "current"]) == 0
    assert f"current: {migrate.head()}" in capsys.readouterr().out
    assert cli.main(["db", "downgrade", "base"]) == 0
    assert migrate.current(env_database) is None


def test_db_upgrade_on_the_embedded_postgres(data_dir: Path) -> None:
    get_settings.cache_clear()
    try:
        assert cli.main(["db", "upgrade", "--data-dir", str(data_dir)]) == 0
    finally:
        get_settings.cache_clear()
    with EmbeddedPostgres(data_dir / "pg") as server:
        assert migrate.current(server.url) == migrate.head()


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "serve" in out
    assert "db" in out


def test_serve_on_port_0_binds_a_free_port_and_writes_it_to_the_port_file(
    database_url: str, tmp_path: Path
) -> None:
    """`--port 0 --port-file F`: the server picks the port and says which (docs in the
    README): a caller never has to guess a free port, which another process may take."""
    port_file = tmp_path / "port"
    env = {
        key: value
        for key, value in os.environ.items()
        if key != "DATABASE_URL" and not key.startswith("ISHTAR_")
    }
    env["DATABASE_URL"] = database_url
    command = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1"]
    command += ["--port", "0", "--port-file", str(port_file)]
    log_path = tmp_path / "server.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=env
        )
    try:
        deadline = time.monotonic() + 60  # a hang guard, not a measure
        while not port_file.exists():
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        port = int(port_file.read_text())
        assert 0 < port < 65536
        url = f"http://127.0.0.1:{port}"
        while True:
            assert process.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            if is_ready(url):
                break
            time.sleep(0.05)
    finally:
        process.terminate()
        code = process.wait(15)
    assert code == 0, log_path.read_text()
