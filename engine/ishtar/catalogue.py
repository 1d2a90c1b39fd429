"""``catalogue()``: the static component data as JSON, so clients never copy it.

What every edition shares is at the top level; what an edition designs (board sides, tiles,
blooming tokens' flowers, tree cards, the skills' texts and numbers) is under
``editions[<name>]``, and the top level repeats the latest's, as before editions (a view
names its game's edition: ``view["edition"]``).
"""

from __future__ import annotations

from typing import Any

from engine.ishtar.components import (
    BLOOMING_TOKEN_COUNTS,
    CUPS,
    FOUNTAIN_VP,
    FOUNTAINS,
    GAME,
    GEM_COLOURS,
    PLAYER_COLOURS,
    SHAPE_OFFSETS,
    SKILLS,
    TREES,
)
from engine.ishtar.editions import DEFAULT, EDITIONS, LATEST, Edition
from engine.ishtar.geometry import side_cells
from engine.ishtar.views import card_json, tile_json
from engine.ishtar.words import english, skill_params, skill_text


def catalogue() -> dict[str, Any]:
    """Board sides, fountains, tiles, shapes, tokens, skills, tree cards and colours."""
    editions = {name: edition_json(ed) for name, ed in EDITIONS.items()}
    return {
        "game": GAME,
        **editions[DEFAULT],
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
        "cups": list(CUPS),
        "trees": TREES,
        "gem_colours": list(GEM_COLOURS),
        "player_colours": list(PLAYER_COLOURS),
        "latest_edition": LATEST,
        "default_edition": DEFAULT,
        "editions": editions,
    }


def edition_json(ed: Edition) -> dict[str, Any]:
    """The designed data of one edition: board sides, tiles, tokens, skills, tree cards.

    A skill's ``text`` is its English; ``params`` are the numbers its message
    (``ishtar.word.skill.<letter>``) takes, for a client rendering it in its language."""
    return {
        "board_sides": {
            side: [
                {"q": q, "r": r, "code": letter}
                for (q, r), letter in side_cells(ed, side).items()
            ]
            for side in ed.sides
        },
        "tiles": [tile_json(ed, t) for t in ed.tiles],
        "blooming_tokens": [
            {"token": t, "flowers": list(f), "count": BLOOMING_TOKEN_COUNTS[t]}
            for t, f in ed.blooming_tokens.items()
        ],
        "skills": [
            {
                "skill": s.letter,
                "level": s.level,
                "column": s.column,
                "below": s.below,
                "text": english(skill_text(ed, s.letter)),
                "params": skill_params(ed, s.letter),
            }
            for s in SKILLS.values()
        ],
        "tree_cards": [card_json(ed, c, True) for c in ed.tree_cards],
    }
