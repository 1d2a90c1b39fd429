"""Launching Debian's Chromium for the browser tests (never a downloaded browser).

Each new browser context of this Chromium (156, new headless mode) is a browser window, and
each window loaded two omnibox popups, WebUI pages of their own
(`chrome://omnibox-popup.top-chrome/`), that a headless test never opens: about 0.75 s of CPU
a context, two thirds of what a context and its first page cost (20 contexts: 24.3 s of CPU
with them, 9.3 s without). `launch` turns the two features off.

Chromium reads only the last `--disable-features` switch, and Playwright passes one of its
own: so `launch` reads Playwright's list off the command line of a first, probing browser
and passes that list with ours added, in place of Playwright's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("ISHTAR_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
UNUSED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
"""The omnibox popups a window preloads (a headless test has no omnibox to type in)."""
DISABLE = "--disable-features="


def launch(playwright: Any) -> Any:
    """A Chromium with FLAGS whose windows load no omnibox popup (UNUSED_FEATURES)."""
    before = browsers()
    probe = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
    try:
        started = [args for pid, args in browsers().items() if pid not in before]
    finally:
        probe.close()
    # Another browser of this process may start or end meanwhile (a fixture's); any that
    # Playwright started with FLAGS alone carries its own list, the same for each.
    plain = [
        args
        for args in started
        if not any(a.startswith(DISABLE) and UNUSED_FEATURES[0] in a for a in args)
    ]
    if not plain:
        raise RuntimeError("the probing Chromium was not found")
    given = [a for a in plain[0] if a.startswith(DISABLE)]
    features = [f for a in given for f in a[len(DISABLE) :].split(",") if f]
    features += [f for f in UNUSED_FEATURES if f not in features]
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=[*FLAGS, DISABLE + ",".join(features)],
        ignore_default_args=given,
    )


def browsers() -> dict[int, list[str]]:
    """The Chromium browser processes this process started (through Playwright's driver):
    each descendant with `--remote-debugging-pipe` and no `--type`, and its arguments."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
        children.setdefault(parent, []).append(int(entry.name))
    found: dict[int, list[str]] = {}
    todo = [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), []):
            try:
                raw = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                todo.append(pid)
                continue
            args = [a.decode(errors="replace") for a in raw.split(b"\0") if a]
            if "--remote-debugging-pipe" in args and not any(
                a.startswith("--type=") for a in args
            ):
                # Not its children: a child the browser has forked and not yet given a
                # program of its own (its zygote, its GPU process) still shows the
                # browser's arguments, and was once taken for a second browser.
                found[pid] = args
            else:
                todo.append(pid)
    return found
