"""The signals `ishtar serve` has no use for: logged and ignored, never fatal.

SIGTERM and SIGINT stop the server gracefully (its embedded PostgreSQL with it); SIGUSR2
writes a heap snapshot when `ISHTAR_HEAP_DUMP_DIR` is set (app/ops/heap_dump.py). Every other
signal whose default action ends a process without a core dump (SIGHUP, SIGUSR1, SIGUSR2
without a dump directory, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT and the
real-time signals) would stop the server at once, with no log line and no chance to stop
PostgreSQL: `ignore_unused` gives each a handler that logs it and carries on. SIGKILL cannot
be caught, and the signals of faults (SIGSEGV, SIGBUS, ...) and SIGQUIT keep their core dump;
if the server dies so, its PostgreSQL's reaper stops PostgreSQL (app/ops/pg_reaper.py).

A handler set here is reset to the default in the programs the server starts (PostgreSQL
sets its own), where an ignored signal (SIG_IGN) would be inherited.
"""

from __future__ import annotations

import logging
import signal
from types import FrameType

log = logging.getLogger("ishtar.signals")

HINTS: dict[int, str] = {
    signal.SIGUSR2: "heap snapshots need ISHTAR_HEAP_DUMP_DIR",
    signal.SIGHUP: "there is no configuration to reload",
}
_NAMES = ("SIGHUP", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM", "SIGPROF", "SIGIO")
_NAMES_LINUX = ("SIGPWR", "SIGSTKFLT")


def unused() -> list[signal.Signals | int]:
    """The signals `ignore_unused` handles, on this platform."""
    found: list[signal.Signals | int] = [
        getattr(signal, name)
        for name in (*_NAMES, *_NAMES_LINUX)
        if hasattr(signal, name)
    ]
    if hasattr(signal, "SIGRTMIN"):
        found += range(signal.SIGRTMIN, signal.SIGRTMAX + 1)
    return found


def _name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def _log_and_carry_on(signum: int, frame: FrameType | None) -> None:
    hint = HINTS.get(signum)
    log.warning(
        "ignored %s: this server does not use it%s (SIGTERM or SIGINT stop it)",
        _name(signum),
        f"; {hint}" if hint else "",
    )


def ignore(signum: int) -> None:
    """Log `signum` when it comes, and carry on."""
    signal.signal(signum, _log_and_carry_on)


def ignore_unused() -> None:
    """Log and ignore every signal of `unused()` (from the main thread, before serving)."""
    for signum in unused():
        ignore(signum)
