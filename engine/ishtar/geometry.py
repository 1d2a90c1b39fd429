"""Board geometry of one layout, computed once and shared by every state of a game.

Cells of the boards in play are numbered 0..N-1 (in layout order, each board's cells in
row order) so that the rules work on small integers and tuples. Everything that a placement
cannot change is here: terrain, neighbour tables, and for each tile shape every position
``(at, rotation)`` whose three cells are sand or rock (a "placement id" ``at * 6 + rotation``),
indexed by the cells each one covers.

Every state of a game reaches its geometry: ``bytes`` estimates what one holds (a cache of
states weighs it once however many states share it). What views and previews derive from
the geometry alone (the layout as JSON, each placement's action and preview cells) is not
here but in engine.ishtar.memos, keyed by ``key`` and bounded in bytes: a state does not keep
it alive.
"""

from __future__ import annotations

from functools import lru_cache

from engine.ishtar.components import (
    GEM_COLOURS,
    SHAPE_OFFSETS,
    SHAPES,
    TERRAIN_CODES,
)
from engine.ishtar.editions import Edition
from engine.ishtar.hexgrid import BOARD_RADIUS, Hex, add, disc, rotate
from engine.ishtar.layout import Layout

ROTATIONS = 6


def side_cells(ed: Edition, side: str) -> dict[Hex, str]:
    """The 37 letters of a board side of edition ``ed``, by local cell (centre at the
    origin, rotation 0)."""
    letters = ed.sides[side].split()
    cells = disc((0, 0), BOARD_RADIUS)
    if len(letters) != len(cells):
        raise ValueError(
            f"board side {side} has {len(letters)} spaces, not {len(cells)}"
        )
    return dict(zip(cells, letters))


def shape_cells(shape: str, rotation: int) -> tuple[Hex, Hex, Hex]:
    """The offsets of a shape's three cells after ``rotation`` steps around cell 0."""
    a, b, c = (rotate(o, rotation) for o in SHAPE_OFFSETS[shape])
    return (a, b, c)


class Weights:
    """Estimates of what a geometry holds, rounded up from tracemalloc's figures (every
    player count and edition, preset and random layouts: tests/engine/ishtar/test_memos.py)."""

    CELL = 300
    """A cell: its hex, its slots in the index and in the per-cell tables, its neighbours."""
    PLACEMENT = 180
    """A placement of a shape: its id and cells, its slots in ``placements`` and ``through``."""


class Geometry:
    """Precomputed geometry of a layout (immutable by convention)."""

    __slots__ = (
        "layout",
        "hexes",
        "index",
        "board",
        "terrain",
        "rock",
        "neighbours",
        "fountain_cells",
        "fountain_of",
        "tablets",
        "placeable",
        "placements",
        "through",
        "key",
        "bytes",
    )

    def __init__(self, layout: Layout, ed: Edition) -> None:
        self.layout = layout
        hexes: list[Hex] = []
        board: list[int] = []
        terrain: list[str] = []
        rock: list[int] = []
        fountains: list[int] = []
        for placement in layout:
            for local, letter in side_cells(
                ed, f"{placement.board}{placement.side}"
            ).items():
                kind, gem = TERRAIN_CODES[letter]
                if kind == "fountain":
                    fountains.append(len(hexes))
                hexes.append(add(placement.at, rotate(local, placement.rotation)))
                board.append(placement.board)
                terrain.append(kind)
                rock.append(GEM_COLOURS.index(gem) if gem else -1)
        self.hexes: tuple[Hex, ...] = tuple(hexes)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(hexes)}
        if len(self.index) != len(hexes):
            raise ValueError("terrain boards overlap")
        self.board: tuple[int, ...] = tuple(board)
        self.terrain: tuple[str, ...] = tuple(terrain)
        self.rock: tuple[int, ...] = tuple(rock)
        """Gem colour index of a rock space (0 purple, 1 red, 2 white), -1 elsewhere."""
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index[n] for n in _around(h) if n in self.index) for h in hexes
        )
        self.fountain_cells: tuple[int, ...] = tuple(fountains)
        self.fountain_of: dict[int, int] = {c: k for k, c in enumerate(fountains)}
        self.tablets: tuple[int, ...] = tuple(
            i for i, t in enumerate(terrain) if t == "tablet"
        )
        self.placeable: frozenset[int] = frozenset(
            i for i, t in enumerate(terrain) if t in ("sand", "rock")
        )
        self.placements: dict[str, dict[int, tuple[int, int, int]]] = {}
        self.through: dict[str, tuple[tuple[int, ...], ...]] = {}
        for shape in SHAPES:
            self._index_shape(shape)
        self.key: tuple[Layout, Edition] = (layout, ed)
        """What the memo of this layout is kept under (engine.ishtar.memos)."""
        self.bytes: int = Weights.CELL * len(hexes) + Weights.PLACEMENT * sum(
            map(len, self.placements.values())
        )
        """An estimate of the bytes it holds (`Weights`)."""

    def _index_shape(self, shape: str) -> None:
        placements: dict[int, tuple[int, int, int]] = {}
        through: list[list[int]] = [[] for _ in self.hexes]
        offsets = [shape_cells(shape, rot) for rot in range(ROTATIONS)]
        for at, h in enumerate(self.hexes):
            if at not in self.placeable:
                continue
            for rot, offs in enumerate(offsets):
                cells = tuple(self.index.get(add(h, o), -1) for o in offs)
                if all(c in self.placeable for c in cells):
                    pid = at * ROTATIONS + rot
                    placements[pid] = (cells[0], cells[1], cells[2])
                    for c in cells:
                        through[c].append(pid)
        self.placements[shape] = placements
        self.through[shape] = tuple(tuple(t) for t in through)

    def cells_of(self, shape: str, at: Hex, rotation: int) -> tuple[Hex, Hex, Hex]:
        """The three hexes a tile of ``shape`` covers at ``at`` in ``rotation``, on map or not."""
        a, b, c = (add(at, o) for o in shape_cells(shape, rotation))
        return (a, b, c)


def _around(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return (
        (q + 1, r),
        (q, r + 1),
        (q - 1, r + 1),
        (q - 1, r),
        (q, r - 1),
        (q + 1, r - 1),
    )


@lru_cache(maxsize=32)
def geometry_for(layout: Layout, ed: Edition) -> Geometry:
    """The geometry of ``layout`` with the board sides of ``ed``, memoised: neither
    changes during a game."""
    return Geometry(layout, ed)
