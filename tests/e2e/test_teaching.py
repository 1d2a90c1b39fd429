"""Teaching the game, in Chromium (issue 36, points 2, 5 and 6; docs/client.md "Teaching the
game"): each game's rules page in English, French and Dutch with pictures its own screen
code draws, linked from the home page, the waiting room and the table; the end announced
before it comes; Babylon Gardens' words explained and no tile ids in its tooltips; the home
page's options in plain words; bot levels and the Dutch sidebar. Screenshots at 1400x900
and 390x844 go to test-artifacts/e2e (teach-*.png).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.gardener import wait_until
from tests.e2e.shots import shoot
from tests.e2e.test_async import bearer, hold, open_room, table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}
LANGS = {"en": "en-GB", "fr": "fr-FR", "nl": "nl-NL"}

HEADINGS = {
    ("ishtar", "en"): "How to play Ishtar: Gardens of Babylon",
    ("ishtar", "fr"): "Comment jouer à Ishtar : Les Jardins de Babylone",
    ("ishtar", "nl"): "Zo speel je Ishtar: De tuinen van Babylon",
    ("babylon-gardens", "en"): "How to play Babylon Gardens",
    ("babylon-gardens", "fr"): "Comment jouer à Babylon Gardens",
    ("babylon-gardens", "nl"): "Zo speel je Babylon Gardens",
}

PAINTED = """(el) => {
  // a picture drawn by the game's code: a canvas with many coloured pixels, or an SVG
  if (el.tagName.toLowerCase() === 'svg') return el.querySelectorAll('*').length > 50;
  const g = el.getContext('2d');
  const d = g.getImageData(0, 0, el.width, el.height).data;
  let inked = 0;
  for (let i = 3; i < d.length; i += 4 * 7) if (d[i] > 0) inked += 1;
  return inked > d.length / (4 * 7) / 10;
}"""


@pytest.mark.parametrize("game", ["ishtar", "babylon-gardens"])
def test_each_game_has_a_rules_page_in_three_languages_with_its_own_pictures(
    live_server: str, new_page: Callable[..., Page], artifacts: Path, game: str
) -> None:
    for lang, locale in LANGS.items():
        for size, name in ((WIDE, "wide"), (PHONE, "phone")):
            page = new_page(locale=locale, **size)
            page.goto(f"{live_server}/rules/{game}")
            expect(page.locator("#rules[data-ready='1']")).to_be_attached()
            expect(page.locator("#rules h1")).to_have_text(HEADINGS[(game, lang)])
            assert page.evaluate("document.documentElement.lang") == lang
            parts = page.locator(".rules-part")
            assert parts.count() >= 7
            # every section has words (no catalogue key shows through) and a contents link
            for text in parts.all_inner_texts():
                assert len(text) > 80 and f"{game.split('-')[0]}.rules." not in text
            assert page.locator(".rules-toc a").count() == parts.count()
            figures = page.locator(".rules-figure canvas, .rules-figure svg")
            expect(figures).to_have_count(page.locator(".rules-figure").count())
            assert figures.count() >= 4
            for i in range(figures.count()):
                figure = figures.nth(i)
                figure.scroll_into_view_if_needed()
                wait_until(page, PAINTED, figure.element_handle(), timeout=10000)
            # nothing wider than the screen on a phone
            assert page.evaluate(
                "document.documentElement.scrollWidth <= window.innerWidth"
            )
            shoot(
                page,
                artifacts / f"teach-rules-{game}-{lang}-{name}.png",
                full_page=name == "wide" and lang == "en",
            )


def test_a_rules_page_of_no_such_game_is_a_404(live_server: str) -> None:
    answer = httpx.get(f"{live_server}/rules/chess", timeout=10)
    assert answer.status_code == 404


def test_the_rules_are_linked_from_home_waiting_room_and_table(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page(locale="fr-FR", **WIDE)
    page.goto(f"{live_server}/")
    link = page.locator("#rules-link")
    expect(link).to_have_attribute("href", "/rules/ishtar")
    expect(link).to_contain_text("Comment jouer à Ishtar")
    page.locator("#game-pick input[value='babylon-gardens']").check(force=True)
    expect(link).to_have_attribute("href", "/rules/babylon-gardens")
    # the waiting room and the table link the room's own game
    t = table(live_server, start=False, game="babylon-gardens")
    page.goto(f"{live_server}/r/{t['room']}")
    expect(page.locator("#lobby a[data-rules]")).to_have_attribute(
        "href", "/rules/babylon-gardens"
    )
    expect(page.locator("#lobby a[data-rules]")).to_have_text("Comment jouer")
    t = table(live_server)
    hold(page, live_server, t["room"], seat=t["ana"])
    open_room(page, live_server, t["room"])
    rules = page.locator("#side a[data-rules]")
    expect(rules).to_be_visible()
    expect(rules).to_have_attribute("href", "/rules/ishtar")
    with page.context.expect_page() as opened:  # a new tab: the game stays open
        rules.click()
    tab = opened.value
    tab.wait_for_url("**/rules/ishtar")
    expect(tab.locator("#rules h1")).to_contain_text("Ishtar")


def created_options(page: Page) -> list[dict[str, Any]]:
    """Record the options of every room the page creates."""
    sent: list[dict[str, Any]] = []

    def seen(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/api/rooms"):
            sent.append(request.post_data_json)

    page.on("request", seen)
    return sent


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_the_home_page_offers_its_options_in_plain_words(
    live_server: str, new_page: Callable[..., Page], artifacts: Path, lang: str
) -> None:
    words = {
        "en": ("Recommended (balanced)", "Classic numbers", "What differs?", "Seat 1"),
        "fr": (
            "Recommandée (équilibrée)",
            "Nombres classiques",
            "Quelles différences ?",
            "Place 1",
        ),
        "nl": (
            "Aanbevolen (in balans)",
            "Klassieke getallen",
            "Wat is het verschil?",
            "Plaats 1",
        ),
    }[lang]
    recommended, classic, more, seat_one = words
    for size, name in ((WIDE, "wide"), (PHONE, "phone")):
        page = new_page(locale=LANGS[lang], **size)
        page.goto(f"{live_server}/")
        edition = page.locator("[data-option=edition]")
        options = edition.locator("label")
        expect(options.first).to_have_text(recommended)
        assert classic in options.all_inner_texts()
        assert not any(re.match(r"^\d", o) for o in options.all_inner_texts())
        expect(edition.locator("a.more")).to_have_text(more)
        expect(edition.locator("a.more")).to_have_attribute(
            "href", "/rules/ishtar#option-edition"
        )
        # the first player is counted from 1, and only the seats of the table are offered
        first = page.locator("[data-option=first_player] select")
        shown = first.locator("option:not([hidden])")
        expect(shown).to_have_count(3)  # random, seat 1, seat 2 at 2 players
        expect(shown.nth(1)).to_have_text(seat_one)
        page.check("input[name=players][value='4']", force=True)
        expect(first.locator("option:not([hidden])")).to_have_count(5)
        shoot(page, artifacts / f"teach-home-{lang}-{name}.png", full_page=True)


def test_team_mode_is_offered_with_four_players_only_before_create(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    page = new_page(locale="en-GB", **WIDE)
    sent = created_options(page)
    page.goto(f"{live_server}/")
    page.locator("#game-pick input[value='babylon-gardens']").check(force=True)
    teams = page.locator("[data-option=teams] input[type=checkbox]")
    expect(teams).to_be_disabled()
    expect(page.locator("[data-option=teams] .players-note")).to_have_text(
        "Only with 4 players."
    )
    page.check("input[name=players][value='4']", force=True)
    expect(teams).to_be_enabled()
    teams.check()
    page.select_option("[data-option=first_player] select", "3")  # "Seat 4"
    page.check("input[name=players][value='2']", force=True)
    # back at 2: no team mode and no fourth seat; the room is created, not refused
    expect(teams).to_be_disabled()
    expect(teams).not_to_be_checked()
    expect(page.locator("[data-option=first_player] select")).to_have_value("")
    shoot(page, artifacts / "teach-home-teams-2.png", full_page=True)
    page.fill("#name", "Ana")
    page.click("#create-btn")
    page.wait_for_url("**/r/**")
    assert sent[-1]["players"] == 2
    assert sent[-1]["options"]["teams"] is False
    assert sent[-1]["options"]["first_player"] is None


@pytest.mark.parametrize(
    ("lang", "medium"), [("en", "medium"), ("fr", "moyen"), ("nl", "gemiddeld")]
)
def test_a_bots_level_reads_in_the_page_language(
    live_server: str,
    new_page: Callable[..., Page],
    artifacts: Path,
    lang: str,
    medium: str,
) -> None:
    with httpx.Client(base_url=live_server, timeout=10) as http:
        created = http.post(
            "/api/rooms", json={"players": 2, "name": "Ana", "game": "ishtar"}
        ).json()
        t = {"room": created["room_id"], "ana": created["token"]}
        t["host"] = created["host_token"]
        bot = http.post(
            f"/api/rooms/{t['room']}/bots",
            json={"level": "medium", "seat": 1},
            headers=bearer(t["host"]),
        )
        assert bot.status_code == 201, bot.text
    for size, name in ((WIDE, "wide"), (PHONE, "phone")):
        page = new_page(locale=LANGS[lang], **size)
        hold(page, live_server, t["room"], seat=t["ana"], host=t["host"])
        page.goto(f"{live_server}/r/{t['room']}")
        seat = page.locator("#seats .seat[data-seat='1'] .name")
        expect(seat).to_have_text(f"Nabu ({medium})")
        # the whole name shows, not "Nabu (medi…"
        assert seat.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        shoot(page, artifacts / f"teach-bot-{lang}-{name}.png")
    # at the table too: the gardener's panel names the bot whole, in the page's language
    with httpx.Client(base_url=live_server, timeout=10) as http:
        started = http.post(f"/api/rooms/{t['room']}/start", headers=bearer(t["host"]))
        assert started.status_code == 200, started.text
    for size, name in ((WIDE, "wide"), (PHONE, "phone")):
        page = new_page(locale=LANGS[lang], **size)
        hold(page, live_server, t["room"], seat=t["ana"], host=t["host"])
        open_room(page, live_server, t["room"])
        # seats may be drawn at the start: find the bot's panel by its name
        panel = page.locator(".player .pname", has_text="Nabu")
        expect(panel).to_contain_text(f"Nabu ({medium})")
        assert panel.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "cut off"
        shoot(page, artifacts / f"teach-bot-table-{lang}-{name}.png")


def view_of(base: str, room: str, token: str) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=10) as http:
        answer = http.get(f"/api/rooms/{room}/view", headers=bearer(token))
        return dict(answer.json())


def pick(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A step that steers the game to a last round: the first player (seat 0) empties the
    second pile when it can, so the other seat still has a turn; the other seat never
    empties a pile. Otherwise the first legal step."""
    chooses = [a for a in legal if a["type"] == "choose"]
    if not chooses or "carpet" not in view:
        return legal[0]
    size = {i: p["size"] for i, p in enumerate(view["carpet"]["piles"])}
    if view["current"] == 0:
        emptying = [a for a in chooses if size[a["pile"]] == 1]
        if emptying:
            return min(emptying, key=lambda a: len(a["pay"]))
    keeping = [a for a in chooses if size[a["pile"]] > 1]
    return min(keeping or chooses, key=lambda a: len(a["pay"]))


def play_until(base: str, t: dict[str, str], done: Callable[[dict], bool]) -> None:
    """Both seats play over HTTP (never undoing) until `done(view)` or the game's end."""
    with httpx.Client(base_url=base, timeout=10) as http:

        def view(token: str) -> dict[str, Any]:
            answer = http.get(f"/api/rooms/{t['room']}/view", headers=bearer(token))
            return dict(answer.json())

        while True:
            state = view(t["ana"])
            if done(state["view"]) or state["view"]["phase"] == "over":
                return
            token = t["ana"] if state["view"]["current"] == 0 else t["bjorn"]
            mine = state if token == t["ana"] else view(token)
            legal = [
                e["action"] for e in mine["legal"] if e["action"]["type"] != "undo"
            ]
            answer = http.post(
                f"/api/rooms/{t['room']}/moves",
                headers=bearer(token),
                json={
                    "move": pick(mine["view"], legal),
                    "expected_version": mine["version"],
                    "move_id": str(uuid.uuid4()),
                },
            )
            assert answer.status_code == 200, answer.text


def open_tables(
    base: str, t: dict[str, str], new_page: Callable[..., Page], size: dict[str, Any]
) -> dict[str, Page]:
    """Ana's table open in English, French and Dutch pages of `size`."""
    pages = {}
    for lang, locale in LANGS.items():
        page = new_page(locale=locale, **size)
        hold(page, base, t["room"], seat=t["ana"])
        open_room(page, base, t["room"])
        pages[lang] = page
    return pages


def look_away(pages: dict[str, Page]) -> None:
    """The pages leave the table while moves they do not look at are played: Chromium
    draws none of them (a game is some hundred moves)."""
    for page in pages.values():
        page.goto("about:blank")


def look_back(base: str, t: dict[str, str], pages: dict[str, Page]) -> None:
    for page in pages.values():
        open_room(page, base, t["room"])


def a_pile_of_one(view: dict[str, Any]) -> bool:
    """A pile is one choice from empty (the first seat empties it when it can: `pick`)."""
    return any(p["size"] == 1 for p in view["carpet"]["piles"])


def test_ishtar_announces_the_end_before_it_comes(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    """One game, watched in English, French and Dutch at once (one game per language
    cost a game's moves three times). The pages look away while the piles run down and
    are back before each pile that empties, so each announcement appears live."""
    near = {
        "en": "A pile is empty. When a second pile empties",
        "fr": "Une pile est vide.",
        "nl": "Er is een stapel leeg.",
    }
    last = {
        "en": "The second pile is empty: this is the last round.",
        "fr": "La deuxième pile est vide\u00a0: c’est le dernier tour.",
        "nl": "De tweede stapel is leeg: dit is de laatste ronde.",
    }
    t = table(live_server)
    pages = open_tables(live_server, t, new_page, WIDE)
    for page in pages.values():
        expect(page.locator("#end-notice")).to_be_hidden()
    look_away(pages)
    play_until(live_server, t, lambda v: a_pile_of_one(v) or v["piles_to_end"] < 2)
    look_back(live_server, t, pages)
    play_until(live_server, t, lambda v: v["piles_to_end"] == 1)
    for lang, page in pages.items():
        notice = page.locator("#end-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text(near[lang])
        shoot(page, artifacts / f"teach-end-near-{lang}-wide.png")
    look_away(pages)
    play_until(live_server, t, lambda v: a_pile_of_one(v) or v["piles_to_end"] < 1)
    look_back(live_server, t, pages)
    play_until(live_server, t, lambda v: v["piles_to_end"] == 0)
    assert view_of(live_server, t["room"], t["ana"])["view"]["phase"] != "over"
    for lang, page in pages.items():
        expect(page.locator("#end-notice")).to_have_text(
            re.compile("^" + re.escape(last[lang]))
        )
    phones = open_tables(live_server, t, new_page, PHONE)
    for lang, phone in phones.items():
        expect(phone.locator("#end-notice")).to_contain_text(last[lang])
        shoot(pages[lang], artifacts / f"teach-end-last-{lang}-wide.png")
        shoot(phone, artifacts / f"teach-end-last-{lang}-phone.png")
        # the sidebar reads whole in every language: nothing wider than its column
        # (waited for: a page just brought back may still be laying its panels out)
        side = pages[lang].locator("#side")
        try:
            pages[lang].wait_for_function(SIDE_FITS, timeout=10_000)
        except PlaywrightTimeout:
            wider = side.evaluate(WIDER_THAN_SIDE)
            raise AssertionError(f"{lang}: wider than the sidebar: {wider}") from None
    play_until(live_server, t, lambda v: False)
    for page in pages.values():
        expect(page.locator("#end-notice")).to_be_hidden()


SIDE_FITS = """() => {
  const s = document.querySelector("#side");
  return s !== null && s.scrollWidth <= s.clientWidth + 1;
}"""

WIDER_THAN_SIDE = """s => s.scrollWidth <= s.clientWidth + 1 ? [] :
  [...s.querySelectorAll("*")]
    .filter(e => e.getBoundingClientRect().right > s.getBoundingClientRect().right + 1)
    .slice(0, 5)
    .map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right
      - s.getBoundingClientRect().right)}px: ${e.textContent.slice(0, 60)}`)"""
"""What sticks out of the sidebar on the right (nothing, when it fits)."""


TILE_ID = re.compile(r"\b[SM]-[rgyp]\d")


def test_babylon_explains_its_words_and_announces_the_end(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    """One game, watched in English, French and Dutch at once; the pages look away while
    the scoreboards fill and are back some harvests before the end is announced."""
    winks = {"en": "Winks are the nectar", "fr": "Les jetons sont", "nl": "Fiches zijn"}
    side = {"en": "The side of this", "fr": "La face de ce", "nl": "De kant van dit"}
    near = {
        "en": "winks: the game ends the moment a scoreboard is full",
        "fr": "jetons sur 25\u00a0: la partie s’arrête dès qu’un tableau est plein",
        "nl": "fiches: het spel eindigt zodra een scorebord vol is",
    }
    t = table(live_server, game="babylon-gardens")
    pages = open_tables(live_server, t, new_page, WIDE)
    for lang, page in pages.items():
        facts = page.locator(".bg-player[data-seat='0'] .bg-facts dt")
        expect(facts.nth(0)).to_have_attribute("title", re.compile("^" + side[lang]))
        expect(facts.nth(1)).to_have_attribute("title", re.compile("^" + winks[lang]))
        expect(page.locator("#end-notice")).to_be_hidden()

    def fullest(view: dict[str, Any]) -> int:
        return max(len(p.get("winks") or []) for p in view["players"])

    look_away(pages)
    play_until(live_server, t, lambda v: fullest(v) >= 15)
    look_back(live_server, t, pages)
    play_until(live_server, t, lambda v: fullest(v) >= 19)
    assert view_of(live_server, t["room"], t["ana"])["view"]["phase"] != "over"
    for lang, page in pages.items():
        notice = page.locator("#end-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text(near[lang])
        # no native tooltip shows a tile's internal id ("S-y1")
        titles = page.eval_on_selector_all(
            "#game [title]", "els => els.map(e => e.getAttribute('title'))"
        )
        assert titles and not [x for x in titles if TILE_ID.search(x)], titles
        shoot(page, artifacts / f"teach-babylon-{lang}-wide.png")
    phones = open_tables(live_server, t, new_page, PHONE)
    for lang, phone in phones.items():
        expect(phone.locator("#end-notice")).to_contain_text(near[lang])
        shoot(phone, artifacts / f"teach-babylon-{lang}-phone.png")
