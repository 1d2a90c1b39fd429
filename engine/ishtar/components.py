"""The catalogue: every component of Ishtar as data, in one place.

Terrain board sides, fountains, vegetation tiles, cups, blooming tokens, skills, tree cards
and player colours. Sides 1a and 1b are printed in GAME-SPEC §2; the other ten are this
project's design to the same counts (1 fountain within distance 1 of the centre, 3 sacred
tablets, 7 purple / 6 red / 4 white rock spaces, 16 sand), no two alike up to rotation or
mirror image (pinned by tests/engine/ishtar/test_components.py).
"""

from __future__ import annotations

from typing import NamedTuple

GAME = "ishtar"

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

BOARD_SIDES: dict[str, str] = {
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
    "2a": """
       S T P S
      R S R W P
     T R S S P S
    P W S F R R S
     T S S P W S
      R S S S S
       P W P S""",
    "2b": """
       P S S W
      P T R S R
     W S P P S R
    R P S F S W S
     R S P S S R
      T S S P S
       W S T S""",
    "3a": """
       W S S W
      S P S P T
     S S F S P S
    R S P P R T S
     W R S P S S
      R P W S R
       R S S T""",
    "3b": """
       S S S R
      S S R S S
     S W P S P T
    P R P F P S P
     T R S S T S
      W R W R S
       S S P W""",
    "4a": """
       S R S S
      P T P P S
     S W R S P W
    R S S S R T R
     P T P F S P
      S S S S W
       S S W R""",
    "4b": """
       W S T W
      R P S S P
     R P R F S P
    P R S S R S S
     W S S S T S
      P P W S S
       R S S T""",
    "5a": """
       S P P W
      S W P S S
     P R T R S S
    T P S S S R S
     W P F S R S
      P S R W S
       R S T S""",
    "5b": """
       T W P W
      S S S R S
     S S F P P T
    P P R S S W R
     W P R P S R
      S S S R S
       T S S S""",
    "6a": """
       T S P T
      W S W S S
     S P S T R R
    S S P R S W S
     P S F S R P
      P W S S S
       P S R R""",
    "6b": """
       R S W S
      S R S S T
     P P F S S S
    W S R S P S T
     S P S S W R
      R W T R P
       P P S S""",
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
# Vegetation tiles. A space is "G" (grass) or "F<n>" with an optional icon letter:
# a = assistant, s = skill, w = wild.

SHAPES: tuple[str, ...] = ("line", "chevron", "triangle")

SHAPE_OFFSETS: dict[str, tuple[tuple[int, int], ...]] = {
    "line": ((0, 0), (1, 0), (2, 0)),
    "chevron": ((0, 0), (1, 0), (1, 1)),
    "triangle": ((0, 0), (1, 0), (0, 1)),
}
"""Cell offsets of each shape at rotation 0; cell order is the order of the spaces below."""

_TILE_TABLE: tuple[tuple[str, str, str, str], ...] = (
    # number, line, chevron, triangle
    ("01", "F1a F2 G", "F2a F1 G", "F1a F1 F1"),
    ("02", "F2s F1 G", "F1 F2s G", "F2s F1 G"),
    ("03", "G F3 G", "G F3 G", "F3 G G"),
    ("04", "F1 G F1s", "F1s G F2", "F1a F2 G"),
    ("05", "F2w F2 F1", "F1 F1w F1", "F2w G G"),
    ("06", "F4 G G", "G F4 G", "F1s F1 F2"),
    ("07", "G F2a G", "F2a G G", "F4 G G"),
    ("08", "F1 F1s F1", "F3 F1s G", "F2a F2 G"),
    ("09", "F3 G F1a", "F1 G F1a", "F1s G G"),
    ("10", "F1w G G", "F2w F1 G", "F1 F1w G"),
    ("11", "F2 F2s G", "F1s F1 G", "F2s F2 F1"),
    ("12", "G F1 G", "F2 G G", "F1 F2 G"),
    ("A", "F1a F1 G", "F1a F1 G", "F1a F1 G"),
    ("B", "G F2a G", "F2a G G", "F2a G G"),
)


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


def _tiles() -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for number, *codes in _TILE_TABLE:
        for shape, code in zip(SHAPES, codes):
            s0, s1, s2 = (_space(c) for c in code.split())
            tile_id = f"{shape}-{number}"
            tiles[tile_id] = Tile(tile_id, shape, number in ("A", "B"), (s0, s1, s2))
    return tiles


TILES: dict[str, Tile] = _tiles()
"""All 42 vegetation tiles by id: 12 basic and 2 starting tiles per shape (RB)."""

BASIC_PER_PILE = 6
CUPS: tuple[str, ...] = ("line", "line", "chevron", "chevron", "triangle", "triangle")
"""The 6 cup tiles: 2 per shape, shuffled onto the 6 spots of the carpet."""

PILE_REMOVALS: dict[int, int] = {2: 2, 3: 1, 4: 0}
"""Basic tiles removed from the bottom of each pile, by number of players (RB)."""

# ---------------------------------------------------------------------------------------
# Blooming tokens (8, RB): flower counts of their spaces; singles cover 1 grass space,
# doubles 2 adjacent grass spaces.

BLOOMING_TOKENS: dict[str, tuple[int, ...]] = {
    "F2": (2,),
    "F3": (3,),
    "F1F1": (1, 1),
    "F1F2": (1, 2),
}
BLOOMING_TOKEN_COUNTS: dict[str, int] = {"F2": 2, "F3": 2, "F1F1": 2, "F1F2": 2}

# ---------------------------------------------------------------------------------------
# Skills: the same 10 on every player board, 2 gems each, upper needs the lower below it.


class Skill(NamedTuple):
    """A skill of the player board."""

    letter: str
    level: str  # "upper" (end-game VP) or "lower" (an ability)
    column: int
    below: str | None  # the lower skill an upper skill needs
    text: str


SKILLS: dict[str, Skill] = {
    s.letter: s
    for s in (
        Skill(
            "A",
            "upper",
            1,
            "F",
            "1 / 2 / 3 VP per purple / red / white gem left in your supply",
        ),
        Skill(
            "B",
            "upper",
            2,
            "G",
            "2 VP per sacred tablet next to a flowerbed you control",
        ),
        Skill("C", "upper", 3, "H", "+3 VP per fountain you control"),
        Skill("D", "upper", 4, "I", "+2 VP per tree card you planted"),
        Skill("E", "upper", 5, "J", "1 VP per flower space in flowerbeds you control"),
        Skill(
            "F",
            "lower",
            1,
            None,
            "each turn, your first paid watering-can step is free",
        ),
        Skill("G", "lower", 2, None, "take a single blooming token and place it now"),
        Skill(
            "H",
            "lower",
            3,
            None,
            "take your assistants from the carpet into your supply",
        ),
        Skill(
            "I",
            "lower",
            4,
            None,
            "reserve a face-up tree card with its tree, plant it later",
        ),
        Skill("J", "lower", 5, None, "take a double blooming token and place it now"),
    )
}

# ---------------------------------------------------------------------------------------
# Tree cards (26): cost in purple, red, white gems and a cosmetic tree name.
# VP = purple + 2·red + 3·white + (gems − 1).


class TreeCard(NamedTuple):
    """A tree card: id 1–26, tree name, cost (purple, red, white) and victory points."""

    id: int
    name: str
    cost: tuple[int, int, int]
    vp: int


_TREE_TABLE: tuple[tuple[str, int, int, int], ...] = (
    ("Date Palm", 2, 0, 0),
    ("Pomegranate", 1, 1, 0),
    ("Fig Tree", 3, 0, 0),
    ("Tamarisk", 0, 2, 0),
    ("Olive Tree", 1, 0, 1),
    ("Almond Tree", 2, 1, 0),
    ("Apricot Tree", 0, 1, 1),
    ("Willow", 4, 0, 0),
    ("Poplar", 1, 2, 0),
    ("Jujube", 2, 0, 1),
    ("Myrtle", 0, 0, 2),
    ("Pistachio", 3, 1, 0),
    ("Quince", 1, 1, 1),
    ("Carob Tree", 0, 3, 0),
    ("Cypress", 2, 2, 0),
    ("Walnut Tree", 0, 2, 1),
    ("Mulberry", 1, 0, 2),
    ("Plane Tree", 2, 1, 1),
    ("Cedar of Lebanon", 1, 3, 0),
    ("Acacia", 0, 1, 2),
    ("Oleander", 1, 2, 1),
    ("Citron", 2, 0, 2),
    ("Juniper", 0, 0, 3),
    ("Sycamore Fig", 1, 1, 2),
    ("Persian Silk Tree", 0, 1, 3),
    ("Hanging Garden Palm", 0, 2, 3),
)


def tree_vp(cost: tuple[int, int, int]) -> int:
    """Victory points of a tree card from its cost (GAME-SPEC §8)."""
    purple, red, white = cost
    return purple + 2 * red + 3 * white + (purple + red + white - 1)


TREE_CARDS: dict[int, TreeCard] = {
    i: TreeCard(i, name, (p, r, w), tree_vp((p, r, w)))
    for i, (name, p, r, w) in enumerate(_TREE_TABLE, start=1)
}
