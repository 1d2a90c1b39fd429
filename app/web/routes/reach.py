"""The HTTP API of reaching a player between sessions (docs/async-play.md): Web Push
subscriptions, the e-mail digest's address (its confirm and unsubscribe links), and "away".
Parse, delegate, answer."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.background import webhook_targets
from app.background.mail_digest import LinkKey, Mailer, confirm_mail
from app.background.push_keys import VapidKey
from app.background.web_push import check_endpoint, check_keys
from app.config.settings import Settings
from app.play import away
from app.play.addresses import MAX_ADDRESS, check_address
from app.play.protocol import ServiceError, msg
from app.store.push import TooMany
from app.store.rows import SeatRow
from app.web import i18n
from app.web.routes.pages import templates
from app.web.routes.rooms import Bearer, Service, limit

router = APIRouter(prefix="/api", tags=["reaching players"])
pages = APIRouter(tags=["pages"], include_in_schema=False)

Lang = Annotated[str, Field(pattern="^(en|fr|nl)$")]


class Keys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: Annotated[str, Field(min_length=1, max_length=200)]
    auth: Annotated[str, Field(min_length=1, max_length=100)]


class Subscription(BaseModel):
    """A browser's PushSubscription (its JSON), and the language to speak in."""

    model_config = ConfigDict(extra="ignore")  # expirationTime and what browsers add
    endpoint: Annotated[str, Field(min_length=1, max_length=webhook_targets.MAX_URL)]
    keys: Keys
    lang: Lang = "en"


def _no_controls(value: str) -> str:
    """No control character (PostgreSQL text cannot hold NUL): a clear refusal, not a 500."""
    if any(ch < " " or ch == "\x7f" for ch in value):
        raise ValueError("control characters are not allowed")
    return value


class Endpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: Annotated[
        str,
        Field(min_length=1, max_length=webhook_targets.MAX_URL),
        AfterValidator(_no_controls),
    ]


class Email(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: Annotated[str, Field(min_length=3, max_length=MAX_ADDRESS)]
    lang: Lang = "en"


class Away(BaseModel):
    model_config = ConfigDict(extra="forbid")
    until: datetime


def _settings(request: Request) -> Settings:
    found: Settings = request.app.state.settings
    return found


def _base_url(request: Request) -> str:
    return _settings(request).public_url or str(request.base_url)


def _mailer(request: Request) -> Mailer:
    mailer: Mailer | None = getattr(request.app.state, "mailer", None)
    if mailer is None:
        raise ServiceError(
            "mail_off",
            "This server sends no e-mail.",
            message=msg("error.mail_off"),
        )
    return mailer


@router.get("/reach", summary="What this server offers to reach a player")
async def reach(request: Request) -> dict[str, Any]:
    settings = _settings(request)
    vapid: VapidKey = request.app.state.vapid
    return {
        "push": {"public_key": await vapid.public_key()}
        if settings.push_enabled
        else None,
        "mail": settings.mail_enabled,
        "away": {
            "most_days": settings.away_most_days,
            "days_per_year": settings.away_days_per_year,
        },
    }


@router.get("/rooms/{room_id}/reach", summary="How your seat is reached, and away")
async def seat_reach(
    room_id: str, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    settings = _settings(request)
    address = await rooms.store.mail.address(seat.id)
    state = await away.state(
        rooms.store.away,
        seat.id,
        seat.seat,
        settings.away_days_per_year,
        await rooms.store.away.away_until(seat.id),
    )
    return state | {
        "email": None
        if address is None
        else {"address": address.address, "confirmed": address.confirmed},
    }


def _flood(request: Request, seat: SeatRow) -> None:
    limit(request, "reach", seat.id)


@router.put("/rooms/{room_id}/push", summary="Push your turns to this browser")
async def put_push(
    room_id: str,
    body: Subscription,
    request: Request,
    response: Response,
    rooms: Service,
    token: Bearer,
) -> dict[str, Any]:
    settings = _settings(request)
    seat = await rooms.rooms.seat_of(room_id, token)
    if not settings.push_enabled:
        raise ServiceError("not_found", "Web Push is off on this server.")
    endpoint = check_endpoint(body.endpoint, settings.webhook_allow_private)
    p256dh, auth = check_keys(body.keys.p256dh, body.keys.auth)
    _flood(request, seat)
    try:
        new = await rooms.store.push.subscribe(
            seat.id,
            endpoint,
            p256dh,
            auth,
            body.lang,
            _base_url(request),
            settings.push_per_seat,
        )
    except TooMany:
        raise ServiceError(
            "too_many_subscriptions",
            f"A seat may push to {settings.push_per_seat} browsers at most:"
            " turn it off in one first.",
            message=msg("error.too_many_subscriptions", n=settings.push_per_seat),
        ) from None
    response.status_code = 201 if new else 200
    return {"seat": seat.seat, "subscribed": True}


@router.post("/rooms/{room_id}/push/check", summary="Is this browser pushed to?")
async def check_push(
    room_id: str, body: Endpoint, rooms: Service, token: Bearer
) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    found = await rooms.store.push.subscribed(seat.id, body.endpoint)
    return {"seat": seat.seat, "subscribed": found}


@router.delete("/rooms/{room_id}/push", summary="Stop pushing to this browser")
async def delete_push(
    room_id: str, body: Endpoint, rooms: Service, token: Bearer
) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    await rooms.store.push.unsubscribe(seat.id, body.endpoint)
    return {"seat": seat.seat, "subscribed": False}


@router.put("/rooms/{room_id}/email", summary="Leave an address for the digest")
async def put_email(
    room_id: str, body: Email, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    mailer = _mailer(request)
    address = check_address(body.address)
    _flood(request, seat)
    link = secrets.token_urlsafe(24)
    base = _base_url(request)
    texts = request.app.state.catalogues.text
    before = await rooms.store.mail.address(seat.id)
    confirm_hash = hashlib.sha256(link.encode()).digest()
    if before is not None and before.address == address and before.confirmed:
        await rooms.store.mail.set_address(
            seat.id, address, body.lang, base, confirm_hash
        )
        return {"seat": seat.seat, "address": address, "confirmed": True}
    url = f"{base.rstrip('/')}/mail/confirm?t={link}&lang={body.lang}"
    try:  # the mail first: if it cannot go, nothing is stored
        await confirm_mail(mailer, texts, body.lang, address, url, seat.name)
    except Exception as error:
        raise ServiceError(
            "mail_failed",
            "The confirmation mail could not be sent; try again later.",
            message=msg("error.mail_failed"),
        ) from error
    await rooms.store.mail.set_address(seat.id, address, body.lang, base, confirm_hash)
    return {"seat": seat.seat, "address": address, "confirmed": False}


@router.get("/rooms/{room_id}/email", summary="Your seat's digest address")
async def get_email(room_id: str, rooms: Service, token: Bearer) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    found = await rooms.store.mail.address(seat.id)
    return {
        "seat": seat.seat,
        "address": found.address if found else None,
        "confirmed": bool(found and found.confirmed),
    }


@router.delete("/rooms/{room_id}/email", summary="No more digest for your seat")
async def delete_email(room_id: str, rooms: Service, token: Bearer) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    await rooms.store.mail.delete_address(seat.id)
    return {"seat": seat.seat, "address": None, "confirmed": False}


@router.put("/rooms/{room_id}/away", summary="You are away until a date")
async def put_away(
    room_id: str, body: Away, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    settings = _settings(request)
    seat = await rooms.rooms.seat_of(room_id, token)
    room = await rooms.rooms.room(room_id)
    _flood(request, seat)
    answer = await away.go_away(
        rooms.store.away,
        room,
        seat,
        body.until,
        settings.away_most_days,
        settings.away_days_per_year,
    )
    return answer


@router.delete("/rooms/{room_id}/away", summary="You are back")
async def delete_away(
    room_id: str, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    await rooms.store.away.come_back(room_id, seat.id)
    return await away.state(
        rooms.store.away,
        seat.id,
        seat.seat,
        _settings(request).away_days_per_year,
        None,
    )


# --- the links in mails ---------------------------------------------------------------------


def _page(request: Request, key: str, status: int = 200) -> HTMLResponse:
    lang = i18n.choose(request)
    text = request.app.state.catalogues.text(lang, key)
    return templates(request).TemplateResponse(
        request, "mail.html", {"page": "mail", "text": text}, status_code=status
    )


@pages.get("/mail/confirm", response_class=HTMLResponse)
async def confirm(request: Request, rooms: Service, t: str = "") -> HTMLResponse:
    if not 8 <= len(t) <= 64:
        return _page(request, "mail.page.bad_link", 400)
    address = await rooms.store.mail.confirm(hashlib.sha256(t.encode()).digest())
    if address is None:
        return _page(request, "mail.page.bad_link", 400)
    return _page(request, "mail.page.confirmed")


async def _unsubscribe(request: Request, rooms: Service, a: str, t: str) -> bool:
    links: LinkKey = request.app.state.mail_links
    if len(a) > MAX_ADDRESS or len(t) != 32 or not await links.check(a, t):
        return False
    await rooms.store.mail.unsubscribe(a)
    return True


@pages.get("/mail/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(
    request: Request, rooms: Service, a: str = "", t: str = ""
) -> HTMLResponse:
    """The link in the mail: one click, and the address is forgotten on every seat."""
    if not await _unsubscribe(request, rooms, a, t):
        return _page(request, "mail.page.bad_link", 400)
    return _page(request, "mail.page.unsubscribed")


@pages.post("/mail/unsubscribe")
async def unsubscribe_post(
    request: Request, rooms: Service, a: str = "", t: str = ""
) -> dict[str, Any]:
    """RFC 8058 one-click unsubscribe (``List-Unsubscribe-Post``), for mail clients."""
    if not await _unsubscribe(request, rooms, a, t):
        raise ServiceError(
            "bad_link", "This link is not valid.", message=msg("error.bad_link")
        )
    return {"unsubscribed": True}
