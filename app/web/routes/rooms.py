"""The HTTP JSON API of rooms, seats and moves (docs/protocol.md): parse, delegate, answer.

Every refusal is a `ServiceError`, answered as ``{"error": {"code", "reason", ...}}`` with
its HTTP status by the handlers installed with `install_error_handlers`.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException

from app.play import tokens
from app.play.limits import RateLimits, SharedRoomLimit
from app.play.protocol import (
    CreateRoom,
    JoinSeat,
    MoveRequest,
    ServiceError,
    describe_errors,
    msg,
    unavailable,
    validation_message,
)
from app.play.service import RoomService
from app.store.pool import DATABASE_ERRORS, Unavailable
from app.web.errors import http_error

log = logging.getLogger("ishtar.api")
router = APIRouter(prefix="/api", tags=["rooms"])


async def service(request: Request) -> RoomService:
    """The app's room service. (A dependency that does no blocking work is `async`: FastAPI
    runs a plain `def` one in a worker thread, a hand-off for every request and a thread
    for every request in flight.)"""
    room_service: RoomService = request.app.state.rooms
    return room_service


async def bearer(
    authorization: Annotated[str | None, Header()] = None,
) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServiceError(
            "bad_token",
            "Send the token as 'Authorization: Bearer <token>'.",
            message=msg("error.bad_token.header"),
        )
    return token.strip()


Service = Annotated[RoomService, Depends(service)]
Bearer = Annotated[str | None, Depends(bearer)]


def limit(request: Request, kind: str, key: object) -> None:
    limits: dict[str, RateLimits] = request.app.state.rate_limits
    limits[kind].check(key, "requests")


class WhyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: dict[str, Any]


@router.post("/rooms", status_code=201, summary="Create a room")
async def create_room(
    body: CreateRoom, request: Request, rooms: Service
) -> dict[str, Any]:
    # Shared by every instance through PostgreSQL (app/play/limits.py), unlike the other limits.
    room_limit: SharedRoomLimit = request.app.state.room_limit
    await room_limit.check(request.client.host if request.client else "?")
    return await rooms.seats.create_room(body)


@router.get("/rooms/{room_id}", summary="Room status")
async def room_status(room_id: str, rooms: Service) -> dict[str, Any]:
    return await rooms.rooms.status(await rooms.rooms.room(room_id))


@router.post("/rooms/{room_id}/seats", status_code=201, summary="Take a seat")
async def take_seat(
    room_id: str, body: JoinSeat, rooms: Service, token: Bearer
) -> dict[str, Any]:
    return await rooms.seats.join(room_id, body, token)


@router.post("/rooms/{room_id}/start", summary="Start the game (host only)")
async def start_game(room_id: str, rooms: Service, token: Bearer) -> dict[str, Any]:
    return await rooms.seats.start(room_id, token)


@router.get(
    "/rooms/{room_id}/view", summary="The current view (a seat's with its token)"
)
async def current_view(room_id: str, rooms: Service, token: Bearer) -> dict[str, Any]:
    return await rooms.reading.view(room_id, token)


@router.post("/rooms/{room_id}/moves", summary="Make a move")
async def make_move(
    room_id: str, body: MoveRequest, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    seat = await rooms.rooms.seat_of(room_id, token)
    limit(request, "moves", seat.id)
    accepted = await rooms.moves.submit(room_id, seat, body)
    return {
        "ok": True,
        "version": accepted.version,
        "duplicate": accepted.duplicate,
        "event": accepted.event.as_dict(),
    }


# Versions are PostgreSQL integers: a larger `since` could not even be sent in a query.
MAX_VERSION = 2**31 - 1


# A page of the log "before" a move: at most this many moves.
MAX_PAGE = 500


@router.get("/rooms/{room_id}/moves", summary="The public move log")
async def move_log(
    room_id: str,
    rooms: Service,
    since: Annotated[int, Query(ge=0, le=MAX_VERSION)] = 0,
    before: Annotated[int | None, Query(ge=1, le=MAX_VERSION)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
) -> dict[str, Any]:
    return await rooms.reading.moves(room_id, since, before, limit)


@router.post("/rooms/{room_id}/why", summary="Why a move is illegal (engine's reason)")
async def why(
    room_id: str, body: WhyRequest, request: Request, rooms: Service, token: Bearer
) -> dict[str, Any]:
    key = (
        tokens.hash_token(token)
        if token
        else (request.client.host if request.client else "?")
    )
    limit(request, "why", key)
    return await rooms.reading.why(room_id, body.move)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal as {"error": {code, reason}}: never a bare 500 for bad input."""

    async def service_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ServiceError)
        return JSONResponse(exc.body(), status_code=exc.status)

    async def validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        error = ServiceError(
            "malformed", describe_errors(errors), message=validation_message(errors)
        )
        return JSONResponse(error.body(), status_code=400)

    async def database_error(request: Request, exc: Exception) -> JSONResponse:
        if unavailable(exc):
            log.warning("database unavailable: %s", exc)
            error = ServiceError(
                "unavailable", "The database is unavailable; retry shortly."
            )
        else:
            log.error("database error", exc_info=exc)
            error = ServiceError("internal", "Something went wrong on the server.")
        return JSONResponse(error.body(), status_code=error.status)

    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error on %s", request.url.path, exc_info=exc)
        error = ServiceError("internal", "Something went wrong on the server.")
        return JSONResponse(error.body(), status_code=500)

    app.add_exception_handler(ServiceError, service_error)
    app.add_exception_handler(HTTPException, http_error)  # the framework's own refusals
    app.add_exception_handler(RequestValidationError, validation_error)
    for database in DATABASE_ERRORS:  # the store's driver's errors (app/store/pool.py)
        app.add_exception_handler(database, database_error)
    app.add_exception_handler(Unavailable, database_error)
    app.add_exception_handler(OSError, database_error)
    app.add_exception_handler(Exception, internal_error)
