"""Babylon Gardens played through the browser against a real server (issue 15): Ana on a
desktop creates a room from the home page (the game picked, scoreboards chosen), Björn joins
on a phone and plays by tapping; both choose a scoreboard side; a spectator sees every step
of every path; hovering an illegal square shows the engine's reason, a step is undone, one
turn is played with the keyboard, the harvest button says what it gives; the game is played
to its end, the final scores are shown to all, and the finished game is replayed."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.babylon_gardener import BabylonPlayer
from tests.e2e.gardener import wait_until
from tests.e2e.shots import shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def server(live_server: str) -> str:
    """The browser tests' server (tests/e2e/conftest.py): its rate limits let two
    scripted people play quickly."""
    return live_server


def to_play(*people: BabylonPlayer, timeout: float = 10.0) -> BabylonPlayer:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in people:
            if p.my_turn():
                return p
        time.sleep(0.03)
    raise AssertionError("nobody has legal actions")


def engine_reason(
    base: str, room: str, who: BabylonPlayer, action: dict[str, Any]
) -> str:
    """What the server says about `action` for this player (the page asks the same)."""
    token = who.page.evaluate(f"() => localStorage.getItem('ishtar.seat.{room}')")
    answer = httpx.post(
        f"{base}/api/rooms/{room}/why",
        json={"move": action},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    reason: str = answer.json()["reason"]
    return reason


def test_a_whole_game_two_players_a_phone_and_a_spectator(
    new_page: Callable[..., Page], server: str, artifacts: Path
) -> None:
    ana = BabylonPlayer(new_page(width=1280, height=800), "Ana")
    room = ana.create_room(server, scoreboards="choose")
    status = httpx.get(f"{server}/api/rooms/{room}").json()
    assert status["game"] == "babylon-gardens"
    assert status["options"]["scoreboards"] == "choose"
    expect(ana.page.locator("#lobby-sub")).to_contain_text(
        "Lower Garden · scoreboards chosen"
    )
    expect(ana.page.locator("#seats canvas.bg-seat-icon")).to_have_count(2)
    phone = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    bjorn = BabylonPlayer(phone, "Björn", touch=True)
    bjorn.join(server, room)
    expect(ana.page.locator("#seats li.seat:not(.free)")).to_have_count(2)
    shoot(ana.page, artifacts / "babylon-lobby.png")
    watcher = new_page(width=1280, height=800)
    watcher.goto(f"{server}/r/{room}")
    ana.page.locator("#start-btn").click()
    for p in (ana.page, bjorn.page, watcher):
        wait_until(p, "() => window.__ishtar?.phase === 'scoreboard'")

    # the scoreboard choice: seat 0 first, each on a side of a board nobody holds
    taken: list[str] = []
    while ana.hook("phase") == "scoreboard":
        who = to_play(ana, bjorn)
        expect(who.page.locator("#bg-chooser")).to_be_visible()
        sides = [a["side"] for a in who.legal()]
        assert sides and not any(s[0] == t[0] for s in sides for t in taken)
        if who is bjorn:
            shoot(who.page, artifacts / "babylon-phone-choose.png")
        chosen = who.play()
        taken.append(chosen["side"])
        watcher_sees(watcher, who.version())
    assert len(taken) == 2
    expect(ana.page.locator("#bg-chooser")).to_be_hidden()

    checked = {"hover": False, "undo": False, "keys": False, "bar": False}
    moves = 0
    while ana.hook("phase") != "over":
        who = to_play(ana, bjorn)
        view = who.view()
        legal = who.legal()
        if who is ana and not checked["hover"] and view["path"]:
            hover_checks(server, room, ana, artifacts)
            checked["hover"] = True
        if who is ana and checked["hover"] and not checked["undo"] and view["path"]:
            undo_check(ana, watcher)
            checked["undo"] = True
            continue
        if who is ana and checked["undo"] and not checked["keys"] and not view["path"]:
            keyboard_turn(ana, watcher)
            checked["keys"] = True
            continue
        harvest = next((a for a in legal if a["type"] == "harvest"), None)
        action = who.pick()
        if action["type"] == "harvest":
            bar_check(who, harvest)
            checked["bar"] = True
        who.play(action)
        watcher_sees(watcher, who.version())
        moves += 1
        if moves == 6:
            shoot(ana.page, artifacts / "babylon-game-player.png")
            shoot(bjorn.page, artifacts / "babylon-phone-player.png")
            shoot(watcher, artifacts / "babylon-spectator.png")
        assert moves < 600, "the game does not end"
    assert all(checked.values()), checked

    # the end: every page shows the final scores, per category
    final = httpx.get(f"{server}/api/rooms/{room}/view").json()["view"]["scores"]
    for page in (ana.page, bjorn.page, watcher):
        wait_until(page, "() => window.__ishtar.phase === 'over'")
        expect(page.locator("#scores")).to_be_visible()
        table = page.locator("#score-table")
        for label in ("Fill", "Colour", "Lines", "Winks", "Total"):
            expect(table).to_contain_text(label)
        totals = table.locator("tr.total td")
        expect(totals).to_have_count(2)
        assert [totals.nth(i).inner_text() for i in range(2)] == [
            str(p["total"]) for p in final["players"]
        ]
        expect(page.locator("#winner")).not_to_be_empty()
        assert page.title() == "Game over · Ishtar Online"
    full = [p for p in final["players"] if p["winks"] == 25]
    assert full, final  # the game ends when a scoreboard is full
    shoot(ana.page, artifacts / "babylon-final-scores.png")
    ana.page.click("#scores-close")
    shoot(ana.page, artifacts / "babylon-final-board.png")

    # the replay of the finished game: the board and the scoreboards, no controls
    replay = new_page(width=1280, height=800)
    replay.goto(f"{server}/r/{room}/replay?move=3")
    wait_until(replay, "() => !!window.__replay && window.__replay.shown === 3")
    expect(replay.locator(".bg-player")).to_have_count(2)
    expect(replay.locator("#bg-chooser")).to_be_hidden()
    expect(replay.locator("#game-panels button")).to_have_count(0)
    shown = replay.evaluate("() => window.__replay.view()")
    assert len(shown["path"]) == 1  # two sides chosen, then the first step of a path
    replay.keyboard.press("End")
    last = replay.evaluate("() => window.__replay.version")
    wait_until(replay, "v => window.__replay.shown === v", last)
    expect(replay.locator(".bg-player g.wink")).to_have_count(
        sum(p["winks"] for p in final["players"])
    )
    shoot(replay, artifacts / "babylon-replay-live.png")


def watcher_sees(watcher: Page, version: int) -> None:
    """The spectator gets the move (how fast is a benchmark figure, not asserted here)."""
    wait_until(watcher, "v => (window.__ishtar?.version || 0) >= v", version, 15000)
    assert watcher.evaluate("() => window.__ishtar.legal().length") == 0
    if watcher.evaluate("() => window.__ishtar.phase") != "over":
        assert (
            watcher.locator("#actionbar button").count() == 0
        )  # only the final scores


def hover_checks(base: str, room: str, ana: BabylonPlayer, artifacts: Path) -> None:
    """Green with the step's preview on a legal tile; the engine's reason elsewhere."""
    page = ana.page
    step = next((a for a in ana.legal() if a["type"] == "irrigate"), None)
    if step:
        x, y = ana.centre(step["at"])
        page.mouse.move(x, y)
        tip = page.locator("#bg-tooltip.ok")
        expect(tip).to_be_visible()
        expect(tip).to_contain_text("gems")
        shoot(page, artifacts / "babylon-live-hover-legal.png")
    well = ana.view()["floor"]["well"]
    x, y = ana.centre(well)
    page.mouse.move(x, y)
    reason = engine_reason(base, room, ana, {"type": "irrigate", "at": well})
    assert reason  # the well is never a step
    expect(page.locator("#bg-tooltip.bad")).to_have_text(reason)
    shoot(page, artifacts / "babylon-live-hover-illegal.png")
    page.mouse.move(2, 2)


def undo_check(ana: BabylonPlayer, watcher: Page) -> None:
    """A step, then "Undo step": the path is one tile shorter again, for the spectator too."""
    steps = [a for a in ana.legal() if a["type"] == "irrigate"]
    if steps:
        ana.play(steps[0])
        watcher_sees(watcher, ana.version())
    path = ana.view()["path"]
    expect(ana.page.locator("#actionbar [data-act='undo']")).to_contain_text(
        "Undo step"
    )
    ana.play({"type": "undo"})
    assert ana.view()["path"] == path[:-1]
    watcher_sees(watcher, ana.version())
    assert watcher.evaluate("() => window.__ishtar.view().path") == path[:-1]


def keyboard_turn(ana: BabylonPlayer, watcher: Page) -> None:
    """A whole turn by keys: arrows step from the path's end, Enter harvests."""
    ana.page.locator("#board").focus()
    turn = ana.view()["turn"]
    for _ in range(3):
        steps = [a for a in ana.legal() if a["type"] == "irrigate"]
        if not steps:
            break
        ana.play(steps[-1], keys=True)
        watcher_sees(watcher, ana.version())
    ana.play({"type": "harvest"}, keys=True)
    watcher_sees(watcher, ana.version())
    assert ana.view()["turn"] != turn or ana.view()["phase"] == "over"


def bar_check(who: BabylonPlayer, harvest: dict[str, Any] | None) -> None:
    """The harvest button shows what the harvest gives (the preview the page holds)."""
    assert harvest is not None
    button = who.page.locator("#actionbar [data-act='harvest']")
    expect(button).to_contain_text("End path and harvest")
    view = who.view()
    tiles = {tuple(t["at"]): t for t in view["tiles"]}
    filled = [
        at
        for at in view["path"]
        if tiles[tuple(at)]["gems"] == tiles[tuple(at)]["flowers"]
    ]
    me = next(p for p in view["players"] if p["seat"] == view["viewer"])
    room_left = 25 - len(me["winks"])  # the game ends at once on the 25th wink
    winks = min(len(filled), room_left)
    if winks:
        expect(button).to_contain_text(re.compile(r"\+\d+ pts"))
        expect(button.locator(".bg-wink")).to_have_count(winks)
    else:
        expect(button).to_contain_text("nothing filled")
    if len(filled) >= room_left:
        expect(button).to_contain_text("ends the game")
    else:
        expect(button).not_to_contain_text("ends the game")
