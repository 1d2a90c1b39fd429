"""Table chat in real Chromium against a real server (issue 18, point 7): a player and a
spectator chat at the table, hostile text stays text, the spectators' channel stays away
from the players during the game, the host turns spectator chat off, what came while the
player was away is marked "since you last looked", and on a phone the panel folds with an
unread count. The shell names no game: the panel is the same in a Babylon Gardens room."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.gardener import wait_until
from tests.e2e.shots import shoot
from tests.e2e.test_async import BACKGROUND_AND_NOTIFICATIONS, bearer, hold, table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = "<img src=x onerror=alert(1)> good luck"


def open_room(page: Page, base: str, room: str) -> None:
    page.goto(f"{base}/r/{room}")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#side #chat")).to_be_visible()


def say(page: Page, text: str) -> None:
    box = page.locator("#chat .chat-input")
    box.fill(text)
    box.press("Enter")


def lines(page: Page) -> list[str]:
    texts: list[str] = page.locator("#chat .chat-line .chat-text").all_inner_texts()
    return texts


def test_a_player_and_a_spectator_chat_at_the_table(
    new_page: Callable[..., Page], live_server: str, artifacts: Path
) -> None:
    t = table(live_server)
    ana = new_page()
    ana.add_init_script(BACKGROUND_AND_NOTIFICATIONS)
    hold(ana, live_server, t["room"], seat=t["ana"], host=t["host"])
    open_room(ana, live_server, t["room"])
    watcher = new_page()
    open_room(watcher, live_server, t["room"])
    alerts: list[str] = []
    for page in (ana, watcher):
        page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))

    # A player writes to the table: everyone reads it, as text.
    say(ana, HOSTILE)
    for page in (ana, watcher):
        line = page.locator("#chat .chat-line").last
        expect(line.locator(".chat-text")).to_have_text(HOSTILE)
        expect(line.locator(".chat-who")).to_have_text("Ana")
        assert page.locator("#chat img").count() == 0
    expect(ana.locator("#chat .chat-tabs")).to_be_hidden()  # a player: the table only

    # A spectator writes in the spectators' channel, under the name they give.
    expect(watcher.locator("#chat .chat-tabs")).to_be_visible()
    watcher.locator("#chat .chat-name").fill("Zed")
    say(watcher, "Play the \u202egreen\u202c tile! \u200b")
    spectators_tab = watcher.locator('#chat .chat-tab[data-channel="spectators"]')
    expect(spectators_tab).to_have_attribute("aria-selected", "true")
    line = watcher.locator("#chat .chat-line").last
    expect(line.locator(".chat-text")).to_have_text(
        "Play the green tile! \u200b".strip()
    )
    expect(line.locator(".chat-who")).to_have_text("Zed")
    expect(line.locator(".chat-tag")).to_have_text("spectator")
    watcher.locator('#chat .chat-tab[data-channel="table"]').click()
    expect(watcher.locator("#chat .chat-text")).to_have_text([HOSTILE])

    # Björn writes over HTTP: once Ana has it, she would have had the spectator's before.
    with httpx.Client(base_url=live_server) as http:
        answer = http.post(
            f"/api/rooms/{t['room']}/chat",
            json={"text": "ready when you are"},
            headers=bearer(t["bjorn"]),
        )
        assert answer.status_code == 201, answer.text
    expect(ana.locator("#chat .chat-text")).to_have_text(
        [HOSTILE, "ready when you are"]
    )
    assert ana.locator('#chat .chat-line[data-channel="spectators"]').count() == 0
    assert "green" not in ana.locator("#chat").inner_text()

    # The host turns spectator chat off: the spectator's box says so.
    ana.locator("#chat .chat-host input").uncheck()
    spectator_box = watcher.locator("#chat .chat-input")
    expect(spectator_box).to_be_disabled()
    expect(spectator_box).to_have_attribute(
        "placeholder", "The host has turned spectator chat off"
    )
    watcher.locator('#chat .chat-tab[data-channel="spectators"]').click()
    ana.locator("#chat .chat-host input").check()
    expect(spectator_box).to_be_enabled()

    # Away and back: what came meanwhile is marked, and counted.
    ana.evaluate("window.__background(true)")
    with httpx.Client(base_url=live_server) as http:
        http.post(
            f"/api/rooms/{t['room']}/chat",
            json={"text": "are you there?"},
            headers=bearer(t["bjorn"]),
        )
    expect(ana.locator("#chat .chat-line.unseen .chat-text")).to_have_text(
        ["are you there?"]
    )
    ana.evaluate("window.__background(false)")
    expect(ana.locator("#chat .since-line")).to_have_text("Since you last looked")
    assert ana.evaluate("window.__ishtarBetween.news().chat") == 1

    # A reload brings the messages back from the server, in order.
    watcher.reload()
    expect(watcher.locator("#side #chat")).to_be_visible()
    watcher.locator('#chat .chat-tab[data-channel="table"]').click()
    expect(watcher.locator("#chat .chat-text")).to_have_text(
        [HOSTILE, "ready when you are", "are you there?"]
    )
    watcher.locator('#chat .chat-tab[data-channel="spectators"]').click()
    expect(watcher.locator("#chat .chat-text")).to_have_text(
        ["Play the green tile! \u200b".strip()]
    )
    watcher.locator('#chat .chat-tab[data-channel="table"]').click()
    watcher.locator("#chat").scroll_into_view_if_needed()
    shoot(watcher, artifacts / "chat.png")
    assert alerts == []


def test_on_a_phone_the_chat_folds_with_an_unread_count(
    new_page: Callable[..., Page], live_server: str, artifacts: Path
) -> None:
    t = table(live_server)
    phone = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    open_room(phone, live_server, t["room"])
    panel = phone.locator("#chat")
    expect(panel).to_have_class("panel chat-panel collapsed")
    with httpx.Client(base_url=live_server) as http:
        for text in ("hi from Ana", "hi from Björn"):
            token = t["ana"] if "Ana" in text else t["bjorn"]
            http.post(
                f"/api/rooms/{t['room']}/chat",
                json={"text": text},
                headers=bearer(token),
            )
    expect(phone.locator("#chat .chat-unread")).to_have_text("2")
    panel.scroll_into_view_if_needed()
    shoot(phone, artifacts / "chat-phone-folded.png")
    phone.locator("#chat .chat-toggle").click()
    expect(phone.locator("#chat .chat-text")).to_have_text(
        ["hi from Ana", "hi from Björn"]
    )
    expect(phone.locator("#chat .chat-unread")).to_be_hidden()
    box = phone.locator("#chat .chat-form").bounding_box()
    assert box is not None and box["width"] <= 390
    phone.locator("#chat .chat-name").fill("Mo")
    say(phone, "I am watching")
    expect(
        phone.locator('#chat .chat-line[data-channel="spectators"] .chat-text')
    ).to_have_text(["I am watching"])
    panel.scroll_into_view_if_needed()
    shoot(phone, artifacts / "chat-phone.png")


def test_a_refusal_is_said_under_the_box(
    new_page: Callable[..., Page], live_server: str
) -> None:
    t = table(live_server)
    page = new_page()
    hold(page, live_server, t["room"], seat=t["ana"], host=t["host"])
    open_room(page, live_server, t["room"])
    for n in range(5):
        say(page, f"message {n}")
        expect(page.locator("#chat .chat-line")).to_have_count(n + 1)
    say(page, "one too many")
    note = page.locator("#chat .chat-note")
    expect(note).to_contain_text("At most 5 chat messages in 10 s")
    expect(page.locator("#chat .chat-input")).to_have_value("one too many")
    assert lines(page)[-1] == "message 4"


def test_the_chat_is_the_same_in_a_babylon_gardens_room(
    new_page: Callable[..., Page], live_server: str, artifacts: Path
) -> None:
    with httpx.Client(base_url=live_server) as http:
        created = http.post(
            "/api/rooms",
            json={"game": "babylon-gardens", "players": 2, "name": "Ana"},
        ).json()
    room = created["room_id"]
    page = new_page()
    hold(page, live_server, room, seat=created["token"], host=created["host_token"])
    page.goto(f"{live_server}/r/{room}")
    expect(
        page.locator("#lobby #chat")
    ).to_be_visible()  # before the start: the lobby's
    say(page, "waiting for you")
    expect(page.locator("#chat .chat-text")).to_have_text(["waiting for you"])
    wait_until(page, "() => window.__ishtarChat.lines.length === 1")
    shoot(page, artifacts / "chat-lobby.png")
