"""The options a stored game was played with, read in the terms of this engine.

A record carries the version of the engine that played it (``engine_version``); an option
an engine release added or changed the meaning of is filled in here, as that engine played
(``ENGINE_VERSION``'s history in engine/ishtar/__init__.py). The server reads every record's
options through `upgrade_options` (its game's descriptor, games/ishtar.py), so this is the
one place that says which options old games were played with.
"""

from __future__ import annotations

import re
from typing import Any

from engine.ishtar.editions import FIRST

VERSION = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6}){0,3}")
"""An engine version as records carry it: "1.1.0"."""


def upgrade_options(
    options: dict[str, Any], engine_version: str | None
) -> dict[str, Any]:
    """The options a stored game was played with, for `check_options` and `new_game`.

    Before engine 1.2.0 a turn with nothing left to do ended by itself: a record of such a
    game (which names no `turn_end`) replays with ``turn_end: "auto"``. Before engine 1.3.0
    there were no editions: options that name none are of edition `FIRST`, "1" (a new game
    that names none gets the default, `check_options`).

    >>> upgrade_options({"layout": "preset"}, "1.1.0")
    {'layout': 'preset', 'turn_end': 'auto', 'edition': '1'}
    >>> upgrade_options({"edition": "4"}, "1.5.0")
    {'edition': '4'}
    """
    played = dict(options)
    if "turn_end" not in played and _before(engine_version, (1, 2)):
        played["turn_end"] = "auto"
    played.setdefault("edition", FIRST)
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
