"""A person at the browser, for the e2e tests: creates or joins a room through the pages,
and plays a step of the turn by clicking — on the carpet, the market, the action bar and the
canvas. Which click to make is chosen from the legal actions the page holds
(`window.__ishtar.legal()`), and where to click on the canvas comes from the page's own
geometry (`window.__ishtar.placePoint / hexToClient`), never from hard-coded pixels."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.shots import shoot


@dataclass
class Gardener:
    page: Page
    name: str
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    touch: bool = False  # a phone: tap to preview a spot, then "Place here"

    # ---- lobby ---------------------------------------------------------------------------

    def create_room(
        self, base_url: str, players: int = 2, layout: str = "preset"
    ) -> str:
        page = self.page
        page.goto(base_url + "/")
        page.fill("#name", self.name)
        page.check(f"input[name=players][value='{players}']", force=True)
        page.check(f"input[name=layout][value='{layout}']", force=True)
        page.click("#create-btn")
        page.wait_for_url("**/r/**")
        expect(page.locator("#lobby")).to_be_visible()
        return page.url.rsplit("/r/", 1)[1].split("#")[0]

    def join(self, base_url: str, room_id: str) -> None:
        page = self.page
        page.goto(f"{base_url}/r/{room_id}")
        expect(page.locator("#join")).to_be_visible()
        page.fill("#join-name", self.name)
        page.click("#join-btn")
        expect(page.locator("#join")).to_be_hidden()

    def start(self) -> None:
        start = self.page.locator("#start-btn")
        expect(start).to_be_enabled()
        start.click()
        expect(self.page.locator("#game")).to_be_visible()

    # ---- state ---------------------------------------------------------------------------

    def hook(self, expr: str) -> Any:
        return self.page.evaluate(f"() => window.__ishtar && window.__ishtar.{expr}")

    def version(self) -> int | None:
        return self.hook("version")

    def my_turn(self) -> bool:
        return bool(self.hook("mine"))

    def legal(self) -> list[dict]:
        return self.hook("legal()") or []

    def wait_version(self, version: int, timeout: float = 45000) -> None:
        wait_until(
            self.page,
            "v => !!window.__ishtar && window.__ishtar.version >= v && !window.__ishtar.busy",
            version,
            timeout,
        )

    # ---- playing -------------------------------------------------------------------------

    def pick(self, legal: list[dict]) -> dict:
        """A quick but varied choice: every kind of step gets exercised over a game
        (payments, skills, blooming tokens, reserving, planting), yet turns stay short."""
        legal = [a for a in legal if a["type"] != "undo"]  # undo is tested on its own
        by_type: dict[str, list[dict]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        if "place" in by_type:
            # the fastest click: a spot in the rotation the tile already has, if any
            rotation = self.hook("rotation")
            here = [a for a in by_type["place"] if a["rotation"] == rotation]
            return self.rng.choice(here or by_type["place"])
        if "plant" in by_type and self.rng.random() < 0.5:
            return self.rng.choice(by_type["plant"])
        if "end" in by_type:
            return by_type["end"][0]
        if "skill" in by_type and self.rng.random() < 0.6:
            return self.rng.choice(by_type["skill"])
        if "assistant" in by_type and self.rng.random() < 0.7:
            return by_type["assistant"][0]
        if "pass" in by_type:
            return by_type["pass"][0]
        return self.rng.choice(legal)

    def play_step(self, action: dict | None = None) -> dict:
        """Make one legal action through the UI, and wait until the server has it."""
        before = self.version()
        action = action or self.pick(self.legal())
        self._act(action)
        self._settle(action, (before or 0) + 1)
        return action

    def page_state(self) -> dict:
        """What the page shows, for a failure message: a step that was not taken says why."""
        return self.page.evaluate(
            """() => { const i = window.__ishtar; if (!i) return {hook: false};
            const text = (s) => (document.querySelector(s)?.textContent || "").trim().slice(0, 200);
            return {version: i.version, busy: i.busy, mine: i.mine, phase: i.phase,
                    legal: (i.legal() || []).map(a => a.type).join(","),
                    bar: text("#actionbar"), banner: text("#turn-banner"),
                    conn: document.querySelector("#conn")?.dataset.state,
                    log: text("#log li:last-child")}; }"""
        )

    def _settle(self, action: dict, version: int) -> None:
        """Wait until the server has the step; a step that does not arrive fails with the
        page's state (never made again: a step the page did not take is a bug to find)."""
        try:
            self.wait_version(version, timeout=60000)
        except AssertionError as e:
            raise AssertionError(
                f"{self.name}: {action} did not reach version {version}: {self.page_state()}"
            ) from e

    def _act(self, action: dict) -> None:
        """The clicks and taps of one step."""
        page = self.page
        kind = action["type"]
        if kind == "choose":
            page.click(f".pile[data-pile='{action['pile']}']")
            if action["pay"]:
                # choose the payment of this action among the offered ones
                options = [
                    a["pay"]
                    for a in self.legal()
                    if a["type"] == "choose" and a["pile"] == action["pile"]
                ]
                options.sort(key=_price)
                page.click(f"[data-act='pay-{options.index(action['pay'])}']") if len(
                    options
                ) > 1 else None
                page.click("[data-act='confirm']")
        elif kind == "place":
            for _ in range(6):
                if self.hook("rotation") == action["rotation"]:
                    break
                page.keyboard.press("r")
            if self.touch:
                # one tap previews the spot, "Place here" places it (a locator's tap waits
                # until the first tap has enabled it: a second tap on the board could come
                # before a loaded page has taken the first)
                place_here = page.locator("[data-act='place-here']:not([disabled])")
                before = self.version()
                for _ in range(3):  # a tap the page has not taken yet (loaded CI) again
                    x, y = self.board_point(
                        "a => window.__ishtar.placePoint(a)", action
                    )
                    page.touchscreen.tap(x, y)
                    try:
                        place_here.wait_for(state="visible", timeout=5000)
                    except PlaywrightTimeout:
                        if self.version() != before:  # the second tap placed it
                            break
                        continue
                    place_here.tap()
                    break
            else:
                x, y = self.board_point("a => window.__ishtar.placePoint(a)", action)
                self._board_click(x, y)
        elif kind == "discard":
            page.click("[data-act='discard']")
        elif kind in ("assistant", "pass", "end", "undo"):
            page.click(f"[data-act='{kind}']")
        elif kind == "skill":
            page.click(f"[data-act='skill-{action['skill']}']")
            options = sorted(
                (
                    a["pay"]
                    for a in self.legal()
                    if a["type"] == "skill" and a["skill"] == action["skill"]
                ),
                key=_price,
            )
            if len(options) > 1:
                page.click(f"[data-act='pay-{options.index(action['pay'])}']")
            page.click("[data-act='confirm']")
        elif kind == "bloom":
            page.click(f"[data-act='token-{action['token']}']")
            for cell in action["cells"]:
                x, y = self.board_point("c => window.__ishtar.hexToClient(c)", cell)
                self._board_click(x, y)
        elif kind == "reserve":
            page.click(f".tree-card[data-card='{action['card']}']")
        elif kind == "plant":
            page.click(f"[data-act='plant-{action['card']}']")
            x, y = self.board_point("c => window.__ishtar.hexToClient(c)", action["at"])
            self._board_click(x, y)
        else:  # pragma: no cover - a new action type
            raise AssertionError(f"no UI path for {action}")

    def board_point(self, expr: str, arg: Any) -> tuple[float, float]:
        """Where on the screen a spot of the board is (`expr`: the page's geometry, e.g.
        `placePoint`), with the board scrolled into sight first, as a person would: on a
        phone a click low on the carpet scrolls the board up, and a pointer sent to a point
        outside the viewport reaches nothing (the hover it was for never comes)."""
        self.page.locator("#board").scroll_into_view_if_needed()
        x, y = self.page.evaluate(expr, arg)
        return x, y

    def _board_click(self, x: float, y: float) -> None:
        """Point at a spot of the board and click it, as a person does."""
        self.point_at(x, y)
        self.page.mouse.click(x, y)

    def point_at(self, x: float, y: float) -> None:
        """Move the mouse onto a spot of the board, as a person does. What covers the spot
        once the pointer is there (a card left open, a panel, a notice) is a fault of the
        page: the test fails naming it. A pointer over a cover sends the canvas no move at
        all, so if the board only comes out from under one once the pointer is there (a
        card closing as the pointer leaves its element), the pointer moves onto the spot
        again: a hover must reach the board, or the board shows no tooltip for it."""
        page = self.page
        on_board = "([x, y]) => document.elementFromPoint(x, y)?.id === 'board'"
        page.mouse.move(x, y)
        if page.evaluate(on_board, [x, y]):
            return
        try:
            wait_until(page, on_board, [x, y], timeout=5000)
        except AssertionError:
            cover = page.evaluate(
                """([x, y]) => { const e = document.elementFromPoint(x, y);
                return e ? `${e.tagName.toLowerCase()}#${e.id}.${e.className}`
                         : "nothing: the spot is outside the viewport"; }""",
                [x, y],
            )
            raise AssertionError(
                f"{self.name}: the board at ({x:.0f}, {y:.0f}) is covered by {cover}"
            ) from None
        page.mouse.move(x + 1, y)
        page.mouse.move(x, y)

    def shot(self, artifacts: Path, name: str) -> Path:
        path = artifacts / f"{name}.png"
        shoot(self.page, path)
        return path


def wait_until(
    page: Page, predicate: str, arg: Any = None, timeout: float = 30000
) -> None:
    """Poll a JS function until it returns true. (Playwright's wait_for_function evaluates
    strings with eval, which the pages' Content-Security-Policy rightly forbids.)"""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out waiting for {predicate} ({arg}); {page_state(page)}"
            )
        time.sleep(0.025)


def press(page: Page, target: Any) -> None:
    """Press the mouse at the middle of `target` (a locator) and keep it down: the test
    makes something happen, then releases (`page.mouse.up()`), as a person's click that a
    redraw lands in."""
    box = target.bounding_box()
    assert box is not None, "the target is not on the page"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def wait_held(page: Page, held: list[Any], what: str, timeout: float = 30000) -> None:
    """Wait until a route handler of this process has held a request (`held` is its list).

    Playwright runs a handler only while one of its calls waits, and the request it holds
    travels from the browser's network process, not from the page: a page may report its
    load while the route has not reached this process yet (a CI flake of
    test_the_import_button_works_from_the_moment_it_is_enabled, 2026-12-05). Each round
    here is such a call, of 20 ms."""
    deadline = time.monotonic() + timeout / 1000
    while not held:
        if time.monotonic() > deadline:
            raise AssertionError(f"the page fetched no {what}; {page_state(page)}")
        page.wait_for_timeout(20)


def page_state(page: Page) -> str:
    """What a page shows, for a failure message: its address, the game's phase and version
    as the page holds them, its connection banner and any toast."""
    state = page.evaluate(
        """() => ({
          phase: window.__ishtar?.phase ?? null,
          version: window.__ishtar?.version ?? null,
          status: document.querySelector('#conn')?.textContent ?? null,
          lobby: document.querySelector('#lobby')?.hidden === false,
          lobbyError: document.querySelector('#lobby-error')?.textContent ?? null,
        })"""
    )
    return f"at {page.url}: {state}"


_WORTH = {"purple": 1, "red": 2, "white": 3}


def _price(pay: list[str]) -> int:
    """The client's order of payment options (static/js/turn.js `price`)."""
    return sum(100 + _WORTH[c] for c in pay)
