"""The embedded PostgreSQL's reaper: it stops the server when its owner dies without doing so.

`EmbeddedPostgres.start()` starts one reaper per server, a small process of its own
(``python -m app.ops.pg_reaper FD PGDATA``, in a session of its own so that a terminal's
Ctrl-C or a kill of the owner's process group does not reach it), and keeps the write end
of a pipe whose read end the reaper holds (descriptor FD). The reaper blocks reading it:

- the owner stops the server itself, then writes `STAND_DOWN`: the reaper exits;
- the owner dies any other way (SIGKILL, a crash, the out-of-memory killer, a signal it
  does not handle): the kernel closes the owner's end, the read returns end-of-file at
  once, the reaper waits for the owner's exit to end (a pidfd of its parent, opened when
  it starts: the lock's descriptor may close after the pipe's), and stops the server: SIGINT (PostgreSQL's fast shutdown: sessions end,
  data is flushed), then SIGQUIT (immediate shutdown, recovered from the write-ahead log at
  the next start) if it has not exited within `FAST_S`.

A pipe's end-of-file needs no polling and no PID of the owner (which could be reused), and
does not depend on who the postmaster's parent is (pg_ctl detaches it). The reaper holds
the data directory's lock while it reads the postmaster's PID and signals it: if a new
owner already holds the lock, that owner deals with the server left running
(`EmbeddedPostgres.start`), and the reaper leaves it alone. It signals the postmaster
through a pidfd where the kernel has them, so a reused PID is never signalled.
"""

from __future__ import annotations

import fcntl
import logging
import os
import select
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger("ishtar.embedded.reaper")

STAND_DOWN = b"s"  # the owner stopped the server itself
FAST_S = 30.0  # a fast shutdown's time to finish before an immediate one
IMMEDIATE_S = 30.0
OWNER_EXIT_S = 30.0  # a killed owner's exit, once its end of the pipe is closed


def lock_path(pgdata: Path) -> Path:
    """The data directory's lock file (`EmbeddedPostgres` holds an flock on it)."""
    return pgdata.parent / f"{pgdata.name}.lock"


def postmaster_pid(pgdata: Path) -> int | None:
    """The PID in ``postmaster.pid`` (None when there is none: the server is stopped)."""
    try:
        return int((pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def wait_for_owner(fd: int) -> bytes:
    """Block until the owner writes a word or dies (b"")."""
    while True:
        try:
            return os.read(fd, 1)
        except (
            InterruptedError
        ):  # pragma: no cover - retried by Python itself (PEP 475)
            continue


class Postmaster:
    """One postmaster process, signalled and awaited through a pidfd when there are any."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        try:
            self.pidfd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):  # no pidfds (old kernel, sandbox), or gone
            self.pidfd = None

    def signal(self, signum: int) -> None:
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signum)
            else:
                os.kill(self.pid, signum)
        except ProcessLookupError:
            pass

    def exited(self, within: float) -> bool:
        """Wait up to `within` seconds for the process to exit; whether it did."""
        if self.pidfd is not None:  # readable once the process has exited
            readable, _, _ = select.select([self.pidfd], [], [], within)
            return bool(readable)
        deadline = time.monotonic() + within
        while _alive(self.pid):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)
        return True

    def close(self) -> None:
        if self.pidfd is not None:
            os.close(self.pidfd)


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat_line.rsplit(")", 1)[-1].split()[0] != "Z"


def reap(pgdata: Path) -> bool:
    """Stop the server left running in `pgdata` by a dead owner; False if it would not stop."""
    with lock_path(pgdata).open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log.info("%s has a new owner already: the server is left to it", pgdata)
            return True
        pid = postmaster_pid(pgdata)
        if pid is None or not _alive(pid):
            return True
        postmaster = Postmaster(pid)
        log.warning(
            "the owner of %s died without stopping its PostgreSQL: stopping postmaster %d",
            pgdata,
            pid,
        )
        postmaster.signal(signal.SIGINT)
    try:  # the lock is free again: a new owner may start while this one waits
        if postmaster.exited(FAST_S):
            log.warning("embedded PostgreSQL in %s stopped", pgdata)
            return True
        log.warning("a fast shutdown took over %.0f s: an immediate one", FAST_S)
        postmaster.signal(signal.SIGQUIT)
        if postmaster.exited(IMMEDIATE_S):
            return True
        log.error("postmaster %d did not stop", pid)
        return False
    finally:
        postmaster.close()


def owner_handle(owner: int | None) -> Postmaster | None:
    """A handle on the owner process (`owner`, its PID), if it is this reaper's parent
    still (then the PID cannot have been reused) and the kernel has pidfds."""
    if owner is None or os.getppid() != owner:
        return None
    handle = Postmaster(owner)
    if handle.pidfd is None:
        return None
    return handle


def main(argv: Sequence[str]) -> int:
    fd, pgdata = int(argv[0]), Path(argv[1])
    owner = owner_handle(int(argv[2]) if len(argv) > 2 else None)
    # Its owner's end of the pipe says when to act; nothing else stops the reaper early.
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    logging.basicConfig(
        level=logging.INFO, format="%(levelname)-8s %(name)s: %(message)s"
    )
    if wait_for_owner(fd) == STAND_DOWN:
        return 0
    if owner is not None:
        log.info("the owner of %s is gone: waiting for its exit to end", pgdata)
        # A dying process closes its descriptors one by one: the pipe's end may close
        # before the data directory's lock is released, and the lock would then look like
        # a new owner's. The owner's pidfd is readable once all of them are closed.
        owner.exited(OWNER_EXIT_S)
        owner.close()
    return 0 if reap(pgdata) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
