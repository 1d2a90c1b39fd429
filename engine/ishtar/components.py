"""The components of Ishtar that every edition shares: the rulebook's facts and the types.

Gem colours and totals, the printed board sides 1a and 1b (GAME-SPEC §2), fountains and
their VP, shapes, cups, pile removals, blooming token counts, the skills' places on the
player board, the tree card VP formula, player colours: *(RB)* or *(published)*, never tuned.
The numbers of this project's own design (the ten other board sides, the tiles' flowers and
icons, the tokens' flowers, the tree cards' costs, the upper skills' VP...) are an edition's
(engine.ishtar.editions); this module has the types they are made of and their builders.
"""

from __future__ import annotations

from typing import NamedTuple

GAME = "ishtar"
"""The game's id: stored on rooms and in records."""

TITLE = "Ishtar: Gardens of Babylon"

PLAYERS = range(2, 5)
"""2 to 4 players (RB): the pile removals are given for these counts."""

GEM_COLOURS: tuple[str, ...] = ("purple", "red", "white")
"""Gem colours in their canonical order (payments are listed sorted in this order)."""

GEM_TOTALS: tuple[int, int, int] = (50, 38, 26)
"""114 gems in the box (RB)."""

PLAYER_COLOURS: tuple[str, ...] = ("blue", "yellow", "green", "orange")
"""Colour of the player in each seat."""

ASSISTANTS_IN_SUPPLY = 2
ASSISTANTS_ON_CARPET = 2
START_GEMS: tuple[int, int, int] = (1, 0, 0)
"""Each player starts with 1 purple gem (RB)."""

TREES = 20
MARKET_SIZE = 5
SKILL_COST = 2

# ---------------------------------------------------------------------------------------
# Terrain boards: rows r = -3..3, q ascending. F fountain, T tablet, P/R/W rock, S sand.
# Sides 1a and 1b are printed in GAME-SPEC §2; the other ten are an edition's.

PRINTED_SIDES: dict[str, str] = {
    "1a": """
       S P S W
      S S P T S
     R R P S R R
    W T S F P S S
     S W P S P S
      P S R T S
       S S R W""",
    "1b": """
       W S P S
      R T W S S
     S R S P R R
    S S P P S T W
     P P S F P S
      S T R S S
       W S R S""",
}

BOARDS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
SIDES: tuple[str, ...] = ("a", "b")

TERRAIN_CODES: dict[str, tuple[str, str | None]] = {
    "S": ("sand", None),
    "T": ("tablet", None),
    "F": ("fountain", None),
    "P": ("rock", "purple"),
    "R": ("rock", "red"),
    "W": ("rock", "white"),
}
"""Letter of a board side → (terrain, gem colour of a rock space)."""

# ---------------------------------------------------------------------------------------
# Fountains (RB): colour and the VP each controller scores.

FOUNTAINS: tuple[str, ...] = ("purple", "purple", "purple", "red", "red", "white")
FOUNTAIN_VP: dict[str, int] = {"purple": 4, "red": 6, "white": 8}

# ---------------------------------------------------------------------------------------
# Vegetation tiles (42, RB: 12 basic and 2 starting tiles per shape). Their spaces are an
# edition's tile table.

SHAPES: tuple[str, ...] = ("line", "chevron", "triangle")

SHAPE_OFFSETS: dict[str, tuple[tuple[int, int], ...]] = {
    "line": ((0, 0), (1, 0), (2, 0)),
    "chevron": ((0, 0), (1, 0), (1, 1)),
    "triangle": ((0, 0), (1, 0), (0, 1)),
}
"""Cell offsets of each shape at rotation 0; cell order is the order of the spaces below."""


class Space(NamedTuple):
    """One space of a vegetation tile or blooming token: 0 flowers means grass."""

    flowers: int
    icon: str | None


class Tile(NamedTuple):
    """A vegetation tile: its id (e.g. ``line-03``, ``chevron-A``), shape and three spaces."""

    id: str
    shape: str
    start: bool
    spaces: tuple[Space, Space, Space]


def _space(code: str) -> Space:
    if code == "G":
        return Space(0, None)
    return Space(int(code[1]), code[2] if len(code) > 2 else None)


TileRow = tuple[str, str, str, str]
"""A row of the tile table: number, then the line, chevron and triangle tiles' spaces, each
space "G" (grass) or "F<n>" with an optional icon letter (a assistant, s skill, w wild)."""


def tiles_of(table: tuple[TileRow, ...]) -> dict[str, Tile]:
    """The tiles of a tile table by id, in table order (each row: line, chevron, triangle)."""
    tiles: dict[str, Tile] = {}
    for number, *codes in table:
        for shape, code in zip(SHAPES, codes):
            s0, s1, s2 = (_space(c) for c in code.split())
            tile_id = f"{shape}-{number}"
            tiles[tile_id] = Tile(tile_id, shape, number in ("A", "B"), (s0, s1, s2))
    return tiles


BASIC_PER_PILE = 6
CUPS: tuple[str, ...] = ("line", "line", "chevron", "chevron", "triangle", "triangle")
"""The 6 cup tiles: 2 per shape, shuffled onto the 6 spots of the carpet."""

PILE_REMOVALS: dict[int, int] = {2: 2, 3: 1, 4: 0}
"""Basic tiles removed from the bottom of each pile, by number of players (RB)."""

# ---------------------------------------------------------------------------------------
# Blooming tokens (8, RB): how many of each kind; the flowers on each kind are an
# edition's. Singles cover 1 grass space, doubles 2 adjacent grass spaces.

BLOOMING_TOKEN_COUNTS: dict[str, int] = {"F2": 2, "F3": 2, "F1F1": 2, "F1F2": 2}

# ---------------------------------------------------------------------------------------
# Skills: the same 10 on every player board, 2 gems each, upper needs the lower below it.


class Skill(NamedTuple):
    """A skill of the player board."""

    letter: str
    level: str  # "upper" (end-game VP) or "lower" (an ability)
    column: int
    below: str | None  # the lower skill an upper skill needs


SKILLS: dict[str, Skill] = {
    s.letter: s
    for s in (
        Skill("A", "upper", 1, "F"),
        Skill("B", "upper", 2, "G"),
        Skill("C", "upper", 3, "H"),
        Skill("D", "upper", 4, "I"),
        Skill("E", "upper", 5, "J"),
        Skill("F", "lower", 1, None),
        Skill("G", "lower", 2, None),
        Skill("H", "lower", 3, None),
        Skill("I", "lower", 4, None),
        Skill("J", "lower", 5, None),
    )
}
"""Their places on the player board; what each does is its text (``ishtar.word.skill.*``)
with its edition's numbers (engine.ishtar.editions)."""

D_VP_PER_TREE = 2
"""Skill D: +2 VP per tree card planted *(published)*."""

# ---------------------------------------------------------------------------------------
# Tree cards (26, RB): cost in purple, red, white gems and a cosmetic tree name (an
# edition's tree table).
# VP = purple + 2·red + 3·white + (gems − 1).


class TreeCard(NamedTuple):
    """A tree card: id 1–26, tree name, cost (purple, red, white) and victory points."""

    id: int
    name: str
    cost: tuple[int, int, int]
    vp: int


TreeRow = tuple[str, int, int, int]
"""A row of the tree table: the card's name and its cost in purple, red and white gems."""


def tree_vp(cost: tuple[int, int, int], bonus: int = 1) -> int:
    """Victory points of a tree card from its cost (GAME-SPEC §8): 1 / 2 / 3 per purple /
    red / white gem, and `bonus` per gem beyond the first (1 in GAME-SPEC; an edition's
    `tree_vp_bonus`)."""
    purple, red, white = cost
    return purple + 2 * red + 3 * white + bonus * (purple + red + white - 1)


def tree_cards_of(table: tuple[TreeRow, ...], bonus: int = 1) -> dict[int, TreeCard]:
    """The tree cards of a tree table by id (1 for its first row), VP by `tree_vp` with
    `bonus` VP per gem beyond the first."""
    return {
        i: TreeCard(i, name, (p, r, w), tree_vp((p, r, w), bonus))
        for i, (name, p, r, w) in enumerate(table, start=1)
    }
