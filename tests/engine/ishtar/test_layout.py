"""Layouts of the terrain boards (RB set-up step 1; GAME-SPEC §1)."""

from __future__ import annotations

import random

import pytest

from engine.ishtar import check_options, new_game
from engine.ishtar.hexgrid import LATTICE_STEPS, add
from engine.ishtar.layout import (
    BoardPlacement,
    LayoutError,
    preset_layout,
    random_layout,
    validate_layout,
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_presets_use_players_plus_two_boards(players: int) -> None:
    layout = preset_layout(players)
    assert len(layout) == players + 2
    validate_layout(layout, players)


def test_four_player_preset_boards_each_touch_at_least_two_others() -> None:
    centres = {p.at for p in preset_layout(4)}
    for c in centres:
        assert sum(1 for step in LATTICE_STEPS if add(c, step) in centres) >= 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_layout_is_connected_and_seeded(players: int) -> None:
    for seed in range(30):
        layout = random_layout(players, random.Random(seed))
        validate_layout(layout, players)
        assert layout == random_layout(players, random.Random(seed))


def test_boards_of_a_layout_interlock_without_overlap() -> None:
    state = new_game(4, 1)
    assert len(state.geo.hexes) == 6 * 37


def _custom(*centres: tuple[int, int]) -> list[BoardPlacement]:
    return [BoardPlacement(i + 1, "a", 0, c) for i, c in enumerate(centres)]


def test_custom_layout_must_have_players_plus_two_boards() -> None:
    with pytest.raises(
        LayoutError, match="2 players use 4 terrain boards, this layout has 3"
    ):
        validate_layout(_custom((0, 0), (4, 3), (-3, 7)), 2)


def test_custom_layout_must_be_connected() -> None:
    with pytest.raises(LayoutError, match="not all connected"):
        validate_layout(_custom((0, 0), (4, 3), (-3, 7), (14, -8)), 2)


def test_custom_layout_boards_cannot_overlap() -> None:
    with pytest.raises(LayoutError, match="overlaps"):
        validate_layout(_custom((0, 0), (4, 3), (-3, 7), (4, 3)), 2)


def test_custom_layout_centres_lie_on_the_board_lattice() -> None:
    with pytest.raises(LayoutError, match="not on the board lattice"):
        validate_layout(_custom((0, 0), (4, 3), (-3, 7), (1, 1)), 2)


def test_custom_layout_sides_rotations_and_board_numbers() -> None:
    base = _custom((0, 0), (4, 3), (-3, 7), (1, 10))
    with pytest.raises(LayoutError, match="side must be 'a' or 'b'"):
        validate_layout([*base[:3], base[3]._replace(side="c")], 2)
    with pytest.raises(LayoutError, match="rotation must be 0 to 5"):
        validate_layout([*base[:3], base[3]._replace(rotation=6)], 2)
    with pytest.raises(LayoutError, match="used twice"):
        validate_layout([*base[:3], base[3]._replace(board=1)], 2)
    with pytest.raises(LayoutError, match="no terrain board 7"):
        validate_layout([*base[:3], base[3]._replace(board=7)], 2)


def test_new_game_accepts_a_custom_layout_as_json() -> None:
    layout = [
        {"board": 6, "side": "b", "rotation": 2, "at": [0, 0]},
        {"board": 5, "side": "a", "rotation": 1, "at": [7, -4]},
        {"board": 4, "side": "b", "rotation": 0, "at": [4, 3]},
        {"board": 3, "side": "a", "rotation": 5, "at": [11, -1]},
    ]
    state = new_game(2, 3, {"layout": layout})
    assert [p.board for p in state.layout] == [6, 5, 4, 3]
    with pytest.raises(LayoutError):
        new_game(2, 3, {"layout": layout[:3]})


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        (5, "unknown layout 5"),
        (True, "unknown layout True"),
        (1.5, "unknown layout 1.5"),
        (float("inf"), "unknown layout inf"),
        ({"board": 1}, "unknown layout {'board': 1}"),
    ],
)
def test_a_layout_that_is_neither_a_name_nor_a_list_is_refused(
    layout: object, words: str
) -> None:
    """Issue 33, fault 4: a number or true made check_options raise TypeError."""
    with pytest.raises(LayoutError, match=words.replace("(", r"\(")):
        check_options(2, {"layout": layout})


INF = float("inf")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("board", INF, "its board must be a whole number, not inf"),
        ("board", 1.5, "its board must be a whole number, not 1.5"),
        ("board", True, "its board must be a whole number, not True"),
        ("rotation", INF, "its rotation must be a whole number, not inf"),
        ("rotation", -INF, "its rotation must be a whole number, not -inf"),
        ("rotation", 1.5, "its rotation must be a whole number, not 1.5"),
        ("rotation", "3", "its rotation must be a whole number, not '3'"),
        ("at", [INF, 0], "its at must be a whole number, not inf"),
        ("at", [0, INF], "its at must be a whole number, not inf"),
        ("at", [1.5, 0], "its at must be a whole number, not 1.5"),
        ("at", "12", "at must be a pair of whole numbers, not '12'"),
        ("at", [0], "at must be a pair of whole numbers, not [0]"),
        ("at", INF, "at must be a pair of whole numbers, not inf"),
    ],
)
def test_a_custom_layout_takes_whole_numbers_only(
    field: str, value: object, words: str
) -> None:
    """Infinity raised OverflowError; 1.5 was truncated to 1 and "3" read as 3."""
    layout: list[dict[str, object]] = [
        {"board": 1, "side": "a", "rotation": 0, "at": [0, 0]},
        {"board": 2, "side": "b", "rotation": 0, "at": [4, 3]},
        {"board": 3, "side": "a", "rotation": 0, "at": [-3, 7]},
        {"board": 4, "side": "b", "rotation": 0, "at": [1, 10]},
    ]
    assert check_options(2, {"layout": layout})["layout"] == layout
    layout[0][field] = value
    with pytest.raises(LayoutError) as refused:
        check_options(2, {"layout": layout})
    assert words in str(refused.value)
