"""The scoreboards (spec §3, R-4): the spiral, the 4 lines and the 8 sides' colour borders.

A scoreboard is a 5 x 5 grid; winks go into its slots in spiral order from the centre,
clockwise. Slots are named by their order number, 1 to 25. The sides are held as the spec's
border patterns (rows separated by ``/``, a colour letter for a bordered slot); the borders
by slot number are derived from them.
"""

from __future__ import annotations

from functools import cache

from engine.babylon.components import LETTER

SPIRAL_GRID: tuple[tuple[int, ...], ...] = (
    (25, 10, 11, 12, 13),
    (24, 9, 2, 3, 14),
    (23, 8, 1, 4, 15),
    (22, 7, 6, 5, 16),
    (21, 20, 19, 18, 17),
)
"""Each cell's order number: the same on all 8 sides."""

SLOT_CELL: dict[int, tuple[int, int]] = {
    n: (r, c) for r, row in enumerate(SPIRAL_GRID) for c, n in enumerate(row)
}
"""Slot n's cell ``(row, col)`` on the 5 x 5 grid."""


def _lines() -> tuple[tuple[str, tuple[int, ...]], ...]:
    middle = len(SPIRAL_GRID) // 2
    size = range(len(SPIRAL_GRID))
    return (
        ("row", tuple(SPIRAL_GRID[middle][c] for c in size)),
        ("column", tuple(SPIRAL_GRID[r][middle] for r in size)),
        ("diagonal-down", tuple(SPIRAL_GRID[i][i] for i in size)),
        ("diagonal-up", tuple(SPIRAL_GRID[len(size) - 1 - i][i] for i in size)),
    )


LINES: tuple[tuple[str, tuple[int, ...]], ...] = _lines()
"""The 4 straight lines through the centre (R-12), as slot numbers end to end: the middle
row left to right, the middle column top to bottom, the diagonal from the top left and the
one from the bottom left. Derived from `SPIRAL_GRID`, so the spiral is held once; the spec's
lists (23 8 1 4 15, 11 2 1 6 19, 25 9 1 5 17, 21 7 1 3 13) are checked by the tests."""

_SIDES: dict[str, str] = {
    "A1": "r.y.g/...p./p..../.g..y/.r...",
    "A2": "..r.g/gy.../....p/...r./.p..y",
    "B1": "...y./r..p./....g/.g.../p.r.y",
    "B2": "r..g./.y.../g..../...rp/p.y..",
    "C1": "y.g.r/.p.../....p/g..y./...r.",
    "C2": ".g.../.p..y/r..../...r./g.y.p",
    "D1": "y.g../...ry/p..../.g.../r..p.",
    "D2": ".r..g/...y./....r/pg.../..y.p",
}

SIDES: tuple[str, ...] = tuple(_SIDES)
BOARDS: tuple[str, ...] = ("A", "B", "C", "D")


def board_of(side: str) -> str:
    """The board a side belongs to: ``"C2"`` is a side of board ``"C"``."""
    return side[0]


@cache
def borders(side: str) -> dict[int, str]:
    """The colour border of each bordered slot of `side`, by slot number."""
    out: dict[int, str] = {}
    for r, row in enumerate(_SIDES[side].split("/")):
        for c, mark in enumerate(row):
            if mark != ".":
                out[SPIRAL_GRID[r][c]] = LETTER[mark]
    return dict(sorted(out.items()))


def pattern(side: str) -> str:
    """The spec's border pattern of a side (for tests and documentation)."""
    return _SIDES[side]
