"""Versioned static files (app/web/assets.py): pages link /static/<hash>/..., served immutable.

A deploy that changes any static file changes the hash, so a browser never runs old scripts
with new pages; relative module imports inherit the prefix. Unversioned and old-hash URLs
still answer, with ``no-cache``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import httpx
import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from app.web.assets import IMMUTABLE, NO_CACHE, Assets, VersionedStatic, tree_hash
from app.web.routes.pages import PLAIN_SCREEN, client_url
from games.ishtar import DESCRIPTOR as ISHTAR

PAGES = ["/", "/records", "/r/abcdefgh1234", "/r/abcdefgh1234/replay"]
# `import ... from "./x.js"`, `import "./x.js"`, `export ... from "./x.js"`, `import("./x.js")`
IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""", re.MULTILINE
)


class Links(HTMLParser):
    """Every `src` and `href` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [v for k, v in attrs if k in ("src", "href") and v is not None]


def links(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    return parser.urls


MANIFEST = re.compile(
    r'<script type="application/json" id="games">(.*?)</script>', re.DOTALL
)


def manifest_urls(html: str) -> list[str]:
    """The screen modules of the page's games manifest (templates/base.html)."""
    found = MANIFEST.search(html)
    assert found is not None, "the page carries no games manifest"
    return [game["client"] for game in json.loads(found.group(1))["games"]]


async def static_links(client: httpx.AsyncClient) -> dict[str, list[str]]:
    """Every static URL of each page: its links and its games' screen modules."""
    found = {}
    for page in PAGES:
        response = await client.get(page)
        assert response.status_code == 200, page
        urls = links(response.text) + manifest_urls(response.text)
        found[page] = [u for u in urls if u.startswith("/static")]
    return found


async def test_pages_link_static_files_only_under_the_current_hash(
    client: httpx.AsyncClient, app: FastAPI, settings: Settings
) -> None:
    version = tree_hash(settings.static_dir)
    assert app.state.assets.version == version
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    found = await static_links(client)
    for page, urls in found.items():
        assert any(u.endswith(".js") for u in urls), page
        assert any(u.endswith(".css") for u in urls), page
        for url in urls:
            assert url.startswith(f"/static/{version}/"), (page, url)


def test_templates_never_hard_code_static_paths(settings: Settings) -> None:
    for template in sorted(settings.templates_dir.glob("*.html")):
        assert "/static/" not in template.read_text(), template.name


async def test_linked_urls_serve_the_files_immutable(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    urls = {u for page in (await static_links(client)).values() for u in page}
    for url in sorted(urls):
        response = await client.get(url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == IMMUTABLE, url
        path = url.split("/", 3)[3]
        assert response.content == (settings.static_dir / path).read_bytes(), url
        # The page's policy still holds for what it loads (app/web/security.py).
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        if url.endswith(".js"):  # module scripts need a JavaScript MIME type
            assert response.headers["content-type"].startswith("text/javascript")
    # A revalidation answers 304, still immutable.
    some = sorted(urls)[0]
    etag = (await client.get(some)).headers["etag"]
    again = await client.get(some, headers={"if-none-match": etag})
    assert again.status_code == 304
    assert again.headers["cache-control"] == IMMUTABLE


async def test_relative_module_imports_resolve_under_the_same_prefix(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """Walk the module graph from every page's entry script, as the browser does."""
    version = app.state.assets.version
    found = await static_links(client)
    todo = [u for urls in found.values() for u in urls if u.endswith(".js")]
    seen: set[str] = set()
    relative_imports = 0
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        response = await client.get(url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == IMMUTABLE, url
        for spec in IMPORT.findall(response.text):
            relative_imports += 1
            target = urljoin(f"http://testserver{url}", spec).removeprefix(
                "http://testserver"
            )
            assert target.startswith(f"/static/{version}/"), (url, spec, target)
            todo.append(target)
    assert f"/static/{version}/js/api.js" in seen  # main.js imports "./api.js"
    # the games' screen modules, and what they import of the shell ("../../js/dom.js")
    assert f"/static/{version}/games/ishtar/screen.js" in seen
    assert f"/static/{version}/js/dom.js" in seen
    assert relative_imports > 10
    assert len(seen) > 10


async def test_unversioned_and_old_hash_urls_serve_the_current_file_without_caching(
    client: httpx.AsyncClient, app: FastAPI, settings: Settings
) -> None:
    version = app.state.assets.version
    current = (settings.static_dir / "js/main.js").read_bytes()
    old = "0123456789ab" if version != "0123456789ab" else "ba9876543210"
    for url in ("/static/js/main.js", f"/static/{old}/js/main.js"):
        response = await client.get(url)
        assert response.status_code == 200, url
        assert response.content == current, url
        assert response.headers["cache-control"] == NO_CACHE, url


@pytest.mark.parametrize(
    "path",
    [
        "{v}/%2e%2e/templates/base.html",
        "{v}/%2e%2e/%2e%2e/etc/passwd",
        "{v}/..%2f..%2fetc%2fpasswd",
        "{v}/js/%2e%2e/%2e%2e/app/ops/main.py",
        "%2e%2e/templates/base.html",
        "..%2fpyproject.toml",
        "{v}/%2fetc%2fpasswd",
        "{v}/js/main.js%00.css",
        "{v}/" + "a" * 5000,
        "{v}/js/no-such-file.js",
        "{v}",
        "{v}/",
    ],
)
async def test_paths_out_of_the_static_tree_are_refused_with_404(
    client: httpx.AsyncClient, app: FastAPI, path: str
) -> None:
    response = await client.get(f"/static/{path.format(v=app.state.assets.version)}")
    assert response.status_code == 404
    # An error is never kept for a year under a versioned URL.
    assert response.headers.get("cache-control") != IMMUTABLE


def test_the_hash_changes_when_any_file_changes(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "main.js").write_text('import { a } from "./api.js";\n')
    (tmp_path / "js" / "api.js").write_text("export const a = 1;\n")
    first = tree_hash(tmp_path)
    assert re.fullmatch(r"[0-9a-f]{12}", first)
    assert tree_hash(tmp_path) == first  # stable while nothing changes

    hashes = {first}

    def changed() -> None:
        now = tree_hash(tmp_path)
        assert now not in hashes
        hashes.add(now)

    (tmp_path / "js" / "api.js").write_text("export const a = 2;\n")
    changed()
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "x.css").write_text("")
    changed()  # a new (even empty) file
    (tmp_path / "css" / "x.css").rename(tmp_path / "css" / "y.css")
    changed()  # a rename
    # The same bytes split differently between two files.
    (tmp_path / "js" / "api.js").write_text("export const a = 2;\nexport")
    (tmp_path / "js" / "main.js").write_text("")
    changed()
    (tmp_path / "js" / "api.js").write_text("export const a = 2;\n")
    (tmp_path / "js" / "main.js").write_text("export")
    changed()


async def test_a_mount_serves_what_was_hashed_at_start(tmp_path: Path) -> None:
    """The version is computed once; a file outside the tree stays out of reach."""
    tree = tmp_path / "static"
    (tree / "js").mkdir(parents=True)
    (tree / "js" / "main.js").write_text('import "./api.js";\n')
    (tree / "js" / "api.js").write_text("export {};\n")
    (tmp_path / "secret.txt").write_text("not for the web")
    assets = Assets.scan(tree)
    assert assets.url("js/main.js") == f"/static/{assets.version}/js/main.js"
    with pytest.raises(LookupError):
        assets.url("js/missing.js")
    app = FastAPI()
    app.mount("/static", VersionedStatic(assets))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        ok = await c.get(f"/static/{assets.version}/js/api.js")
        assert (ok.status_code, ok.headers["cache-control"]) == (200, IMMUTABLE)
        assert ok.text == "export {};\n"
        for path in ("%2e%2e/secret.txt", "js/%2e%2e/%2e%2e/secret.txt"):
            refused = await c.get(f"/static/{assets.version}/{path}")
            assert refused.status_code == 404, path
            assert (await c.get(f"/static/{path}")).status_code == 404, path


def test_a_game_without_a_screen_module_gets_the_plain_screen(
    settings: Settings,
) -> None:
    """The page manifest never names a file that is not served (app/web/routes/pages.py)."""
    assets = Assets.scan(settings.static_dir)
    plain = assets.url(PLAIN_SCREEN)
    assert client_url(assets, ISHTAR) == assets.url("games/ishtar/screen.js") != plain
    for client in ("", "games/chess/screen.js"):
        assert client_url(assets, dataclasses.replace(ISHTAR, client=client)) == plain


async def test_a_current_text_file_goes_gzipped_to_whom_takes_it(
    tmp_path: Path,
) -> None:
    """Scripts and styles under the current version go gzipped (made once, made again when
    the file changes); images, old versions, unversioned paths and ranges as they are."""
    tree = tmp_path / "static"
    (tree / "js").mkdir(parents=True)
    script = tree / "js" / "main.js"
    script.write_text("export const words = '" + "gardens " * 400 + "';\n")
    (tree / "img").mkdir()
    (tree / "img" / "icon.png").write_bytes(b"\x89PNG" + bytes(2000))
    assets = Assets.scan(tree)
    app = FastAPI()
    mount = VersionedStatic(assets)
    app.mount("/static", mount)
    transport = httpx.ASGITransport(app=app)
    gz = {"accept-encoding": "gzip, deflate, br, zstd"}
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        url = f"/static/{assets.version}/js/main.js"
        zipped = await c.get(url, headers=gz)
        assert zipped.status_code == 200
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.headers["vary"] == "Accept-Encoding"
        assert zipped.headers["cache-control"] == IMMUTABLE
        assert "javascript" in zipped.headers["content-type"]
        assert zipped.text == script.read_text()  # httpx inflates it
        assert int(zipped.headers["content-length"]) < len(script.read_bytes()) / 10
        again = await c.get(url, headers=gz | {"if-none-match": zipped.headers["etag"]})
        assert (again.status_code, again.headers["cache-control"]) == (304, IMMUTABLE)
        plain = await c.get(url, headers={"accept-encoding": "identity"})
        assert plain.headers["etag"] != zipped.headers["etag"]
        assert "content-encoding" not in plain.headers
        assert plain.text == script.read_text()
        for other in (
            f"/static/{assets.version}/img/icon.png",  # compressed already
            "/static/js/main.js",  # unversioned: revalidated by StaticFiles
            "/static/000000000000/js/main.js",  # an old version
        ):
            answer = await c.get(other, headers=gz)
            assert answer.status_code == 200, other
            assert "content-encoding" not in answer.headers, other
        ranged = await c.get(url, headers=gz | {"range": "bytes=0-9"})
        assert "content-encoding" not in ranged.headers
        assert (
            await c.get(f"/static/{assets.version}/js/gone.js", headers=gz)
        ).status_code == 404
        # The file changed on disk (a developer's edit): its new bytes, gzipped anew.
        script.write_text("export const words = 'changed';\n" + "// x\n" * 300)
        assert (await c.get(url, headers=gz)).text == script.read_text()
    assert set(mount.gzipped.kept) == {"js/main.js"}
