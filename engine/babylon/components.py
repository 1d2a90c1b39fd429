"""The components of Babylon Gardens (spec §1, R-1, R-2): the tiles and the colours.

Each tile is held once, in `TILES`, by its id: ``S-<c><n>`` for a single-flower tile and
``M-<c><f>-<k>`` for a multi-flower tile, ``c`` one of ``r g y p``. Gems and winks are
unlimited (R-2), so no supply is counted anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

GAME = "babylon-gardens"
"""The game's id: stored on rooms and in records."""

TITLE = "Babylon Gardens"

NECTAR: tuple[str, ...] = ("red", "green", "yellow", "purple")
"""The four nectar colours, in the rulebook's order."""

LETTER: dict[str, str] = {"r": "red", "g": "green", "y": "yellow", "p": "purple"}
"""The letter of a colour in tile ids and in the scoreboards' border patterns."""

PLAYER_COLOURS: tuple[str, ...] = ("blue", "orange", "white", "black")
"""The seats' colours (UI only): none is a nectar colour, so a seat is never a wink."""

KINDS: tuple[str, ...] = ("single", "multi")
"""The two piles (R-10: one pile and one discard pile per type); the well is neither."""

SINGLES_PER_COLOUR = 6
MULTI_FLOWERS: tuple[int, ...] = (2, 2, 3, 3, 4, 4, 5, 5)
"""R-1: the flowers of each colour's 8 multi-flower tiles."""

SLOTS = 25
"""Slots of a scoreboard: the game ends when one holds this many winks (R-11)."""


@dataclass(frozen=True)
class Tile:
    """One flower tile: its id, its type (the back), its colour and its flowers."""

    id: str
    kind: str
    colour: str
    flowers: int


def _catalogue() -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for letter, colour in LETTER.items():
        for n in range(1, SINGLES_PER_COLOUR + 1):
            tile = Tile(f"S-{letter}{n}", "single", colour, 1)
            tiles[tile.id] = tile
        seen: dict[int, int] = {}
        for flowers in MULTI_FLOWERS:
            seen[flowers] = seen.get(flowers, 0) + 1
            tile = Tile(
                f"M-{letter}{flowers}-{seen[flowers]}", "multi", colour, flowers
            )
            tiles[tile.id] = tile
    return tiles


TILES: dict[str, Tile] = _catalogue()
"""The 56 flower tiles by id (24 single, 32 multi), in colour order then id order."""

TILES_OF_KIND: dict[str, tuple[str, ...]] = {
    kind: tuple(tid for tid, tile in TILES.items() if tile.kind == kind)
    for kind in KINDS
}
