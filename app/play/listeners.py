"""Listeners: the functions that hear of something, called in the order they subscribed.

The room service tells its listeners of each move committed (the hub, the bot runner, the
webhook courier) and of each seat handed to a bot (the bot runner). Whoever listens
subscribes, in the composition root (app/ops/), and unsubscribes when it stops; nothing
reassigns another module's attribute. A listener that raises is logged and the others are
still called: one broken listener never keeps the hub from publishing a move that is
committed anyway.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Generic, ParamSpec

log = logging.getLogger("ishtar.listeners")

P = ParamSpec("P")

Unsubscribe = Callable[[], None]


class Listeners(Generic[P]):
    """An ordered list of listeners of one kind of news (`what`, for the log)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._listeners: list[Callable[P, None]] = []

    def subscribe(self, listener: Callable[P, None]) -> Unsubscribe:
        """Call `listener` on each piece of news from now on, after the earlier ones;
        the function returned unsubscribes it (again: nothing)."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return unsubscribe

    def __len__(self) -> int:
        return len(self._listeners)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Tell every listener, in order; one that raises is logged, the next still hears."""
        for listener in tuple(self._listeners):
            try:
                listener(*args, **kwargs)
            except Exception:
                log.exception("a listener of %s failed: %r", self.what, listener)
