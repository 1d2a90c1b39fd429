"""The browser's side of the languages (static/js/i18n.js, docs/i18n.md), in Chromium.

The formatter renders every shared case of tests/fixtures/i18n-cases.json as the Python one
does (plural categories from `Intl.PluralRules` in each language, nested messages, seats,
lists), and the language switch of the top bar reloads the page in the chosen language and
keeps the choice for the next pages.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CASES = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "i18n-cases.json").read_text("utf-8")
)["cases"]

RENDER = """async (cases) => {
  const m = await import("/static/js/i18n.js");
  m.setSeatNamer((seat) => `Seat ${seat + 1}`);
  return cases.map((c) => {
    m.useCatalogue({ ...(c.catalogue || {}), case: c.pattern });
    return m.t("case", c.params);
  });
}"""


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_the_browser_formatter_renders_the_shared_cases(
    live_server: str, new_page: Callable[..., Page], lang: str
) -> None:
    cases = [c for c in CASES if c["lang"] == lang]
    assert cases
    page = new_page()
    page.goto(f"{live_server}/?lang={lang}")
    assert page.evaluate("document.documentElement.lang") == lang
    rendered: list[Any] = page.evaluate(RENDER, cases)
    assert rendered == [c["text"] for c in cases]


def test_the_switch_reloads_the_page_in_the_chosen_language_and_keeps_it(
    live_server: str, new_page: Callable[..., Page]
) -> None:
    page = new_page(locale="nl-NL")
    page.goto(f"{live_server}/")
    assert (
        page.evaluate("document.documentElement.lang") == "nl"
    )  # the browser's language
    with page.expect_navigation():
        page.select_option("#lang-switch", "fr")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator("#lang-switch").input_value() == "fr"
    assert page.locator(".lang-switch .visually-hidden").text_content() == "Langue"
    page.goto(f"{live_server}/records")  # the next page too
    assert page.evaluate("document.documentElement.lang") == "fr"
    # The page's scripts read the same language's catalogue.
    switch: str = page.evaluate(
        "async () => (await import('/static/js/i18n.js')).t('lang.switch')"
    )
    assert switch == "Langue"
