"""The scoreboards (spec §3, R-4): the spiral, the 4 lines, the 8 sides' borders and the
claims the spec makes about them."""

from __future__ import annotations

import itertools
from collections import Counter

from engine.babylon.scoreboards import (
    BOARDS,
    LINES,
    SIDES,
    SLOT_CELL,
    SPIRAL_GRID,
    board_of,
    borders,
    pattern,
)

SPEC_BORDERS = {  # the lists printed after each grid of §3
    "A1": "3p 7g 11y 13g 16y 20r 23p 25r",
    "A2": "5r 9y 11r 13g 15p 17y 20p 24g",
    "B1": "3p 7g 12y 15g 17y 19r 21p 24r",
    "B2": "5r 9y 12g 16p 19y 21p 23g 25r",
    "C1": "5y 9p 11g 13r 15p 18r 22g 25y",
    "C2": "5r 9p 10g 14y 17p 19y 21g 23r",
    "D1": "3r 7g 11g 14y 18p 21r 23p 25y",
    "D2": "3y 7g 10r 13g 15r 17p 19y 22p",
}
COLOUR = {"r": "red", "g": "green", "y": "yellow", "p": "purple"}
INNER_RING = set(range(2, 10))


def _spec(side: str) -> dict[int, str]:
    return {int(b[:-1]): COLOUR[b[-1]] for b in SPEC_BORDERS[side].split()}


def test_r4_spiral_from_the_centre_outward_clockwise() -> None:
    assert sorted(n for row in SPIRAL_GRID for n in row) == list(range(1, 26))
    assert SLOT_CELL[1] == (2, 2)
    for n in range(1, 25):  # each next slot is next to the one before
        (r1, c1), (r2, c2) = SLOT_CELL[n], SLOT_CELL[n + 1]
        assert abs(r1 - r2) + abs(c1 - c2) == 1
    # clockwise: up from the centre, then right, then down (screen rows grow downwards)
    assert [SLOT_CELL[n] for n in (1, 2, 3, 4)] == [(2, 2), (1, 2), (1, 3), (2, 3)]


def test_r4_r12_the_four_lines_of_the_spec() -> None:
    assert LINES == (
        ("row", (23, 8, 1, 4, 15)),
        ("column", (11, 2, 1, 6, 19)),
        ("diagonal-down", (25, 9, 1, 5, 17)),
        ("diagonal-up", (21, 7, 1, 3, 13)),
    )


def test_r4_a_line_is_complete_once_slot_23_19_25_21_holds_a_wink() -> None:
    assert [max(slots) for _, slots in LINES] == [23, 19, 25, 21]


def test_r4_borders_parsed_from_the_patterns_equal_the_spec_lists() -> None:
    assert tuple(SPEC_BORDERS) == SIDES
    for side in SIDES:
        assert borders(side) == _spec(side), side


def test_r4_board_x_has_sides_x1_and_x2() -> None:
    assert BOARDS == ("A", "B", "C", "D")
    assert [board_of(s) for s in SIDES] == ["A", "A", "B", "B", "C", "C", "D", "D"]


def test_r4_each_side_borders_8_slots_2_of_each_colour() -> None:
    for side in SIDES:
        assert len(borders(side)) == 8
        assert Counter(borders(side).values()) == dict.fromkeys(COLOUR.values(), 2)


def test_r4_centre_never_bordered_2_in_the_inner_ring_6_in_the_outer() -> None:
    for side in SIDES:
        slots = set(borders(side))
        assert 1 not in slots
        assert len(slots & INNER_RING) == 2
        assert len(slots - INNER_RING) == 6


def test_r4_the_8_sides_differ_and_two_share_at_most_2_borders() -> None:
    as_sets = {side: set(borders(side).items()) for side in SIDES}
    assert len({frozenset(s) for s in as_sets.values()}) == 8
    for a, b in itertools.combinations(SIDES, 2):
        assert len(as_sets[a] & as_sets[b]) <= 2, (a, b)


def _symmetries(grid: list[str]) -> list[list[str]]:
    """The 8 images of a 5 x 5 grid under the symmetries of the square."""
    images = []
    current = grid
    for _ in range(4):
        images.append(current)
        images.append([row[::-1] for row in current])
        current = ["".join(col) for col in zip(*current[::-1], strict=True)]
    return images


def _recolours(a: list[str], b: list[str]) -> bool:
    """Whether `b` is `a` with its colours permuted (plain slots staying plain)."""
    mapping: dict[str, str] = {}
    for row_a, row_b in zip(a, b, strict=True):
        for x, y in zip(row_a, row_b, strict=True):
            if (x == ".") != (y == "."):
                return False
            if x != "." and mapping.setdefault(x, y) != y:
                return False
    return len(set(mapping.values())) == len(mapping)


def test_r4_the_8_sides_are_one_pattern_under_the_8_symmetries_recoloured() -> None:
    base = pattern("A1").split("/")
    images = _symmetries(base)
    used = []
    for side in SIDES:
        grid = pattern(side).split("/")
        matches = [i for i, image in enumerate(images) if _recolours(image, grid)]
        assert matches, f"{side} is not an image of A1"
        used.append(matches[0])
    assert sorted(used) == list(range(8)), "each symmetry gives one side"
