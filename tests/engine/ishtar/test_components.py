"""The catalogue (GAME-SPEC §2–§8): counts, board sides, tiles, tree cards, in every edition."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.ishtar import catalogue
from engine.ishtar.components import (
    BLOOMING_TOKEN_COUNTS,
    FOUNTAINS,
    PRINTED_SIDES,
    SKILLS,
    tree_vp,
)
from engine.ishtar.editions import EDITIONS, Edition
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


EVERY_EDITION = pytest.mark.parametrize("ed", EDITIONS.values(), ids=list(EDITIONS))


@EVERY_EDITION
def test_twelve_board_sides_with_the_counts_of_the_spec(ed: Edition) -> None:
    assert sorted(ed.sides) == [f"{n}{s}" for n in range(1, 7) for s in "ab"]
    for side in ed.sides:
        cells = side_cells(ed, side)
        counts = Counter(cells.values())
        assert counts == {"S": 16, "P": 7, "R": 6, "W": 4, "T": 3, "F": 1}, side
        fountain = next(h for h, letter in cells.items() if letter == "F")
        assert length(fountain) <= 1, side


@EVERY_EDITION
def test_side_1a_and_1b_are_those_printed_in_the_spec(ed: Edition) -> None:
    assert side_cells(ed, "1a")[(0, 0)] == "F"
    assert side_cells(ed, "1a")[(-3, 0)] == "W"
    assert side_cells(ed, "1b")[(0, 1)] == "F"
    assert side_cells(ed, "1b")[(3, 0)] == "W"
    assert {side: ed.sides[side] for side in ("1a", "1b")} == PRINTED_SIDES


@EVERY_EDITION
def test_all_twelve_sides_differ_up_to_rotation_and_mirror(ed: Edition) -> None:
    forms = {_canonical(side_cells(ed, side)) for side in ed.sides}
    assert len(forms) == 12


def test_six_fountains_three_purple_two_red_one_white() -> None:
    assert Counter(FOUNTAINS) == {"purple": 3, "red": 2, "white": 1}


@EVERY_EDITION
def test_42_vegetation_tiles_12_basic_and_2_starting_per_shape(ed: Edition) -> None:
    assert len(ed.tiles) == 42
    for shape in ("line", "chevron", "triangle"):
        tiles = [t for t in ed.tiles.values() if t.shape == shape]
        assert sum(1 for t in tiles if t.start) == 2
        assert sum(1 for t in tiles if not t.start) == 12


@EVERY_EDITION
def test_a_tile_has_at_most_one_icon_and_only_on_a_flower_space(ed: Edition) -> None:
    for tile in ed.tiles.values():
        icons = [s for s in tile.spaces if s.icon is not None]
        assert len(icons) <= 1
        assert all(s.flowers > 0 for s in icons)


@EVERY_EDITION
def test_eight_blooming_tokens_four_singles_four_doubles(ed: Edition) -> None:
    assert sum(BLOOMING_TOKEN_COUNTS.values()) == 8
    assert set(ed.blooming_tokens) == set(BLOOMING_TOKEN_COUNTS)
    sizes = Counter(len(ed.blooming_tokens[t]) for t in BLOOMING_TOKEN_COUNTS)
    assert sizes == {1: 2, 2: 2}  # two kinds of each: 4 singles, 4 doubles


def test_ten_skills_upper_ones_above_a_lower_one() -> None:
    assert sorted(SKILLS) == list("ABCDEFGHIJ")
    for letter in "ABCDE":
        assert SKILLS[letter].below in "FGHIJ"
        assert SKILLS[SKILLS[letter].below].column == SKILLS[letter].column


@EVERY_EDITION
def test_26_tree_cards_with_distinct_names_and_the_vp_formula(ed: Edition) -> None:
    assert len(ed.tree_cards) == 26
    assert len({c.name for c in ed.tree_cards.values()}) == 26
    for card in ed.tree_cards.values():
        assert card.vp == tree_vp(card.cost, ed.tree_vp_bonus)
    assert tree_vp((0, 2, 3)) == 17
    assert tree_vp((2, 0, 0)) == 3
    assert tree_vp((0, 2, 3), 0) == 13


def test_catalogue_is_json() -> None:
    data = json.loads(json.dumps(catalogue()))
    assert len(data["tiles"]) == 42
    assert len(data["tree_cards"]) == 26
    assert len(data["board_sides"]) == 12


@EVERY_EDITION
def test_designed_sides_spread_tablets_and_white_gems(ed: Edition) -> None:
    for side in ed.board_sides:
        assert not side.startswith("1")  # printed in the spec
        cells = side_cells(ed, side)
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
