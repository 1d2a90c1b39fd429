"""``catalogue()``: the static component data as JSON, so clients never copy it."""

from __future__ import annotations

from typing import Any

from engine.ishtar.components import (
    BLOOMING_TOKEN_COUNTS,
    BLOOMING_TOKENS,
    BOARD_SIDES,
    CUPS,
    FOUNTAIN_VP,
    FOUNTAINS,
    GAME,
    GEM_COLOURS,
    PLAYER_COLOURS,
    SHAPE_OFFSETS,
    SKILLS,
    TILES,
    TREE_CARDS,
    TREES,
)
from engine.ishtar.geometry import side_cells
from engine.ishtar.views import card_json, tile_json


def catalogue() -> dict[str, Any]:
    """Board sides, fountains, tiles, shapes, tokens, skills, tree cards and colours."""
    return {
        "game": GAME,
        "board_sides": {
            side: [
                {"q": q, "r": r, "code": letter}
                for (q, r), letter in side_cells(side).items()
            ]
            for side in BOARD_SIDES
        },
        "terrain_codes": {
            "S": "sand",
            "T": "tablet",
            "F": "fountain",
            "P": "rock:purple",
            "R": "rock:red",
            "W": "rock:white",
        },
        "fountains": list(FOUNTAINS),
        "fountain_vp": dict(FOUNTAIN_VP),
        "shapes": {
            shape: [list(o) for o in offs] for shape, offs in SHAPE_OFFSETS.items()
        },
        "tiles": [tile_json(t) for t in TILES],
        "cups": list(CUPS),
        "blooming_tokens": [
            {"token": t, "flowers": list(f), "count": BLOOMING_TOKEN_COUNTS[t]}
            for t, f in BLOOMING_TOKENS.items()
        ],
        "skills": [
            {
                "skill": s.letter,
                "level": s.level,
                "column": s.column,
                "below": s.below,
                "text": s.text,
            }
            for s in SKILLS.values()
        ],
        "tree_cards": [card_json(c, True) for c in TREE_CARDS],
        "trees": TREES,
        "gem_colours": list(GEM_COLOURS),
        "player_colours": list(PLAYER_COLOURS),
    }
