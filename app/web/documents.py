"""A public JSON document made once and served many times: a language's catalogue
(`GET /i18n/{lang}.json`), a game's component data (`GET /api/games/{id}/catalogue`).

Each is encoded once, with a version (a hash of its bytes) that is its ETag, and gzipped
once, the first time a client that takes gzip asks. A request whose `If-None-Match` names
the version gets `304`; under its current version (`?v=`) a document is kept for a year,
any other URL of it is revalidated each time. Only documents without a secret are served
this way: compressing a response that mixes a secret with what a client sent would let that
client guess the secret from the sizes (BREACH).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from functools import cached_property
from typing import Any

from fastapi import Request, Response

from app.games import Registry
from app.web.assets import IMMUTABLE, NO_CACHE
from app.web.encodings import takes_gzip

MIN_GZIP_BYTES = 1024
"""Smaller documents go as they are: gzip would save a few bytes and cost a header."""


class Document:
    """A document's bytes, version and gzipped bytes."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.version = hashlib.sha256(body).hexdigest()[:12]

    @classmethod
    def of_json(cls, data: Any, **options: Any) -> Document:
        """`data` as JSON text (`json.dumps` with `options`), UTF-8."""
        return cls(json.dumps(data, **options).encode())

    @cached_property
    def gzipped(self) -> bytes:
        return gzip.compress(self.body, compresslevel=9, mtime=0)

    def response(self, request: Request) -> Response:
        """The answer to `request` for this document (module docstring)."""
        etag = f'"{self.version}"'
        current = request.query_params.get("v") == self.version
        headers = {
            "ETag": etag,
            "Cache-Control": IMMUTABLE if current else NO_CACHE,
            "Vary": "Accept-Encoding",
        }
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        if len(self.body) >= MIN_GZIP_BYTES and takes_gzip(
            request.headers.get("accept-encoding", "")
        ):
            headers["Content-Encoding"] = "gzip"
            return Response(
                self.gzipped, media_type="application/json", headers=headers
            )
        return Response(self.body, media_type="application/json", headers=headers)


class ComponentData:
    """Each game's component data (its engine's `catalogue()`) as a document, made at its
    first request: one a registered game, so no more than the registry holds."""

    def __init__(self, games: Registry) -> None:
        self.games = games
        self.made: dict[str, Document] = {}

    def get(self, game_id: str) -> Document:
        """The game's document, or `unknown_game` (`Registry.get`)."""
        found = self.made.get(game_id)
        if found is None:
            data = self.games.get(game_id).rules.catalogue()
            # as FastAPI encodes a JSON answer
            found = Document.of_json(
                data, ensure_ascii=False, allow_nan=False, separators=(",", ":")
            )
            self.made[game_id] = found
        return found

    def url(self, game_id: str) -> str:
        """Where a page fetches the game's component data: under its version, kept for a
        year (`GET /api/games` names it as the game's `catalogue`)."""
        return f"/api/games/{game_id}/catalogue?v={self.get(game_id).version}"
