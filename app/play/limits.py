"""Limits on what one client may send or hold: message rate, body size, open connections.

Rates are per websocket connection and per seat token (HTTP moves, why-questions): token
buckets kept in this process, a guard against floods rather than a shared quota, so several
instances each apply their own. Rooms per client address per minute are the exception:
`SharedRoomLimit` counts them in PostgreSQL, so all instances behind one load balancer share
one limit (instances coordinate only through PostgreSQL).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.play.protocol import ServiceError, dumps, msg
from app.store.room_limits import RoomLimitStore


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
            raise too_many(what)


def too_many(what: str) -> ServiceError:
    """`rate_limited` for too many `what` ("requests", "replay requests")."""
    return ServiceError(
        "rate_limited",
        f"Too many {what}; slow down and retry.",
        message=msg("error.rate_limited.too_many", what=what.replace(" ", "_")),
    )


class SharedRoomLimit:
    """Rooms one client address may create per minute, shared by every instance.

    Counted in PostgreSQL (tables of migration 0006), per keyed hash of the address: the
    raw address is never stored. The key is random, written once by the first instance that
    needs it and read by the others. Rows older than the previous minute are pruned by each
    instance about once a minute. The window and its SQL: app/store/room_limits.py.
    """

    PRUNE_EVERY_S = 60.0

    def __init__(self, store: RoomLimitStore, per_minute: float) -> None:
        self.store, self.per_minute = store, per_minute
        self._key: bytes | None = None
        self._pruned = time.monotonic()

    async def check(self, address: str, what: str = "requests") -> None:
        """Count a room created from `address`, or raise rate_limited (it is not counted)."""
        if time.monotonic() - self._pruned >= self.PRUNE_EVERY_S:
            await self.prune()
        digest = self.address_hash(await self.shared_key(), address)
        if not await self.store.count(digest, self.per_minute):
            raise too_many(what)

    async def prune(self) -> int:
        """Delete the counts no check reads any more; how many rows went."""
        self._pruned = time.monotonic()
        return await self.store.prune()

    @staticmethod
    def address_hash(key: bytes, address: str) -> bytes:
        """What room_creations keeps of an address: HMAC-SHA256 under `key`, 16 bytes.

        >>> len(SharedRoomLimit.address_hash(b"k" * 32, "203.0.113.7"))
        16
        >>> a = SharedRoomLimit.address_hash(b"k" * 32, "203.0.113.7")
        >>> a == SharedRoomLimit.address_hash(b"j" * 32, "203.0.113.7")
        False
        """
        return hmac.new(key, address.encode(), hashlib.sha256).digest()[:16]

    async def shared_key(self) -> bytes:
        """The key of the address hash, the same for every instance (read once)."""
        if self._key is None:
            self._key = await self.store.shared_key(secrets.token_bytes(32))
        return self._key


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
                    raise ServiceError(
                        "too_large",
                        "The request body is too large.",
                        message=msg("error.too_large.body", max=max_bytes),
                    )
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
                "too_large",
                f"The request body is over {max_bytes} bytes.",
                message=msg("error.too_large.body", max=max_bytes),
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


class AddressCounts:
    """Open websocket connections per client address in this process, each address capped.

    Only addresses with an open connection are kept, so it is bounded by the sockets the
    process holds. Per process, like the frame limits: the cap stops one address from
    holding a server's sockets and memory, it is not a quota shared by instances.
    """

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()

    def acquire(self, address: str, limit: int) -> bool:
        """Count one more connection from `address`; False (not counted) over `limit`."""
        if self._open[address] >= limit:
            if not self._open[address]:
                del self._open[address]
            return False
        self._open[address] += 1
        return True

    def release(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]

    def open(self, address: str) -> int:
        return self._open.get(address, 0)
