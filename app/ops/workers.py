"""`ishtar serve --workers N`: N server processes on one port, and their supervisor.

Each worker is a whole `ishtar serve` of its own (`--fd`: the listening socket it is handed)
against the one database, a separate instance as the instances of several machines are:
they coordinate through PostgreSQL (notices, presence, leases), never through this
process, so no client needs to come back to the same worker (docs/scaling.md, "Several
processes").

Every worker listens on a socket of its own bound to the same port with `SO_REUSEPORT`:
the kernel spreads new connections evenly over the sockets that listen. The supervisor
binds them (so it knows the port before any worker starts: `--port 0 --port-file F`),
hands each to its worker and closes its own copy: a socket nobody accepts on must not stay
in the group, or the connections the kernel gives it would wait for ever.

A worker that dies is started again on a fresh socket, unless workers keep dying within
`QUICK_EXIT_S` of their start (`GIVE_UP_AFTER` times in a row: a broken configuration or
database), in which case the supervisor stops them all. SIGTERM or Ctrl-C stops every
worker gracefully (SIGTERM, then SIGKILL after `STOP_S`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("ishtar.workers")

QUICK_EXIT_S = 10.0
GIVE_UP_AFTER = 5
STOP_S = 15.0

Listen = Callable[[str, int], socket.socket]


@dataclass
class Worker:
    """One worker process and when it started."""

    index: int
    proc: subprocess.Popen[bytes]
    pidfd: int  # readable once the process has ended (waited on without reaping others)
    started: float = field(default_factory=time.monotonic)


def shared_overflow(overflow: int, count: int) -> int:
    """Each of `count` workers' share of the extra database connections (the setting is
    the whole server's, so that N workers do not open N times as many).

    >>> shared_overflow(20, 1), shared_overflow(20, 2), shared_overflow(20, 3)
    (20, 10, 6)
    """
    return overflow // max(1, count)


class Supervisor:
    """Starts `count` workers on (host, port), restarts those that die, stops them all."""

    def __init__(
        self,
        count: int,
        host: str,
        listen: Listen,
        database_url: str,
        extra_args: list[str],
    ) -> None:
        self.count = count
        self.host = host
        self.listen = listen
        self.env = dict(os.environ, DATABASE_URL=database_url)
        self.extra_args = extra_args
        self.port = 0
        self.workers: dict[int, Worker] = {}  # by pidfd
        self.quick_exits = 0

    def bind(self, port: int) -> list[socket.socket]:
        """The workers' listening sockets, all on one port (the first one's, for 0)."""
        first = self.listen(self.host, port)
        self.port = first.getsockname()[1]
        return [first] + [
            self.listen(self.host, self.port) for _ in range(self.count - 1)
        ]

    def start(self, sockets: list[socket.socket]) -> None:
        for index, sock in enumerate(sockets):
            self._spawn(index, sock)

    def _spawn(self, index: int, sock: socket.socket) -> None:
        try:
            command = [
                sys.executable,
                "-m",
                "app",
                "serve",
                "--fd",
                str(sock.fileno()),
                "--host",
                self.host,
                "--port",
                str(self.port),
                *self.extra_args,
            ]
            proc = subprocess.Popen(command, env=self.env, pass_fds=[sock.fileno()])
        finally:
            sock.close()  # the worker has its copy; ours must not stay in the group
        pidfd = os.pidfd_open(proc.pid)
        self.workers[pidfd] = Worker(index, proc, pidfd)
        log.info("worker %d started (pid %d)", index, proc.pid)

    def run(self) -> int:
        """Wait on the workers, restarting any that dies; 1 once they keep dying."""
        while self.workers:
            ended, _, _ = select.select(list(self.workers), [], [])
            for pidfd in ended:
                worker = self.workers.pop(pidfd)
                os.close(pidfd)
                code = worker.proc.wait()
                quick = time.monotonic() - worker.started < QUICK_EXIT_S
                self.quick_exits = self.quick_exits + 1 if quick else 0
                log.warning(
                    "worker %d (pid %d) exited with %d",
                    worker.index,
                    worker.proc.pid,
                    code,
                )
                if self.quick_exits >= GIVE_UP_AFTER:
                    log.error("workers keep exiting at their start: stopping")
                    self.stop()
                    return 1
                self._spawn(worker.index, self.listen(self.host, self.port))
        return 0

    def stop(self) -> None:
        """SIGTERM every worker, then SIGKILL those still there after `STOP_S`."""
        for worker in self.workers.values():
            _signal(worker.proc, signal.SIGTERM)
        deadline = time.monotonic() + STOP_S
        for worker in list(self.workers.values()):
            try:
                worker.proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("worker %d did not stop: killed", worker.index)
                _signal(worker.proc, signal.SIGKILL)
                worker.proc.wait()
        for pidfd in self.workers:
            os.close(pidfd)
        self.workers.clear()


def _signal(proc: subprocess.Popen[bytes], signum: int) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # it ended in between
            proc.send_signal(signum)
