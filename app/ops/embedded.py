"""Embedded PostgreSQL: a private server in a data directory, for `ishtar serve` and the tests.

The `pgserver` wheel ships real PostgreSQL binaries; we drive them (initdb, pg_ctl) ourselves
rather than through `pgserver.get_server`, to control the lifetime precisely: start in
`start()`, stop in `stop()`, nothing left to `atexit`. The server listens on a Unix socket
only, so several data directories never fight over a TCP port.

PostgreSQL refuses to run as root. As root we do what pgserver itself does: run the server
as the system user ``pgserver`` (created with useradd when missing) and make the directories
leading to the binaries and to the data directory traversable (o+x) for that user.

One process at a time may own a data directory (an flock on ``<pgdata>.lock``). A server
left running by a killed owner is stopped and started afresh by the next owner.

`watch()` keeps the server up while its owner runs: a thread looks at the postmaster every
`WATCH_INTERVAL_S`; when it is gone (killed, crashed, out of memory), it is started again on
the same data, which PostgreSQL recovers from its write-ahead log, with a warning in the log.
When it cannot be started `RESTART_ATTEMPTS` times in a row, the watcher gives up and calls
its `on_give_up` (`ishtar serve` then stops with exit code 1, for a supervisor to act).

The server never outlives its owner for long: `start()` starts a reaper process
(app/ops/pg_reaper.py) that holds one end of a pipe, and stops the server as soon as the
owner dies without having stopped it (SIGKILL, a crash: the pipe's end-of-file).
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import logging
import os
import pwd
import shlex
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal
from urllib.parse import quote

from app.ops import pg_reaper

log = logging.getLogger("ishtar.embedded")

SYSTEM_USER = "pgserver"  # the same user pgserver creates when run as root
SUPERUSER = "postgres"
DATABASE = "ishtar"
_SOCKET_PATH_LIMIT = 100  # sun_path is 108 bytes on Linux; keep a margin
WATCH_INTERVAL_S = 1.0  # a signal to a PID and a read of /proc: nothing to save on
RESTART_ATTEMPTS = 8
RESTART_BACKOFF_S = (
    0.5,
    1.0,
    2.0,
    4.0,
    5.0,
)  # then 5 s; old backends need a moment to exit
LOCK_WAIT_S = 2.0  # a dead owner's reaper holds the lock a moment while it signals


class EmbeddedPostgresError(RuntimeError):
    """The embedded server could not be set up, started or stopped."""


def binaries_dir() -> Path:
    """The bin/ directory of the PostgreSQL shipped in the pgserver wheel."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedPostgresError("the pgserver package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


class EmbeddedPostgres:
    """A PostgreSQL server owned by this process, with its cluster in `pgdata`.

    Use as a context manager, or call `start()` and `stop()`. `url` is an asyncpg URL to
    the ``ishtar`` database; `admin_url` to the ``postgres`` maintenance database.
    `server_settings` are passed to the server as ``-c name=value``.
    """

    def __init__(
        self, pgdata: Path, *, server_settings: Mapping[str, str] | None = None
    ) -> None:
        self.pgdata = Path(pgdata).expanduser().absolute()
        self.server_settings = dict(server_settings or {})
        self.bin = binaries_dir()
        self.logfile = self.pgdata / "postgresql.log"
        self._account = _service_account()
        self._lock: IO[str] | None = None
        self._running = False
        self._postmaster: int | None = None
        self._watcher: threading.Thread | None = None
        self._stop_watching = threading.Event()
        self._reaper: subprocess.Popen[bytes] | None = None
        self._reaper_pipe: int | None = None
        self.restarts = 0
        self.gave_up = False

    # -- lifetime -------------------------------------------------------------------------

    def start(self) -> str:
        """Initialise the cluster if new, start the server and return `url`."""
        self._acquire_lock()
        try:
            self._start_reaper()  # first: a start cut short by a kill is stopped too
            self._prepare_directories()
            if not (self.pgdata / "PG_VERSION").exists():
                self._initdb()
            left = self._read_postmaster_pid()
            if left is not None and _process_alive(left):
                log.warning(
                    "stopping a server left running in %s by a killed process",
                    self.pgdata,
                )
                self._pg_ctl("-m", "fast", "-w", "-t", "60", "stop")
            self._start_server()
            self._ensure_database()
        except BaseException:
            self.stop()
            raise
        log.info("embedded PostgreSQL ready in %s", self.pgdata)
        return self.url

    def stop(self) -> None:
        """Stop the server (fast shutdown: sessions end, data is flushed) and release the lock."""
        self._stop_watching.set()
        if (
            self._watcher is not None
            and self._watcher is not threading.current_thread()
        ):
            self._watcher.join()
            self._watcher = None
        try:
            if (
                self._running
                and self._postmaster is not None
                and not self.postmaster_alive()
            ):
                # Died and not restarted (the watcher gave up): nothing to stop; the next
                # start recovers the data.
                self._running = False
            if self._running:
                self._pg_ctl("-m", "fast", "-w", "-t", "60", "stop")
                self._running = False
                log.info("embedded PostgreSQL stopped")
        finally:
            self._stand_reaper_down()
            if self._lock is not None:
                self._lock.close()
                self._lock = None

    # -- the reaper (app/ops/pg_reaper.py) ------------------------------------------------

    def _start_reaper(self) -> None:
        if self._reaper is not None:
            return
        read_end, write_end = os.pipe()  # neither inherited by anything else we start
        root = Path(__file__).resolve().parents[2]  # where the `app` package is
        path = os.environ.get("PYTHONPATH")
        env = {
            **os.environ,
            "PYTHONPATH": f"{root}{os.pathsep}{path}" if path else str(root),
        }
        command = [
            sys.executable,
            "-m",
            "app.ops.pg_reaper",
            str(read_end),
            str(self.pgdata),
            str(os.getpid()),  # the owner, whose exit the reaper waits for
        ]
        try:
            # Its own session: a terminal's Ctrl-C, or a kill of our process group, is
            # not for it. Its log lines go to our stderr.
            self._reaper = subprocess.Popen(
                command,
                pass_fds=(read_end,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
                env=env,
                cwd=root,
            )
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        self._reaper_pipe = write_end

    def _stand_reaper_down(self) -> None:
        """Tell the reaper the server was stopped here (or never started), and wait for it."""
        if self._reaper_pipe is not None:
            try:
                os.write(self._reaper_pipe, pg_reaper.STAND_DOWN)
            except BrokenPipeError:
                log.warning("the embedded PostgreSQL's reaper had died")
            finally:
                os.close(self._reaper_pipe)
                self._reaper_pipe = None
        if self._reaper is not None:
            try:
                self._reaper.wait(10)
            except subprocess.TimeoutExpired:
                self._reaper.kill()
                self._reaper.wait()
            self._reaper = None

    # -- watching -------------------------------------------------------------------------

    def watch(
        self,
        on_give_up: Callable[[], None] | None = None,
        interval: float = WATCH_INTERVAL_S,
    ) -> None:
        """Restart the server whenever its postmaster is gone, until `stop()`."""
        if self._watcher is not None:
            return
        self._stop_watching.clear()
        self._watcher = threading.Thread(
            target=self._watch,
            args=(on_give_up, interval),
            name="embedded-postgres-watcher",
            daemon=True,
        )
        self._watcher.start()

    def postmaster_alive(self) -> bool:
        """Whether the postmaster this object started still runs."""
        return self._postmaster is not None and _process_alive(self._postmaster)

    def _watch(self, on_give_up: Callable[[], None] | None, interval: float) -> None:
        while not self._stop_watching.wait(interval):
            if self.postmaster_alive():
                continue
            log.warning(
                "embedded PostgreSQL (postmaster %s) is gone; restarting it in %s",
                self._postmaster,
                self.pgdata,
            )
            outcome = self._restart()
            if outcome == "stopping":
                return
            if outcome == "gave up":
                self.gave_up = True
                log.error(
                    "embedded PostgreSQL could not be restarted in %d attempts; giving up",
                    RESTART_ATTEMPTS,
                )
                if on_give_up is not None:
                    on_give_up()
                return

    def _restart(self) -> Literal["restarted", "stopping", "gave up"]:
        """Start the server again, retrying: old backends may hold its memory a moment."""
        for attempt in range(RESTART_ATTEMPTS):
            if self._stop_watching.is_set():
                return "stopping"
            try:
                self._start_server()
            except (EmbeddedPostgresError, OSError) as error:
                log.warning(
                    "restart %d of the embedded PostgreSQL failed: %s",
                    attempt + 1,
                    error,
                )
            else:
                self.restarts += 1
                log.warning(
                    "embedded PostgreSQL restarted (postmaster %s)", self._postmaster
                )
                return "restarted"
            delay = RESTART_BACKOFF_S[min(attempt, len(RESTART_BACKOFF_S) - 1)]
            if self._stop_watching.wait(delay):
                return "stopping"
        return "gave up"

    def __enter__(self) -> EmbeddedPostgres:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- addresses ------------------------------------------------------------------------

    @property
    def socket_dir(self) -> Path:
        """The socket's directory: the cluster itself, or a short path in /tmp if too long."""
        if len(str(self.pgdata / ".s.PGSQL.5432")) <= _SOCKET_PATH_LIMIT:
            return self.pgdata
        digest = hashlib.sha256(str(self.pgdata).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"ishtar-pg-{digest}"

    def url_for(self, database: str) -> str:
        """An asyncpg URL for `database` on this server."""
        return f"postgresql+asyncpg://{SUPERUSER}@/{database}?host={quote(str(self.socket_dir))}"

    @property
    def url(self) -> str:
        return self.url_for(DATABASE)

    @property
    def admin_url(self) -> str:
        return self.url_for("postgres")

    # -- steps ----------------------------------------------------------------------------

    def _acquire_lock(self) -> None:
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        lock = pg_reaper.lock_path(self.pgdata).open("a")
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() < deadline:  # perhaps a reaper, for a moment
                    time.sleep(0.05)
                    continue
            lock.close()
            raise EmbeddedPostgresError(
                f"{self.pgdata} is in use by another process; to run several servers, point "
                "them all at one PostgreSQL with DATABASE_URL"
            ) from None
        self._lock = lock

    def _prepare_directories(self) -> None:
        new = not self.pgdata.exists()
        self.pgdata.mkdir(mode=0o700, exist_ok=True)
        if (
            new is False
            and not (self.pgdata / "PG_VERSION").exists()
            and any(self.pgdata.iterdir())
        ):
            raise EmbeddedPostgresError(
                f"{self.pgdata} is not empty and holds no PostgreSQL cluster"
            )
        socket_dir = self.socket_dir
        socket_dir.mkdir(mode=0o700, exist_ok=True)
        if self._account is not None:
            uid, gid = self._account.pw_uid, self._account.pw_gid
            for path in {self.pgdata, socket_dir}:
                os.chown(path, uid, gid)
            _grant_traverse(self.pgdata)
            _grant_traverse(socket_dir)
            _grant_traverse(self.bin)
            _ensure_readable_tree(self.bin.parent)

    def _start_server(self) -> None:
        stale = self._read_postmaster_pid()
        if stale is not None and not _process_alive(stale):
            # A killed postmaster, perhaps a zombie nobody reaps (as under a PID 1 that
            # does not reap): PostgreSQL would take its lock files (the data directory's
            # and the socket's) for a live server's. We hold
            # the data directory's flock, and PostgreSQL itself still refuses to start while
            # old backends hold its shared memory, so the stale file can go.
            (self.pgdata / "postmaster.pid").unlink(missing_ok=True)
            (self.socket_dir / ".s.PGSQL.5432.lock").unlink(missing_ok=True)
        self._pg_ctl(
            "-w",
            "-t",
            "60",
            "-l",
            str(self.logfile),
            "-o",
            self._server_options(),
            "start",
        )
        self._running = True
        self._postmaster = self._read_postmaster_pid()

    def _read_postmaster_pid(self) -> int | None:
        """The postmaster's PID, the first line of ``postmaster.pid``."""
        try:
            return int((self.pgdata / "postmaster.pid").read_text().split("\n", 1)[0])
        except (OSError, ValueError):
            return None

    def _initdb(self) -> None:
        log.info("creating a PostgreSQL cluster in %s", self.pgdata)
        self._run(
            [
                str(self.bin / "initdb"),
                "-D", str(self.pgdata),
                "-U", SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-instructions",
            ]
        )  # fmt: skip

    def _server_options(self) -> str:
        options = {
            "listen_addresses": "",
            "unix_socket_directories": str(self.socket_dir),
        }
        options.update(self.server_settings)
        return " ".join(
            f"-c {shlex.quote(f'{name}={value}')}" for name, value in options.items()
        )

    def _pg_ctl(
        self, *args: str, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        try:
            return self._run(
                [str(self.bin / "pg_ctl"), "-D", str(self.pgdata), *args], check=check
            )
        except EmbeddedPostgresError as error:
            raise EmbeddedPostgresError(
                f"{error}\n--- server log ---\n{self._log_tail()}"
            ) from None

    def _ensure_database(self) -> None:
        psql = [
            str(self.bin / "psql"),
            "-h",
            str(self.socket_dir),
            "-U",
            SUPERUSER,
            "-X",
            "-q",
        ]
        exists = self._run(
            [
                *psql,
                "-d",
                "postgres",
                "-tA",
                "-c",
                f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'",
            ],
            as_service=False,
        ).stdout.strip()
        if exists != "1":
            self._run(
                [*psql, "-d", "postgres", "-c", f'CREATE DATABASE "{DATABASE}"'],
                as_service=False,
            )

    def _run(
        self, command: list[str], *, check: bool = True, as_service: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run a PostgreSQL program, as the service account when we are root."""
        extra: dict[str, Any] = {}
        if as_service and self._account is not None:
            extra = {
                "user": self._account.pw_uid,
                "group": self._account.pw_gid,
                "extra_groups": [],
                "cwd": self.pgdata,
            }
        env = {
            key: value for key, value in os.environ.items() if not key.startswith("PG")
        }
        # pg_ctl's server inherits stdout/stderr: a pipe would keep our reader waiting for
        # the server's exit, so output goes to temporary files.
        with tempfile.TemporaryFile("w+") as out:
            result = subprocess.run(
                command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                env=env, text=True, check=False, **extra,
            )  # fmt: skip
            out.seek(0)
            output = out.read()
        if check and result.returncode != 0:
            raise EmbeddedPostgresError(
                f"{Path(command[0]).name} failed ({result.returncode}): {output.strip()}"
            )
        return subprocess.CompletedProcess(command, result.returncode, output, "")

    def _log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(
                self.logfile.read_text(errors="replace").splitlines()[-lines:]
            )
        except OSError:
            return "(no log)"


def _service_account() -> pwd.struct_passwd | None:
    """The account the server runs as: None for ourselves, the `pgserver` user as root.

    Creating it is serialised across processes by an flock (two test workers or two
    instances starting at once on a fresh machine), so that useradd never runs twice
    concurrently: interleaved runs were seen to leave the account with a uid other than
    the one the first caller had read, and initdb then failed to look its own uid up.
    """
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        pass
    lock_path = Path(tempfile.gettempdir()) / f"ishtar-{SYSTEM_USER}-useradd.lock"
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            pass
        result = subprocess.run(
            [
                "useradd",
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                SYSTEM_USER,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        try:  # a process without our lock may have created it: only its absence is an error
            return pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            raise EmbeddedPostgresError(
                f"running as root, and could not create the user {SYSTEM_USER!r} for "
                f"PostgreSQL: {result.stderr.strip()}"
            ) from None


def _process_alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not: reaped here if it is our child)."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False  # our child, and it had exited: now reaped
    except ChildProcessError:
        pass  # not our child (pg_ctl detaches the postmaster): look it up
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc: the signal found it
    return stat_line.rsplit(")", 1)[-1].split()[0] != "Z"


def _grant_traverse(path: Path) -> None:
    """Let other users pass through every ancestor of `path` (o+x; nothing is made readable)."""
    for ancestor in path.absolute().parents:
        mode = ancestor.stat().st_mode
        if not mode & stat.S_IXOTH:
            ancestor.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)


def _ensure_readable_tree(root: Path) -> None:
    """Make the PostgreSQL installation readable (and its programs runnable) by other users."""
    if (root / "bin" / "postgres").stat().st_mode & stat.S_IXOTH:
        return  # installed with a usual umask: nothing to do
    for directory, _, files in os.walk(root):
        dir_path = Path(directory)
        dir_path.chmod(stat.S_IMODE(dir_path.stat().st_mode) | 0o005)
        for name in files:
            file = dir_path / name
            mode = stat.S_IMODE(file.stat().st_mode)
            file.chmod(mode | 0o004 | (0o001 if mode & stat.S_IXUSR else 0))
