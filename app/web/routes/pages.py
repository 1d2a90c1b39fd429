"""The HTML pages: `/` (home: create a room, your games) and `/r/{room_id}` (the room: lobby,
game and final scores in one page that follows the room's status over the websocket).

Pages only render templates; everything live comes from the JSON API and the websocket
(docs/protocol.md). The browser never decides a rule.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.web.assets import install_template_globals

router = APIRouter(tags=["pages"], include_in_schema=False)

# 12 URL-safe characters (protocol.md); a little slack so a change of length is not fatal.
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{4,64}$")


@lru_cache(maxsize=4)
def _templates(directory: Path) -> Jinja2Templates:
    found = Jinja2Templates(directory=str(directory))
    # Templates link static files only as {{ asset('js/main.js') }}: /static/<hash>/...
    install_template_globals(found.env)
    return found


def templates(request: Request) -> Jinja2Templates:
    return _templates(request.app.state.settings.templates_dir)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return templates(request).TemplateResponse(request, "home.html", {"page": "home"})


@router.get("/r/{room_id}", response_class=HTMLResponse)
async def room(request: Request, room_id: str) -> HTMLResponse:
    if not ROOM_ID.match(room_id):
        raise HTTPException(status_code=404, detail="No such room")
    return templates(request).TemplateResponse(
        request, "room.html", {"page": "room", "room_id": room_id}
    )
