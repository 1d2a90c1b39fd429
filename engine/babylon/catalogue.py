"""``catalogue()``: the static data of the game as JSON, so clients never copy it."""

from __future__ import annotations

from typing import Any

from engine.babylon.components import GAME, NECTAR, PLAYER_COLOURS, TILES
from engine.babylon.floors import FLOOR_IDS, floor
from engine.babylon.scoreboards import LINES, SIDES, SLOT_CELL, board_of, borders


def catalogue() -> dict[str, Any]:
    """The tiles, the six floors, the scoreboards' spiral, lines and sides, the colours."""
    return {
        "game": GAME,
        "player_colours": list(PLAYER_COLOURS),
        "nectar": list(NECTAR),
        "tiles": {
            tid: {"kind": t.kind, "colour": t.colour, "flowers": t.flowers}
            for tid, t in TILES.items()
        },
        "floors": [
            {
                "id": fid,
                "name": floor(fid).name,
                "grid": list(floor(fid).grid),
                "well": list(floor(fid).well),
            }
            for fid in FLOOR_IDS
        ],
        "spiral": [list(SLOT_CELL[n]) for n in range(1, len(SLOT_CELL) + 1)],
        "lines": [{"line": name, "slots": list(slots)} for name, slots in LINES],
        "sides": {
            side: {
                "board": board_of(side),
                "borders": [{"slot": s, "colour": c} for s, c in borders(side).items()],
            }
            for side in SIDES
        },
    }
