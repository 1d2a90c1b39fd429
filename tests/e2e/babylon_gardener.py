"""A person playing Babylon Gardens in the browser, for the e2e tests: creates or joins a room
through the pages, chooses a scoreboard, and plays a turn step by step — clicking (or, on a
phone, tapping) the tile to water where the page's own geometry puts it
(`window.__ishtar.tileToClient`), the arrow keys, the action bar's "End path and harvest"
and "Undo step". Which step to take is chosen among the legal actions the page holds
(`window.__ishtar.legal()`), never from hard-coded pixels."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.gardener import wait_until

GAME = "babylon-gardens"
ARROW = {
    (-1, 0): "ArrowUp",
    (1, 0): "ArrowDown",
    (0, -1): "ArrowLeft",
    (0, 1): "ArrowRight",
}


@dataclass
class BabylonPlayer:
    page: Page
    name: str
    touch: bool = False
    rng: random.Random = field(default_factory=lambda: random.Random(11))

    # ---- lobby ---------------------------------------------------------------------------

    def create_room(
        self, base: str, players: int = 2, scoreboards: str = "random"
    ) -> str:
        page = self.page
        page.goto(base + "/")
        page.check(f"input[name=game][value='{GAME}']", force=True)
        expect(page.locator("#create")).to_have_attribute("data-game", GAME)
        page.fill("#name", self.name)
        page.check(f"input[name=players][value='{players}']", force=True)
        page.check(f"input[name=scoreboards][value='{scoreboards}']", force=True)
        page.click("#create-btn")
        page.wait_for_url("**/r/**")
        expect(page.locator("#lobby")).to_be_visible()
        return page.url.rsplit("/r/", 1)[1].split("#")[0]

    def join(self, base: str, room: str) -> None:
        page = self.page
        page.goto(f"{base}/r/{room}")
        expect(page.locator("#join")).to_be_visible()
        page.fill("#join-name", self.name)
        page.click("#join-btn")
        expect(page.locator("#join")).to_be_hidden()

    # ---- state ---------------------------------------------------------------------------

    def hook(self, expr: str) -> Any:
        return self.page.evaluate(f"() => window.__ishtar && window.__ishtar.{expr}")

    def version(self) -> int:
        return int(self.hook("version") or 0)

    def my_turn(self) -> bool:
        return bool(self.hook("mine"))

    def legal(self) -> list[dict[str, Any]]:
        return self.hook("legal()") or []

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.hook("view()")
        return view

    def wait_version(self, version: int, timeout: float = 8000) -> None:
        wait_until(
            self.page,
            "v => !!window.__ishtar && window.__ishtar.version >= v && !window.__ishtar.busy",
            version,
            timeout,
        )

    def centre(self, at: list[int]) -> tuple[float, float]:
        x, y = self.page.evaluate("at => window.__ishtar.tileToClient(at)", at)
        return x, y

    # ---- playing -------------------------------------------------------------------------

    def pick(self) -> dict[str, Any]:
        """A quick, fairly greedy step: a tile this step fills if any, else any step, and
        the harvest once the path is long enough or cannot go on."""
        legal = self.legal()
        steps = [a for a in legal if a["type"] == "irrigate"]
        harvest = next((a for a in legal if a["type"] == "harvest"), None)
        sides = [a for a in legal if a["type"] == "scoreboard"]
        if sides:
            return self.rng.choice(sides)
        view = self.view()
        tiles = {tuple(t["at"]): t for t in view["tiles"]}
        fills = [
            a
            for a in steps
            if tiles[tuple(a["at"])]["gems"] + 1 == tiles[tuple(a["at"])]["flowers"]
        ]
        if harvest and (not steps or len(view["path"]) >= self.rng.randint(3, 8)):
            return harvest
        return self.rng.choice(fills or steps)

    def play(
        self, action: dict[str, Any] | None = None, keys: bool = False
    ) -> dict[str, Any]:
        """Make one legal action through the page and wait until the server has it."""
        page = self.page
        before = self.version()
        action = action or self.pick()
        kind = action["type"]
        if kind == "scoreboard":
            button = page.locator(f"[data-act='side-{action['side']}']")
            button.tap() if self.touch else button.click()
        elif kind == "irrigate" and keys:
            view = self.view()
            end = view["path"][-1] if view["path"] else view["floor"]["well"]
            d = (action["at"][0] - end[0], action["at"][1] - end[1])
            page.keyboard.press(ARROW[d])
        elif kind == "irrigate":
            page.locator("#board").scroll_into_view_if_needed()
            x, y = self.centre(action["at"])
            if self.touch:
                page.touchscreen.tap(x, y)
            else:
                page.mouse.move(x, y)
                page.mouse.click(x, y)
        elif kind == "harvest" and keys:
            page.keyboard.press("Enter")
        elif kind in ("harvest", "undo"):
            button = page.locator(f"#actionbar [data-act='{kind}']")
            button.tap() if self.touch else button.click()
        else:  # pragma: no cover - a new action type
            raise AssertionError(f"no UI path for {action}")
        self.wait_version(before + 1)
        return action
