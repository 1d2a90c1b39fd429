"""The browser tests' kept contexts (tests/e2e/contexts.py): a context comes back to the next
test as clean as a new one, or not at all."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.contexts import ContextPool

STORE_EVERYTHING = """async () => {
  localStorage.setItem("seat", "token");
  sessionStorage.setItem("tab", "1");
  document.cookie = "c=1";
  await new Promise((done) => {
    const asked = indexedDB.open("db", 1);
    asked.onupgradeneeded = () => asked.result.createObjectStore("s");
    asked.onsuccess = () => { asked.result.close(); done(); };
  });
  const cache = await caches.open("k");
  await cache.put("/x", new Response("y"));
}"""

WHAT_IS_STORED = """async () => ({
  local: localStorage.length,
  session: sessionStorage.length,
  cookies: document.cookie,
  databases: (await indexedDB.databases()).length,
  caches: (await caches.keys()).length,
  workers: (await navigator.serviceWorker.getRegistrations()).length,
})"""

NOTHING = {
    "local": 0,
    "session": 0,
    "cookies": "",
    "databases": 0,
    "caches": 0,
    "workers": 0,
}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A static site on a port the system chose and this test holds."""
    root: Path = tmp_path_factory.mktemp("site")
    (root / "index.html").write_text("<!doctype html><title>site</title><p>site</p>")
    (root / "sw.js").write_text("self.addEventListener('fetch', () => {});\n")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(root))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


@pytest.fixture
def pool(browser: object) -> Iterator[ContextPool]:
    kept = ContextPool(browser, 30_000)
    yield kept
    kept.close()


def test_a_context_comes_back_with_nothing_the_last_test_stored(
    pool: ContextPool, site: str
) -> None:
    page = pool.page(800, 600, locale="fr-FR")
    page.goto(site)
    page.evaluate(STORE_EVERYTHING)
    assert page.evaluate(WHAT_IS_STORED) != NOTHING
    extra = page.context.new_page()
    extra.goto(site)
    first = page.context
    pool.give_back(first)

    again = pool.page(800, 600, locale="fr-FR")
    assert again.context is first, "a clean context is kept for the same options"
    assert pool.made == 1 and pool.reused == 1
    assert again.url == "about:blank"
    assert again.context.pages == [again], "the last test's pages are gone"
    again.goto(site)
    assert again.evaluate(WHAT_IS_STORED) == NOTHING
    assert again.evaluate("navigator.language") == "fr-FR"
    assert again.viewport_size == {"width": 800, "height": 600}


def test_other_options_get_another_context(pool: ContextPool, site: str) -> None:
    page = pool.page(800, 600)
    first = page.context
    pool.give_back(first)
    assert pool.page(800, 600, locale="nl-NL").context is not first
    assert pool.page(390, 844).context is not first
    assert pool.page(800, 600).context is first
    assert pool.made == 3


@pytest.mark.parametrize(
    "change",
    [
        lambda context: context.set_offline(True),
        lambda context: context.grant_permissions(["notifications"]),
        lambda context: context.add_init_script("window.planted = 1"),
        lambda context: context.set_extra_http_headers({"x-planted": "1"}),
        lambda context: context.new_cdp_session(context.pages[0]),
        lambda context: context.close(),
        lambda context: context.pages[0].clock.install(),
    ],
    ids=["offline", "permissions", "init-script", "headers", "cdp", "closed", "clock"],
)
def test_a_context_the_test_changed_is_closed_not_kept(
    pool: ContextPool, site: str, change: Any
) -> None:
    page = pool.page(800, 600)
    page.goto(site)
    first = page.context
    change(first)
    pool.give_back(first)
    again = pool.page(800, 600)
    assert again.context is not first
    assert pool.reused == 0
    again.goto(site)
    assert again.evaluate("window.planted === undefined")
    assert again.evaluate("navigator.onLine")


def test_a_context_with_a_service_worker_is_closed_not_kept(
    pool: ContextPool, site: str
) -> None:
    page = pool.page(800, 600, service_workers="allow")
    page.goto(site)
    page.evaluate(
        "async () => { await navigator.serviceWorker.register('sw.js');"
        " await navigator.serviceWorker.ready; }"
    )
    first = page.context
    pool.give_back(first)
    again = pool.page(800, 600, service_workers="allow")
    assert again.context is not first
    again.goto(site)
    assert again.evaluate(WHAT_IS_STORED) == NOTHING


def test_a_context_registers_no_service_worker_unless_asked(
    pool: ContextPool, site: str
) -> None:
    """A worker registered by one test (the home page registers the site's) could outlive
    the clean-up and answer the next test's requests where its routes never see them."""
    page = pool.page(800, 600)
    page.goto(site)
    page.evaluate("async () => { await navigator.serviceWorker.register('sw.js'); }")
    assert page.evaluate(WHAT_IS_STORED)["workers"] == 0
    assert not page.context.service_workers
    allowed = pool.page(800, 600, service_workers="allow")
    assert allowed.context is not page.context
    allowed.goto(site)
    allowed.evaluate(
        "async () => { await navigator.serviceWorker.register('sw.js');"
        " await navigator.serviceWorker.ready; }"
    )
    assert allowed.evaluate(WHAT_IS_STORED)["workers"] == 1
