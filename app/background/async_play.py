"""The background work of play between sessions, in one server process.

The composition root (app/ops/composition.py `start_async_play`) starts, in the app's
lifespan, this instance's `DeadlineWatch` (passed
deadlines), `LeftSeatWatch` (seats left long enough ago go to bots), `WebhookCourier`
(turn webhooks), `PushCourier` (Web Push) and, when SMTP is set, `DigestCourier` (the
e-mail digest). None keeps anything that matters in
memory: both claim their work from PostgreSQL with FOR UPDATE SKIP LOCKED, so any number
of instances share it, and an instance that stops or dies leaves nothing undone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.background.deadlines import DeadlineWatch
from app.background.left_seats import LeftSeatWatch
from app.background.mail_digest import DigestCourier
from app.background.web_push import PushCourier
from app.background.webhooks import WebhookCourier
from app.config.settings import Settings
from app.play.listeners import Unsubscribe
from app.play.rooms import StatusFacts
from app.play.service import RoomService
from app.store.rows import Event, RoomRow


@dataclass
class AsyncPlay:
    service: RoomService
    deadlines: DeadlineWatch
    courier: WebhookCourier
    left_seats: LeftSeatWatch
    push: PushCourier
    digest: DigestCourier | None
    unsubscribe: Unsubscribe = lambda: None

    def committed(self, room_id: str, event: Event) -> None:
        """A move committed here: its webhook call (if any) is in the outbox already.

        The courier looks at once only when the seat to act has a webhook; otherwise the
        outbox has nothing new (its poll still runs, for calls queued by other instances)."""
        if event.webhook:
            self.courier.poke()
            self.push.poke()

    async def stop(self) -> None:
        self.unsubscribe()
        await self.deadlines.stop()
        await self.left_seats.stop()
        await self.courier.stop()
        await self.push.stop()
        if self.digest is not None:
            await self.digest.stop()


def left_seat_fact(after_s: float) -> StatusFacts:
    """The room status says after how long a left seat goes to a bot by itself (null:
    never), so the host's page can say it; a room with a time control follows its clock."""

    async def fact(room: RoomRow) -> dict[str, Any]:
        return {"left_seat_bot_s": after_s or None}

    return fact


def vapid_subject(settings: Settings) -> str:
    """Who push services may contact about this server's pushes (mailto: or https:)."""
    if settings.vapid_subject:
        return settings.vapid_subject
    if settings.public_url and settings.public_url.startswith("https://"):
        return settings.public_url
    if settings.mail_from:
        return f"mailto:{settings.mail_from}"
    return "mailto:push@ishtar-online.invalid"
