"""The shell in French and Dutch, in Chromium (issue 18, "Languages"; docs/client.md
"Languages in the shell"): a French browser reads the home page and a room's lobby in
French, a refusal of the server reads in Dutch (its message, over HTTP and over the
websocket), and the game log names the players, not their colours. Screenshots of the
home page and a room in each language, wide and on a phone, go to test-artifacts/e2e.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.gardener import wait_until
from tests.e2e.shots import shoot
from tests.e2e.test_async import hold, open_room, play_turn, table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}


def lobby(base: str, players: int = 2) -> dict[str, str]:
    """A room of `players` with Ana seated (the host), over HTTP."""
    with httpx.Client(base_url=base, timeout=10) as http:
        created = http.post(
            "/api/rooms", json={"players": players, "name": "Ana", "game": "ishtar"}
        ).json()
    return {"room": created["room_id"], "ana": created["token"]}


def test_a_french_browser_reads_the_home_page_in_french(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    page = new_page(locale="fr-FR")
    page.goto(f"{live_server}/")
    assert page.evaluate("document.documentElement.lang") == "fr"
    expect(page.locator(".hero h1")).to_have_text(
        "Faites fleurir les jardins de Babylone"
    )
    expect(page.locator("#create h2")).to_have_text("Nouvelle partie")
    expect(page.locator("#create label.field > span").first).to_have_text("Votre nom")
    expect(page.locator("#create-btn")).to_have_text("Créer la partie")
    expect(page.locator("#time-control summary")).to_contain_text("Temps par coup")
    expect(page.locator("#per-move option").first).to_have_text("sans limite")
    expect(page.locator("#your-games li")).to_have_text(
        "Les parties que vous rejoignez sur cet appareil apparaissent ici."
    )
    expect(page.locator("#open-record")).to_have_text(
        "Ouvrir l’enregistrement d’une partie…"
    )
    # the game's own words for its options (its screen's catalogue), hints included
    layout = page.locator("[data-option=layout]")
    expect(layout.locator("legend")).to_have_text("Disposition du plateau")
    expect(layout.locator("label")).to_have_text(["Prédéfinie", "Au hasard"])
    expect(layout.locator(".hint")).to_have_text(
        "La disposition de la règle, ou des plateaux tirés au hasard."
    )
    expect(page.locator("#game-pick")).to_contain_text(
        "Ishtar : Les Jardins de Babylone"
    )
    assert page.title() == "Ishtar Online — les jardins de Babylone"
    shoot(page, artifacts / "lang-home-fr.png", full_page=True)
    phone = new_page(locale="fr-FR", **PHONE)
    phone.goto(f"{live_server}/")
    expect(phone.locator("#create-btn")).to_have_text("Créer la partie")
    shoot(phone, artifacts / "lang-home-fr-phone.png", full_page=True)


def test_a_room_lobby_reads_in_french(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    t = lobby(live_server, players=3)
    page = new_page(locale="fr-FR")
    page.goto(f"{live_server}/r/{t['room']}")
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#lobby h1")).to_have_text("En attente des joueurs")
    expect(page.locator("#lobby-sub")).to_contain_text("3 joueurs")
    expect(page.locator("#lobby-sub")).to_contain_text(
        "2 places libres. Partagez le lien pour inviter."
    )
    expect(page.locator("#seats .seat.free .name").first).to_have_text("Place libre")
    expect(page.locator("#join-btn")).to_have_text("Prendre une place")
    expect(page.locator("#copy-link")).to_have_text("Copier le lien d’invitation")
    expect(page.locator("#conn")).to_have_attribute(
        "title", "Connexion\u00a0: En direct"
    )
    expect(page.locator("#chat .chat-empty")).to_have_text("Pas encore de message.")
    shoot(page, artifacts / "lang-lobby-fr.png", full_page=True)
    dutch = new_page(locale="nl-NL", **PHONE)
    dutch.goto(f"{live_server}/r/{t['room']}")
    expect(dutch.locator("#lobby h1")).to_have_text("Wachten op spelers")
    expect(dutch.locator("#lobby-sub")).to_contain_text("2 plaatsen vrij")
    shoot(dutch, artifacts / "lang-lobby-nl-phone.png", full_page=True)


def test_refusals_read_in_dutch(
    live_server: str, new_page: Callable[..., Page], tmp_path: Path
) -> None:
    # over HTTP: a record that is no JSON object
    page = new_page(locale="nl-NL")
    page.goto(f"{live_server}/records")
    bad = tmp_path / "record.json"
    bad.write_text("[1, 2]")
    expect(page.locator("#import-file")).to_be_enabled()  # its listener is in place
    page.set_input_files("#import-file", str(bad))
    expect(page.locator("#import-error")).to_have_text(
        "Een spelverslag is een JSON-object."
    )
    # over the websocket: a chat message over the limit, refused with its numbers
    t = lobby(live_server)
    page.goto(f"{live_server}/r/{t['room']}")
    expect(page.locator("#chat")).to_be_visible()
    page.evaluate(
        "() => { const box = document.querySelector('#chat .chat-input');"
        " box.value = 'x'.repeat(600); }"
    )
    page.locator("#chat .chat-input").press("Enter")
    expect(page.locator("#chat .chat-note")).to_have_text(
        "Een chatbericht heeft hoogstens 500 tekens (deze heeft er 600)."
    )


INJECT = """async ([seat, text]) => {
  // the page's own modules (same versioned prefix), so the seat namer main.js set is used
  const base = document.querySelector('script[src$="/js/main.js"]').src.replace(/main\\.js$/, "");
  const log = await import(base + "log.js");
  const box = document.getElementById("log");
  const event = { seq: 10000, seat, text,
    message: { key: "game.turn_of", params: { of_name: { seat } } } };
  log.appendLog(box, [event], window.__ishtar.view());
  return box.lastElementChild.textContent;
}"""


def test_the_log_names_the_players_not_their_colours(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    t = table(live_server, first_player=0)
    play_turn(live_server, t["room"], t["ana"])
    page = new_page()
    hold(page, live_server, t["room"], seat=t["ana"], host=t["host"])
    open_room(page, live_server, t["room"])
    wait_until(page, "() => document.querySelectorAll('#log li[data-seq]').length > 0")
    with httpx.Client(base_url=live_server) as http:
        moves = http.get(f"/api/rooms/{t['room']}/moves").json()["moves"]
    # The server words each line as a message (docs/i18n.md); its English text says the
    # seat's colour, the page says the player's name, keeping the colour as the mark.
    assert "message" in moves[0] and moves[0]["text"].startswith("Blue"), moves[0]
    first = page.locator("#log li[data-seq]").first
    assert first.inner_text().startswith("Ana "), first.inner_text()
    assert "Blue" not in page.locator("#log").inner_text()
    assert first.evaluate("li => li.style.getPropertyValue('--pc')") != ""
    french = new_page(locale="fr-FR")
    hold(french, live_server, t["room"], seat=t["bjorn"])
    open_room(french, live_server, t["room"])
    wait_until(
        french, "() => document.querySelectorAll('#log li[data-seq]').length > 0"
    )
    line = french.locator("#log li[data-seq]").first.inner_text()
    assert line.startswith("Ana ") and line != first.inner_text(), line
    # A message's seat reads as the room's name for it, with the seat's colour mark.
    shown = page.evaluate(INJECT, [1, "Yellow is up."])
    assert shown == "Björn’s turn"
    mark = page.locator("#log li[data-seq='10000']")
    assert mark.evaluate("li => li.style.getPropertyValue('--pc')") != ""
    # an entry of an older server, without a message, keeps its English text
    legacy = page.evaluate(
        """async () => {
          const base = document.querySelector('script[src$="/js/main.js"]').src.replace(/main\\.js$/, "");
          const log = await import(base + "log.js");
          return log.entryText({ seq: 1, seat: 0, text: "Blue placed a tile." });
        }"""
    )
    assert legacy == "Blue placed a tile."
    shoot(page, artifacts / "lang-log-names.png")


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_a_game_in_french_and_dutch_wide_and_on_a_phone(
    live_server: str, new_page: Callable[..., Page], artifacts: Path, lang: str
) -> None:
    t = table(live_server, first_player=0)
    for size in ({}, PHONE):
        page = new_page(locale=f"{lang}-BE", **size)
        hold(page, live_server, t["room"], seat=t["ana"], host=t["host"])
        open_room(page, live_server, t["room"])
        expect(page.locator("#turn-banner")).to_contain_text(
            {"fr": "À vous de jouer", "nl": "Jouw beurt"}[lang]
        )
        expect(page.locator(".log-panel h2")).to_contain_text(
            {"fr": "Journal de la partie", "nl": "Spelverloop"}[lang]
        )
        # the banner is read whole, on a phone too (the switch shows codes there)
        banner = page.locator("#turn-banner")
        assert banner.evaluate("b => b.scrollWidth <= b.clientWidth"), "cut off"
        shown = page.locator("#lang-switch option:checked").inner_text()
        assert shown == (
            lang.upper() if size else {"fr": "Français", "nl": "Nederlands"}[lang]
        )
        name = "phone" if size else "wide"
        shoot(page, artifacts / f"lang-game-{lang}-{name}.png")
