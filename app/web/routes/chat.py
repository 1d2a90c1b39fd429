"""The HTTP API of table chat (docs/protocol.md, "Table chat"): earlier messages, a message
sent without a websocket, and the host's switch of the spectators' channel. Parse,
delegate to `service.chat` (app/play/chat.py), answer."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from app.play.chat import RECENT
from app.web.routes.rooms import MAX_VERSION, Bearer, Service

router = APIRouter(prefix="/api", tags=["chat"])


class ChatPost(BaseModel):
    model_config = ConfigDict(extra="forbid")
    channel: Literal["table", "spectators"] | None = None
    text: Annotated[str, Field(max_length=4000)]
    name: Annotated[str, Field(max_length=200)] | None = None


class ChatSettingsBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    spectators: StrictBool


@router.get(
    "/rooms/{room_id}/chat", summary="Chat messages you may see, latest first page"
)
async def chat_page(
    room_id: str,
    rooms: Service,
    token: Bearer,
    before: Annotated[int | None, Query(ge=1, le=MAX_VERSION)] = None,
    limit: Annotated[int, Query(ge=1, le=RECENT)] = RECENT,
) -> dict[str, Any]:
    return await rooms.chat.page(room_id, token, before, limit)


@router.post("/rooms/{room_id}/chat", status_code=201, summary="Send a chat message")
async def chat_post(
    room_id: str, body: ChatPost, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    room, seat = await rooms.rooms.identify(room_id, token)
    line = await rooms.chat.send(
        room.id,
        seat,
        channel=body.channel,
        text=body.text,
        name=body.name,
        address=request.client.host if request.client else None,
    )
    request.app.state.hub.chat_sent(room.id, line)
    return {"message": line.as_dict()}


@router.put(
    "/rooms/{room_id}/chat/settings",
    summary="Open or close the spectators' chat (host only)",
)
async def chat_settings(
    room_id: str, body: ChatSettingsBody, rooms: Service, token: Bearer
) -> dict[str, Any]:
    return await rooms.chat.set_spectators(room_id, body.spectators, bearer=token)
