"""Issue 36, point 1: on a 390×844 touch phone, "Place here" follows the preview the board
shows — after "Next spot", after an Undo, after a tap — the placement tip sits next to the
spot (never under the finger, never over the tools), and no dashed keyboard outline stays
behind a tap. Ishtar's screen mounted in the harness of test_ishtar_table.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.shots import shoot
from tests.e2e.test_ishtar_table import (
    PHONE,
    hex_point,
    open_screen,
    overlaps,
    place_point,
    sent,
    static_server,
)

__all__ = ["static_server"]  # the harness's server, a fixture of this module too

pytestmark = [pytest.mark.browser]


def cursor(page: Page) -> list[int] | None:
    return page.evaluate("() => window.__harness.screen.ui.cursor")  # type: ignore[no-any-return]


def drawn_cursor(page: Page) -> list[int] | None:
    return page.evaluate("() => window.__harness.screen.renderer.overlay.cursor")  # type: ignore[no-any-return]


def entry_at(page: Page, cell: list[int]) -> dict[str, object]:
    """The placement whose grip cell is `cell` in the screen's rotation."""
    return page.evaluate(  # type: ignore[no-any-return]
        "c => window.__harness.screen.ghostAt(c).entry.action", cell
    )


def tap_centre(page: Page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_next_spot_lights_place_here_and_it_places_there(
    new_page: Callable[..., Page], static_server: str, artifacts: Path, lang: str
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "lost-assistant", lang=lang)
    page.locator("#board").scroll_into_view_if_needed()
    place_here = page.locator("[data-act='place-here']")
    expect(place_here).to_be_disabled()
    tap_centre(page, "[data-act='next']")
    spot = cursor(page)
    assert spot is not None
    expect(page.locator("#tooltip")).to_be_visible()
    expect(place_here).to_be_enabled()  # the green preview is what "Place here" places
    shoot(page, artifacts / f"phone-next-spot-{lang}.png")
    tap_centre(page, "[data-act='place-here']")
    assert sent(page) == [entry_at(page, spot)]


def test_after_next_spot_a_second_tap_on_the_preview_places_it(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "lost-assistant")
    page.locator("#board").scroll_into_view_if_needed()
    tap_centre(page, "[data-act='next']")
    spot = cursor(page)
    assert spot is not None
    action = entry_at(page, spot)
    page.touchscreen.tap(*place_point(page, action))
    assert sent(page) == [action]


def test_after_an_undo_the_preview_shown_can_be_placed(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "lost-assistant")
    page.locator("#board").scroll_into_view_if_needed()
    action = next(
        e["action"]
        for e in page.evaluate("() => window.__harness.legal")
        if e["action"]["type"] == "place"
        and e["action"]["rotation"]
        == page.evaluate("() => window.__harness.screen.hook.rotation")
    )
    page.touchscreen.tap(*place_point(page, action))
    tap_centre(page, "[data-act='place-here']")
    assert sent(page) == [action]
    # the Undo's update brings the same step back: the preview is still on the board,
    # green, and "Place here" is live for it
    page.evaluate("() => window.__harness.show()")
    expect(page.locator("#tooltip")).to_be_visible()
    expect(page.locator("#tooltip")).to_have_class(re.compile(r"\bok\b"))
    place_here = page.locator("[data-act='place-here']")
    expect(place_here).to_be_enabled()
    tap_centre(page, "[data-act='place-here']")
    assert sent(page) == [action, action]


def test_a_tap_after_next_spot_leaves_no_dashed_outline_and_the_tip_is_by_the_spot(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "lost-assistant")
    page.locator("#board").scroll_into_view_if_needed()
    tap_centre(page, "[data-act='next']")
    first = cursor(page)
    assert first is not None and drawn_cursor(page) == first
    second = first
    for _ in range(20):  # the next spot may be the same cell in another rotation
        tap_centre(page, "[data-act='next']")
        second = cursor(page)
        if second != first:
            break
    assert second is not None and second != first
    # a tap on the first spot: the outline of the second does not stay behind
    x, y = hex_point(page, first)
    page.touchscreen.tap(x, y)
    assert cursor(page) is None and drawn_cursor(page) is None
    tip = page.locator("#tooltip")
    expect(tip).to_be_visible()
    box = tip.bounding_box()
    tools = page.locator("#rotate-btn").bounding_box()
    assert box is not None and tools is not None
    assert not overlaps(box, tools)
    # not under the finger, but right next to the spot: within two hexes of it
    assert not (
        box["x"] <= x <= box["x"] + box["width"]
        and box["y"] <= y <= box["y"] + box["height"]
    )
    hex_px = page.evaluate("() => 32 * window.__harness.screen.renderer.cam.k")
    gap = max(box["y"] - y, y - (box["y"] + box["height"]))
    assert gap < 4.5 * hex_px, (gap, hex_px)
    shoot(page, artifacts / "phone-tip-by-the-spot.png")
