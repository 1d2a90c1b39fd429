"""The shell and the games' screens in Chromium (docs/client.md): the pages carry a manifest
of the games with versioned module URLs, the home form is drawn from the picked game's
options schema, and a room or a replay imports its own game's screen module — Ishtar's for
an Ishtar room, the plain screen for the toy game of the server tests, with no Ishtar code
or style loaded."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.gardener import wait_held, wait_until
from tests.e2e.shots import shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VERSIONED = re.compile(r"^/static/[0-9a-f]{12}/")


@pytest.fixture
def two_games(toy_server: str) -> str:
    """A live server that plays Ishtar and the toy game (registered as the tests do)."""
    return toy_server


def page_manifest(page: Page) -> dict[str, Any]:
    manifest: dict[str, Any] = page.evaluate(
        "() => JSON.parse(document.getElementById('games').textContent)"
    )
    return manifest


def radio_values(page: Page, name: str) -> list[str]:
    values: list[str] = page.eval_on_selector_all(
        f"#create input[name={name}]", "els => els.map((e) => e.value)"
    )
    return values


def test_the_home_form_is_drawn_from_the_options_schema(
    new_page: Callable[..., Page], live_server: str, artifacts: Path
) -> None:
    page = new_page()
    page.goto(live_server + "/")
    listed = httpx.get(live_server + "/api/games").json()
    manifest = page_manifest(page)
    # the page carries what GET /api/games lists, module URLs under the static version
    assert manifest == listed
    ishtar = next(g for g in manifest["games"] if g["id"] == "ishtar")
    assert VERSIONED.match(ishtar["client"]), ishtar["client"]
    assert ishtar["client"].endswith("/games/ishtar/screen.js")
    assert httpx.get(live_server + ishtar["client"]).status_code == 200
    # the bundled games: a picker, the default (Ishtar) picked; players within its range;
    # a field per option
    expect(page.locator("#game-field")).to_be_visible()
    assert radio_values(page, "game") == [g["id"] for g in listed["games"]]
    assert page.eval_on_selector(
        "#create input[name=game]:checked", "e => e.value"
    ) == ("ishtar")
    assert radio_values(page, "players") == ["2", "3", "4"]
    fields = page.eval_on_selector_all(
        "#options [data-option]", "els => els.map((e) => e.dataset.option)"
    )
    assert fields == list(listed["games"][0]["options"]["properties"])  # schema order
    layout = ishtar["options"]["properties"]["layout"]
    assert radio_values(page, "layout") == layout["enum"]
    checked = page.eval_on_selector(
        "#create input[name=layout]:checked", "e => e.value"
    )
    assert checked == layout["default"]
    expect(page.locator("[data-option=layout] legend")).to_have_text(layout["title"])
    # a nullable integer from 0 to 3: a select with "Random" (null) first
    first = page.locator("#create select[name=first_player]")
    assert first.evaluate("s => [...s.options].map((o) => o.value)") == [
        "",
        "0",
        "1",
        "2",
        "3",
    ]
    expect(first.locator("option").first).to_have_text("Random")
    expect(page.locator("#late-bot")).to_be_attached()
    wait_until(page, "() => !document.getElementById('vignette').hidden")
    shoot(page, artifacts / "home-form.png")

    # what is picked is what the room records
    page.fill("#name", "Ana")
    page.check("input[name=players][value='3']", force=True)
    page.check("input[name=layout][value='random']", force=True)
    first.select_option("1")
    page.click("#create-btn")
    page.wait_for_url("**/r/**")
    room = page.url.rsplit("/r/", 1)[1].split("#")[0]
    status = httpx.get(f"{live_server}/api/rooms/{room}").json()
    assert status["game"] == "ishtar" and status["players"] == 3
    assert status["options"] == {
        "layout": "random",
        "first_player": 1,
        "turn_end": "explicit",
        "edition": "4",
    }
    expect(page.locator("#lobby-sub")).to_contain_text("3 players · random layout")
    # the lobby draws seats with Ishtar's pawns and offers Ishtar's bot levels
    expect(page.locator("#seats img.pawn")).to_have_count(3)
    levels = page.locator(".bot-picker select").first.evaluate(
        "s => [...s.options].map((o) => o.value)"
    )
    assert levels == ishtar["bots"]
    shoot(page, artifacts / "lobby-shell.png")


def test_a_toy_room_from_the_home_page_loads_its_own_screen(
    new_page: Callable[..., Page], two_games: str, artifacts: Path
) -> None:
    page = new_page()
    page.goto(two_games + "/")
    manifest = page_manifest(page)
    clients = {g["id"]: g["client"] for g in manifest["games"]}
    assert set(clients) == {"ishtar", "babylon-gardens", "toy"}
    assert all(VERSIONED.match(url) for url in clients.values()), clients
    assert clients["toy"].endswith("/js/plain-screen.js")
    # several games: a picker; the toy's form has its own range and options, and no bots
    expect(page.locator("#game-field")).to_be_visible()
    page.check("input[name=game][value='toy']", force=True)
    assert radio_values(page, "players") == ["1", "2", "3", "4"]
    expect(page.locator("#create [data-option=layout]")).to_have_count(0)
    expect(page.locator("#create [data-option=first_player]")).to_have_count(1)
    expect(page.locator("#late-bot")).to_be_hidden()
    expect(page.locator("#vignette")).to_be_hidden()  # the plain screen draws none
    page.fill("#name", "Ana")
    page.check("input[name=players][value='1']", force=True)
    page.click("#create-btn")
    page.wait_for_url("**/r/**")
    room = page.url.rsplit("/r/", 1)[1].split("#")[0]
    assert httpx.get(f"{two_games}/api/rooms/{room}").json()["game"] == "toy"

    expect(page.locator("#lobby")).to_be_visible()
    assert page.evaluate("() => window.__shell") == {
        "game": "toy",
        "module": clients["toy"],
    }
    expect(page.locator(".bot-picker")).to_have_count(0)  # the toy has no bots
    expect(page.locator("#seats .seat-dot")).to_have_count(1)
    page.locator("#start-btn").click()
    expect(page.locator("[data-screen=plain]")).to_be_visible()

    # play it to the end with the bar's buttons (the legal actions the server sent)
    moves = 0
    while page.evaluate("() => window.__ishtar.phase") != "over":
        wait_until(
            page, "() => window.__ishtar.mine || window.__ishtar.phase === 'over'"
        )
        if page.evaluate("() => window.__ishtar.phase") == "over":
            break
        version = page.evaluate("() => window.__ishtar.version")
        if moves == 2:
            shoot(page, artifacts / "toy-game.png")
        page.locator("#actionbar [data-act^='legal-']").first.click()
        wait_until(page, "v => window.__ishtar.version > v", version)
        moves += 1
    assert moves == 8  # a deck of 8 cards, two drawn and one played a turn
    expect(page.locator("#scores")).to_be_visible()
    expect(page.locator("#winner")).to_contain_text("Ana wins with")
    expect(page.locator("#log li[data-seq]")).to_have_count(8)  # the moves, and:
    expect(page.locator("#log li.log-start")).to_have_text("The game started.")
    expect(page.locator("#log li.log-win")).to_have_text("Ana wins.")
    # nothing of Ishtar's screen came with it
    ishtar_files = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => e.name)"
        ".filter((n) => n.includes('/games/ishtar/'))"
    )
    assert ishtar_files == []
    shoot(page, artifacts / "toy-scores.png")

    # the replay page imports the record's game's screen too
    replay = new_page()
    replay.goto(f"{two_games}/r/{room}/replay?move=2")
    wait_until(replay, "() => !!window.__replay && window.__replay.shown === 2")
    expect(replay.locator("[data-screen=plain]")).to_be_visible()
    expect(replay.locator("#replay-text")).to_contain_text("played")


def test_a_name_typed_before_the_script_has_run_is_kept(
    new_page: Callable[..., Page], live_server: str
) -> None:
    """home.js runs once the page's catalogue has come (i18n.js awaits it at the top
    level), which may be after the load event. It filled the name field with the name
    saved on this device (none here), wiping a name typed meanwhile: the create button
    then did nothing (a CI flake of test_play, the room's page never came). The create
    button stays disabled until then. The catalogue is held here until the name is typed,
    to make that order certain."""
    page = new_page()
    held: list[Any] = []
    page.route("**/i18n/**", lambda route: held.append(route))
    page.goto(f"{live_server}/")  # the load event: the catalogue is still held
    wait_until(page, "() => document.readyState === 'complete'")
    wait_held(page, held, "catalogue")
    # pressed now, the form would submit itself as a plain GET and reload the home page
    # (a CI flake of test_time_per_move_from_the_form_to_the_late_seat, 2026-12-05)
    expect(page.locator("#create-btn")).to_be_disabled()
    page.fill("#name", "Ana")
    for route in held:
        route.continue_()
    page.unroute("**/i18n/**")  # the room's page gets its catalogue at once
    page.check("input[name=players][value='2']", force=True)  # drawn by home.js
    expect(page.locator("#name")).to_have_value("Ana")
    page.click("#create-btn")
    page.wait_for_url("**/r/**")
    expect(page.locator("#lobby")).to_be_visible()
