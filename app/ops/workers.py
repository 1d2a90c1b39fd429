"""`ishtar serve --workers N`: N server processes on one port, and their supervisor.

Each worker is a whole `ishtar serve` of its own (`--handoff-fd`: its end of a channel to
the supervisor) against the one database, a separate instance as the instances of several
machines are: they coordinate through PostgreSQL (notices, presence, leases), never through
this process, so no client needs to come back to the same worker (docs/scaling.md,
"Several processes").

The supervisor binds the port (so it knows it before any worker starts: `--port 0
--port-file F`) and its front (app/ops/front.py) accepts every connection and hands it to
one worker over that worker's channel (app/ops/handoff.py): a room's websockets all to the
room's worker, so that each move is applied by one process. It listens once the first
worker is ready.

A worker that dies is started again with a fresh channel, unless workers keep dying within
`QUICK_EXIT_S` of their start (`GIVE_UP_AFTER` times in a row: a broken configuration or
database), in which case the supervisor stops them all. SIGTERM or Ctrl-C stops every
worker gracefully (SIGTERM, then SIGKILL after `STOP_S`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.ops.front import Front

log = logging.getLogger("ishtar.workers")

QUICK_EXIT_S = 10.0
GIVE_UP_AFTER = 5
STOP_S = 15.0

Listen = Callable[[str, int], socket.socket]


@dataclass(frozen=True)
class FrontLimits:
    """The front's bounds on connections waiting for their request line (app/ops/front.py)."""

    head_timeout_s: float = 10.0
    per_address: int = 0  # 0: any number
    max_pending: int = 1024


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
        limits: FrontLimits = FrontLimits(),
    ) -> None:
        self.count = count
        self.host = host
        self.listen = listen
        self.env = dict(os.environ, DATABASE_URL=database_url)
        self.extra_args = extra_args
        self.limits = limits
        self.port = 0
        self.workers: dict[int, Worker] = {}  # by pidfd
        self.quick_exits = 0
        self.selector = selectors.DefaultSelector()
        self.front: Front | None = None
        self.code: int | None = None  # set once the supervisor gives up

    def bind(self, port: int) -> socket.socket:
        """The port's socket, bound (its port the one asked, or any free one for 0)."""
        listener = self.listen(self.host, port)
        self.port = listener.getsockname()[1]
        return listener

    def start(self, listener: socket.socket) -> None:
        self.front = Front(
            self.selector,
            listener,
            self.count,
            self.limits.head_timeout_s,
            self.limits.per_address,
            self.limits.max_pending,
        )
        for index in range(self.count):
            self._spawn(index)

    def _spawn(self, index: int) -> None:
        assert self.front is not None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            command = [
                sys.executable,
                "-m",
                "app",
                "serve",
                "--handoff-fd",
                str(theirs.fileno()),
                "--host",
                self.host,
                "--port",
                str(self.port),
                *self.extra_args,
            ]
            proc = subprocess.Popen(command, env=self.env, pass_fds=[theirs.fileno()])
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # the worker has its copy
        pidfd = os.pidfd_open(proc.pid)
        worker = Worker(index, proc, pidfd)
        self.workers[pidfd] = worker
        self.selector.register(
            pidfd, selectors.EVENT_READ, functools.partial(self._ended, worker)
        )
        self.front.attach(index, ours)
        log.info("worker %d started (pid %d)", index, proc.pid)

    def run(self) -> int:
        """Serve the front and wait on the workers, restarting any that dies; 1 once they
        keep dying."""
        assert self.front is not None
        while self.workers:
            timeout = self.front.expire()
            for key, _events in self.selector.select(timeout):
                if not self.workers:  # given up and stopped: the rest is closed
                    break
                key.data()
        return self.code or 0

    def _ended(self, worker: Worker) -> None:
        assert self.front is not None
        self.selector.unregister(worker.pidfd)
        del self.workers[worker.pidfd]
        os.close(worker.pidfd)
        self.front.detach(worker.index)
        code = worker.proc.wait()
        quick = time.monotonic() - worker.started < QUICK_EXIT_S
        self.quick_exits = self.quick_exits + 1 if quick else 0
        log.warning(
            "worker %d (pid %d) exited with %d", worker.index, worker.proc.pid, code
        )
        if self.quick_exits >= GIVE_UP_AFTER:
            log.error("workers keep exiting at their start: stopping")
            self.stop()
            self.code = 1
            return
        self._spawn(worker.index)

    def stop(self) -> None:
        """Stop accepting; SIGTERM every worker, then SIGKILL those still there after
        `STOP_S`."""
        if self.front is not None:
            self.front.close()  # the channels stay open until their workers have ended
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
        for pidfd, worker in self.workers.items():
            self.selector.unregister(pidfd)
            os.close(pidfd)
            if self.front is not None:
                self.front.detach(worker.index)
        self.workers.clear()


def _signal(proc: subprocess.Popen[bytes], signum: int) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # it ended in between
            proc.send_signal(signum)
