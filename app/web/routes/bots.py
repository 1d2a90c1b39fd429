"""The HTTP API of bot seats (docs/protocol.md, "Bots"): parse, delegate to the service's
seat operations (app/play/seats.py), answer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from app.background.bot_quota import BotRoomQuota
from app.web.routes.rooms import Bearer, Service

router = APIRouter(prefix="/api", tags=["bots"])

Level = Annotated[str, Field(pattern="^(easy|medium|hard)$")]


class AddBot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Level
    seat: Annotated[int, Field(ge=0, le=3)] | None = None


class HandToBot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Level = "medium"


async def bot_quota(request: Request, rooms: Service) -> BotRoomQuota:
    """The quota of all-bot rooms per address, counted in PostgreSQL (app/background/bot_quota.py)."""
    return BotRoomQuota(
        rooms.store.bot_rooms,
        request.app.state.settings.bot_rooms_per_address,
        request.app.state.room_limit,
    )


async def client_address(request: Request) -> str:
    return request.client.host if request.client else "?"


Quota = Annotated[BotRoomQuota, Depends(bot_quota)]
Address = Annotated[str, Depends(client_address)]


@router.post("/rooms/{room_id}/bots", status_code=201, summary="Seat a bot (host only)")
async def add_bot(
    room_id: str,
    body: AddBot,
    rooms: Service,
    token: Bearer,
    quota: Quota,
    address: Address,
) -> dict[str, Any]:
    return await rooms.seats.add_bot(
        room_id, body.level, body.seat, token, quota=quota, address=address
    )


@router.post(
    "/rooms/{room_id}/seats/{seat}/bot",
    summary="Hand a taken seat to a bot (host only), e.g. when its player left",
)
async def replace_with_bot(
    room_id: str,
    seat: int,
    body: HandToBot,
    rooms: Service,
    token: Bearer,
    quota: Quota,
    address: Address,
) -> dict[str, Any]:
    return await rooms.seats.hand_to_bot(
        room_id, seat, body.level, token, quota=quota, address=address
    )
