"""The HTML pages: `/` (home: create a room, your games), `/rules/{game}` (how to play a
game) and `/r/{room_id}` (the room: lobby, game and final scores in one page that follows
the room's status over the websocket).

Pages only render templates; everything live comes from the JSON API and the websocket
(docs/protocol.md). The browser never decides a rule.

Every page carries the games of this server (`games_manifest`, what `GET /api/games`
lists): the room and replay pages import the screen module of their room's game from it,
the home page draws its form from it (docs/client.md, "The manifest").
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.games import AnyGame, Registry
from app.web import i18n
from app.web.assets import Assets, install_template_globals
from app.web.documents import ComponentData

router = APIRouter(tags=["pages"], include_in_schema=False)

# 12 URL-safe characters (protocol.md); a little slack so a change of length is not fatal.
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{4,64}$")


PLAIN_SCREEN = "js/plain-screen.js"
"""The screen of a game whose descriptor names no client module of this static tree."""


def client_url(assets: Assets, game: AnyGame) -> str:
    """The versioned URL of `game`'s screen module (the plain screen if it has none)."""
    try:
        return assets.url(game.client) if game.client else assets.url(PLAIN_SCREEN)
    except LookupError:
        return assets.url(PLAIN_SCREEN)


def manifest(request: Request) -> dict[str, Any]:
    """The games as `GET /api/games` lists them, for the page's ``<script id="games">``."""
    games: Registry = request.app.state.games
    assets: Assets = request.app.state.assets
    data: ComponentData = request.app.state.component_data
    return {
        "default": request.app.state.default_game,
        "games": [
            game.describe()
            | {"client": client_url(assets, game), "catalogue": data.url(game.id)}
            for game in games
        ],
    }


@jinja2.pass_context
def games_manifest(context: jinja2.runtime.Context) -> dict[str, Any]:
    """Jinja global ``games_manifest()``: the manifest of the page's request."""
    return manifest(context["request"])


@lru_cache(maxsize=4)
def _templates(directory: Path) -> Jinja2Templates:
    found = Jinja2Templates(directory=str(directory))
    # Templates link static files only as {{ asset('js/main.js') }}: /static/<hash>/...
    install_template_globals(found.env)
    i18n.install_template_globals(found.env)
    found.env.globals["games_manifest"] = games_manifest
    # `tojson` keeps the keys' order: an options schema lists its fields in the form's order
    found.env.policies["json.dumps_kwargs"] = {"sort_keys": False}
    return found


def templates(request: Request) -> Jinja2Templates:
    return _templates(request.app.state.settings.templates_dir)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return templates(request).TemplateResponse(request, "home.html", {"page": "home"})


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules(request: Request, game_id: str) -> HTMLResponse:
    """A game's rules page ("how to play"): its words come from the game's catalogue and its
    pictures from its own screen module (static/js/rules.js, docs/client.md)."""
    games: Registry = request.app.state.games
    if game_id not in games:
        raise HTTPException(status_code=404, detail="No such game")
    return templates(request).TemplateResponse(
        request, "rules.html", {"page": "rules", "game_id": game_id}
    )


@router.get("/r/{room_id}", response_class=HTMLResponse)
async def room(request: Request, room_id: str) -> HTMLResponse:
    if not ROOM_ID.match(room_id):
        raise HTTPException(status_code=404, detail="No such room")
    return templates(request).TemplateResponse(
        request, "room.html", {"page": "room", "room_id": room_id}
    )
