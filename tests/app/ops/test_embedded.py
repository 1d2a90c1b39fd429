"""The embedded PostgreSQL watched by its owner: a killed postmaster comes back by itself.

Issue 13: after SIGKILL of the postmaster, /readyz stayed 503 (and /healthz 200) until
someone ran `pg_ctl start` by hand. Now `ishtar serve` watches it and starts it again; and
when it cannot, the watcher gives up and the server exits for its supervisor.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from app.ops import embedded
from app.ops.embedded import EmbeddedPostgres
from tests.support.databases import FAST_SERVER_SETTINGS
from tests.support.live import LiveServer, is_ready

pytestmark = pytest.mark.slow

BOUND_S = 90.0  # a broken watcher fails the test instead of hanging it


def _postmaster(pgdata: Path) -> int | None:
    """The PID in postmaster.pid (None while there is none, as during a restart)."""
    try:
        return int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def _kill_postmaster(pgdata: Path) -> int:
    pid = _postmaster(pgdata)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    return pid


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND_S
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.2)


def _ready(url: str) -> bool:
    return is_ready(url)


def test_serve_restarts_a_killed_embedded_postgres_and_keeps_the_games(
    data_dir: Path, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(data_dir=data_dir)
    room = httpx.post(f"{server.url}/api/rooms", json={"players": 2}, timeout=10)
    assert room.status_code == 201
    killed = _kill_postmaster(data_dir / "pg")
    _wait_for(
        lambda: (
            _postmaster(data_dir / "pg") not in (killed, None)
            and _ready(server.url)
            # The watcher logs once its restart has returned: /readyz may answer first.
            and "embedded PostgreSQL restarted" in server.log()
        ),
        "a new postmaster, /readyz 200 again, and the restart in the log",
    )

    answer = httpx.get(f"{server.url}/api/rooms/{room.json()['room_id']}", timeout=10)
    assert answer.status_code == 200  # recovered from the write-ahead log
    assert server.stop() == 0
    assert not (data_dir / "pg" / "postmaster.pid").exists()  # stopped with its owner


@pytest.fixture
def watched(data_dir: Path) -> Iterator[EmbeddedPostgres]:
    server = EmbeddedPostgres(data_dir / "pg", server_settings=FAST_SERVER_SETTINGS)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_the_watcher_restarts_the_server_each_time_it_dies(
    watched: EmbeddedPostgres,
) -> None:
    watched.watch(interval=0.1)
    for round_ in (1, 2):
        killed = _kill_postmaster(watched.pgdata)
        _wait_for(lambda n=round_: watched.restarts == n, f"restart {round_}")  # type: ignore[misc]
        assert watched.postmaster_alive()
        assert _postmaster(watched.pgdata) != killed


def test_the_watcher_gives_up_when_the_server_cannot_start(
    watched: EmbeddedPostgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedded, "RESTART_ATTEMPTS", 3)
    monkeypatch.setattr(embedded, "RESTART_BACKOFF_S", (0.05,))
    gave_up = threading.Event()
    watched.watch(on_give_up=gave_up.set, interval=0.1)
    real_bin = watched.bin
    watched.bin = watched.pgdata / "no-such-bin"  # pg_ctl cannot even be found
    try:
        _kill_postmaster(watched.pgdata)
        assert gave_up.wait(BOUND_S)
        assert watched.gave_up and watched.restarts == 0
    finally:
        watched.bin = real_bin
    watched.stop()  # nothing to stop: the postmaster is gone, and stop() says nothing
    assert watched.start()  # the next owner recovers the data


ACCOUNT_PROBE = """
import pwd, sys, time
from app.ops import embedded
embedded.SYSTEM_USER = sys.argv[1]
account = embedded._service_account()
time.sleep(0.3)  # let the other processes finish their own useradd, if they ran one
print(account.pw_uid, pwd.getpwnam(sys.argv[1]).pw_uid)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="only root creates the service account")
def test_processes_creating_the_service_account_at_once_all_get_the_same_uid() -> None:
    # Two test workers (or two instances) on a fresh machine once raced their useradd runs:
    # one read uid 999, the account ended up with 995, and its initdb could not look
    # itself up. CI runs as root, so this runs there.
    name = f"ishtar-t{uuid.uuid4().hex[:8]}"
    try:
        for _ in range(3):
            subprocess.run(["userdel", name], capture_output=True, check=False)
            runs = [
                subprocess.Popen(
                    [sys.executable, "-c", ACCOUNT_PROBE, name],
                    stdout=subprocess.PIPE,
                    text=True,
                )
                for _ in range(4)
            ]
            pairs = [tuple(run.communicate(timeout=60)[0].split()) for run in runs]
            assert all(run.returncode == 0 for run in runs)
            assert len({uid for pair in pairs for uid in pair}) == 1, pairs
    finally:
        subprocess.run(["userdel", name], capture_output=True, check=False)
