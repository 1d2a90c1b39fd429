"""The six floors (spec §2, R-3): grids of rows, read top to bottom.

``W`` is the well, ``S`` a single-flower tile, ``M`` a multi-flower tile, ``.`` no tile. A
position is ``(row, col)`` from 0. The grids are the only copy of the floors; everything
else (the well, the tile spaces, the neighbours) is derived from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

Pos = tuple[int, int]

_GRIDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "lower": ("Lower Garden", ("MSM", "SWS", "MSM")),
    "middle": ("Middle Garden", ("..S..", ".MMM.", "MSWSM", ".MMM.", "..S..")),
    "higher": ("Higher Garden", ("SM.MS", "MMMMM", ".MWM.", "MMMMM", "SM.MS")),
    "roof": (
        "Roof Garden",
        ("...S...", "...M...", "..MSM..", "SMMWMMS", "..MSM..", "...M...", "...S..."),
    ),
    "ishtar": (
        "Ishtar's Garden",
        ("S..S..S", "MM.M.MM", ".MMMMM.", "SMMWMMS", ".MMMMM.", "MM.M.MM", "S..S..S"),
    ),
    "tammuz": ("Tammuz's Garden", ("MMMMM", "M.S.M", "MSWSM", "M.S.M", "MMMMM")),
}

FLOOR_IDS: tuple[str, ...] = tuple(_GRIDS)
"""The floors in the spec's order; ``lower`` is the rulebook's first game and the default."""

DEFAULT_FLOOR = "lower"

KIND_OF_MARK = {"S": "single", "M": "multi"}


@dataclass(frozen=True)
class Floor:
    """A floor's grid and what follows from it."""

    id: str
    name: str
    grid: tuple[str, ...]
    well: Pos
    spaces: tuple[Pos, ...]
    """The tile spaces in reading order (row, then column): the order of the deal."""
    kinds: dict[Pos, str]
    """The pile each space is dealt from."""

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    def neighbours(self, at: Pos) -> tuple[Pos, ...]:
        """The tile spaces orthogonally next to `at`, in reading order (the well excluded)."""
        return _neighbours(self.id, at)


@cache
def floor(floor_id: str) -> Floor:
    """The floor of this id (one of `FLOOR_IDS`)."""
    name, grid = _GRIDS[floor_id]
    well = next(
        (r, c)
        for r, row in enumerate(grid)
        for c, mark in enumerate(row)
        if mark == "W"
    )
    spaces = tuple(
        (r, c)
        for r, row in enumerate(grid)
        for c, mark in enumerate(row)
        if mark in KIND_OF_MARK
    )
    kinds = {(r, c): KIND_OF_MARK[grid[r][c]] for r, c in spaces}
    return Floor(floor_id, name, grid, well, spaces, kinds)


@cache
def _neighbours(floor_id: str, at: Pos) -> tuple[Pos, ...]:
    kinds = floor(floor_id).kinds
    r, c = at
    return tuple(
        p for p in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if p in kinds
    )
