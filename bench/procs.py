"""Processes a benchmark run stands on: PostgreSQL, the server under test, its resource use.

The load driver never shares a process with the server it measures: each server is started
here as a child process on a free loopback port, and a sampler reads its CPU time and peak
resident memory through psutil while the load runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import httpx
import psutil  # type: ignore[import-untyped]

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def reserve_port(host: str = "127.0.0.1") -> socket.socket:
    """A socket holding a port the kernel chose, bound with SO_REUSEADDR and never listening:
    the server handed its number binds it too (uvicorn sets SO_REUSEADDR) and listens, and
    no other process can take the port in between (a port read and closed could be taken:
    ``[Errno 98] address already in use`` on a loaded machine). Close it once the server is
    gone."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    return sock


@contextlib.contextmanager
def embedded_postgres(data_dir: Path | None = None) -> Iterator[str]:
    """A throwaway PostgreSQL, as `ishtar serve` embeds one (app/ops/embedded.py), with its
    cluster in `data_dir` or else in a temporary directory removed after; yields a libpq URL
    to its maintenance database.

    It never outlives the benchmark: a SIGTERM (``timeout``, ``kill``) ends the benchmark as
    Ctrl-C does, through its clean-ups (`terminate_as_interrupt`), and after a SIGKILL the
    embedded server's reaper stops it (its cluster's directory is left)."""
    from app.ops.embedded import EmbeddedPostgres

    with contextlib.ExitStack() as stack:
        stack.enter_context(terminate_as_interrupt())
        if data_dir is None:
            tmp = stack.enter_context(
                tempfile.TemporaryDirectory(prefix="ishtar-bench-pg-")
            )
            data_dir = Path(tmp) / "pgdata"
        server = stack.enter_context(EmbeddedPostgres(data_dir))
        yield libpq_url(server.admin_url)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While in this block, SIGTERM raises KeyboardInterrupt in the main thread, as Ctrl-C
    does, so that the `finally` blocks stop the servers and PostgreSQL a benchmark started
    (the default action ends the process at once, leaving them running). Does nothing
    outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def die_with_parent() -> None:
    """In a server child before it execs: SIGTERM it when the benchmark dies (Linux's
    parent-death signal), so that even a SIGKILLed benchmark leaves no server running."""
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """The PostgreSQL server of ``DATABASE_URL`` (an admin URL: the benchmarks create and
    drop their own databases on it), else a throwaway embedded one; yields its URL."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
    else:
        with embedded_postgres() as embedded:
            yield embedded


def libpq_url(url: str) -> str:
    """``postgresql+asyncpg://…`` (SQLAlchemy) -> ``postgresql://…`` (libpq, asyncpg)."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def sqlalchemy_url(url: str) -> str:
    return libpq_url(url).replace("postgresql://", "postgresql+asyncpg://", 1)


def with_database(url: str, name: str) -> str:
    """The same server URL pointing at database ``name``."""
    head, _, tail = libpq_url(url).partition("?")
    base = head.rsplit("/", 1)[0]
    return f"{base}/{name}" + (f"?{tail}" if tail else "")


async def fresh_database(url: str, name: str) -> str:
    """Drop and create database ``name`` on the server of ``url``; its URL."""
    conn = await asyncpg.connect(libpq_url(url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return with_database(url, name)


@dataclass
class Server:
    """A server child process on ``port``; stopped with SIGTERM, then SIGKILL. ``hold`` is
    the reservation of the port (`reserve_port`), given up when the server stops."""

    argv: list[str]
    port: int
    env: dict[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    hold: socket.socket | None = None

    @classmethod
    def on_reserved_port(
        cls, argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
    ) -> Server:
        """A server whose argv ends with ``--port`` and a port this process holds."""
        hold = reserve_port()
        port: int = hold.getsockname()[1]
        return cls([*argv, "--port", str(port)], port, env or {}, cwd=cwd, hold=hold)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, **self.env}
        fd, name = tempfile.mkstemp(prefix="ishtar-bench-server-", suffix=".log")
        self.log = Path(name)
        self.proc = subprocess.Popen(
            self.argv,
            env=env,
            cwd=self.cwd,
            stdout=fd,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent if sys.platform == "linux" else None,
        )
        os.close(fd)

    async def wait_ready(self, path: str, within: float = 60.0) -> None:
        deadline = time.monotonic() + within
        async with httpx.AsyncClient(base_url=self.base, timeout=2.0) as http:
            while time.monotonic() < deadline:
                assert self.proc is not None
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited early:\n{self.tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(path)).status_code < 500:
                        return
                await asyncio.sleep(0.1)
        raise TimeoutError(f"server not ready after {within}s:\n{self.tail()}")

    async def wait_workers(self, count: int, within: float = 120.0) -> None:
        """Until the front of `ishtar serve --workers` has logged all `count` workers ready
        (each once its app has started; the first one ready answers /readyz alone)."""
        deadline = time.monotonic() + within
        line = f"all {count} workers ready"
        while self.log is None or line not in self.log.read_text(errors="replace"):
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"not all {count} workers ready:\n{self.tail()}")
            await asyncio.sleep(0.1)

    def tail(self, lines: int = 30) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        try:
            if self.proc is None or self.proc.poll() is not None:
                return
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        finally:
            if self.hold is not None:
                self.hold.close()
                self.hold = None


def ishtar_command() -> list[str]:
    """The ``ishtar`` console script beside this interpreter, else ``python -m app.ops.cli``."""
    script = Path(sys.executable).with_name("ishtar")
    return [str(script)] if script.exists() else [sys.executable, "-m", "app.ops.cli"]


# Scripted players move far faster than people: the per-connection and per-address flood
# limits (20 messages/s, rooms per minute) would measure the limits, not the server.
UNLIMITED = {
    "ISHTAR_WS_MESSAGES_PER_S": "1000000",
    "ISHTAR_WS_BURST": "1000000",
    "ISHTAR_ROOMS_PER_MINUTE": "1000000",
    # Every client is on loopback: the cap of connections per address would cut the room count.
    "ISHTAR_CONNECTIONS_PER_ADDRESS": "0",
    "ISHTAR_WS_CONNECTIONS_PER_ADDRESS": "1000000",
    "ISHTAR_WS_HELLO_BURST": "1000000",
    "ISHTAR_REPLAY_REQUESTS_PER_S": "1000000",
    "ISHTAR_REPLAY_BURST": "1000000",
    "ISHTAR_LOG_LEVEL": "warning",
}


def ishtar_server(database_url: str, app_dir: Path | None = None) -> Server:
    """The product: ``ishtar serve`` against ``database_url``, flood limits lifted.

    With `app_dir` (another checkout, e.g. ``git worktree add /tmp/before HEAD~1``), the
    code of that checkout is served instead: the A/B comparisons of docs/benchmarks.md."""
    command = ishtar_command() if app_dir is None else [sys.executable, "-m", "app"]
    argv = [*command, "serve", "--host", "127.0.0.1"]
    env = {"DATABASE_URL": sqlalchemy_url(database_url), **UNLIMITED}
    if app_dir is not None:
        # `python -m` puts the working directory first on sys.path: run from the other
        # checkout (and keep it first for its imports), or the current code is served.
        env["PYTHONPATH"] = str(app_dir)
        env["PYTHONSAFEPATH"] = "1"
    return Server.on_reserved_port(argv, env, cwd=app_dir)


def floor_server(
    database_url: str, ws: str = "auto", notify: bool = False, pad: int = 0
) -> Server:
    argv = [sys.executable, "-m", "bench.floor", "--ws", ws, "--pad", str(pad)]
    argv += ["--notify"] if notify else []
    return Server.on_reserved_port([*argv, "--database-url", libpq_url(database_url)])


class Profiler:
    """py-spy sampling a running server: flame graph (.svg), collapsed stacks (.txt)."""

    def __init__(self, pid: int, output: Path) -> None:
        formats = {".json": "speedscope", ".txt": "raw"}
        fmt = formats.get(output.suffix, "flamegraph")
        # the one installed beside this interpreter (a virtualenv's bin/ is often not on
        # PATH), else whichever PATH finds
        beside = Path(sys.executable).parent / "py-spy"
        argv = [
            str(beside) if beside.exists() else "py-spy",
            "record",
            "--pid",
            str(pid),
            "--rate",
            "1000",
            "--nonblocking",
            "--subprocesses",  # `--workers N`: the supervisor's workers too
        ]
        self.proc = subprocess.Popen(
            [*argv, "--format", fmt, "--output", str(output)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)  # py-spy writes its output on SIGINT
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Sampler:
    """CPU seconds and peak RSS of one process (and its children) while the load runs."""

    def __init__(self, pid: int, every: float = 0.05) -> None:
        self.process = psutil.Process(pid)
        self.every = every
        self.peak_rss = 0
        self._cpu0 = 0.0
        self._t0 = 0.0
        self.cpu_seconds = 0.0
        self.wall = 0.0
        self._task: asyncio.Task[None] | None = None

    def _cpu(self) -> float:
        t = self.process.cpu_times()
        return float(t.user + t.system)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(psutil.Error):
                self.peak_rss = max(self.peak_rss, self.process.memory_info().rss)
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self._cpu0, self._t0 = self._cpu(), time.perf_counter()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        with contextlib.suppress(psutil.Error):
            self.cpu_seconds = self._cpu() - self._cpu0
            self.peak_rss = max(self.peak_rss, self.process.memory_info().rss)
        self.wall = time.perf_counter() - self._t0
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def cpu_percent(self) -> float:
        """Share of one core used on average (100 = one core busy)."""
        return 100.0 * self.cpu_seconds / self.wall if self.wall else 0.0


class CpuMeter:
    """CPU share of every process whose name matches (e.g. all PostgreSQL backends)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._start: dict[int, float] = {}
        self._t0 = 0.0

    def _read(self) -> dict[int, float]:
        out = {}
        for p in psutil.process_iter(["name", "cpu_times"]):
            if p.info["name"] == self.name and p.info["cpu_times"] is not None:
                t = p.info["cpu_times"]
                out[p.pid] = float(t.user + t.system)
        return out

    def start(self) -> None:
        self._start, self._t0 = self._read(), time.perf_counter()

    def stop(self) -> float:
        """Average share of one core (100 = one core busy) since `start`."""
        end, wall = self._read(), time.perf_counter() - self._t0
        used = sum(cpu - self._start.get(pid, 0.0) for pid, cpu in end.items())
        return 100.0 * used / wall if wall else 0.0
