"""A from-scratch reference of ``engine.view_for``: the view as it was built before views
were memoised and shared (engine 1.1.0), kept to check that the fast views are identical.

Nothing here is memoised or shared: every call builds new objects.
"""

from __future__ import annotations

from typing import Any

from engine.ishtar.components import GAME, GEM_COLOURS, PLAYER_COLOURS
from engine.ishtar.editions import Edition
from engine.ishtar.layout import layout_to_json
from engine.ishtar.rules.turn import piles_to_end
from engine.ishtar.scoring import final_scores, tiebreak_message
from engine.ishtar.state import State


def tile_json(ed: Edition, tile_id: str) -> dict[str, Any]:
    """A vegetation tile as JSON (see docs/games/ishtar/contract.md)."""
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


def reference_view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of ``state`` for ``seat``, built from scratch, without any memo."""
    over = state.phase == "over"
    return {
        "game": GAME,
        "format": 1,
        "viewer": seat,
        "phase": state.phase,
        "current": None if over else state.current,
        "turn": state.turn,
        "first_player": state.first_player,
        "end_triggered": state.end_triggered,
        "piles_to_end": piles_to_end(state),
        "bloom": state.bloom,
        "turn_end": "auto" if state.auto_end else "explicit",
        "edition": state.edition,
        "players": [_player(state, p) for p in range(state.players)],
        "layout": layout_to_json(state.layout),
        "cells": _cells(state),
        "tiles": [
            {
                "tile": p.tile,
                "shape": state.ed.tiles[p.tile].shape,
                "by": p.seat,
                "turn": p.turn,
                "at": list(p.at),
                "rotation": p.rotation,
                "cells": [list(state.geo.hexes[c]) for c in p.cells],
            }
            for p in state.placed
        ],
        "spaces": _spaces(state),
        "tokens": [
            {
                "token": t.token,
                "by": t.seat,
                "cells": [list(state.geo.hexes[c]) for c in t.cells],
            }
            for t in state.tokens
        ],
        "carpet": {
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
        },
        "hand": None if state.hand is None else tile_json(state.ed, state.hand),
        "discarded": list(state.discarded),
        "market": [
            card_json(state.ed, c, c in state.market_trees) for c in state.market
        ],
        "deck_size": len(state.deck),
        "trees_left": state.trees_left,
        "scores": _final(state) if over else None,
        "standing": None if over else final_scores(state),
    }


def _final(state: State) -> dict[str, Any]:
    """The final scores, the tie-break's message next to its sentence."""
    scores = final_scores(state)
    return {
        "players": scores["players"],
        "winners": scores["winners"],
        "tiebreak": scores["tiebreak"],
        "tiebreak_message": tiebreak_message(scores),
    }


def _player(state: State, seat: int) -> dict[str, Any]:
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


def _cells(state: State) -> list[dict[str, Any]]:
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


def _spaces(state: State) -> list[dict[str, Any]]:
    geo = state.geo
    tokens = {c: t.token for t in state.tokens for c in t.cells}
    spaces = []
    for placed in state.placed:
        for space, c in zip(state.ed.tiles[placed.tile].spaces, placed.cells):
            flowers = state.flowers[c]
            q, r = geo.hexes[c]
            spaces.append(
                {
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
            )
    return spaces
