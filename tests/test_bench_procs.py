"""bench.procs: what a benchmark starts never outlives it. A SIGTERM (`timeout`, `kill`)
ends it through its clean-ups, which stop its PostgreSQL and remove its cluster; after a
SIGKILL its servers get a SIGTERM from the kernel (the embedded PostgreSQL's own reaper is
tested in tests/app/ops/test_pg_reaper.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psutil  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
GUARD_S = 60.0
"""How long a process may take to go: a guard against a hang, not a wait."""


def gone(pid: int) -> bool:
    """Whether `pid` has exited (a zombie that nobody reaps has)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def until_gone(pid: int) -> None:
    deadline = time.monotonic() + GUARD_S
    while not gone(pid):
        assert time.monotonic() < deadline, f"process {pid} still runs"
        time.sleep(0.05)


def bench_script(code: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def test_a_sigkilled_benchmark_leaves_no_server_running() -> None:
    bench = bench_script(
        "import sys, time\n"
        "from bench import procs\n"
        "server = procs.Server([sys.executable, '-c', 'import time; time.sleep(600)'], 0)\n"
        "server.start()\n"
        "print(server.proc.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    assert bench.stdout is not None
    child = int(bench.stdout.readline())
    assert not gone(child)
    bench.kill()
    bench.wait()
    until_gone(child)


def test_a_terminated_benchmark_stops_its_postgresql_and_removes_its_cluster() -> None:
    bench = bench_script(
        "import time\n"
        "from bench import procs\n"
        "with procs.embedded_postgres() as url:\n"
        "    print(url, flush=True)\n"
        "    time.sleep(600)\n"
    )
    assert bench.stdout is not None
    url = bench.stdout.readline().strip()
    assert url.startswith("postgresql://"), url
    data = Path(parse_qs(urlsplit(url).query)["host"][0])
    postmaster = int((data / "postmaster.pid").read_text().split()[0])
    assert not gone(postmaster)
    bench.send_signal(signal.SIGTERM)
    bench.wait(timeout=GUARD_S)
    until_gone(postmaster)
    assert not data.exists()
    assert not data.parent.exists(), os.listdir(data.parent)
