"""The installable app (issue 37): the manifest in the page's language with icons in the
game's palette, and the service worker at the root, naming a shell that is all there."""

from __future__ import annotations

import json
import re

import httpx


async def test_the_manifest_speaks_the_pages_language_and_its_icons_exist(
    client: httpx.AsyncClient,
) -> None:
    for lang, words in (
        ("en", "with friends"),
        ("fr", "entre amis"),
        ("nl", "met vrienden"),
    ):
        answer = await client.get(f"/manifest.webmanifest?lang={lang}")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/manifest+json")
        manifest = answer.json()
        assert manifest["lang"] == lang and words in manifest["description"]
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert manifest["theme_color"] == manifest["background_color"] == "#1d3a66"
        assert {i["purpose"] for i in manifest["icons"]} == {"any", "maskable"}
        for icon in manifest["icons"]:
            image = await client.get(icon["src"])
            assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    page = (await client.get("/")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'rel="apple-touch-icon"' in page


async def test_the_worker_is_served_at_the_root_with_a_shell_that_is_all_there(
    client: httpx.AsyncClient,
) -> None:
    answer = await client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["service-worker-allowed"] == "/"
    head = answer.text.splitlines()[:2]
    version = re.fullmatch(r'const VERSION = "([0-9a-f-]+)";', head[0])
    shell = json.loads(head[1].removeprefix("const SHELL = ").removesuffix(";"))
    assert version and shell[0] == "/"
    assert any(url.endswith("/js/mygames.js") for url in shell)
    assert sum(url.startswith("/i18n/") for url in shell) == 3
    assert not any("/js/sw.js" in url for url in shell)
    for url in shell:
        got = await client.get(url)
        assert got.status_code == 200, url
    assert 'addEventListener("push"' in answer.text
