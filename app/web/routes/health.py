"""Health probes: `/healthz` (the process answers) and `/readyz` (it can serve games)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.config.settings import Settings
from app.store import readiness
from app.store.readiness import Readiness
from app.store.store import Store

router = APIRouter(tags=["health"])


class Alive(BaseModel):
    status: str = "ok"


@router.get("/healthz", summary="The process is alive")
async def healthz() -> Alive:
    return Alive()


@router.get(
    "/readyz",
    summary="The database is reachable and migrated to head",
    response_model=Readiness,
    responses={
        503: {"model": Readiness, "description": "Not ready; the body says why"}
    },
)
async def readyz(request: Request) -> JSONResponse:
    settings: Settings = request.app.state.settings
    store: Store = request.app.state.rooms.store
    report = await readiness.check(store.light, settings.readiness_timeout)
    return JSONResponse(report.model_dump(), status_code=200 if report.ready else 503)
