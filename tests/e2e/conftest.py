"""Fixtures for the browser tests: one Chromium per package run (Debian's /usr/bin/chromium,
never a downloaded browser; tests/e2e/chromium.py), a clean context per person
(tests/e2e/contexts.py), and the artifacts directory where the screenshots of the main
screens are kept when asked for (test-artifacts/e2e, ignored by git; tests/e2e/shots.py)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.chromium import CHROMIUM, launch
from tests.e2e.contexts import ContextPool
from tests.e2e.servers import serve
from tests.support.databases import TestDatabases

HANG_GUARD_MS = 30_000
"""How long a page action or an `expect` may wait: a guard against a hang, never a measure
(a loaded 2-core CI has taken over 10 s to navigate). A passing test waits only as long as
the page needs."""
expect.set_options(timeout=HANG_GUARD_MS)
ROOT = Path(__file__).resolve().parents[2]

# (Every test here is marked `browser` by its place: tests/conftest.py `_kind`. A
# `pytestmark` in a conftest marks nothing.)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    base = Path(os.environ.get("ISHTAR_TEST_ARTIFACTS", ROOT / "test-artifacts"))
    base.mkdir(parents=True, exist_ok=True)
    ignore = base / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n")
    path = base / "e2e"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def live_server(
    test_databases: TestDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Base URL of a real `ishtar serve` shared by the browser tests of a run (of one
    xdist worker), on a database of its own (overrides tests/conftest.py's server per
    test).

    These tests each create their own rooms and read only those, in fresh browser
    contexts; a server start (2-4 s, 10-20 s on a loaded machine) per test or per module
    bought nothing (and `--dist worksteal` may leave a module and come back to it, which
    stopped and started a module's server again). A test script may play quickly: the
    HTTP moves per seat and second are lifted too (no browser test is about that limit;
    tests/security tests it)."""
    yield from serve(
        test_databases, tmp_path_factory, {"ISHTAR_HTTP_MOVES_PER_S": "1000"}
    )


@pytest.fixture(scope="session")
def toy_server(
    test_databases: TestDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A live server that plays Ishtar and also the toy game of the server tests (short
    games, a plain screen), shared as `live_server` is."""
    yield from serve(
        test_databases, tmp_path_factory, {"ISHTAR_EXTRA_GAMES": "tests.app.toygame"}
    )


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """One Chromium for a run of browser tests. Package-scoped, not session-scoped: between
    its sync calls Playwright marks its event loop as the thread's running loop, so the
    browser must be closed before a worker goes on to an asyncio test of another package
    (pytest-asyncio refuses to start a loop inside a running one)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture(scope="package")
def contexts(browser: object) -> Iterator[ContextPool]:
    """The browser's contexts, kept clean between tests (tests/e2e/contexts.py)."""
    pool = ContextPool(browser, HANG_GUARD_MS)
    yield pool
    pool.close()


@pytest.fixture
def new_page(contexts: ContextPool) -> Iterator[Callable[..., object]]:
    """new_page(width=1280, height=860, **context options) -> a page in a context of its own,
    as clean as a new one (tests/e2e/contexts.py)."""
    used: list[object] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 860, **options: object) -> object:
        page = contexts.page(width, height, **options)
        used.append(page.context)  # type: ignore[attr-defined]
        page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))  # type: ignore[attr-defined]
        return page

    yield make
    for context in used:
        contexts.give_back(context)
    assert not errors, f"JavaScript errors in the pages: {errors}"
