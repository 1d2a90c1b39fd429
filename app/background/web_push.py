"""Web Push: "your turn" reaches a browser whose tabs are all closed.

A browser subscribes for a seat (``PUT /api/rooms/{id}/push`` with the seat's token: the push
service's endpoint and the browser's keys; app/store/push.py keeps it). The trigger
``games_turn_changed`` (migration 0017) queues one ``push_outbox`` row per subscription in the
transaction of the move that hands the turn to the seat, or ends the game, unless the seat is
away. Every instance runs a `PushCourier`, which works the outbox exactly as the
`WebhookCourier` works its own (app/background/webhooks.py): it claims due rows with ``FOR
UPDATE SKIP LOCKED`` and a lease, sends them, and records the outcome — delivered (2xx),
retried with the same backoff (network errors, timeouts, 408, 425, 429, 5xx), failed (any
other answer, or too many attempts), or cancelled when the turn passed (or the seat went
away) before the push left. A 404 or 410 means the browser dropped the subscription: it is
forgotten, with whatever else was owed to it.

The request is RFC 8030/8291/8292: the payload encrypted with ``aes128gcm`` to the browser's
P-256 key and auth secret (http_ece), a fresh sender key and salt each time, and a VAPID
``Authorization`` header (app/background/push_keys.py). The endpoint is an external URL, so it
goes through the guard the webhooks use (app/background/webhook_targets.py): checked when it
is given and at every push, called at the address checked, no redirects, only the status read.

What a push says is public and short (at most `MAX_PAYLOAD` bytes): the game's title, the
names at the table, "your turn" or "game over" in the subscriber's language, and the room's
link. Never a token or anything of the hidden game state.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from typing import Any

import http_ece  # type: ignore[import-untyped]
import httpx
from cryptography.hazmat.primitives.asymmetric import ec

from app.background.push_keys import VapidKey, unb64url
from app.background.webhook_targets import (
    BAD_KEYS,
    Refused,
    check_url,
    courier_client,
    post_pinned,
)
from app.background.webhooks import MAX_BACKOFF_S, RETRY_STATUSES
from app.config.tasks import cancel_and_wait
from app.config.timesource import SYSTEM_TIME, TimeSource
from app.games import Registry
from app.play.protocol import ServiceError, dumps, msg
from app.store.push import Push, PushFacts, PushStore

log = logging.getLogger("ishtar.push")

BATCH = 10
MAX_PAYLOAD = 1024
"""Bytes of a push's plain text at most (push services take 4096 encrypted)."""
GONE = {404, 410}

Texts = Callable[[str, str, Mapping[str, Any]], str]
"""A key's text in a language, with its parameters (the site's catalogues)."""


def check_endpoint(endpoint: str, allow_private: bool) -> str:
    """A push service's endpoint as it will be called, or `bad_push_endpoint`: the rules of
    webhook URLs (app/background/webhook_targets.py), and https only."""
    try:
        url = check_url(endpoint, allow_private)
    except ServiceError as error:
        key = BAD_KEYS.get(error.reason, "unreadable")
        raise ServiceError(
            "bad_push_endpoint",
            error.reason.replace("webhook URL", "push endpoint"),
            message=msg(f"error.bad_push_endpoint.{key}"),
        ) from None
    if not url.startswith("https://") and not allow_private:
        raise ServiceError(
            "bad_push_endpoint",
            "A push endpoint starts with https://.",
            message=msg("error.bad_push_endpoint.scheme"),
        )
    return url


def check_keys(p256dh: str, auth: str) -> tuple[bytes, bytes]:
    """A subscription's keys (base64url, as the browser gives them), or `bad_push_keys`:
    a P-256 point, uncompressed (65 bytes), and a 16-byte auth secret."""
    try:
        point, secret = unb64url(p256dh), unb64url(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65 or len(secret) != 16:
            raise ValueError("sizes")
    except ValueError:
        raise ServiceError(
            "bad_push_keys",
            "The subscription's keys are not a P-256 key (65 bytes) and a 16-byte"
            " secret, in base64url.",
            message=msg("error.bad_push_keys"),
        ) from None
    return point, secret


def message(push: Push, facts: PushFacts, title: str, texts: Texts) -> dict[str, Any]:
    """The push's content: public facts in the subscriber's language, bounded in size."""
    names = [name for name in facts.names if name]
    while True:
        table = ", ".join(names)
        key = "push.turn" if push.event == "turn" else "push.end"
        body: dict[str, Any] = {
            "kind": push.event,
            "room": push.room_id,
            "title": texts(push.lang, f"{key}.title", {"game": title})[:120],
            "body": texts(push.lang, f"{key}.body", {"names": table})[:400],
            "url": f"/r/{push.room_id}",
            "tag": f"ishtar-{push.room_id}",
        }
        if len(dumps(body)) <= MAX_PAYLOAD or not names:
            return body
        names.pop()


def encrypt(content: bytes, p256dh: bytes, auth: bytes) -> bytes:
    """`content` as an ``aes128gcm`` body for the browser holding the key `p256dh`."""
    sender = ec.generate_private_key(ec.SECP256R1())
    body: bytes = http_ece.encrypt(
        content,
        salt=os.urandom(16),
        private_key=sender,
        dh=p256dh,
        auth_secret=auth,
        version="aes128gcm",
    )
    return body


class PushCourier:
    """This instance's share of the push outbox: claim due pushes, send them, record."""

    def __init__(
        self,
        store: PushStore,
        instance: str,
        *,
        key: VapidKey,
        subject: str,
        games: Registry,
        texts: Texts,
        ttl_s: int = 86400,
        poll_s: float = 1.0,
        timeout_s: float = 5.0,
        max_attempts: int = 8,
        backoff_s: float = 5.0,
        allow_private: bool = False,
        time: TimeSource = SYSTEM_TIME,
    ) -> None:
        self.store = store
        self.instance = instance
        self.key = key
        self.subject = subject
        self.games = games
        self.texts = texts
        self.ttl_s = ttl_s
        self.poll_s = poll_s
        self.timeout_s = timeout_s
        self.max_attempts = max_attempts
        self.backoff_s = backoff_s
        self.allow_private = allow_private
        self.time = time
        self.lease_s = 3 * timeout_s + 10
        self._client = courier_client(timeout_s)
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def poke(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
        if not self._client.is_closed:
            await self._client.aclose()

    async def _run(self) -> None:
        while True:
            try:
                claimed = await self.run_once()
            except Exception as error:
                log.warning("push courier failed: %s", error)
                claimed = 0
            if claimed < BATCH:
                await self.time.sleep(self.poll_s, self._wake)
                self._wake.clear()

    async def run_once(self) -> int:
        """Claim the pushes due now and send them; how many were claimed."""
        pushes = await self.store.claim(
            self.instance, BATCH, self.lease_s, self.time.ahead_s()
        )
        await asyncio.gather(*(self.deliver(push) for push in pushes))
        return len(pushes)

    async def deliver(self, push: Push) -> None:
        facts = await self.store.facts(push.room_id, push.seat, self.time.ahead_s())
        if facts is None:
            await self._finish(push, "cancelled", "the room is gone")
            return
        if push.event == "turn" and (
            facts.status != "playing" or facts.current_seat != push.seat
        ):
            await self._finish(push, "cancelled", "the turn has passed")
            return
        if facts.away:
            await self._finish(push, "cancelled", "the seat is away")
            return
        title = self.games.get(facts.game).title if facts.game in self.games else ""
        content = dumps(message(push, facts, title, self.texts)).encode()
        try:
            status = await self._send(push, content)
        except Refused as error:
            await self._finish(push, "failed", str(error))
            return
        except (httpx.HTTPError, OSError, ValueError) as error:
            await self._retry(push, f"{type(error).__name__}: {error}"[:500])
            return
        if 200 <= status < 300:
            await self._finish(push, "delivered", None)
        elif status in GONE:
            await self._finish(push, "failed", f"HTTP {status}: subscription gone")
            await self.store.drop(push.subscription_id)
            log.info("push subscription %s is gone", push.subscription_id)
        elif status >= 500 or status in RETRY_STATUSES:
            await self._retry(push, f"HTTP {status}")
        else:
            await self._finish(push, "failed", f"HTTP {status}")

    async def _send(self, push: Push, content: bytes) -> int:
        body = encrypt(content, push.p256dh, push.auth)
        headers = {
            "Authorization": await self.key.authorization(push.endpoint, self.subject),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(self.ttl_s),
            "Urgency": "high" if push.event == "turn" else "normal",
            # a newer push of the same room replaces one the browser has not had yet
            "Topic": push.room_id[:32],
        }
        return await post_pinned(
            self._client, push.endpoint, body, headers, self.allow_private
        )

    async def _retry(self, push: Push, error: str) -> None:
        if push.attempts >= self.max_attempts:
            await self._finish(
                push, "failed", f"gave up after {push.attempts}: {error}"
            )
            return
        delay = min(MAX_BACKOFF_S, self.backoff_s * 2 ** (push.attempts - 1))
        await self.store.retry(push.id, error, delay, self.time.ahead_s())
        log.info("push %s failed (%s); retry in %.1f s", push.id, error, delay)

    async def _finish(self, push: Push, status: str, error: str | None) -> None:
        await self.store.finish(push.id, status, error, self.time.ahead_s())
        log.info("push %s %s%s", push.id, status, f" ({error})" if error else "")
