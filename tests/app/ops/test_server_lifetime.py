"""`ishtar serve` and its embedded PostgreSQL live and die together (issue 33, fault 6).

- A signal the server does not use (SIGUSR2 without ISHTAR_HEAP_DUMP_DIR, SIGUSR1, SIGHUP)
  is logged and ignored (app/ops/signals.py); SIGUSR2 used to end the server at once, with
  no log line, its PostgreSQL left running.
- When the server dies without stopping its PostgreSQL (here a real SIGKILL), the reaper
  (app/ops/pg_reaper.py) stops it.

Real `ishtar serve` processes on an embedded PostgreSQL. Nothing here measures time: each
test waits for the event (the postmaster's exit through a pidfd, a log line), a generous
bound only stops a broken server from hanging the suite.
"""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.ops import pg_reaper, signals
from tests.support.live import LiveServer, is_ready

pytestmark = pytest.mark.slow

BOUND_S = 90.0


def _wait_for_log(server: LiveServer, line: str) -> None:
    """Until `line` is in the server's log; the server must stay up meanwhile."""
    deadline = time.monotonic() + BOUND_S
    while line not in server.log():
        assert server.process is not None
        assert server.process.poll() is None, f"the server exited:\n{server.log()}"
        assert time.monotonic() < deadline, f"never logged {line!r}:\n{server.log()}"
        time.sleep(0.1)


def _ready(server: LiveServer) -> bool:
    return is_ready(server.url, timeout=10)


def test_signals_the_server_does_not_use_do_not_stop_it(
    data_dir: Path, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(data_dir=data_dir)  # no ISHTAR_HEAP_DUMP_DIR
    assert server.process is not None
    for signum in (signal.SIGUSR2, signal.SIGUSR1, signal.SIGHUP):
        server.process.send_signal(signum)
        _wait_for_log(server, f"ignored {signum.name}")
        assert _ready(server)
    assert "heap snapshots need ISHTAR_HEAP_DUMP_DIR" in server.log()
    assert server.stop() == 0  # SIGTERM still stops it, and its PostgreSQL
    assert pg_reaper.postmaster_pid(data_dir / "pg") is None


def test_a_killed_server_does_not_leave_its_postgres_running(
    data_dir: Path, live_server_factory: Callable[..., LiveServer]
) -> None:
    pgdata = data_dir / "pg"
    server = live_server_factory(data_dir=data_dir)
    postmaster = pg_reaper.postmaster_pid(pgdata)
    assert postmaster is not None
    exited = os.pidfd_open(postmaster)  # readable once the postmaster has exited
    try:
        server.kill()  # SIGKILL: no handler, no `finally`
        readable, _, _ = select.select([exited], [], [], BOUND_S)
    finally:
        os.close(exited)
    assert readable, f"postmaster {postmaster} still runs:\n{server.log()}"
    assert "died without stopping its PostgreSQL" in server.log()
    # A fast shutdown: the data is flushed and the next start needs no recovery.
    assert pg_reaper.postmaster_pid(pgdata) is None
    again = live_server_factory(data_dir=data_dir)
    assert _ready(again)
    assert again.stop() == 0


def test_every_unused_signal_gets_a_handler() -> None:
    handled = set(signals.unused())
    assert {signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM} <= handled
    assert not handled & {signal.SIGTERM, signal.SIGINT, signal.SIGKILL}
