"""Replays, game records and rematches over HTTP (docs/protocol.md "Replays, records and
rematch", docs/records.md), and the replay pages: parse, delegate, answer.

The composition root (app/ops/composition.py `install_records`) builds the services in the
app's lifespan, once the rooms service is up, and adds the shuffle commitment and the
rematch to the room status.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.play.limits import RateLimits, SharedRoomLimit
from app.play.protocol import ServiceError, msg
from app.play.rematch import Rematches
from app.records.archive import Archive
from app.records.gamerecord import RecordError
from app.records.reading import NotJson, read_record
from app.web.routes.pages import ROOM_ID, templates
from app.web.routes.rooms import Bearer

router = APIRouter(tags=["records"])

Move = Annotated[int | None, Query(ge=0, description="a move number; none: the latest")]


def _archive(request: Request) -> Archive:
    archive: Archive = request.app.state.archive
    return archive


# --- API --------------------------------------------------------------------------------------


@router.get("/api/rooms/{room_id}/record", summary="The game record (seed once over)")
async def room_record(
    room_id: str, request: Request, download: bool = False
) -> JSONResponse:
    record = await _archive(request).record(room_id)
    headers = {}
    if download:
        name = f"ishtar-{room_id}-{record['version']}.json"
        headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return JSONResponse(record, headers=headers)


def _replay_allowed(request: Request) -> None:
    """rate_limited (429) when the client's address asks for replays too fast."""
    limits: RateLimits = request.app.state.replay_limits
    limits.check(request.client.host if request.client else "?", "replay requests")


@router.get(
    "/api/rooms/{room_id}/replay",
    summary="The public view after a move",
    response_class=JSONResponse,
)
async def room_replay(room_id: str, request: Request, move: Move = None) -> Response:
    _replay_allowed(request)
    text = await _archive(request).room_view(room_id, move)
    return Response(text, media_type="application/json")


@router.get(
    "/api/rooms/{room_id}/replay/log",
    summary="Each move's message, for the replay's move list",
    response_class=JSONResponse,
)
async def room_replay_log(room_id: str, request: Request) -> Response:
    _replay_allowed(request)
    text = await _archive(request).room_log(room_id)
    return Response(text, media_type="application/json")


# The body is read by the handler, after the budget is drawn on: a request refused for its
# body (not JSON) counts too. The schema still says what the body is.
_RECORD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


async def _budgeted_record(request: Request) -> Any:
    """Draw on the address's budget of room creations, then read the JSON body: not JSON
    is `malformed` (400); JSON too deep or with a number out of range, which no record
    is, `bad_record` (422)."""
    room_limit: SharedRoomLimit = request.app.state.room_limit
    await room_limit.check(request.client.host if request.client else "?")
    try:
        return read_record(await request.body())
    except NotJson:  # also a body that is not UTF-8
        raise ServiceError(
            "malformed",
            "The body is not a JSON document.",
            message=msg("error.malformed.not_json_document"),
        ) from None
    except RecordError as error:
        raise ServiceError("bad_record", error.reason, message=error.message) from None


@router.post(
    "/api/records",
    status_code=201,
    summary="Import a game record",
    openapi_extra=_RECORD_BODY,
)
async def import_record(request: Request) -> dict[str, Any]:
    # An import counts as a room created: one budget per address, shared by every
    # instance, refused imports included.
    record = await _budgeted_record(request)
    return await _archive(request).import_record(record)


@router.post(
    "/api/records/provenance",
    summary="Whether this server exported a record: its signature and room here",
    openapi_extra=_RECORD_BODY,
)
async def record_provenance(request: Request) -> dict[str, Any]:
    record = await _budgeted_record(request)  # the same budget as an import
    return await _archive(request).provenance_of(record)


@router.get("/api/records/{record_id}", summary="An imported game record")
async def imported_record(record_id: str, request: Request) -> dict[str, Any]:
    return await _archive(request).imported(record_id)


@router.get(
    "/api/records/{record_id}/replay",
    summary="An imported game after a move",
    response_class=JSONResponse,
)
async def imported_replay(
    record_id: str, request: Request, move: Move = None
) -> Response:
    _replay_allowed(request)
    text = await _archive(request).imported_view(record_id, move)
    return Response(text, media_type="application/json")


@router.get(
    "/api/records/{record_id}/replay/log",
    summary="Each move's message of an imported record",
    response_class=JSONResponse,
)
async def imported_replay_log(record_id: str, request: Request) -> Response:
    _replay_allowed(request)
    text = await _archive(request).imported_log(record_id)
    return Response(text, media_type="application/json")


@router.post(
    "/api/rooms/{room_id}/rematch", summary="Rematch: your seat in the new room"
)
async def rematch(room_id: str, request: Request, token: Bearer) -> dict[str, Any]:
    rematches: Rematches = request.app.state.rematches
    return await rematches.rematch(room_id, token)


# --- pages ------------------------------------------------------------------------------------


@router.get("/r/{room_id}/replay", response_class=HTMLResponse, include_in_schema=False)
async def replay_page(request: Request, room_id: str) -> HTMLResponse:
    if not ROOM_ID.match(room_id):
        raise HTTPException(status_code=404, detail="No such room")
    return templates(request).TemplateResponse(
        request,
        "replay.html",
        {"page": "replay", "source": "room", "source_id": room_id},
    )


@router.get("/records", response_class=HTMLResponse, include_in_schema=False)
async def records_page(request: Request) -> HTMLResponse:
    return templates(request).TemplateResponse(
        request, "records.html", {"page": "records"}
    )


@router.get(
    "/records/{record_id}", response_class=HTMLResponse, include_in_schema=False
)
async def record_page(request: Request, record_id: str) -> HTMLResponse:
    if not ROOM_ID.match(record_id):
        raise HTTPException(status_code=404, detail="No such record")
    return templates(request).TemplateResponse(
        request,
        "replay.html",
        {"page": "replay", "source": "record", "source_id": record_id},
    )
