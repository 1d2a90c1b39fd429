"""The HTTP API of play between sessions (docs/async-play.md): "your games", leaving, handing
a seat to a new person, seat history and turn webhooks. Parse, delegate, answer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.background import webhook_targets
from app.config.settings import Settings
from app.play.protocol import Name, Token
from app.play.your_games import MAX_ROOMS
from app.web.routes.rooms import Bearer, Service, limit

router = APIRouter(prefix="/api", tags=["async play"])

RoomId = Annotated[str, Field(min_length=1, max_length=16)]


class HeldRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")
    room_id: RoomId
    token: Token


class MyGames(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rooms: Annotated[list[HeldRoom], Field(max_length=MAX_ROOMS)]


class NewPerson(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class Webhook(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: Annotated[str, Field(min_length=1, max_length=webhook_targets.MAX_URL)]


@router.post("/my-games", summary="Status of the rooms this browser holds tokens for")
async def my_games(body: MyGames, request: Request, rooms: Service) -> dict[str, Any]:
    limit(request, "my_games", request.client.host if request.client else "?")
    held = [(entry.room_id, entry.token) for entry in body.rooms]
    return {"games": await rooms.your_games.status(held)}


@router.post(
    "/rooms/{room_id}/leave", summary="Leave your seat (your token stops working)"
)
async def leave(room_id: str, rooms: Service, token: Bearer) -> dict[str, Any]:
    return await rooms.seats.leave(room_id, token)


@router.post(
    "/rooms/{room_id}/seats/{seat}/person",
    status_code=201,
    summary="Hand a taken seat to a new person (host only): a fresh seat link",
)
async def hand_to_person(
    room_id: str, seat: int, body: NewPerson, rooms: Service, token: Bearer
) -> dict[str, Any]:
    return await rooms.seats.hand_to_person(room_id, seat, body.name, token)


@router.get("/rooms/{room_id}/seat-history", summary="Who held each seat, and when")
async def seat_history(room_id: str, rooms: Service) -> dict[str, Any]:
    return await rooms.seats.history(room_id)


@router.get("/rooms/{room_id}/webhook", summary="Your seat's turn webhook")
async def get_webhook(room_id: str, rooms: Service, token: Bearer) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    url = await rooms.store.webhooks.get_hook(seat.id)
    return {"seat": seat.seat, "url": url}


@router.put("/rooms/{room_id}/webhook", summary="Set your seat's turn webhook")
async def put_webhook(
    room_id: str, body: Webhook, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    settings: Settings = request.app.state.settings
    seat = await rooms.rooms.seat_of(room_id, token)
    url = webhook_targets.check_url(body.url, settings.webhook_allow_private)
    base_url = settings.public_url or str(request.base_url)
    await rooms.store.webhooks.set_hook(seat.id, url, base_url)
    return {"seat": seat.seat, "url": url}


@router.delete("/rooms/{room_id}/webhook", summary="Remove your seat's turn webhook")
async def delete_webhook(room_id: str, rooms: Service, token: Bearer) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    await rooms.store.webhooks.delete_hook(seat.id)
    return {"seat": seat.seat, "url": None}
