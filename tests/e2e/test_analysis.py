"""The analysis of a finished game in Chromium against a real server (issue 38): from the
final table a player asks for it, the replay shows its progress, then the chart (a click on
a point shows that move), the marks on the move list with the better move on the board,
the luck and the turning points, as text too; for both games, in English, French and Dutch,
wide and on a phone. The server's analysis is shallow here (4 rollouts by random play; the candidates
are still the medium bot's moves, so a random move is found out): the
test is of the page, docs/analysis.md measures the analysis itself."""

from __future__ import annotations

import math
import random
import re
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.gardener import press
from tests.e2e.shots import shoot
from tests.support.live import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ANALYSIS_MS = 600_000
"""How long the analysis may take here: a guard against a hang on a loaded machine, not a
measure (its cost is docs/analysis.md's)."""
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}


@pytest.fixture
def server(database_url: str, live_server_factory: Callable[..., LiveServer]) -> str:
    env = {
        "ISHTAR_HTTP_MOVES_PER_S": "1000",
        "ISHTAR_ROOMS_PER_MINUTE": "1000",
        "ISHTAR_ANALYSIS_ROLLOUTS": "4",
        "ISHTAR_ANALYSIS_POLICY": "random",
        "ISHTAR_ANALYSIS_LUCK_SAMPLES": "4",
    }
    return live_server_factory(database_url=database_url, env=env).url


def finished_game(base: str, game: str, seed: int) -> tuple[str, list[str]]:
    """A 2-player room of `game` played to the end by random moves over the HTTP API."""
    with httpx.Client(base_url=base, timeout=20) as http:
        created = http.post(
            "/api/rooms", json={"players": 2, "name": "Ana", "game": game}
        ).json()
        room = created["room_id"]
        joined = http.post(f"/api/rooms/{room}/seats", json={"name": "Björn"}).json()
        auth = {"Authorization": f"Bearer {created['host_token']}"}
        assert http.post(f"/api/rooms/{room}/start", headers=auth).status_code == 200
        tokens: dict[int, str] = {}
        for token in (created["token"], joined["token"]):
            seat = http.get(
                f"/api/rooms/{room}/view", headers={"Authorization": f"Bearer {token}"}
            ).json()["seat"]
            tokens[seat] = token
        rng = random.Random(seed)
        while True:
            public = http.get(f"/api/rooms/{room}/view").json()
            if public["view"]["phase"] == "over":
                return room, [tokens[0], tokens[1]]
            seat = public["view"]["current"]
            bearer = {"Authorization": f"Bearer {tokens[seat]}"}
            mine = http.get(f"/api/rooms/{room}/view", headers=bearer).json()
            forward = [e for e in mine["legal"] if e["action"]["type"] != "undo"]
            move = {
                "move": rng.choice(forward)["action"],
                "expected_version": mine["version"],
                "move_id": uuid.uuid4().hex,
            }
            answer = http.post(f"/api/rooms/{room}/moves", json=move, headers=bearer)
            assert answer.status_code == 200, answer.text


def shown(page: Page) -> int:
    move: int = page.evaluate("() => window.__replay.shown")
    return move


def wait_shown(page: Page, move: int) -> None:
    page.wait_for_function(f"() => window.__replay.shown === {move}")


def press_render_release(page: Page, target: Locator) -> None:
    """A click on `target` with a render of the analysis panel between its press and its
    release, as a poll's answer would land."""
    press(page, target)
    page.evaluate("() => window.__replay.renderAnalysis()")
    page.mouse.up()


@pytest.mark.parametrize("game", ["babylon-gardens", "ishtar"])
def test_a_finished_game_is_analysed_in_the_browser(
    new_page: Callable[..., Page], server: str, artifacts: Path, game: str
) -> None:
    room, tokens = finished_game(server, game, seed=4)
    record = httpx.get(f"{server}/api/rooms/{room}/record", timeout=20).json()
    version = record["version"]
    names = [p["name"] for p in record["players"]]  # seats may be drawn at random

    # from the final table: one click asks for the analysis and opens the replay
    ana = new_page(width=1400, height=900)
    ana.goto(f"{server}/r/{room}#t={tokens[0]}")
    expect(ana.locator("#scores")).to_be_visible()
    link = ana.locator("#analysis-link")
    expect(link).to_have_text("Analyse the game")
    shoot(ana, artifacts / f"analysis-{game}-final-table.png")
    link.click()
    ana.wait_for_url(f"**/r/{room}/replay**")
    panel = ana.locator("#analysis")
    expect(panel).to_have_attribute("data-status", re.compile("queued|running|done"))
    if panel.get_attribute("data-status") != "done":  # the progress bar, while it runs
        expect(ana.locator("#analysis-progress")).to_be_visible()
    # the analysis runs niced in a worker process: on a loaded machine it takes a while
    expect(panel).to_have_attribute("data-status", "done", timeout=ANALYSIS_MS)
    expect(ana.locator("#analysis-state")).to_contain_text(
        "Analysis complete (2 to 4 games played out per option)"
    )
    expect(ana.locator("#analysis-progress")).to_be_hidden()

    # the chart: one line per seat; a click on a point shows that move, also when the
    # panel renders between the press and the release (it does at each poll while the
    # analysis runs: a point redrawn then was gone by the release, and the click with it)
    expect(ana.locator("#analysis-chart path.series")).to_have_count(2)
    press_render_release(
        ana, ana.locator(f'#analysis-chart rect.hit[data-version="{version // 2}"]')
    )
    wait_shown(ana, version // 2)
    expect(ana.locator("#analysis-now")).to_contain_text(f"Move {version // 2}")
    # the chances as text: a row per version and a header
    expect(ana.locator("#analysis-table tr")).to_have_count(version + 2)

    # per player: average loss, marks, luck, luck-adjusted score
    rows = ana.locator("#analysis-players tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(1).locator("th")).to_have_text(names[0])
    job = httpx.get(f"{server}/api/rooms/{room}/analysis", timeout=20).json()
    analysis = job["analysis"]
    for seat, player in enumerate(analysis["players"]):
        cells = rows.nth(seat + 1).locator("td")
        tenths = math.floor(player["luck_adjusted"] * 10 + 0.5) / 10  # as JS rounds
        expect(cells.nth(6)).to_have_text(f"{tenths:g}")

    # the marks on the move list; a marked move names the better one, shown on the board
    marked = [m for m in analysis["moves"] if m.get("mark")]
    assert marked, "random play makes mistakes"
    lines = ana.locator(
        "#log li.mark-inaccuracy, #log li.mark-mistake, #log li.mark-blunder"
    )
    expect(lines).to_have_count(len(marked))
    first = marked[0]
    ana.locator(f'#log li[data-seq="{first["move"]}"]').click()
    wait_shown(ana, first["move"])
    expect(ana.locator("#analysis-now")).to_contain_text("Better:")
    ana.locator("#analysis-better-btn").click()
    expect(ana.locator("#replay")).to_have_attribute("data-better", str(first["move"]))
    expect(ana.locator("#replay-text")).to_contain_text("The better move:")
    shoot(ana, artifacts / f"analysis-{game}-en.png", full_page=True)
    ana.keyboard.press("ArrowRight")
    wait_shown(ana, first["move"] + 1)
    expect(ana.locator("#replay")).to_have_attribute("data-better", "")

    # luck and turning points, as words; a draw's link shows its move, render or not
    expect(ana.locator("#analysis-draws li")).to_have_count(2)
    luckiest = analysis["draws"]["by_seat"][0]["luckiest"]
    if luckiest:
        if shown(ana) == luckiest[0]["move"]:
            ana.keyboard.press("ArrowLeft")
            wait_shown(ana, luckiest[0]["move"] - 1)
        press_render_release(ana, ana.locator("#analysis-draws li a").first)
        wait_shown(ana, luckiest[0]["move"])
    turning = ana.locator("#analysis-turning li")
    expect(turning).to_have_count(len(analysis["turning_points"]))
    if analysis["turning_points"]:
        expect(turning.first).to_contain_text("chance of winning")
    aria = ana.locator("#analysis-chart svg").get_attribute("aria-label") or ""
    assert "Ana:" in aria and "Björn:" in aria

    # another reader (a spectator, in French, on a phone; in Dutch, wide) reads the same
    wide = {"width": 1400, "height": 900}
    for locale, size, words in (
        ("fr-FR", PHONE, "Analyse terminée"),
        ("fr-FR", wide, "Analyse terminée"),
        ("nl-NL", wide, "Analyse klaar"),
        ("nl-NL", PHONE, "Analyse klaar"),
        ("en-GB", PHONE, "Analysis complete"),
    ):
        page = new_page(locale=locale, **size)
        page.goto(f"{server}/r/{room}/replay?move={first['move']}")
        expect(page.locator("#analysis-state")).to_contain_text(words)
        expect(page.locator("#analysis-btn")).to_be_hidden()
        expect(page.locator("#analysis-chart path.series")).to_have_count(2)
        lang = locale[:2]
        if (
            lang == "fr"
        ):  # "gaffe d’Ana", "erreur de Björn": French elides before a vowel
            mover = names[first["seat"]]
            of = f"d’{mover}" if mover == "Ana" else f"de {mover}"
            expect(page.locator("#analysis-now")).to_contain_text(f"{of},")
            expect(page.locator("#analysis-state")).to_contain_text("(de 2 à 4 parties")
            # the luck list: a narrow no-break space before the colon
            expect(page.locator("#analysis-draws li").first).to_contain_text(
                f"{names[0]}\u202f:"
            )
        phone = "-phone" if size is PHONE else ""
        page.locator("#analysis").scroll_into_view_if_needed()
        shoot(page, artifacts / f"analysis-{game}-{lang}{phone}.png", full_page=True)


def test_the_first_sound_of_a_name_is_told_for_the_catalogues(
    new_page: Callable[..., Page], server: str
) -> None:
    page = new_page(width=1400, height=900)
    page.goto(f"{server}/")
    names = ["Ana", "Élodie", "Hugo", "Yves", "Œdipe", "«Ines»"]
    names += ["Björn", "Yannick", "42", "", "Zoë"]
    sounds = page.evaluate(
        """async (names) => {
          const { vowelSound } = await import("/static/js/initials.js");
          return names.map(vowelSound);
        }""",
        names,
    )
    assert sounds == [True] * 6 + [False] * 5


def test_french_elides_the_name_of_whose_turn_it_is(
    new_page: Callable[..., Page], server: str, artifacts: Path
) -> None:
    """`ofName` (static/js/initials.js) serves every sentence where a name owns something,
    not the analysis alone: the turn banner reads "Au tour d’Émile", never "de Émile"."""
    with httpx.Client(base_url=server, timeout=20) as http:
        created = http.post(
            "/api/rooms", json={"players": 2, "name": "Ana", "game": "ishtar"}
        ).json()
        room = created["room_id"]
        joined = http.post(f"/api/rooms/{room}/seats", json={"name": "Émile"}).json()
        auth = {"Authorization": f"Bearer {created['host_token']}"}
        assert http.post(f"/api/rooms/{room}/start", headers=auth).status_code == 200
        seats = {}
        for name, token in (("Ana", created["token"]), ("Émile", joined["token"])):
            bearer = {"Authorization": f"Bearer {token}"}
            seat = http.get(f"/api/rooms/{room}/view", headers=bearer).json()["seat"]
            seats[seat] = (name, token)
        current = http.get(f"/api/rooms/{room}/view").json()["view"]["current"]
    mover = seats[current][0]
    _, watcher = seats[1 - current]
    for locale, size, words in (
        ("fr-FR", {"width": 1400, "height": 900}, f"Au tour d’{mover}"),
        ("fr-FR", PHONE, f"Au tour d’{mover}"),
        ("en-GB", {"width": 1400, "height": 900}, f"{mover}’s turn"),
        ("nl-NL", PHONE, f"{mover} is aan de beurt"),
    ):
        page = new_page(locale=locale, **size)
        page.goto(f"{server}/r/{room}#t={watcher}")
        expect(page.locator("#turn-banner")).to_contain_text(words)
        assert "de " + mover not in (page.locator("#turn-banner").text_content() or "")
        phone = "-phone" if size is PHONE else ""
        shoot(page, artifacts / f"turn-{locale[:2]}{phone}.png")
