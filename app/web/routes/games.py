"""The games of this server (docs/protocol.md, "Games"): what the home page draws its form from.

`GET /api/games` lists each registered game with its player range, the JSON Schema of its
options, its bot levels and the versioned URL of its client module; each game's static
component data is at `GET /api/games/{id}/catalogue`, and `GET /api/catalogue` stays the
catalogue of the one game there was before rooms had games (`DEFAULT_GAME`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from app.games import DEFAULT_GAME
from app.web.documents import ComponentData
from app.web.routes.pages import manifest

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games", summary="The games of this server")
async def games(request: Request) -> dict[str, Any]:
    # The same as every page's manifest: a game without a screen of its own gets the plain one.
    return manifest(request)


CATALOGUE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The engine's `catalogue()`, gzipped when the client takes it",
        "content": {"application/json": {"schema": {"type": "object"}}},
    },
    304: {"description": "Not modified (`If-None-Match`)"},
}
"""A catalogue answers with its document (app/web/documents.py): made once, not encoded
again for each page that loads it."""


@router.get(
    "/games/{game_id}/catalogue",
    summary="Static component data of a game",
    response_class=Response,
    responses=CATALOGUE,
)
async def game_catalogue(game_id: str, request: Request) -> Response:
    return _component_data(request).get(game_id).response(request)


@router.get(
    "/catalogue",
    summary="Static component data of the first game (as before)",
    response_class=Response,
    responses=CATALOGUE,
)
async def catalogue(request: Request) -> Response:
    return _component_data(request).get(DEFAULT_GAME).response(request)


def _component_data(request: Request) -> ComponentData:
    made: ComponentData = request.app.state.component_data
    return made
