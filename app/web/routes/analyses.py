"""The analysis of a finished game over HTTP (docs/analysis.md, "Protocol"): parse,
delegate to the analyses service (app/records/analysis_jobs.py), answer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.play.limits import RateLimits
from app.records.analysis_jobs import Analyses
from app.web.routes.bots import Address

router = APIRouter(prefix="/api", tags=["analysis"])


def _analyses(request: Request, address: str) -> Analyses:
    """The service, once the address is within the replays' request rate (each read of
    an analysis writes its `watched_at`: a flood of reads is refused with rate_limited)."""
    limits: RateLimits = request.app.state.replay_limits
    limits.check(address, "analysis requests")
    analyses: Analyses = request.app.state.analyses
    return analyses


@router.post(
    "/rooms/{room_id}/analysis",
    status_code=202,
    summary="Ask for the analysis of a finished game (once per game; read by everyone)",
)
async def ask_for_analysis(
    room_id: str, request: Request, address: Address
) -> dict[str, Any]:
    return await _analyses(request, address).request(room_id, address)


@router.get(
    "/rooms/{room_id}/analysis",
    summary="The analysis of a finished game: progress, then the result",
)
async def read_analysis(
    room_id: str, request: Request, address: Address
) -> dict[str, Any]:
    return await _analyses(request, address).read(room_id)
