"""Turn webhooks: a seat's holder may give a URL that is called when it becomes their turn.

Setting one (`PUT /api/rooms/{id}/webhook`, with the seat's token) stores it in
``seat_webhooks``. The trigger ``games_turn_changed`` (migration 0003) inserts one row into
``webhook_outbox`` in the very transaction of the move that hands the turn to that seat, so
no turn is forgotten by a crash and none is announced that did not happen. Every instance
runs a `WebhookCourier` that claims due rows with ``FOR UPDATE SKIP LOCKED`` and a lease,
posts them, and records the outcome: delivered, retried later with exponential backoff
(network errors, timeouts, 408, 425, 429, 5xx), or failed (any other answer, or too many
attempts). A call whose turn has passed meanwhile is cancelled instead of sent late. An
instance that dies mid-call leaves its lease to expire and another retries: delivery is
at least once, and each call carries an ``X-Ishtar-Delivery`` id for receivers to dedupe.

What a call carries is public: the room, its link, the seat and its name, the version.
Never a token, a rejoin link, or anything from the game's hidden state.

Server-side request forgery is guarded against in app/background/webhook_targets.py: the host is
resolved at every call and refused unless public, and the call goes to the address checked.

The courier's time is a `TimeSource` (app/config/timesource.py): its polls wait on it, and its
queries read the present as the database's ``now()`` plus the source's lead (none in
production), so a test can step through backoffs and leases without sleeping. Its SQL, and
the seat's webhook, are the store's (app/store/webhooks.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx

from app.background.webhook_targets import Refused, courier_client, post_pinned
from app.config.tasks import cancel_and_wait
from app.config.timesource import SYSTEM_TIME, TimeSource
from app.play.protocol import dumps
from app.store.webhooks import Call, WebhookStore

__all__ = ["BATCH", "MAX_BACKOFF_S", "Call", "WebhookCourier", "payload"]

log = logging.getLogger("ishtar.webhooks")

BATCH = 10
MAX_BACKOFF_S = 3600.0
RETRY_STATUSES = {408, 425, 429}
USER_AGENT = "IshtarOnline-webhook/1"


def payload(call: Call, name: str) -> dict[str, Any]:
    """The JSON body of a call: public facts only."""
    room_url = f"{call.base_url.rstrip('/')}/r/{call.room_id}"
    return {
        "event": "your_turn",
        "delivery": call.id,
        "room_id": call.room_id,
        "room_url": room_url,
        "seat": call.seat,
        "name": name,
        "turn": {"seat": call.seat, "name": name},
        "version": call.version,
        "text": f"It is {name}'s turn on Ishtar Online: {room_url}",
    }


class WebhookCourier:
    """This instance's share of the outbox: claim due calls, make them, record how it went."""

    def __init__(
        self,
        store: WebhookStore,
        instance: str,
        *,
        poll_s: float = 1.0,
        timeout_s: float = 5.0,
        max_attempts: int = 8,
        backoff_s: float = 5.0,
        allow_private: bool = False,
        time: TimeSource = SYSTEM_TIME,
    ) -> None:
        self.store = store
        self.instance = instance
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
        """Look now rather than at the next poll (a move was just committed here)."""
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
                log.warning("webhook courier failed: %s", error)
                claimed = 0
            if claimed < BATCH:
                await self.time.sleep(self.poll_s, self._wake)
                self._wake.clear()

    async def run_once(self) -> int:
        """Claim the calls due now and make them; how many were claimed."""
        calls = await self.store.claim(
            self.instance, BATCH, self.lease_s, self.time.ahead_s()
        )
        await asyncio.gather(*(self.deliver(call) for call in calls))
        return len(calls)

    async def deliver(self, call: Call) -> None:
        now = await self.store.turn(call.seat_id)
        if now is None or now.status != "playing" or now.current_seat != call.seat:
            await self._finish(call, "cancelled", "the turn has passed")
            return
        try:
            status = await self._post(call, payload(call, now.name))
        except Refused as error:
            await self._finish(call, "failed", str(error))
            return
        except (httpx.HTTPError, OSError) as error:
            await self._retry(call, f"{type(error).__name__}: {error}"[:500])
            return
        if 200 <= status < 300:
            await self._finish(call, "delivered", None)
        elif status >= 500 or status in RETRY_STATUSES:
            await self._retry(call, f"HTTP {status}")
        else:
            await self._finish(call, "failed", f"HTTP {status}")

    async def _post(self, call: Call, body: dict[str, Any]) -> int:
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Ishtar-Delivery": str(call.id),
            "X-Ishtar-Event": "your_turn",
        }
        return await post_pinned(
            self._client, call.url, dumps(body).encode(), headers, self.allow_private
        )

    async def _retry(self, call: Call, error: str) -> None:
        if call.attempts >= self.max_attempts:
            await self._finish(
                call, "failed", f"gave up after {call.attempts}: {error}"
            )
            return
        delay = min(MAX_BACKOFF_S, self.backoff_s * 2 ** (call.attempts - 1))
        await self.store.retry(call.id, error, delay, self.time.ahead_s())
        log.info("webhook call %s failed (%s); retry in %.1f s", call.id, error, delay)

    async def _finish(self, call: Call, status: str, error: str | None) -> None:
        await self.store.finish(call.id, status, error, self.time.ahead_s())
        log.info(
            "webhook call %s %s%s", call.id, status, f" ({error})" if error else ""
        )
