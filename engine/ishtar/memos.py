"""What views and previews derive from a layout alone, memoised within a byte budget.

A layout's memo holds what only its geometry decides: the layout as JSON
(engine.ishtar.view_parts), each placement's action, cells and preview entries with their
JSON text (engine.ishtar.previews), and the engine's ``place`` actions
(engine.ishtar.rules.place). Every state and game on one layout shares it, read-only.

The memos of all layouts together are bounded in bytes (`BUDGET`), the least recently used
layout's memo dropped first; a dropped memo is rebuilt the same on demand, so only speed
depends on it (a 4-player random layout's legal lists took 503 µs a state on average with
its memo kept, 1,131 µs with none: docs/security.md, issue 33).

States do not reach the memos (a `Geometry` does not hold its memo), so a state kept alive
by a cache keeps alive its geometry, not what was memoised about it: a random layout, one
per game, memoised about 1.8 MiB of previews in 80 moves of a 4-player game, which every
cached state of that game used to keep alive (issue 33).

Each memo counts its bytes as it grows, by the estimates of `Weights` (measured with
tracemalloc, tests/engine/ishtar/test_memos.py). Thread-safe: the server may build views
and previews in threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

BUDGET = 16 << 20
"""Bytes of the memos of all layouts together (about six 4-player layouts played
through, or the preset layouts of many games)."""


class Weights:
    """Estimates of what a memo holds, in bytes, rounded up from tracemalloc's figures."""

    PLACEMENT = 850
    """A placement of a shape: its object, action, cells, the head of its entries' JSON
    and its dict of entries, and its slot in the memo."""
    ENTRY = 750
    """A preview entry of a placement (besides its JSON text): its two dicts, its key, the
    pair of it and its text, and its slot."""
    ACTION = 220
    """A ``place`` action of the engine (engine.ishtar.rules.place), and its slot."""
    HEX = 100
    """A cell's ``[q, r]``, made once per layout and shared by every placement's action."""
    LAYOUT_PER_BOARD = 700
    """The layout as JSON: per board."""


class Memo:
    """One layout's memo: `data` (name → value, read-only once built) and its weight."""

    __slots__ = ("bytes", "data")

    def __init__(self) -> None:
        self.data: dict[str, Any] = {}
        self.bytes = 0


class Memos:
    """The memos of the most recently used layouts, within `budget` bytes."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.bytes = 0
        self._memos: OrderedDict[Hashable, Memo] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._memos)

    def of(self, key: Hashable) -> Memo:
        """The memo of the layout `key` (made empty if none is kept), now the most recent."""
        with self._lock:
            memo = self._memos.get(key)
            if memo is None:
                memo = self._memos[key] = Memo()
            else:
                self._memos.move_to_end(key)
            return memo

    def grew(self, key: Hashable, memo: Memo, size: int) -> None:
        """`memo` (of `key`) holds `size` bytes more: drop the least recently used memos
        while over the budget, this one too if it is over alone (its user keeps what it
        built; the next one starts afresh)."""
        with self._lock:
            memo.bytes += size
            if self._memos.get(key) is not memo:
                return  # already dropped: it dies with its last user
            self.bytes += size
            while self.bytes > self.budget and self._memos:
                _key, dropped = self._memos.popitem(last=False)
                self.bytes -= dropped.bytes

    def clear(self) -> None:
        """Forget every memo."""
        with self._lock:
            self._memos.clear()
            self.bytes = 0


MEMOS = Memos()
"""The memos of this process."""
