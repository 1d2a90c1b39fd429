"""Public JSON documents made once and served many times (app/web/documents.py): a game's
component data and a language's catalogue, gzipped for a client that takes gzip, revalidated
by ETag, kept for a year under their version, and never encoded again per request."""

from __future__ import annotations

import gzip
import json

import httpx
import pytest
from fastapi import FastAPI

from app.games import registry
from app.web.assets import IMMUTABLE, NO_CACHE
from app.web.encodings import takes_gzip


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate, br, zstd", True),  # Chromium's
        ("gzip", True),
        ("GZIP;q=0.5", True),
        ("br;q=1.0, gzip;q=0", False),
        ("gzip;q=0.000", False),
        ("*", True),
        ("*;q=0", False),
        ("*, gzip;q=0", False),  # named wins over the wildcard
        ("identity", False),
        ("", False),
        ("gzip;q=abc", False),
        (
            "br, " * 200 + "gzip",
            False,
        ),  # read up to a bound: a header is not a workload
    ],
)
def test_accept_encoding_says_whether_gzip_is_taken(
    header: str, expected: bool
) -> None:
    assert takes_gzip(header) is expected


async def test_component_data_goes_gzipped_to_whom_takes_it_and_plain_to_others(
    client: httpx.AsyncClient,
) -> None:
    expected = registry(()).get("ishtar").rules.catalogue()
    zipped = await client.get(
        "/api/games/ishtar/catalogue", headers={"accept-encoding": "gzip"}
    )
    assert zipped.status_code == 200
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.headers["vary"] == "Accept-Encoding"
    assert zipped.headers["content-type"] == "application/json"
    assert json.loads(zipped.content) == json.loads(json.dumps(expected))
    plain = await client.get(
        "/api/games/ishtar/catalogue", headers={"accept-encoding": "identity"}
    )
    assert "content-encoding" not in plain.headers
    assert json.loads(plain.content) == json.loads(zipped.content)
    on_the_wire = int(zipped.headers["content-length"])
    assert on_the_wire == len(gzip.compress(plain.content, mtime=0, compresslevel=9))
    assert on_the_wire < len(plain.content) / 4
    # The catalogue of before games is the same document.
    before = await client.get("/api/catalogue", headers={"accept-encoding": "identity"})
    assert before.content == plain.content
    assert before.headers["etag"] == plain.headers["etag"]


async def test_component_data_is_revalidated_by_etag_and_kept_under_its_version(
    client: httpx.AsyncClient,
) -> None:
    first = await client.get("/api/games/ishtar/catalogue")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == NO_CACHE
    again = await client.get(
        "/api/games/ishtar/catalogue", headers={"if-none-match": etag}
    )
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    stale = await client.get(
        "/api/games/ishtar/catalogue", headers={"if-none-match": '"000000000000"'}
    )
    assert stale.status_code == 200 and stale.content == first.content
    version = etag.strip('"')
    kept = await client.get(f"/api/games/ishtar/catalogue?v={version}")
    assert kept.headers["cache-control"] == IMMUTABLE
    other = await client.get("/api/games/ishtar/catalogue?v=000000000000")
    assert other.headers["cache-control"] == NO_CACHE


async def test_component_data_is_encoded_once_not_per_request(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    made = app.state.component_data
    original = made.games.get

    def counted(game_id: str) -> object:
        calls.append(game_id)
        return original(game_id)

    monkeypatch.setattr(made.games, "get", counted)
    bodies = {
        (await client.get("/api/games/ishtar/catalogue")).content for _ in range(3)
    }
    assert len(bodies) == 1
    assert calls == ["ishtar"]


async def test_an_unknown_game_has_no_component_data_and_nothing_is_kept(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    for hostile in ("nope", "x" * 300, "ishtar%00", "ISHTAR"):
        answer = await client.get(f"/api/games/{hostile}/catalogue")
        assert answer.status_code == 404, hostile
        assert answer.json()["error"]["code"] == "unknown_game"
    assert set(app.state.component_data.made) <= {"ishtar"}


async def test_a_language_catalogue_goes_gzipped_too(client: httpx.AsyncClient) -> None:
    zipped = await client.get("/i18n/nl.json", headers={"accept-encoding": "gzip"})
    plain = await client.get("/i18n/nl.json", headers={"accept-encoding": "identity"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert json.loads(zipped.content) == json.loads(plain.content)
    assert int(zipped.headers["content-length"]) < len(plain.content) / 3


async def test_the_pages_manifest_names_each_games_component_data_under_its_version(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    listed = (await client.get("/api/games")).json()["games"]
    for game in listed:
        url = game["catalogue"]
        version = app.state.component_data.get(game["id"]).version
        assert url == f"/api/games/{game['id']}/catalogue?v={version}"
        kept = await client.get(url)
        assert kept.status_code == 200
        assert kept.headers["cache-control"] == IMMUTABLE
        expected = registry(()).get(game["id"]).rules.catalogue()
        assert kept.json() == json.loads(json.dumps(expected))
