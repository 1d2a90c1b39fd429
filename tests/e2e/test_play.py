"""Playing through the browser against a real server: two players in two browser contexts
create a room, join and start it, and play turns by clicking on the canvas; a spectator
watches; a reload resumes; keyboard-only play works; a complete game ends on the scores."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.gardener import Gardener, wait_until
from tests.e2e.shots import shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def seat_two(
    new_page: Callable[..., Page], live_server: str, phone: bool = False
) -> tuple[Gardener, Gardener, str]:
    """Ana creates a 2-player room and Björn joins it (on a phone if `phone`)."""
    ana = Gardener(new_page(), "Ana")
    if phone:
        page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
        bjorn = Gardener(page, "Björn", touch=True)
    else:
        bjorn = Gardener(new_page(), "Björn")
    room = ana.create_room(live_server)
    bjorn.join(live_server, room)
    expect(ana.page.locator("#seats li.seat:not(.free)")).to_have_count(2)
    return ana, bjorn, room


def to_play(*people: Gardener, timeout: float = 10.0) -> Gardener:
    """The person whose turn it is (waits for the views to settle)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in people:
            if p.my_turn():
                return p
        time.sleep(0.03)
    raise AssertionError("nobody has legal actions")


def test_two_players_spectator_reload_and_keyboard(
    new_page: Callable[..., Page], live_server: str, artifacts: Path
) -> None:
    home = new_page()
    home.goto(live_server + "/")
    expect(home.locator("#create")).to_be_visible()
    shoot(home, artifacts / "home.png")

    ana, bjorn, room = seat_two(new_page, live_server, phone=True)
    ana.shot(artifacts, "lobby")
    expect(ana.page.locator("#start-btn")).to_be_visible()
    expect(bjorn.page.locator("#start-btn")).to_be_hidden()
    ana.start()
    for p in (ana, bjorn):
        wait_until(p.page, "() => window.__ishtar?.phase === 'choose'")

    # whose turn it is: in the tab title and the banner
    first = to_play(ana, bjorn)
    other = bjorn if first is ana else ana
    expect(first.page).to_have_title("Your turn · Ishtar Online")
    expect(other.page).not_to_have_title("Your turn · Ishtar Online")
    expect(other.page.locator("#turn-banner")).to_contain_text(f"{first.name}’s turn")

    # several turns by clicking: piles on the carpet, tiles on the canvas, buttons
    hovered = False
    for _ in range(9):
        who = to_play(ana, bjorn)
        legal = who.legal()
        if not hovered and legal[0]["type"] == "place":
            hover_checks(who, legal, artifacts)
            hovered = True
        who.play_step()
    assert hovered
    ana.shot(artifacts, "game-player")
    bjorn.shot(artifacts, "phone-player")

    # a spectator sees the public game, no controls, and the next move within a second
    watcher = Gardener(new_page(), "Watcher")
    watcher.page.goto(f"{live_server}/r/{room}")
    wait_until(watcher.page, "() => window.__ishtar?.version > 0")
    assert watcher.hook("viewer") is None
    assert watcher.legal() == []
    expect(watcher.page.locator("#actionbar")).to_have_class("actionbar idle")
    expect(watcher.page.locator("#actionbar button")).to_have_count(0)
    expect(watcher.page.locator(".pile.legal")).to_have_count(0)
    expect(watcher.page.locator("#log li")).not_to_have_count(0)
    expect(ana.page.locator("#me")).to_contain_text("Ana")  # her own panel, first
    expect(ana.page.locator("#players")).to_contain_text("Björn")
    who = to_play(ana, bjorn)
    done = who.play_step()
    # how fast is a benchmark figure; here the spectator only has to get the move
    watcher.wait_version(who.version() or 0, timeout=45000)
    assert watcher.hook("view().turn") == who.hook("view().turn")
    expect(watcher.page.locator("#log li").last).not_to_be_empty()
    watcher.shot(artifacts, "spectator")
    assert done["type"]

    # the connection drops: the status says so, and the reconnect fetches what was missed
    watcher.page.evaluate("() => window.__ishtar.dropConnection(2500)")
    expect(watcher.page.locator("#conn")).to_have_attribute("data-state", "offline")
    for _ in range(2):
        to_play(ana, bjorn).play_step()
    latest = max(ana.version() or 0, bjorn.version() or 0)
    watcher.wait_version(latest, timeout=45000)
    expect(watcher.page.locator("#conn")).to_have_attribute("data-state", "online")
    for seq in (latest - 1, latest):
        expect(watcher.page.locator(f"#log li[data-seq='{seq}']")).to_have_count(1)

    # a phone-sized spectator: the board and the panels stack
    phone = Gardener(
        new_page(width=390, height=844, is_mobile=True, has_touch=True), "Phone"
    )
    phone.page.goto(f"{live_server}/r/{room}")
    wait_until(phone.page, "() => window.__ishtar?.version > 0")
    phone.shot(artifacts, "phone")

    # reload: the same seat, the same game, the same version
    who = to_play(ana, bjorn)
    version = who.version()
    who.page.reload()
    wait_until(
        who.page, "v => window.__ishtar?.version === v && window.__ishtar.mine", version
    )
    assert who.my_turn()
    expect(who.page.locator("#log li")).not_to_have_count(0)

    # the home page of this browser lists the game, and says whose turn it is
    home = who.page.context.new_page()
    home.goto(live_server + "/")
    expect(home.locator(f"#your-games a[href='/r/{room}']")).to_contain_text(
        "your turn"
    )
    home.close()

    # a whole turn from the keyboard
    keyboard_turn(who, ana, bjorn)


def hover_checks(who: Gardener, legal: list[dict], artifacts: Path) -> None:
    """Green with the gems collected on a legal spot, red with the engine's reason elsewhere."""
    page = who.page
    action = legal[0]
    for _ in range(6):
        if who.hook("rotation") == action["rotation"]:
            break
        page.keyboard.press("r")
    # on a phone a pile chosen low on the carpet scrolled the board up: the hover is
    # made where the board is in sight (board_point), and reaches it (point_at)
    x, y = who.board_point("a => window.__ishtar.placePoint(a)", action)
    who.point_at(x, y)
    expect(page.locator("#tooltip.ok")).to_be_visible()
    shoot(page, artifacts / "hover-legal.png")
    # the fountain itself can never be covered: the grip cell on it is illegal
    fountain = page.evaluate(
        "() => { const c = window.__ishtar.view().cells.find(c => c.terrain === 'fountain');"
        " return [c.q, c.r]; }"
    )
    fx, fy = who.board_point("c => window.__ishtar.hexToClient(c)", fountain)
    who.point_at(fx, fy)
    tip = page.locator("#tooltip.bad")
    expect(tip).to_be_visible()
    expect(tip).not_to_have_text("Checking…")
    assert len(tip.inner_text()) > 10
    shoot(page, artifacts / "hover-illegal.png")
    page.keyboard.press("r")
    assert who.hook("rotation") == (action["rotation"] + 1) % 6
    page.keyboard.press("Shift+R")
    assert who.hook("rotation") == action["rotation"]
    # while placing, the wheel over the board rotates the tile instead of zooming
    page.mouse.wheel(0, 120)
    wait_until(
        page, "r => window.__ishtar.rotation === r", (action["rotation"] + 1) % 6
    )
    # The page takes one rotation per 140 ms of wheel (WHEEL_ROTATE_MS in input.js): a
    # rule of the page in time, so a pause past it, not a wait for a state.
    page.wait_for_timeout(200)
    page.mouse.wheel(0, -120)
    wait_until(page, "r => window.__ishtar.rotation === r", action["rotation"])


def keyboard_turn(who: Gardener, *people: Gardener) -> None:
    """Play steps by keys only until the turn passes to the other player."""
    page = who.page
    page.locator("#board").focus()
    turn = who.hook("view().turn")
    for _ in range(12):
        if not who.my_turn() or who.hook("view().turn") != turn:
            return
        before = who.version() or 0
        phase = who.hook("phase")
        legal = who.legal()
        if phase == "choose":
            pile = min(
                (a for a in legal if a["type"] == "choose"), key=lambda a: len(a["pay"])
            )["pile"]
            page.keyboard.press(str(pile + 1))
            if (
                who.version() == before
                and not who.hook("busy")
                and page.locator("[data-act='confirm']").count()
            ):
                page.keyboard.press("Enter")
        elif phase == "place":
            if any(a["type"] == "place" for a in legal):
                page.keyboard.press("n")
                page.keyboard.press("Enter")
            else:
                page.locator("[data-act='discard']").focus()
                page.keyboard.press("Enter")
        elif phase == "special":
            page.keyboard.press("p" if any(a["type"] == "pass" for a in legal) else "a")
        elif phase == "plant":
            page.keyboard.press("e")
        elif phase == "bloom":
            page.locator("[data-act^='token-']").first.focus()
            page.keyboard.press("Enter")
            page.keyboard.press("n")
            page.keyboard.press("Enter")
            # a double token takes a second cell; a move already on its way does not
            if who.version() == before and not who.hook("busy"):
                page.keyboard.press("n")
                page.keyboard.press("Enter")
        else:
            who.play_step()
            continue
        who.wait_version(before + 1)
    raise AssertionError("the keyboard turn did not end")


def test_complete_game_through_the_ui(
    new_page: Callable[..., Page], live_server: str, artifacts: Path
) -> None:
    ana, bjorn, _ = seat_two(new_page, live_server)
    ana.start()
    steps = 0
    while ana.hook("phase") != "over":
        who = to_play(ana, bjorn)
        who.play_step()
        steps += 1
        assert steps < 400, "the game does not end"
    for p in (ana, bjorn):
        wait_until(p.page, "() => window.__ishtar.phase === 'over'")
        expect(p.page.locator("#scores")).to_be_visible()
        expect(p.page.locator("#score-table tr.total td")).to_have_count(2)
        expect(p.page.locator("#winner")).not_to_be_empty()
        assert p.page.title() == "Game over · Ishtar Online"
    expect(ana.page.locator("#score-table")).to_contain_text("Total")
    ana.shot(artifacts, "final-scores")
    ana.page.click("#scores-close")
    expect(ana.page.locator("#scores")).to_be_hidden()
    ana.shot(artifacts, "final-board")


def test_a_bots_level_chosen_in_the_lobby_survives_an_update_of_the_room(
    new_page: Callable[..., Page], live_server: str
) -> None:
    """The lobby is drawn again at each update of the room (here a spectator arriving). It
    used to rebuild the seats list each time, so the level the host had just chosen went
    back to the preset, and the bot seated was not the one chosen."""
    ana = Gardener(new_page(), "Ana")
    ana.create_room(live_server)
    ana.page.select_option(".bot-picker select", "hard")
    watcher = new_page()
    watcher.goto(ana.page.url)
    expect(ana.page.locator("#spectators")).not_to_be_empty()
    expect(ana.page.locator(".bot-picker select")).to_have_value("hard")
    ana.page.click("[data-act='bot-1']")
    expect(ana.page.locator("#seats li.seat[data-seat='1']")).to_contain_text("hard")


def test_host_seats_a_bot_and_its_moves_appear(
    new_page: Callable[..., Page], live_server: str, artifacts: Path
) -> None:
    ana = Gardener(new_page(), "Ana")
    ana.create_room(live_server)
    expect(ana.page.locator("#start-btn")).to_be_disabled()
    ana.page.select_option(".bot-picker select", "easy")
    ana.page.click("[data-act='bot-1']")
    expect(ana.page.locator("#seats li.seat:not(.free)")).to_have_count(2)
    expect(ana.page.locator("#seats")).to_contain_text("bot")
    ana.start()
    wait_until(ana.page, "() => window.__ishtar?.phase != null")
    # whoever starts, the bot has played a full turn once Ana has played hers
    for _ in range(2):
        wait_until(ana.page, "() => window.__ishtar.mine", timeout=20000)
        turn = ana.hook("view().turn")
        while ana.my_turn() and ana.hook("view().turn") == turn:
            ana.play_step()
    wait_until(ana.page, "() => window.__ishtar.mine", timeout=20000)
    bot_seat = 1 - ana.hook("viewer")
    assert ana.page.locator(f"#log li[data-seat='{bot_seat}']").count() > 0
