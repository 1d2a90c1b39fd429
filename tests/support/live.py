"""Real `ishtar serve` processes for tests that need a server over TCP (websocket, browser, crash).

A `LiveServer` is a subprocess running the actual command line, so what is tested is what
users run: argument parsing, migrations at start, uvicorn, signals.

A test never uses a port number it does not hold: each `LiveServer` holds a reservation,
a socket bound to a port the kernel picked (port 0) with SO_REUSEADDR and never listening,
from its first start until `stop`. The server binds that port with SO_REUSEADDR too
(`ishtar serve` binds as uvicorn does) and listens; nothing else can take the port in the
meantime, not even while a killed server is being restarted at the same address (the chaos
tests' clients reconnect to it): the kernel gives neither a port-0 bind nor an outgoing
connection a port that a socket is bound to, and a bind without SO_REUSEADDR fails.
(`free_port`, which bound port 0, read the number and closed the socket before the server
bound it, lost that race on a loaded machine: ``[Errno 98] address already in use``.)
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

POLL_S = 0.05
"""The pause between two looks at a state that has no event to wait on (a file appearing,
/readyz answering 200); never a guess at how long something takes."""


def is_ready(url: str, timeout: float = 5.0) -> bool:
    """Whether the server at `url` answers 200 on /readyz (False if it does not answer).

    For the loops that wait on a server: one plain-HTTP client for the process, never
    `httpx.get`, which builds a client and its TLS context for each call, 20-50 ms of CPU;
    a probe loop 20 times a second then kept a core half busy on a loaded machine while it
    waited (docs/benchmarks.md, "The test suite")."""
    try:
        return _probe().get(f"{url}/readyz", timeout=timeout).status_code == 200
    except httpx.HTTPError:
        return False


_PROBE: list[httpx.Client] = []


def _probe() -> httpx.Client:
    if not _PROBE:
        # No connection is kept: the next probe may reach another server on the same port.
        _PROBE.append(
            httpx.Client(
                limits=httpx.Limits(max_keepalive_connections=0), trust_env=False
            )
        )
    return _PROBE[0]


@functools.cache
def _tls() -> ssl.SSLContext:
    return httpx.create_ssl_context()


def client_of(url: str, **options: Any) -> httpx.AsyncClient:
    """An async client of a test's server at `url` (plain HTTP), built as `httpx.AsyncClient`
    builds one but with one TLS context for all: httpx builds a context for each client,
    loading the CA bundle (25-50 ms of CPU), which a client of 127.0.0.1 never uses."""
    return httpx.AsyncClient(base_url=url, verify=_tls(), **options)


def reserve_port(host: str = "127.0.0.1") -> socket.socket:
    """A socket that holds a port of `host` the kernel chose, for a server to bind and listen
    on with SO_REUSEADDR; it never listens itself. Close it to give the port up."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    return sock


@asynccontextmanager
async def uvicorn_serving(app: Any, **options: Any) -> AsyncIterator[uvicorn.Server]:
    """A uvicorn serving `app` in the running event loop on a socket this test bound (to
    a port the kernel chose) and hands over; `server.config.port` is the port.

    Quicker than a subprocess; stopped (gracefully) on leaving.
    """
    # IPPROTO_TCP, as `ishtar serve` binds (app/ops/cli.py `_listen`): asyncio sets
    # TCP_NODELAY on the accepted connections only then.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, **options)
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:  # uvicorn sets it once the lifespan has started
            if task.done():
                task.result()
                raise RuntimeError("uvicorn stopped before it started")
            await asyncio.sleep(0.01)
        yield server
    finally:
        server.should_exit = True
        await task
        sock.close()


class LiveServer:
    """One `ishtar serve` subprocess; once started, `port` and `url` (no trailing slash)."""

    def __init__(
        self,
        log_path: Path,
        *,
        database_url: str | None = None,
        data_dir: Path | None = None,
        env: Mapping[str, str] | None = None,
        args: tuple[str, ...] = (),
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        self.log_path = log_path
        self._reservation: socket.socket | None = None
        self._env = {
            key: value
            for key, value in os.environ.items()
            if key != "DATABASE_URL" and not key.startswith("ISHTAR_")
        }
        # No warm-up of the engines at start (app/config/settings.py `warm_up`): no test
        # measures a server's first moves, and most play one game or none (0.3 s of CPU a
        # start saved, for each of the suite's ~50 starts).
        self._env["ISHTAR_WARM_UP"] = "false"
        if database_url is not None:
            self._env["DATABASE_URL"] = database_url
        if data_dir is not None:
            self._env["ISHTAR_DATA_DIR"] = str(data_dir)
        self._env.update(env or {})
        self._args = args
        self._preexec_fn = preexec_fn
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def port(self) -> int:
        """The port reserved for this server (held until `stop`)."""
        if self._reservation is None:
            self._reservation = reserve_port()
        port: int = self._reservation.getsockname()[1]
        return port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> LiveServer:
        """Start the process on the reserved port and wait until /readyz answers 200."""
        command = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), *self._args]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self._env,
                preexec_fn=self._preexec_fn,
            )
        self.wait_ready(timeout)
        return self

    def _alive(self) -> None:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(
                f"server exited with {self.process.returncode}:\n{self.log()}"
            )

    def wait_ready(self, timeout: float) -> None:
        """Wait until /readyz answers 200 (the process exiting meanwhile fails at once)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._alive()
            if is_ready(self.url):
                return
            time.sleep(POLL_S)
        self.kill()
        raise TimeoutError(f"server not ready after {timeout}s:\n{self.log()}")

    def stop(self, timeout: float = 60.0) -> int | None:
        """SIGTERM, as a service manager would; SIGKILL if it does not stop in time.

        `timeout` is a guard against a hang, never a measure: a clean stop that also stops
        an embedded PostgreSQL took over 15 s on a 2-core machine at load 12-15 (a
        fresh-clone run, 2026-12-06), and the guard failed a test that was right.

        Gives the port up: a server stopped this way is not started again."""
        try:
            if self.process is None or self.process.poll() is not None:
                return None if self.process is None else self.process.returncode
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                raise
        finally:
            if self._reservation is not None:
                self._reservation.close()
                self._reservation = None

    def kill(self) -> None:
        """SIGKILL: the crash of a server, with no chance to clean up."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-5000:]
        except OSError:
            return "(no log)"
