"""Screenshots of the screens the browser tests reach, for people to look at
(test-artifacts/e2e): taken when `ISHTAR_SCREENSHOTS=1`, else skipped.

No test asserts on them, and each costs the browser about 0.3 s of CPU (a whole page more),
which a run of the suite paid some 270 times for pictures nobody looked at. A skipped
screenshot of an element still waits for the element to be visible, as taking it would.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, expect

TAKEN = os.environ.get("ISHTAR_SCREENSHOTS", "0") not in ("", "0", "false", "no")


def shoot(target: Any, path: Path, **options: Any) -> None:
    """`target.screenshot(path=path, **options)` (a page or a locator) if screenshots
    are asked for."""
    if TAKEN:
        target.screenshot(path=str(path), **options)
    elif isinstance(target, Locator):
        expect(target).to_be_visible()
