"""Browser contexts kept between the browser tests: a context a test is done with goes back
clean for the next test that asks for the same options, instead of a new one each time.

Why: in this Chromium (new headless mode) every new context is a new browser window, and
each window loads its omnibox popups, which are web pages of their own. A new context and
its first page cost about 1.3 s of CPU; a page in a kept context about 0.3 s. The browser
tests open about 290 contexts in a run (docs/benchmarks.md, "The test suite").

Clean means what a new context has: no page, no cookie, no permission, and nothing stored for
any origin the context reached (local and session storage, IndexedDB, the Cache API, service
workers; DevTools' `Storage.clearDataForOrigin` with every storage type). Only Chromium's
HTTP cache is kept, as a returning visitor's browser keeps it. A context the test changed
itself (offline, permissions, routes, init scripts, a DevTools session, extra headers...)
or one that registered a service worker is closed instead, never reused: those changes
cannot all be undone. `tests/e2e/test_contexts.py` pins all of this.

Service workers are blocked (Playwright's `service_workers="block"`: registering one does
nothing) unless a test asks for them with `service_workers="allow"`, as the tests of the
installable app and of Web Push do. The home page registers the site's worker, and a
registration still installing when its context was cleaned could outlive the clean: the
worker then controlled the next test's pages and answered their requests from its cache,
where `page.route` never sees them (a CI failure: a catalogue held by a route never came
to it, stop 52)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError

CHANGES_THE_CONTEXT = (
    "add_cookies",
    "add_init_script",
    "expose_binding",
    "expose_function",
    "grant_permissions",
    "new_cdp_session",
    "route",
    "route_from_har",
    "route_web_socket",
    "set_extra_http_headers",
    "set_geolocation",
    "set_offline",
    "set_storage_state",
    "close",
)
"""The context's own methods after which it is not handed out again; and any use of its
`clock` (a fake clock is installed into every page of the context)."""


def origin_of(url: str) -> str | None:
    """The origin of an http(s) URL, else None.

    >>> origin_of("http://127.0.0.1:8123/room/abc?x=1")
    'http://127.0.0.1:8123'
    >>> origin_of("data:text/html,hi") is None
    True
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


@dataclass
class Kept:
    """A context and what the pool knows of it."""

    context: Any
    key: tuple[object, ...]
    cdp_session: Callable[..., Any]
    """The context's own `new_cdp_session`, for the pool's clean-up (the test's is marked)."""
    changed: bool = False
    origins: set[str] = field(default_factory=set)
    blank: Any = None
    """A page left on about:blank by the clean-up, handed to the next test as its first."""

    def mark(self, name: str, owner: Any = None) -> Callable[..., Any]:
        method = getattr(self.context if owner is None else owner, name)

        def marked(*args: Any, **kwargs: Any) -> Any:
            self.changed = True
            return method(*args, **kwargs)

        return marked


class ContextPool:
    """Contexts of one browser, by the options they were made with."""

    def __init__(self, browser: Any, timeout_ms: float) -> None:
        self._browser = browser
        self._timeout_ms = timeout_ms
        self._idle: dict[tuple[object, ...], list[Kept]] = {}
        self._out: dict[int, Kept] = {}
        self.made = 0
        self.reused = 0

    def page(self, width: int, height: int, **options: Any) -> Any:
        """A page in a clean context with this viewport and these options."""
        options = {"service_workers": "block", **options}
        key = (width, height, *sorted((k, repr(v)) for k, v in options.items()))
        idle = self._idle.get(key)
        if idle:
            kept = idle.pop()
            self.reused += 1
        else:
            kept = self._make(key, width, height, options)
            self.made += 1
        self._out[id(kept.context)] = kept
        kept.context.set_default_timeout(self._timeout_ms)
        kept.context.set_default_navigation_timeout(self._timeout_ms)
        page, kept.blank = kept.blank, None
        return page if page is not None else kept.context.new_page()

    def give_back(self, context: Any) -> None:
        """Clean `context` and keep it for a later test, or close it."""
        kept = self._out.pop(id(context), None)
        if kept is None:
            return
        if kept.changed or context.service_workers:
            self._close(kept)
            return
        try:
            self._clean(kept)
        except Exception:
            self._close(kept)
            raise
        self._idle.setdefault(kept.key, []).append(kept)

    def close(self) -> None:
        for kept in [
            *self._out.values(),
            *(k for ks in self._idle.values() for k in ks),
        ]:
            self._close(kept)
        self._out.clear()
        self._idle.clear()

    def _make(
        self, key: tuple[object, ...], width: int, height: int, options: dict[str, Any]
    ) -> Kept:
        context = self._browser.new_context(
            viewport={"width": width, "height": height}, **options
        )
        kept = Kept(context, key, context.new_cdp_session)
        for name in CHANGES_THE_CONTEXT:
            if hasattr(context, name):
                setattr(context, name, kept.mark(name))
        clock = context.clock  # one object a context, also a page's `page.clock`
        for name in dir(clock):
            if not name.startswith("_") and callable(getattr(clock, name)):
                setattr(clock, name, kept.mark(name, clock))

        # The origins whose storage the clean-up clears: those of the documents the
        # context's frames went to (only a document stores: local and session storage,
        # IndexedDB, caches, service workers; cookies are cleared whole). Frames'
        # navigations reach this process anyway; a listener of requests subscribed it to
        # every request of every page, each a message through Playwright's driver.
        def reached(frame: Any) -> None:
            origin = origin_of(frame.url)
            if origin is not None:
                kept.origins.add(origin)

        context.on("page", lambda page: page.on("framenavigated", reached))
        return kept

    def _clean(self, kept: Kept) -> None:
        context = kept.context
        # A new blank page first: the test's pages close with their scripts stopped, and
        # nothing can write to the storage after it is cleared.
        blank = context.new_page()
        for page in context.pages:
            if page is not blank:
                page.close()
        if kept.origins:
            session = kept.cdp_session(blank)
            for origin in sorted(kept.origins):
                session.send(
                    "Storage.clearDataForOrigin",
                    {"origin": origin, "storageTypes": "all"},
                )
            session.detach()
        context.clear_cookies()
        context.clear_permissions()
        kept.origins.clear()
        kept.blank = blank

    @staticmethod
    def _close(kept: Kept) -> None:
        # The context's own close (the test's is marked); quiet if the test or the
        # browser closed it already.
        with contextlib.suppress(PlaywrightError):
            type(kept.context).close(kept.context)
