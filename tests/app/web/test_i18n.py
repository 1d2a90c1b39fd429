"""The languages of the site (app/web/i18n.py, docs/i18n.md): which language a request reads,
and the catalogue each page's scripts fetch.

The address's ``?lang=`` wins over the switch's cookie, which wins over the browser's
``Accept-Language``; English is the rest. `GET /i18n/<lang>.json` serves the merged keys, kept
for good under the page's hashed URL; an unknown language is a clear 404.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest
from fastapi import FastAPI

from app.web.assets import IMMUTABLE, NO_CACHE
from app.web.i18n import LANGUAGES, from_accept_language

HTML_LANG = re.compile(r'<html lang="([a-z]{2})" data-catalogue="([^"]+)">')


def page_lang(html: str) -> tuple[str, str]:
    found = HTML_LANG.search(html)
    assert found is not None, "the page names no language"
    return found.group(1), found.group(2).replace("&amp;", "&")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("fr-BE,fr;q=0.9,en;q=0.8", "fr"),
        ("de-DE,nl;q=0.7,fr;q=0.6", "nl"),
        ("en-GB", "en"),
        ("nl;q=0.2, fr;q=0.5", "fr"),
        ("fr;q=0", None),
        ("de, es", None),
        ("*", None),
        ("", None),
        ("fr;q=abc", None),
        (
            "," * 5000 + "fr",
            None,
        ),  # read only up to a bound: a header is not a workload
    ],
)
def test_accept_language_picks_the_best_language_of_the_site(
    header: str, expected: str | None
) -> None:
    assert from_accept_language(header) == expected


@pytest.mark.parametrize(
    ("url", "headers", "expected"),
    [
        ("/", {}, "en"),
        ("/", {"accept-language": "fr-FR,fr;q=0.9"}, "fr"),
        ("/", {"accept-language": "nl-BE"}, "nl"),
        ("/", {"accept-language": "fr", "cookie": "lang=nl"}, "nl"),
        ("/?lang=fr", {"accept-language": "nl", "cookie": "lang=nl"}, "fr"),
        ("/?lang=xx", {"cookie": "lang=zz", "accept-language": "fr"}, "fr"),
        ("/records", {"accept-language": "nl"}, "nl"),
        ("/r/abcdefgh1234", {"cookie": "lang=fr"}, "fr"),
    ],
)
async def test_a_page_is_rendered_in_the_language_the_request_reads(
    client: httpx.AsyncClient, url: str, headers: dict[str, str], expected: str
) -> None:
    response = await client.get(url, headers=headers)
    assert response.status_code == 200
    lang, catalogue = page_lang(response.text)
    assert lang == expected
    assert catalogue.startswith(f"/i18n/{expected}.json?v=")
    # The switch shows the page's language as chosen, each language named in itself.
    assert re.search(
        rf'<option value="{expected}" lang="{expected}" selected>', response.text
    )
    for name in LANGUAGES.values():
        assert f">{name}</option>" in response.text


async def test_the_catalogue_of_a_page_is_served_and_kept_under_its_hash(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, url = page_lang((await client.get("/?lang=fr")).text)
    response = await client.get(url)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["cache-control"] == IMMUTABLE
    keys = json.loads(response.content)
    assert keys == dict(app.state.catalogues.get("fr").keys)
    assert keys["lang.switch"] == "Langue"
    # Under any other version (an old page), the current keys, revalidated each time.
    old = await client.get("/i18n/fr.json?v=000000000000")
    assert old.headers["cache-control"] == NO_CACHE
    assert old.content == response.content
    again = await client.get(url, headers={"if-none-match": response.headers["etag"]})
    assert again.status_code == 304


async def test_each_language_has_its_own_catalogue(client: httpx.AsyncClient) -> None:
    bodies = {
        lang: (await client.get(f"/i18n/{lang}.json")).json() for lang in LANGUAGES
    }
    assert {body["lang.switch"] for body in bodies.values()} == {
        "Language",
        "Langue",
        "Taal",
    }
    assert len({tuple(sorted(body)) for body in bodies.values()}) == 1  # the same keys


@pytest.mark.parametrize("lang", ["de", "EN", "en-GB", "x" * 300])
async def test_an_unknown_language_is_a_clear_404(
    client: httpx.AsyncClient, lang: str
) -> None:
    response = await client.get(f"/i18n/{lang}.json")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "unknown_language"
    assert error["reason"].endswith("the site speaks en, fr, nl.")


async def test_a_path_out_of_the_catalogues_is_not_found(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/i18n/..%2f..%2fpyproject.toml.json")
    assert response.status_code == 404
    assert "tool.ruff" not in response.text
