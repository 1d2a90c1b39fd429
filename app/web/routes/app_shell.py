"""The installable app: its web app manifest and its service worker (docs/async-play.md).

- ``GET /manifest.webmanifest``: the name and words in the page's language, the start URL
  (the home page, with "your games"), the lapis and gold of the game's palette, the icons
  (static/img/app/, drawn from the site's logo; one maskable, one for iPhone home screens).
- ``GET /sw.js``: the service worker, at the root so that its scope is the whole site. It is
  static/js/sw.js after two generated lines: this deploy's version and the shell to keep (the
  home page's scripts, styles and images under their versioned URLs, and the catalogues), so
  a deploy changes the worker and the browser installs the new one. It keeps the shell for
  the home page to open offline, and shows the notifications of Web Push
  (app/background/web_push.py). Served with ``no-cache``: browsers check it at every visit.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response

from app.web import i18n
from app.web.assets import NO_CACHE, Assets

router = APIRouter(tags=["pages"], include_in_schema=False)

SHELL_FOLDERS = ("js/", "css/", "img/")
WORKER = "js/sw.js"


def shell(assets: Assets, catalogues: i18n.Catalogues) -> list[str]:
    """What the worker keeps when it is installed: what the home page needs offline."""
    files = sorted(
        path
        for path in assets.files
        if path.startswith(SHELL_FOLDERS) and path != WORKER
    )
    return [
        "/",
        *(assets.url(path) for path in files),
        *(catalogues.url(lang) for lang in i18n.LANGUAGES),
    ]


@router.get("/sw.js")
async def service_worker(request: Request) -> Response:
    assets: Assets = request.app.state.assets
    catalogues: i18n.Catalogues = request.app.state.catalogues
    keep = shell(assets, catalogues)
    version = (
        assets.version
        + "-"
        + "".join(c.version[:4] for c in catalogues.by_lang.values())
    )
    source = (assets.directory / WORKER).read_text("utf-8")
    body = (
        f"const VERSION = {json.dumps(version)};\n"
        f"const SHELL = {json.dumps(keep)};\n{source}"
    )
    return Response(
        body,
        media_type="text/javascript",
        headers={"Cache-Control": NO_CACHE, "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest")
async def manifest(request: Request) -> Response:
    lang = i18n.choose(request)
    catalogues: i18n.Catalogues = request.app.state.catalogues
    assets: Assets = request.app.state.assets

    def icon(path: str, size: int, purpose: str = "any") -> dict[str, Any]:
        return {
            "src": assets.url(path),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }

    body = {
        "name": catalogues.text(lang, "app.name"),
        "short_name": "Ishtar",
        "description": catalogues.text(lang, "app.description"),
        "lang": lang,
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#1d3a66",
        "theme_color": "#1d3a66",
        "icons": [
            icon("img/app/icon-192.png", 192),
            icon("img/app/icon-512.png", 512),
            icon("img/app/maskable-512.png", 512, "maskable"),
        ],
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"Cache-Control": NO_CACHE},
    )
