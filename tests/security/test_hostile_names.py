"""Hostile player names in a real browser: shown as text, never run, never parsed as HTML.

Two seats take names that are markup and script (within the 24-character limit), a game is
played to its end over HTTP, and the room is opened in Chromium before the start (lobby),
during play and at the end (player panels, log, final scores), as a spectator and as a
player. On every page: the names appear literally in the text, no element or attribute
came from them, the function they call never ran, no dialog opened, and the browser
reported no Content-Security-Policy violation (nothing was even attempted).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.chromium import CHROMIUM as CHROMIUM_PATH
from tests.e2e.servers import serve
from tests.support.databases import TestDatabases

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = Path(CHROMIUM_PATH)
NAMES = ["<img src=x onerror=x()>", '"><svg onload=x()>', "<script>x()</script>"]
TRAP = "window.__pwned = 0; window.x = () => { window.__pwned += 1; };"
# Every inline script would be an injected one, but for the page's games manifest: data the
# browser does not run (type application/json), written by the server from its registry.
INJECTED = (
    "img[src='x'], svg[onload], [onerror], [onload]:not(body),"
    " script:not([src]):not(#games[type='application/json'])"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    from tests.e2e.chromium import launch

    with sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


def open_room(base: str, names: list[str]) -> tuple[str, str, list[str]]:
    with httpx.Client(base_url=base, timeout=30) as http:
        created = (
            http.post(
                "/api/rooms",
                json={"players": len(names), "name": names[0], "seat_order": "fixed"},
            )
            .raise_for_status()
            .json()
        )
        room, tokens = created["room_id"], [created["token"]]
        for seat, name in enumerate(names[1:], start=1):
            joined = http.post(
                f"/api/rooms/{room}/seats", json={"name": name, "seat": seat}
            )
            tokens.append(joined.raise_for_status().json()["token"])
    return room, created["host_token"], tokens


def start(base: str, room: str, host: str) -> None:
    with httpx.Client(base_url=base) as http:
        auth = {"Authorization": f"Bearer {host}"}
        http.post(f"/api/rooms/{room}/start", headers=auth).raise_for_status()


def play(base: str, room: str, tokens: list[str], moves: int | None = None) -> None:
    """Play over HTTP, first legal action (never undo), to the end or for `moves` moves."""
    with httpx.Client(base_url=base, timeout=30) as http:
        done = 0
        while moves is None or done < moves:
            for token in tokens:
                auth = {"Authorization": f"Bearer {token}"}
                view = http.get(f"/api/rooms/{room}/view", headers=auth).json()
                if view["view"]["phase"] == "over":
                    return
                legal = [
                    e["action"] for e in view["legal"] if e["action"]["type"] != "undo"
                ]
                if legal:
                    body = {
                        "move": legal[0],
                        "expected_version": view["version"],
                        "move_id": uuid.uuid4().hex,
                    }
                    http.post(f"/api/rooms/{room}/moves", headers=auth, json=body)
                    done += 1
                    break


def check_page(browser: Any, url: str, ready: str, names: list[str]) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        dialogs: list[str] = []
        violations: list[str] = []

        def on_dialog(dialog: Any) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()

        def on_console(message: Any) -> None:
            if "Content Security Policy" in message.text:
                violations.append(message.text)

        page.on("dialog", on_dialog)
        page.on("console", on_console)
        page.add_init_script(TRAP)
        page.goto(url)
        page.wait_for_selector(ready, state="visible", timeout=15_000)
        page.wait_for_function(
            "names => names.every(n => document.body.innerText.includes(n))",
            arg=names,
            timeout=15_000,
        )
        assert page.evaluate("window.__pwned") == 0
        assert page.evaluate(f"document.querySelectorAll({INJECTED!r}).length") == 0
        assert not dialogs
        assert not violations
    finally:
        context.close()


@pytest.fixture(scope="module")
def base(
    test_databases: TestDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """One real server for the module's tests (each opens rooms of its own and reads only
    those), on a database of its own; the moves per second are not limited (a game is
    played over HTTP as fast as the test goes)."""
    yield from serve(
        test_databases, tmp_path_factory, {"ISHTAR_HTTP_MOVES_PER_S": "100000"}
    )


def test_hostile_names_are_text_in_the_lobby_the_game_and_the_scores(
    browser: Any, base: str
) -> None:
    room, host, tokens = open_room(base, NAMES[:2])

    check_page(browser, f"{base}/r/{room}", "#lobby", NAMES[:2])
    start(base, room, host)
    play(base, room, tokens, moves=12)
    check_page(browser, f"{base}/r/{room}", "#game", NAMES[:2])
    play(base, room, tokens)
    check_page(browser, f"{base}/r/{room}#t={tokens[0]}", "#scores", NAMES[:2])


def test_the_third_payload_is_text_too(browser: Any, base: str) -> None:
    room, host, _ = open_room(base, [NAMES[2], "Bo"])
    check_page(browser, f"{base}/r/{room}", "#lobby", [NAMES[2]])
    start(base, room, host)
    check_page(browser, f"{base}/r/{room}", "#game", [NAMES[2]])
