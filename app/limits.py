"""Limits on what one client may send: message rate (token buckets) and request body size.

Rates are per websocket connection, per seat token (HTTP moves) and per client address
(room creation). They are kept in this process: a guard against floods, not a shared
quota, so several instances each apply their own.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.protocol import ServiceError, dumps


class TokenBucket:
    """`rate` events per second on average, bursts of up to `burst`."""

    __slots__ = ("burst", "level", "rate", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class RateLimits:
    """One bucket per key (a token hash, an address), the least recently used forgotten."""

    def __init__(self, rate: float, burst: float, keys: int = 10_000) -> None:
        self.rate, self.burst, self.keys = rate, burst, keys
        self._buckets: OrderedDict[object, TokenBucket] = OrderedDict()

    def check(self, key: object, what: str = "requests") -> None:
        """Raise rate_limited when `key` is over its rate."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
            if len(self._buckets) > self.keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        if not bucket.take():
            raise ServiceError("rate_limited", f"Too many {what}; slow down and retry.")


class BodyLimit:
    """ASGI middleware: refuse request bodies over `max_bytes` under `prefix` with 413.

    `larger` names paths that take bigger bodies, with their own limit (the upload of a
    game record).
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        prefix: str = "/api/",
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app, self.max_bytes, self.prefix = app, max_bytes, prefix
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        max_bytes = self.larger.get(scope["path"], self.max_bytes)
        for name, value in scope["headers"]:
            if name == b"content-length" and (
                not value.isdigit() or int(value) > max_bytes
            ):
                await self._refuse(send, max_bytes)
                return
        seen = 0
        too_large = False

        async def limited() -> Message:
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > max_bytes:
                    too_large = True
                    raise ServiceError("too_large", "The request body is too large.")
            return message

        try:
            await self.app(scope, limited, send)
        except ServiceError:
            if not too_large:
                raise
            await self._refuse(send, max_bytes)

    async def _refuse(self, send: Send, max_bytes: int) -> None:
        body = dumps(
            ServiceError(
                "too_large", f"The request body is over {max_bytes} bytes."
            ).body()
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
