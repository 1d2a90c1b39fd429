"""The legal actions with their previews, as the server sends them: ``legal_with_previews``.

The list is the same, value for value and in the same order, as
``[{"action": encode_action(a), "preview": preview(state, a)} for a in legal_actions(state)]``,
but built fast where it is long: in the place step (one entry per legal placement, often 100
to 300 of them). A placement's entry depends only on the layout's geometry (its action, the
cells it covers), on which of its rock cells still hold a gem, and, for a tile with an
assistant icon, on whether the assistant would be lost (``no_assistant`` and its message: rare, and checked
exactly only where the tile's flowers touch an assistant's flowerbed). So each placement of
each shape gets, once per layout (in its memo, engine.ishtar.memos), its action and cells as JSON and the
bit mask of its rock cells; its entries are memoised by the gems lying there (the gem cells as
a bit mask, masked) and that reason, each entry sharing the action and cells. Every other step
takes the plain way (a few actions).

The list is memoised per state and its entries are shared between states and games on one
layout: it is read-only, like a view. Memory: about 850 bytes per placement ever legal on a
layout (at most a few thousand per layout), 750 more plus its JSON text per gem pattern seen
(the entry and its text, which ``legal_json`` joins instead of serialising the list): 1.8 MiB
for 80 moves of a 4-player game. The layout's memo is kept within the byte budget of
engine.ishtar.memos, not by the states: a state keeps only the entries of its own list.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from engine.ishtar.codec import encode_action
from engine.ishtar.game import legal_actions
from engine.ishtar.geometry import ROTATIONS, Geometry
from engine.ishtar.memos import MEMOS, Weights
from engine.ishtar.narration import legal_preview, no_assistant
from engine.ishtar.rules import special, undo
from engine.ishtar.rules.place import frontier, legal_placements
from engine.ishtar.state import FRONTIER, Action, Gems, State
from engine.ishtar.views import gems_json

CACHE_KEY = "legal_with_previews"
"""Key of the memoised list in ``state.cache``."""

JSON_KEY = "legal_json"
"""Key of the memoised JSON text in ``state.cache``."""

_TEXTS_KEY = "legal_json placements"
"""The JSON of each placement entry, in list order (``state.cache``, for `legal_json`)."""

Dumps = Callable[[Any], str]


def compact_json(value: Any) -> str:
    """JSON text with no spaces and characters kept as they are (the server's format)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_GEMS: dict[Gems, dict[str, int]] = {}
"""Gem counts → their JSON dict, shared by every preview with those counts (a placement
covers at most three gems: a few dozen counts)."""

_GEMS_TEXT: dict[Gems, str] = {}
"""Gem counts → the compact JSON of their dict."""


def legal_with_previews(state: State) -> list[dict[str, Any]]:
    """Every legal action as ``{"action": encode_action(a), "preview": preview(state, a)}``.

    In the order of ``legal_actions``; memoised per state; read-only (entries are shared).
    """
    found: list[dict[str, Any]] | None = state.cache.get(CACHE_KEY)
    if found is None:
        found = state.cache[CACHE_KEY] = _build(state)
    return found


def legal_json(state: State, dumps: Dumps = compact_json) -> str:
    """``legal_with_previews(state)`` as compact JSON text, memoised per state.

    In a place step each placement's entry comes with its JSON, made once per layout and gem
    pattern (like the entry itself), so the list is a join of a hundred or so texts rather
    than a serialisation of them all: about a third of the time even with orjson. The other
    entries (and every other step's list) are serialised with `dumps`, which must write the
    same compact JSON as `compact_json` (the server passes a faster one)."""
    found: str | None = state.cache.get(JSON_KEY)
    if found is not None:
        return found
    entries = legal_with_previews(state)
    texts: list[str] | None = state.cache.get(_TEXTS_KEY)
    if texts is None:
        found = dumps(entries)
    else:
        rest = [dumps(entry) for entry in entries[len(texts) :]]
        found = "[" + ",".join(texts + rest) + "]"
    state.cache[JSON_KEY] = found
    return found


MOVE_KEYS = (CACHE_KEY, JSON_KEY, _TEXTS_KEY, "placements", FRONTIER)
"""What a state memoises about its own moves (not its view lineage, nor its gardens)."""


def forget_legal(state: State) -> None:
    """Drop what ``state`` memoised about its legal moves: the list with previews, its JSON,
    the placements. For a state kept only as the past of a newer one (the server keeps two
    such versions a game, app/play/positions.py): in a place step those were about 40 KB a
    state. Asked again, they are rebuilt."""
    cache = state.cache
    for key in MOVE_KEYS:
        cache.pop(key, None)


def _build(state: State) -> list[dict[str, Any]]:
    if state.phase == "place" and state.hand is not None:
        placements = legal_placements(state)
        if placements:
            return _placements(state, placements) + _entries(state, undo.legal(state))
    return _entries(state, legal_actions(state))


def _entries(state: State, actions: list[Action]) -> list[dict[str, Any]]:
    """The entries of ``actions``, all legal in ``state``."""
    return [
        {"action": encode_action(a), "preview": legal_preview(state, a)}
        for a in actions
    ]


class _Placement:
    """One placement of a shape on a layout: its JSON and its entries by gems lying there."""

    __slots__ = ("covered", "rocks", "action", "cells", "head", "entries")

    def __init__(
        self, geo: Geometry, hexes: list[list[int]], shape: str, pid: int
    ) -> None:
        self.covered = geo.placements[shape][pid]
        """The cells it covers (the geometry's tuple)."""
        self.rocks = sum(1 << c for c in self.covered if geo.rock[c] >= 0)
        """Bit mask of the rock cells it covers."""
        self.action = {
            "type": "place",
            "at": hexes[pid // ROTATIONS],
            "rotation": pid % ROTATIONS,
        }
        self.cells = [hexes[c] for c in self.covered]
        self.head = (
            f'{{"action":{compact_json(self.action)},'
            f'"preview":{{"cells":{compact_json(self.cells)},"gems":'
        )
        """The compact JSON of its entries up to their gems."""
        self.entries: dict[tuple[int, str | None], tuple[dict[str, Any], str]] = {}
        """(Gem cells covered as a bit mask, why no assistant or None) → the entry and
        its compact JSON."""

    def entry(
        self, geo: Geometry, key: tuple[int, str | None]
    ) -> tuple[dict[str, Any], str]:
        gems, lost = key
        counts = [0, 0, 0]
        for c in self.covered:
            if gems >> c & 1:
                counts[geo.rock[c]] += 1
        found = (counts[0], counts[1], counts[2])
        shown: dict[str, Any] = {"cells": self.cells, "gems": _gems_json(found)}
        entry = {"action": self.action, "preview": shown}
        if lost is None:
            text = self.head + _gems_text(found) + "}}"
        else:
            shown.update(no_assistant(lost))
            text = compact_json(entry)
        self.entries[key] = (entry, text)
        return entry, text


def _placements(
    state: State, placements: dict[int, tuple[int, int, int]]
) -> list[dict[str, Any]]:
    """The entries of the legal placements (placement id order, as ``place.legal``)."""
    assert state.hand is not None
    geo = state.geo
    shape = state.ed.tiles[state.hand].shape
    memo = MEMOS.of(geo.key)
    grown = 0
    hexes: list[list[int]] | None = memo.data.get("hexes")
    if hexes is None:
        hexes = memo.data["hexes"] = [[q, r] for q, r in geo.hexes]
        grown += Weights.HEX * len(hexes)
    known: dict[int, _Placement] | None = memo.data.get(f"place {shape}")
    if known is None:
        known = memo.data[f"place {shape}"] = {}
    on_board = sum(1 << c for c in state.gems_on_board)
    lost = _assistant_lost(state)
    entries = []
    texts = []
    for pid, cells in placements.items():
        placement = known.get(pid)
        if placement is None:
            placement = known[pid] = _Placement(geo, hexes, shape, pid)
            grown += Weights.PLACEMENT
        key = (on_board & placement.rocks, lost if lost is None else lost(cells))
        found = placement.entries.get(key)
        if found is None:
            found = placement.entry(geo, key)
            grown += Weights.ENTRY + sys.getsizeof(found[1])
        entries.append(found[0])
        texts.append(found[1])
    state.cache[_TEXTS_KEY] = texts
    if grown:
        MEMOS.grew(geo.key, memo, grown)
    return entries


def _assistant_lost(state: State) -> Callable[[tuple[int, ...]], str | None] | None:
    """``special.assistant_lost`` for each placement, skipped where it cannot apply; None
    where it is None for every placement."""
    assert state.hand is not None
    spaces = state.ed.tiles[state.hand].spaces
    if not any(sp.icon in ("a", "w") for sp in spaces):
        return None
    if state.assistants_supply[state.current] == 0:
        return lambda cells: special.NO_SUPPLY
    near = frontier(state)[1]  # empty cells next to an assistant's flowerbed
    if not near:
        return None
    flowered = [i for i, sp in enumerate(spaces) if sp.flowers > 0]

    def lost(cells: tuple[int, ...]) -> str | None:
        for i in flowered:
            if cells[i] in near:
                return special.assistant_lost(state, cells)
        return None

    return lost


def _gems_json(counts: Gems) -> dict[str, int]:
    found = _GEMS.get(counts)
    if found is None:
        found = _GEMS[counts] = gems_json(counts)
    return found


def _gems_text(counts: Gems) -> str:
    """``compact_json(_gems_json(counts))``, memoised like it."""
    found = _GEMS_TEXT.get(counts)
    if found is None:
        found = _GEMS_TEXT[counts] = compact_json(_gems_json(counts))
    return found
