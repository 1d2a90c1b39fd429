"""The six floors (spec §2, R-3): the grids, the table's counts, the design rules.

The paths are counted here by an enumeration of our own over the spec's grids (copied
below as the spec prints them, so that a change of `engine/babylon/floors.py` shows), not by
the engine's neighbour tables.
"""

from __future__ import annotations

import pytest

from engine.babylon import legal_actions
from engine.babylon.floors import FLOOR_IDS, floor
from engine.babylon.game import HARVEST
from tests.engine.babylon.builders import game, irrigate, walk

SPEC_GRIDS = {
    "lower": "MSM SWS MSM",
    "middle": "..S.. .MMM. MSWSM .MMM. ..S..",
    "higher": "SM.MS MMMMM .MWM. MMMMM SM.MS",
    "roof": "...S... ...M... ..MSM.. SMMWMMS ..MSM.. ...M... ...S...",
    "ishtar": "S..S..S MM.M.MM .MMMMM. SMMWMMS .MMMMM. MM.M.MM S..S..S",
    "tammuz": "MMMMM M.S.M MSWSM M.S.M MMMMM",
}

SPEC_TABLE = {  # floor: (S, M, paths from the well, longest)
    "lower": (4, 4, 60, 8),
    "middle": (4, 8, 88, 8),
    "higher": (4, 16, 252, 11),
    "roof": (6, 10, 116, 9),
    "ishtar": (8, 24, 1908, 16),
    "tammuz": (4, 16, 152, 17),
}


def _cells(grid: list[str], mark: str) -> set[tuple[int, int]]:
    return {
        (r, c) for r, row in enumerate(grid) for c, m in enumerate(row) if m == mark
    }


def count_paths(grid: list[str]) -> tuple[int, int]:
    """Every path of every length from the well (RB: orthogonal steps, no tile twice;
    R-7: the well is the origin only), and the longest, by depth-first enumeration."""
    tiles = _cells(grid, "S") | _cells(grid, "M")
    (well,) = _cells(grid, "W")
    count = longest = 0

    def extend(end: tuple[int, int], used: set[tuple[int, int]]) -> None:
        nonlocal count, longest
        r, c = end
        for step in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if step in tiles and step not in used:
                count += 1
                longest = max(longest, len(used) + 1)
                used.add(step)
                extend(step, used)
                used.remove(step)

    extend(well, set())
    return count, longest


def test_r3_the_engine_holds_the_spec_grids() -> None:
    assert tuple(SPEC_GRIDS) == FLOOR_IDS
    for floor_id, grid in SPEC_GRIDS.items():
        assert floor(floor_id).grid == tuple(grid.split())


def test_r3_floor_names_of_the_rulebook() -> None:
    assert [floor(f).name for f in FLOOR_IDS] == [
        "Lower Garden", "Middle Garden", "Higher Garden", "Roof Garden",
        "Ishtar's Garden", "Tammuz's Garden",
    ]  # fmt: skip


@pytest.mark.parametrize("floor_id", FLOOR_IDS)
def test_r3_table_singles_multis_paths_and_longest_path(floor_id: str) -> None:
    grid = SPEC_GRIDS[floor_id].split()
    singles, multis, paths, longest = SPEC_TABLE[floor_id]
    assert len(_cells(grid, "S")) == singles
    assert len(_cells(grid, "M")) == multis
    assert count_paths(grid) == (paths, longest)
    the_floor = floor(floor_id)
    assert sum(k == "single" for k in the_floor.kinds.values()) == singles
    assert sum(k == "multi" for k in the_floor.kinds.values()) == multis


@pytest.mark.parametrize("floor_id", FLOOR_IDS)
def test_r3_paths_of_the_engine_are_the_enumerated_paths(floor_id: str) -> None:
    """The engine offers exactly the steps that make up the enumerated paths: walking its
    legal irrigate actions from an empty floor reaches as many paths as counted."""
    state = game(2, floor=floor_id)
    seen = 0

    def explore(position: object) -> None:
        nonlocal seen
        for action in legal_actions(position):  # type: ignore[arg-type]
            if action.type == "irrigate":
                seen += 1
                explore(walk(position, [action.at]))  # type: ignore[arg-type,list-item]

    explore(state)
    assert seen == SPEC_TABLE[floor_id][2]


@pytest.mark.parametrize("floor_id", FLOOR_IDS)
def test_r3_design_rules_well_in_the_middle_with_4_neighbours(floor_id: str) -> None:
    the_floor = floor(floor_id)
    assert the_floor.rows == the_floor.cols
    assert the_floor.well == (the_floor.rows // 2, the_floor.cols // 2)
    assert len(the_floor.neighbours(the_floor.well)) == 4


@pytest.mark.parametrize("floor_id", FLOOR_IDS)
def test_r3_design_rules_every_tile_reachable_from_the_well(floor_id: str) -> None:
    the_floor = floor(floor_id)
    reached = set()
    frontier = [the_floor.well]
    while frontier:
        for step in the_floor.neighbours(frontier.pop()):
            if step not in reached:
                reached.add(step)
                frontier.append(step)
    assert reached == set(the_floor.spaces)


@pytest.mark.parametrize("floor_id", FLOOR_IDS)
def test_r3_design_rules_at_most_8_singles_and_24_multis(floor_id: str) -> None:
    kinds = list(floor(floor_id).kinds.values())
    assert kinds.count("single") <= 8
    assert kinds.count("multi") <= 24


def test_r3_a_single_at_the_end_of_an_arm_only_ends_a_path() -> None:
    """Middle Garden's top single (0, 2) has one neighbour: a path reaching it can only
    stop there (no irrigate step is left, harvest and undo are)."""
    state = walk(game(2, floor="middle"), [(2, 3), (1, 3), (1, 2), (0, 2)])
    assert [a.type for a in legal_actions(state)] == ["harvest", "undo"]
    assert HARVEST in legal_actions(state)
    assert floor("middle").neighbours((0, 2)) == ((1, 2),)
    assert irrigate((0, 2)) not in legal_actions(
        walk(game(2, floor="middle"), [(2, 1)])
    )
