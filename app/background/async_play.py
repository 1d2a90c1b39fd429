"""The background work of play between sessions, in one server process.

`start_async_play` starts, in the app's lifespan, this instance's `DeadlineWatch` (passed
deadlines), `LeftSeatWatch` (seats left long enough ago go to bots), `WebhookCourier`
(turn webhooks), `PushCourier` (Web Push) and, when SMTP is set, `DigestCourier` (the
e-mail digest). None keeps anything that matters in
memory: both claim their work from PostgreSQL with FOR UPDATE SKIP LOCKED, so any number
of instances share it, and an instance that stops or dies leaves nothing undone.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from app.background.deadlines import DeadlineWatch
from app.background.left_seats import LeftSeatWatch
from app.background.mail_digest import LINK_KEY, DigestCourier, LinkKey, Mailer
from app.background.push_keys import VAPID_KEY, VapidKey, new_key, unb64url
from app.background.web_push import PushCourier, Texts
from app.background.webhooks import WebhookCourier
from app.config.settings import Settings
from app.play.limits import RateLimits
from app.play.listeners import Unsubscribe
from app.play.rooms import StatusFacts
from app.play.service import RoomService
from app.store.rows import Event, RoomRow

if TYPE_CHECKING:  # types only: the registry and presence are handed in, not imported
    from app.ops.runtime import RoomsRuntime


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


def start_async_play(
    app: FastAPI, settings: Settings, rooms: RoomsRuntime
) -> AsyncPlay:
    """Start the deadline watch, the left seat watch and the webhook courier of this
    instance."""
    deadlines = DeadlineWatch(
        rooms.service,
        rooms.instance,
        seeds=rooms.bot_seeds,
        poll_s=settings.deadline_poll_s,
        lease_s=settings.deadline_lease_s,
        think_s=settings.bot_think_s,
    )
    left_seats = LeftSeatWatch(
        rooms.service,
        after_s=settings.left_seat_bot_s,
        poll_s=settings.left_seat_poll_s,
    )
    courier = WebhookCourier(
        rooms.service.store.webhooks,
        rooms.instance,
        poll_s=settings.webhook_poll_s,
        timeout_s=settings.webhook_timeout_s,
        max_attempts=settings.webhook_max_attempts,
        backoff_s=settings.webhook_backoff_s,
        allow_private=settings.webhook_allow_private,
    )
    store = rooms.service.store
    texts: Texts = app.state.catalogues.text
    vapid = VapidKey(
        unb64url(settings.vapid_private_key.get_secret_value())
        if settings.vapid_private_key
        else None,
        source=lambda: store.secrets.secret(VAPID_KEY, new_key()),
    )
    push = PushCourier(
        store.push,
        rooms.instance,
        key=vapid,
        subject=vapid_subject(settings),
        games=rooms.service.registry,
        texts=texts,
        ttl_s=settings.push_ttl_s,
        poll_s=settings.webhook_poll_s,
        timeout_s=settings.webhook_timeout_s,
        max_attempts=settings.webhook_max_attempts,
        backoff_s=settings.webhook_backoff_s,
        allow_private=settings.webhook_allow_private,
    )
    links = LinkKey(lambda: store.secrets.secret(LINK_KEY, secrets.token_bytes(32)))
    mailer = Mailer(settings) if settings.mail_enabled else None
    digest = (
        None
        if mailer is None
        else DigestCourier(
            store.mail,
            mailer,
            links,
            games=rooms.service.registry,
            texts=texts,
            period_s=settings.mail_digest_period_s,
            wait_s=settings.mail_digest_wait_s,
            poll_s=settings.mail_poll_s,
        )
    )
    app.state.vapid = vapid
    app.state.mailer = mailer
    app.state.mail_links = links
    app.state.rate_limits["my_games"] = RateLimits(5.0, 20.0)
    # subscribing and leaving an address: a few in a row, then one a minute per seat
    app.state.rate_limits["reach"] = RateLimits(1 / 60, 30.0)
    rooms.service.rooms.add_status_facts(left_seat_fact(settings.left_seat_bot_s))
    deadlines.start()
    left_seats.start()
    courier.start()
    if settings.push_enabled:
        push.start()
    if digest is not None:
        digest.start()
    background = AsyncPlay(rooms.service, deadlines, courier, left_seats, push, digest)
    background.unsubscribe = rooms.service.subscribe(background.committed)
    app.state.async_play = background
    return background
