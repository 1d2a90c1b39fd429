"""The embedded PostgreSQL's reaper (app/ops/pg_reaper.py) and an owner that dies slowly.

A killed process closes its descriptors one at a time. When the end of the reaper's pipe
closed before the data directory's lock, the reaper found the lock still held, took it for
a new owner's and left PostgreSQL running (a flake of test_server_lifetime.py under load,
2026-12-05). Here an owner closes its end of the pipe first and holds the lock until the test
lets it exit: the reaper must wait for the owner's exit, then stop the server.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import textwrap
from pathlib import Path

from app.ops import pg_reaper

ROOT = Path(__file__).resolve().parents[3]
BOUND_S = 60.0  # a hang guard, not a timing assertion

OWNER = textwrap.dedent(
    """
    import fcntl, os, subprocess, sys
    pgdata = sys.argv[1]
    lock = open(sys.argv[2], "a")
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    read_end, write_end = os.pipe()
    subprocess.Popen(
        [sys.executable, "-m", "app.ops.pg_reaper", str(read_end), pgdata,
         str(os.getpid())],
        pass_fds=(read_end,), stdin=subprocess.DEVNULL, start_new_session=True,
    )
    os.close(read_end)
    os.close(write_end)  # the pipe first, as a dying process may
    sys.stdin.readline()  # the lock is still held until the test says go
    """
)


STAND_IN = textwrap.dedent(
    """
    import os, signal, sys
    for signum in (signal.SIGINT, signal.SIGQUIT):
        signal.signal(signum, lambda *_: os._exit(0))
    print("ready", flush=True)
    while True:
        signal.pause()
    """
)


def read_line_with(stream: object, words: tuple[str, ...]) -> str:
    """The first line of `stream` (the reaper's log) holding one of `words`."""
    assert hasattr(stream, "readline")
    seen = []
    while True:
        line = stream.readline()
        if not line:
            raise AssertionError(f"the reaper said nothing of the owner: {seen}")
        seen.append(line)
        if any(word in line for word in words):
            return str(line)


def said_since(stream: object) -> str:
    """What the reaper has written since (to diagnose a failure; no wait beyond 1 s)."""
    fileno = getattr(stream, "fileno", None)
    if fileno is None:
        return ""
    os.set_blocking(fileno(), False)
    readable, _, _ = select.select([fileno()], [], [], 1.0)
    if not readable:
        return "(nothing)"
    try:
        return os.read(fileno(), 65536).decode(errors="replace")
    except OSError as error:
        return repr(error)


def test_an_owner_whose_pipe_closes_before_its_lock_still_gets_reaped(
    tmp_path: Path,
) -> None:
    pgdata = tmp_path / "pg"
    pgdata.mkdir()
    # Stands for PostgreSQL: SIGINT (or SIGQUIT) ends it, whatever disposition it inherited
    # from the test's process; it says so once it listens for them.
    postmaster = subprocess.Popen(
        [sys.executable, "-c", STAND_IN], stdout=subprocess.PIPE, text=True
    )
    assert postmaster.stdout is not None
    assert postmaster.stdout.readline().strip() == "ready"
    (pgdata / "postmaster.pid").write_text(f"{postmaster.pid}\n{pgdata}\n")
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(pgdata), str(pg_reaper.lock_path(pgdata))],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    exited = os.pidfd_open(postmaster.pid)
    try:
        assert owner.stdin is not None and owner.stderr is not None
        said = read_line_with(
            owner.stderr, ("waiting for its exit to end", "new owner")
        )
        assert "waiting for its exit to end" in said, said
        owner.stdin.write("go\n")
        owner.stdin.close()
        owner.wait(BOUND_S)
        readable, _, _ = select.select([exited], [], [], BOUND_S)
        assert readable, (
            "the reaper left the dead owner's server running; it said: "
            + said_since(owner.stderr)
        )
    finally:
        os.close(exited)
        postmaster.kill()
        postmaster.wait()
        owner.kill()
        owner.wait()
