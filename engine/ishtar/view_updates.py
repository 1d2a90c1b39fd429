"""Updating a big part of a view from the viewed ancestor's, when only some of it changed.

``UPDATES[key](state, ancestor, part, fields)`` returns ``state``'s value for ``key`` given the
ancestor's value ``part`` and the fields of ``PART_FIELDS[key]`` that differ between the two
states (never empty). It equals what ``BUILDERS[key](state)`` returns, but the entries that
did not change (a cell, a placed tile, a space, a player) are the ancestor's objects, shared
read-only; when the difference is not one it knows, it builds the part afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.ishtar.state import State
from engine.ishtar.view_parts import (
    cells_part,
    placed_json,
    player_json,
    players_part,
    space_json,
    spaces_part,
    tiles_part,
    token_cells,
)

Update = Callable[[State, State, Any, set[str]], Any]
Part = list[dict[str, Any]]


def players_update(state: State, ancestor: State, old: Part, fields: set[str]) -> Part:
    """Only the players whose own entries changed are built afresh."""
    if "players" in fields:
        return players_part(state)
    return [
        old[seat]
        if all(getattr(state, f)[seat] == getattr(ancestor, f)[seat] for f in fields)
        else player_json(state, seat)
        for seat in range(state.players)
    ]


def cells_update(state: State, ancestor: State, old: Part, fields: set[str]) -> Part:
    """Gems taken (or put back by an undo): only those rock cells change."""
    if fields != {"gems_on_board"}:
        return cells_part(state)
    cells = list(old)
    on_board = state.gems_on_board
    for c in on_board.symmetric_difference(ancestor.gems_on_board):
        cells[c] = {**old[c], "gem": c in on_board}
    return cells


def tiles_update(state: State, ancestor: State, old: Part, fields: set[str]) -> Part:
    """Tiles placed (or taken back): the tiles both states have placed are kept."""
    if fields != {"placed"}:
        return tiles_part(state)
    n = _common_prefix(ancestor.placed, state.placed)
    return old[:n] + [placed_json(state, p) for p in state.placed[n:]]


def spaces_update(state: State, ancestor: State, old: Part, fields: set[str]) -> Part:
    """The spaces of the tiles both states have placed are kept where nothing on them
    changed (flowers, token, assistant, tree); the others are built afresh."""
    if not fields <= {"placed", "flowers", "tokens", "assistants", "trees"}:
        return spaces_part(state)
    n = _common_prefix(ancestor.placed, state.placed)
    touched = _touched(state, ancestor, fields)
    check_flowers = "flowers" in fields
    flowers, before = state.flowers, ancestor.flowers
    tokens = token_cells(state)
    tiles = state.ed.tiles
    spaces = []
    i = 0
    for placed in state.placed[:n]:
        for space, c in zip(tiles[placed.tile].spaces, placed.cells):
            if c in touched or (check_flowers and flowers[c] != before[c]):
                spaces.append(space_json(state, placed, space, c, tokens))
            else:
                spaces.append(old[i])
            i += 1
    for placed in state.placed[n:]:
        for space, c in zip(tiles[placed.tile].spaces, placed.cells):
            spaces.append(space_json(state, placed, space, c, tokens))
    return spaces


def _touched(state: State, ancestor: State, fields: set[str]) -> set[int]:
    """Cells whose blooming token, assistant or tree differs between the two states."""
    touched: set[int] = set()
    if "tokens" in fields:
        for t in set(state.tokens).symmetric_difference(ancestor.tokens):
            touched.update(t.cells)
    if "assistants" in fields:
        touched.update(_keys_differing(state.assistants, ancestor.assistants))
    if "trees" in fields:
        touched.update(_keys_differing(state.trees, ancestor.trees))
    return touched


def _keys_differing(a: dict[int, int], b: dict[int, int]) -> Iterable[int]:
    return (k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def _common_prefix(a: tuple[Any, ...], b: tuple[Any, ...]) -> int:
    """The length of the longest common beginning of two tuples."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    return next(i for i in range(n) if a[i] != b[i])


UPDATES: dict[str, Update] = {
    "players": players_update,
    "cells": cells_update,
    "tiles": tiles_update,
    "spaces": spaces_update,
}
"""The parts that can be updated from the ancestor's; the others are built afresh."""
