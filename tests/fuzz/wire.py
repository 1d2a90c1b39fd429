"""Blocking websocket connections for the protocol state machine, every message audited.

A `Line` is one connection (a seat or a spectator) to a live server. Everything it receives
goes through `Audit.check` first; `expect` then skips presence chatter and returns the next
message of interest, failing the test if the server stays silent or sends something else.
"""

from __future__ import annotations

import contextlib
import json
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.fuzz.audit import Audit
from tests.support.acks import unfold

BULKY = {"view", "legal", "room", "events"}
NOISE = {
    "presence",
    "room",
    "pong",
    "chat",
}  # chat: the recent messages after a welcome or sync
Predicate = Callable[
    [dict[str, Any]], bool
]  # may arrive at any time; audited, then skipped
TIMEOUT = 10.0


class Line:
    def __init__(
        self, url: str, seat: int | None, token: str | None, audit: Audit
    ) -> None:
        self.url, self.seat, self.token, self.audit = url, seat, token, audit
        self.history: deque[dict[str, Any]] = deque(maxlen=8)  # for failure reports
        self.unfolded: deque[dict[str, Any]] = deque()  # an ack read out of its update
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(url, max_size=None, open_timeout=TIMEOUT)
        )

    def send(self, payload: Any) -> None:
        self.ws.send(
            payload if isinstance(payload, str | bytes) else json.dumps(payload)
        )

    def hello(self, since: int | None) -> dict[str, Any]:
        self.send({"type": "hello", "token": self.token, "since": since})
        return self.expect(lambda m: m["type"] == "welcome", "welcome")

    def receive(self) -> dict[str, Any]:
        if not self.unfolded:
            text = self.ws.recv(timeout=TIMEOUT)
            assert isinstance(text, str), "the server sent a binary frame"
            self.unfolded.extend(unfold(self.audit.check(text, self.seat)))
        message = self.unfolded.popleft()
        self.history.append({k: v for k, v in message.items() if k not in BULKY})
        return message

    def expect(
        self, wanted: Predicate, what: str, noise: bool = True
    ) -> dict[str, Any]:
        """The next message that is not noise; it must be `wanted`."""
        while True:
            try:
                message = self.receive()
            except TimeoutError:
                raise AssertionError(
                    f"seat {self.seat}: no {what} within {TIMEOUT}s; "
                    f"last received: {list(self.history)}"
                ) from None
            if noise and message["type"] in NOISE:
                continue
            assert wanted(message), f"seat {self.seat} expected {what}, got {message}"
            return message

    def expect_all(
        self, wanted: list[Predicate], optional: Sequence[Predicate] = ()
    ) -> list[dict[str, Any]]:
        """The next messages (noise aside) matching each of `wanted`, in any order; each
        of `optional` may come too while some of `wanted` are still awaited."""
        left, maybe, got = list(wanted), list(optional), []
        while left:
            message = self.expect(
                lambda m: any(w(m) for w in left + maybe), f"{len(left)} more"
            )
            matched = next(w for w in left + maybe if w(message))
            (left if matched in left else maybe).remove(matched)
            got.append(message)
        return got

    def closed_with(self) -> int | None:
        """Read until the server closes; its close code."""
        try:
            while True:
                self.receive()
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None

    def close(self) -> None:
        self.stack.close()
