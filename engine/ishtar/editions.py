"""Editions of the component data: every number of this project's own design, per edition.

GAME-SPEC keeps its tables "as data so it can be tuned" (issue 16), and tuned data changes
the game: a game is played, replayed and verified with the numbers it began with. So the
designed numbers are an `Edition`, each game records the name of its own (``State.edition``,
the set-up option ``edition``) and every rule reads them from the state (``state.ed``).
What the rulebook prints or the published game fixes (engine.ishtar.components: fountain
VP, skill D, gem totals, starting gems, token counts, sides 1a and 1b...) is in no edition.

Edition "1" is the data of every game begun before editions existed (engine 1.3.0); a game,
a stored state or a record that names no edition is of edition "1" (docs/games/ishtar/rules.md,
"Editions"). `DEFAULT` is the edition of a new game that chooses none; `LATEST` the newest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from engine.ishtar.components import (
    PRINTED_SIDES,
    Tile,
    TileRow,
    TreeCard,
    TreeRow,
    tiles_of,
    tree_cards_of,
)


@dataclass(frozen=True, eq=False)
class Edition:
    """The designed numbers of one edition; ``tiles``, ``tree_cards`` and ``sides`` derive
    from the tables. Compared by identity: each edition is one object (`EDITIONS`)."""

    tile_table: tuple[TileRow, ...]
    """The flowers and icons of every tile's spaces (GAME-SPEC §4)."""
    blooming_tokens: Mapping[str, tuple[int, ...]]
    """The flowers on each space of each kind of token (how many of each: RB)."""
    tree_table: tuple[TreeRow, ...]
    """The tree cards' names and costs (GAME-SPEC §8); their VP is `tree_vp` of the cost."""
    tree_vp_bonus: int
    """Tree cards: VP per gem of the cost beyond the first, over 1 / 2 / 3 per purple / red /
    white gem (GAME-SPEC §8: 1)."""
    board_sides: Mapping[str, str]
    """The ten sides 2a–6b (GAME-SPEC §2: "design the other 10 sides")."""
    skill_a_vp: tuple[int, int, int]
    """Skill A: VP per purple, red, white gem left in the supply."""
    skill_b_vp: int
    """Skill B: VP per sacred tablet next to a flowerbed you control."""
    skill_b_max: int | None
    """Skill B: at most this many VP (None: no limit)."""
    skill_c_vp: int
    """Skill C: VP per fountain you control."""
    skill_e_spaces_per_vp: int
    """Skill E: `skill_e_vp` VP per so many flower spaces in flowerbeds you control (whole
    groups only)."""
    skill_e_vp: int
    """Skill E: VP per whole group of `skill_e_spaces_per_vp` flower spaces."""
    skill_e_max: int | None
    """Skill E: at most this many VP (None: no limit)."""
    skill_h_assistants: int
    """Skill H: at most this many of your assistants come back from the carpet."""
    skill_g_sizes: tuple[int, ...]
    """Skill G: the sizes of blooming token it may take (1: a single)."""
    skill_j_sizes: tuple[int, ...]
    """Skill J: the sizes of blooming token it may take (2: a double)."""
    tiles: dict[str, Tile] = field(init=False, repr=False)
    """The 42 tiles of ``tile_table`` by id."""
    tree_cards: dict[int, TreeCard] = field(init=False, repr=False)
    """The 26 tree cards of ``tree_table`` by id."""
    sides: dict[str, str] = field(init=False, repr=False)
    """All twelve board sides: the printed 1a, 1b and ``board_sides``."""

    def __post_init__(self) -> None:
        derived = {
            "tiles": tiles_of(self.tile_table),
            "tree_cards": tree_cards_of(self.tree_table, self.tree_vp_bonus),
            "sides": {**PRINTED_SIDES, **self.board_sides},
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)


_TILE_TABLE_1: tuple[TileRow, ...] = (
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

_TREE_TABLE_1: tuple[TreeRow, ...] = (
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


_BOARD_SIDES_1: dict[str, str] = {
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


EDITION_1 = Edition(
    tile_table=_TILE_TABLE_1,
    blooming_tokens={"F2": (2,), "F3": (3,), "F1F1": (1, 1), "F1F2": (1, 2)},
    tree_table=_TREE_TABLE_1,
    tree_vp_bonus=1,
    board_sides=_BOARD_SIDES_1,
    skill_a_vp=(1, 2, 3),
    skill_b_vp=2,
    skill_b_max=None,
    skill_c_vp=3,
    skill_e_spaces_per_vp=1,
    skill_e_vp=1,
    skill_e_max=None,
    skill_h_assistants=2,
    skill_g_sizes=(1,),
    skill_j_sizes=(2,),
)
"""The first edition (2025): the numbers of GAME-SPEC, every game before engine 1.3.0."""

_TUNED_TILES: dict[str, tuple[str, str, str]] = {
    # number: (line, chevron, triangle); starting tiles A and B as in edition 1
    "01": ("F1a G G", "F1a G G", "F1a G G"),
    "02": ("F1s G G", "G F1s G", "F1s G G"),
    "03": ("G F2s G", "G F2s G", "F2s G G"),
    "04": ("G G F1s", "F1s G G", "F1a F1 G"),
    "05": ("F1w F2 G", "F1 F1w G", "F2w G G"),
    "06": ("F3 G G", "G F3 G", "F1s G G"),
    "07": ("G F1a G", "F1a G G", "F3 G G"),
    "08": ("G F1s G", "F2 F1s G", "F1a F2 G"),
    "09": ("F2 G F1a", "F1 G F1a", "F1s G G"),
    "10": ("F1w G G", "F2w G G", "F1 F1w G"),
    "11": ("F1 F2s G", "F1s G G", "F1s F2 G"),
    "12": ("G F1 G", "F2 G G", "F1 G G"),
}
"""Edition 2's basic tiles: 106 -> 64 flowers and 65 -> 46 flower spaces on the 36 of
them, and a skill icon on tile 03 of each shape (10 icons a shape instead of 9)."""

_TUNED_TREES: dict[str, tuple[int, int, int]] = {
    # name: (purple, red, white); one gem less on the cards nobody bought
    "Fig Tree": (2, 0, 0),
    "Willow": (1, 1, 0),
    "Pistachio": (2, 1, 0),
    "Cypress": (1, 2, 0),
    "Citron": (1, 0, 2),
    "Hanging Garden Palm": (0, 2, 2),
}


def _recosted(
    table: tuple[TreeRow, ...], costs: Mapping[str, tuple[int, int, int]]
) -> tuple[TreeRow, ...]:
    """``table`` with the cards named in ``costs`` at their new cost, in the same order."""
    return tuple(
        (name, *costs.get(name, (purple, red, white)))
        for name, purple, red, white in table
    )


EDITION_2 = replace(
    EDITION_1,
    tile_table=tuple(
        (number, *_TUNED_TILES.get(number, (line, chevron, triangle)))
        for number, line, chevron, triangle in _TILE_TABLE_1
    ),
    tree_table=_recosted(_TREE_TABLE_1, _TUNED_TREES),
    skill_a_vp=(2, 2, 3),
    skill_c_vp=4,
    skill_h_assistants=1,
    skill_g_sizes=(1, 2),
)
"""The tuned edition (2026), issue 16: docs/games/ishtar/edition-2.md lists every number
changed, docs/journal/ishtar-balance-history.md ("Tuning (issue 16)") why and what each did."""

_CHEAPER_TREES: dict[str, tuple[int, int, int]] = {
    # name: (purple, red, white); one gem less on the cards edition 3 left unbought
    "Fig Tree": (1, 0, 0),
    "Almond Tree": (1, 1, 0),
    "Cedar of Lebanon": (0, 3, 0),
    "Oleander": (0, 2, 1),
    "Persian Silk Tree": (0, 1, 2),
}

EDITION_3 = replace(
    EDITION_2,
    tree_table=_recosted(EDITION_2.tree_table, _CHEAPER_TREES),
    tree_vp_bonus=0,
    skill_a_vp=(1, 2, 3),
    skill_b_vp=3,
    skill_b_max=12,
    skill_e_max=10,
)
"""The second tuning (2026), issue 16, measured with bots that see the game's end coming:
edition 2's tiles, skills A, C, G and H, and trees worth their gems (1 / 2 / 3 VP per
purple / red / white gem, no bonus), skill B at 3 VP per tablet and at most 12, skill E at
most 10 VP, four cards a gem cheaper. docs/games/ishtar/edition-3.md lists every number,
docs/journal/ishtar-balance-history.md ("Edition 3 (steps 18–27)") why."""

EDITION_4 = replace(
    EDITION_3,
    skill_b_max=10,
    skill_c_vp=3,
    skill_e_max=8,
)
"""The third tuning (2026), issue 16: edition 3 with lower limits on the end-game skills
that its bots' winners took (skill B at most 10 VP, skill E at most 8) and skill C back to
3 VP a fountain. docs/games/ishtar/edition-4.md lists every number,
docs/journal/ishtar-balance-history.md ("Edition 4 (steps 28–30)") why."""

EDITIONS: dict[str, Edition] = {
    "1": EDITION_1,
    "2": EDITION_2,
    "3": EDITION_3,
    "4": EDITION_4,
}
"""Every edition by name, oldest first."""

FIRST = "1"
"""The edition of whatever names none: games, states and records from before editions."""

LATEST = "4"
"""The newest edition."""

DEFAULT = "4"
"""The edition of a new game that chooses none: edition 4, the closest to issue 16's targets
(docs/games/ishtar/balance.md, "Where it stands"). Edition 3 was the default in engine 1.4.0,
edition 1 before it; edition 2 was offered on trial (its last seat won 70 % of 2-player games
between the bots of its day)."""
