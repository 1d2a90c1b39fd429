"""The options a stored game was played with, read in the terms of this engine.

A record carries the version of the engine that played it (``engine_version``); an option
an engine release added or changed the meaning of is filled in here, as that engine played.
"""

from __future__ import annotations

import re
from typing import Any

VERSION = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6}){0,3}")
"""An engine version as records carry it: "1.1.0"."""


def played_options(
    options: dict[str, Any], engine_version: str | None
) -> dict[str, Any]:
    """Before engine 1.2.0 a turn with nothing left to do ended by itself: a record of
    such a game (which names no `turn_end`) replays with ``turn_end: "auto"``. Before
    engine 1.3.0 there were no editions: a record that names none is of edition "1" (the
    engine gives a new game its default)."""
    played = dict(options)
    if "turn_end" not in played and _before(engine_version, (1, 2)):
        played["turn_end"] = "auto"
    played.setdefault("edition", "1")
    return played


def _before(version: str | None, release: tuple[int, ...]) -> bool:
    """Whether ``version`` ("1.1.0") is an engine version older than ``release``; a missing
    or unreadable one is not (the record is then read as the current engine's).

    >>> _before("1.1.0", (1, 2)), _before("1.2.0", (1, 2)), _before("x", (1, 2))
    (True, False, False)
    """
    if not isinstance(version, str) or not VERSION.fullmatch(version):
        return False
    return tuple(int(part) for part in version.split(".")) < release
