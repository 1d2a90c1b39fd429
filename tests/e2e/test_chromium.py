"""The browser tests' Chromium (tests/e2e/chromium.py): its windows load no omnibox popup,
and Playwright's own disabled features stay disabled."""

from __future__ import annotations

from typing import Any

from tests.e2e.chromium import CHROMIUM, DISABLE, FLAGS, UNUSED_FEATURES, browsers
from tests.e2e.contexts import ContextPool


def disabled(args: list[str]) -> list[set[str]]:
    return [set(a[len(DISABLE) :].split(",")) for a in args if a.startswith(DISABLE)]


def test_a_window_loads_no_omnibox_popup(contexts: ContextPool, browser: Any) -> None:
    page = contexts.page(800, 600)
    try:
        page.goto("data:text/html,<p>a page</p>")
        cdp = browser.new_browser_cdp_session()
        targets = cdp.send("Target.getTargets")["targetInfos"]
        cdp.detach()
    finally:
        contexts.give_back(page.context)
    assert [t["url"] for t in targets if "omnibox" in t["url"]] == []
    assert "data:text/html,<p>a page</p>" in [t["url"] for t in targets]


def test_playwrights_disabled_features_stay_disabled(browser: Any) -> None:
    ours = [disabled(args) for args in browsers().values()]
    assert ours, "the package's Chromium was found"
    before = set(browsers())
    plain = browser.browser_type.launch(executable_path=CHROMIUM, args=FLAGS)
    try:
        theirs = [disabled(a) for pid, a in browsers().items() if pid not in before]
    finally:
        plain.close()
    assert len(theirs) == 1 and len(theirs[0]) == 1, "Playwright disables features"
    for switches in ours:
        assert len(switches) == 1, "Chromium reads only the last --disable-features"
        assert theirs[0][0] | set(UNUSED_FEATURES) == switches[0]
