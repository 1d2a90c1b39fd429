"""The pieces of a view as JSON: tiles, gems, cards, and the big parts of the view.

Each big part (``BUILDERS``, in the order of the view's keys) is built from a few State
fields only (engine.views.PART_FIELDS says which). Everything returned is read-only: the JSON
of each vegetation tile and of each layout is memoised and shared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.ishtar.components import GEM_COLOURS, PLAYER_COLOURS, Space
from engine.ishtar.editions import Edition
from engine.ishtar.layout import layout_to_json
from engine.ishtar.memos import MEMOS
from engine.ishtar.memos import Weights as MemoWeights
from engine.ishtar.state import PlacedTile, State

_TILE_JSON: dict[tuple[Edition, str], dict[str, Any]] = {}


def tile_json(ed: Edition, tile_id: str) -> dict[str, Any]:
    """A vegetation tile of edition ``ed`` as JSON (see docs/games/ishtar/contract.md);
    memoised, read-only."""
    found = _TILE_JSON.get((ed, tile_id))
    if found is None:
        found = _TILE_JSON[(ed, tile_id)] = _tile_json(ed, tile_id)
    return found


def _tile_json(ed: Edition, tile_id: str) -> dict[str, Any]:
    tile = ed.tiles[tile_id]
    return {
        "tile": tile.id,
        "shape": tile.shape,
        "start": tile.start,
        "spaces": [
            {
                "kind": "flower" if s.flowers else "grass",
                "flowers": s.flowers,
                "icon": s.icon,
            }
            for s in tile.spaces
        ],
    }


def gems_json(gems: tuple[int, int, int]) -> dict[str, int]:
    return dict(zip(GEM_COLOURS, gems))


def card_json(ed: Edition, card: int, tree: bool) -> dict[str, Any]:
    c = ed.tree_cards[card]
    return {
        "card": c.id,
        "name": c.name,
        "cost": gems_json(c.cost),
        "vp": c.vp,
        "tree": tree,
    }


def face_up_top(state: State, pile: int) -> str | None:
    """The top tile of ``pile`` if it is face up (every pile but the one under the can)."""
    tiles = state.piles[pile]
    if not tiles or pile == state.can:
        return None
    return tiles[-1]


def players_part(state: State) -> list[dict[str, Any]]:
    return [player_json(state, p) for p in range(state.players)]


def player_json(state: State, seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "colour": PLAYER_COLOURS[seat],
        "gems": gems_json(state.gems[seat]),
        "assistants_supply": state.assistants_supply[seat],
        "assistants_carpet": state.assistants_carpet[seat],
        "skills": {k: list(v) for k, v in sorted(state.skills[seat].items())},
        "tree_cards": list(state.tree_cards[seat]),
        "reserved": state.reserved[seat],
        "trees_planted": len(state.tree_cards[seat]),
    }


def layout_part(state: State) -> list[dict[str, Any]]:
    """The layout as JSON, memoised per layout (engine.ishtar.memos: a layout never changes
    in a game)."""
    key = state.geo.key
    memo = MEMOS.of(key)
    found: list[dict[str, Any]] | None = memo.data.get("layout")
    if found is None:
        layout = state.geo.layout
        found = memo.data["layout"] = layout_to_json(layout)
        MEMOS.grew(key, memo, MemoWeights.LAYOUT_PER_BOARD * len(layout))
    return found


def cells_part(state: State) -> list[dict[str, Any]]:
    """One entry per cell, in cell order."""
    geo = state.geo
    fountain_colour = {c: state.fountains[k] for c, k in geo.fountain_of.items()}
    cells = []
    for c, (q, r) in enumerate(geo.hexes):
        cell: dict[str, Any] = {
            "q": q,
            "r": r,
            "board": geo.board[c],
            "terrain": geo.terrain[c],
        }
        if c in fountain_colour:
            cell["fountain"] = fountain_colour[c]
        if geo.rock[c] >= 0:
            cell["rock"] = GEM_COLOURS[geo.rock[c]]
            cell["gem"] = c in state.gems_on_board
        cells.append(cell)
    return cells


def tiles_part(state: State) -> list[dict[str, Any]]:
    return [placed_json(state, p) for p in state.placed]


def placed_json(state: State, p: PlacedTile) -> dict[str, Any]:
    return {
        "tile": p.tile,
        "shape": state.ed.tiles[p.tile].shape,
        "by": p.seat,
        "turn": p.turn,
        "at": list(p.at),
        "rotation": p.rotation,
        "cells": [list(state.geo.hexes[c]) for c in p.cells],
    }


def spaces_part(state: State) -> list[dict[str, Any]]:
    """The spaces of the placed tiles, tile by tile in placing order."""
    tokens = token_cells(state)
    tiles = state.ed.tiles
    return [
        space_json(state, placed, space, c, tokens)
        for placed in state.placed
        for space, c in zip(tiles[placed.tile].spaces, placed.cells)
    ]


def token_cells(state: State) -> dict[int, str]:
    """Cell → the blooming token lying on it."""
    return {c: t.token for t in state.tokens for c in t.cells}


def space_json(
    state: State, placed: PlacedTile, space: Space, c: int, tokens: dict[int, str]
) -> dict[str, Any]:
    flowers = state.flowers[c]
    q, r = state.geo.hexes[c]
    return {
        "q": q,
        "r": r,
        "kind": "flower" if flowers > 0 else "grass",
        "flowers": flowers,
        "icon": space.icon,
        "tile": placed.tile,
        "token": tokens.get(c),
        "assistant": state.assistants.get(c),
        "tree": state.trees.get(c),
    }


def tokens_part(state: State) -> list[dict[str, Any]]:
    return [
        {
            "token": t.token,
            "by": t.seat,
            "cells": [list(state.geo.hexes[c]) for c in t.cells],
        }
        for t in state.tokens
    ]


def carpet_part(state: State) -> dict[str, Any]:
    return {
        "piles": [
            {
                "cup": cup,
                "size": len(state.piles[i]),
                "top": None
                if (top := face_up_top(state, i)) is None
                else tile_json(state.ed, top),
            }
            for i, cup in enumerate(state.cups)
        ],
        "can": state.can,
        "blooming_tokens": dict(state.tokens_left),
    }


def hand_part(state: State) -> dict[str, Any] | None:
    return None if state.hand is None else tile_json(state.ed, state.hand)


def discarded_part(state: State) -> list[str]:
    return list(state.discarded)


def market_part(state: State) -> list[dict[str, Any]]:
    return [card_json(state.ed, c, c in state.market_trees) for c in state.market]


BUILDERS: dict[str, Callable[[State], Any]] = {
    "players": players_part,
    "layout": layout_part,
    "cells": cells_part,
    "tiles": tiles_part,
    "spaces": spaces_part,
    "tokens": tokens_part,
    "carpet": carpet_part,
    "hand": hand_part,
    "discarded": discarded_part,
    "market": market_part,
}
"""How each big part is built, in the order of the view's keys."""
