"""Issue 36, point 8: a step that can never be undone says so before it is pressed. The
engine marks such actions (``"final": true`` in their preview: planting a market card turns
a new tree card face up); Ishtar's bar shows the warning as soon as such a card is picked,
before the tree is placed, in English, French and Dutch, wide and on a phone. The screen is
mounted in the harness of test_ishtar_table.py on the engine's own plant and reserve positions
(skill I: reserving a market card turns a new one face up)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.shots import shoot
from tests.e2e.test_ishtar_table import (
    DESKTOP,
    PHONE,
    legal,
    open_screen,
    sent,
    static_server,
)

__all__ = ["static_server"]

pytestmark = [pytest.mark.browser]

WARNING = {
    "en": "Planting this card cannot be undone: a new tree card is turned face up.",
    "fr": "Planter cette carte ne peut pas être annulé\u00a0: une nouvelle carte Arbre est retournée.",
    "nl": "Deze kaart planten kan niet ongedaan worden: er wordt een nieuwe boomkaart omgedraaid.",
}

RESERVE = {
    "en": "Reserving cannot be undone: a new tree card is turned face up.",
    "fr": "Une réservation ne peut pas être annulée\u00a0: une nouvelle carte Arbre est retournée.",
    "nl": "Reserveren kan niet ongedaan worden: er wordt een nieuwe boomkaart omgedraaid.",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
@pytest.mark.parametrize("size", ["wide", "phone"])
def test_planting_a_market_card_says_it_cannot_be_undone_before_it_is_done(
    new_page: Callable[..., Page],
    static_server: str,
    artifacts: Path,
    lang: str,
    size: str,
) -> None:
    page = new_page(**({"width": 1400, "height": 900} if size == "wide" else PHONE))
    open_screen(page, static_server, "plant", lang=lang)
    entries = [e for e in legal(page) if e["action"]["type"] == "plant"]
    final = next(e for e in entries if e["preview"].get("final"))
    card = final["action"]["card"]
    button = page.locator(f"[data-act='plant-{card}']")
    expect(button).to_have_attribute("aria-description", WARNING[lang])
    expect(page.locator(".final-note")).to_have_count(0)
    if size == "phone":
        button.tap()
    else:
        button.click()
    note = page.locator(".final-note[data-final='plant']")
    expect(note).to_be_visible()
    expect(note).to_have_text(WARNING[lang])
    assert sent(page) == []  # said before anything is done
    page.locator("#actionbar").scroll_into_view_if_needed()
    shoot(page, artifacts / f"final-plant-{lang}-{size}.png")


def test_a_step_that_can_be_undone_says_nothing(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "lost-assistant")  # placing: undoable
    assert not any(e["preview"].get("final") for e in legal(page))
    expect(page.locator(".final-note")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
@pytest.mark.parametrize("size", ["wide", "phone"])
def test_reserving_a_card_says_it_cannot_be_undone_before_a_card_is_pressed(
    new_page: Callable[..., Page],
    static_server: str,
    artifacts: Path,
    lang: str,
    size: str,
) -> None:
    page = new_page(**({"width": 1400, "height": 900} if size == "wide" else PHONE))
    open_screen(page, static_server, "reserve", lang=lang)
    entries = [e for e in legal(page) if e["action"]["type"] == "reserve"]
    assert entries and all(e["preview"].get("final") for e in entries)
    # as soon as the step opens, nothing pressed yet: the line in the bar, whole and in
    # sight (after the cards and Undo), and the same words on every card's button
    note = page.locator("#actionbar .final-note[data-final='reserve']")
    expect(note).to_be_visible()
    expect(note).to_have_text(RESERVE[lang])
    expect(note).to_have_attribute("role", "note")
    assert sent(page) == []
    geometry = page.evaluate(
        """() => {
          const note = document.querySelector('.final-note').getBoundingClientRect();
          const bar = document.getElementById('actionbar').getBoundingClientRect();
          const undo = document.querySelector("#actionbar [data-act='undo']").getBoundingClientRect();
          return { inside: note.left >= bar.left && note.right <= bar.right && note.bottom <= bar.bottom,
                   afterUndo: note.top >= undo.bottom, inView: note.bottom <= innerHeight };
        }"""
    )
    assert geometry == {"inside": True, "afterUndo": True, "inView": True}, geometry
    for entry in entries:
        button = page.locator(f"[data-act='reserve-{entry['action']['card']}']")
        expect(button).to_have_attribute("aria-description", RESERVE[lang])
    shoot(page, artifacts / f"final-reserve-{lang}-{size}.png")
    # pressing a card then reserves it (the warning came first)
    first = page.locator(f"[data-act='reserve-{entries[0]['action']['card']}']")
    if size == "phone":
        first.tap()
    else:
        first.click()
    assert sent(page) == [entries[0]["action"]]
