"""`GET /i18n/{lang}.json`: one language's catalogue, for the page's scripts (docs/i18n.md).

Pages link it with its content hash (``?v=``, `Catalogues.url`): under the current hash it is
kept for a year (it cannot change without the hash changing); any other URL of it is
revalidated each time (its ETag is the hash), so an old page gets the current keys. It goes
gzipped to a client that takes gzip (app/web/documents.py).
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.play.protocol import ServiceError, msg
from app.web.i18n import LANGUAGES, Catalogues

router = APIRouter(tags=["pages"], include_in_schema=False)


@router.get("/i18n/{lang}.json")
async def catalogue(lang: str, request: Request) -> Response:
    if lang not in LANGUAGES:
        raise ServiceError(
            "unknown_language",
            f"There is no catalogue for that language; the site speaks "
            f"{', '.join(LANGUAGES)}.",
            message=msg("error.unknown_language.list", languages=", ".join(LANGUAGES)),
        )
    catalogues: Catalogues = request.app.state.catalogues
    return catalogues.get(lang).document.response(request)
