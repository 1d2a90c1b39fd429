"""The catalogue (GAME-SPEC §2–§8): counts, board sides, tiles, tree cards."""

from __future__ import annotations

import json
from collections import Counter

from engine.ishtar import catalogue
from engine.ishtar.components import (
    BLOOMING_TOKEN_COUNTS,
    BOARD_SIDES,
    FOUNTAINS,
    SKILLS,
    TILES,
    TREE_CARDS,
    tree_vp,
)
from engine.ishtar.geometry import side_cells
from engine.ishtar.hexgrid import Hex, length, mirror, neighbours, rotate


def _canonical(cells: dict[Hex, str]) -> tuple[tuple[Hex, str], ...]:
    forms = []
    for flip in (False, True):
        for steps in range(6):
            forms.append(
                tuple(
                    sorted(
                        (rotate(mirror(h) if flip else h, steps), letter)
                        for h, letter in cells.items()
                    )
                )
            )
    return min(forms)


def test_twelve_board_sides_with_the_counts_of_the_spec() -> None:
    assert sorted(BOARD_SIDES) == [f"{n}{s}" for n in range(1, 7) for s in "ab"]
    for side in BOARD_SIDES:
        cells = side_cells(side)
        counts = Counter(cells.values())
        assert counts == {"S": 16, "P": 7, "R": 6, "W": 4, "T": 3, "F": 1}, side
        fountain = next(h for h, letter in cells.items() if letter == "F")
        assert length(fountain) <= 1, side


def test_side_1a_and_1b_are_those_printed_in_the_spec() -> None:
    assert side_cells("1a")[(0, 0)] == "F"
    assert side_cells("1a")[(-3, 0)] == "W"
    assert side_cells("1b")[(0, 1)] == "F"
    assert side_cells("1b")[(3, 0)] == "W"


def test_all_twelve_sides_differ_up_to_rotation_and_mirror() -> None:
    forms = {_canonical(side_cells(side)) for side in BOARD_SIDES}
    assert len(forms) == 12


def test_six_fountains_three_purple_two_red_one_white() -> None:
    assert Counter(FOUNTAINS) == {"purple": 3, "red": 2, "white": 1}


def test_42_vegetation_tiles_12_basic_and_2_starting_per_shape() -> None:
    assert len(TILES) == 42
    for shape in ("line", "chevron", "triangle"):
        tiles = [t for t in TILES.values() if t.shape == shape]
        assert sum(1 for t in tiles if t.start) == 2
        assert sum(1 for t in tiles if not t.start) == 12


def test_a_tile_has_at_most_one_icon_and_only_on_a_flower_space() -> None:
    for tile in TILES.values():
        icons = [s for s in tile.spaces if s.icon is not None]
        assert len(icons) <= 1
        assert all(s.flowers > 0 for s in icons)


def test_eight_blooming_tokens() -> None:
    assert sum(BLOOMING_TOKEN_COUNTS.values()) == 8


def test_ten_skills_upper_ones_above_a_lower_one() -> None:
    assert sorted(SKILLS) == list("ABCDEFGHIJ")
    for letter in "ABCDE":
        assert SKILLS[letter].below in "FGHIJ"
        assert SKILLS[SKILLS[letter].below].column == SKILLS[letter].column


def test_26_tree_cards_with_distinct_names_and_the_vp_formula() -> None:
    assert len(TREE_CARDS) == 26
    assert len({c.name for c in TREE_CARDS.values()}) == 26
    for card in TREE_CARDS.values():
        assert card.vp == tree_vp(card.cost)
    assert tree_vp((0, 2, 3)) == 17
    assert tree_vp((2, 0, 0)) == 3


def test_catalogue_is_json() -> None:
    data = json.loads(json.dumps(catalogue()))
    assert len(data["tiles"]) == 42
    assert len(data["tree_cards"]) == 26
    assert len(data["board_sides"]) == 12


def test_designed_sides_spread_tablets_and_white_gems() -> None:
    for side in BOARD_SIDES:
        if side.startswith("1"):
            continue  # printed in the spec
        cells = side_cells(side)
        fountain = next(h for h, letter in cells.items() if letter == "F")
        tablets = [h for h, letter in cells.items() if letter == "T"]
        whites = [h for h, letter in cells.items() if letter == "W"]
        for t in tablets:
            assert fountain not in neighbours(t), side
            assert not any(o in neighbours(t) for o in tablets), side
        for w in whites:
            assert length(w) >= 2, side
            assert not any(o in neighbours(w) for o in whites), side
        rocks_by_fountain = sum(
            1 for n in neighbours(fountain) if cells.get(n) in ("P", "R", "W")
        )
        assert 1 <= rocks_by_fountain <= 3, side
