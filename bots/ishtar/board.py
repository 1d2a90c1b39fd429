"""What a bot reads off a view's board: flowerbeds, their owners, and quick placement values.

This is public information only (the `cells`, `spaces` and `hand` of a view) and the geometry
of docs/games/ishtar/contract.md. It lets a bot rank a hundred tile placements cheaply, before it asks the
engine for the exact outcome of the few best ones.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
SHAPES: dict[str, tuple[Cell, ...]] = {
    "line": ((0, 0), (1, 0), (2, 0)),
    "chevron": ((0, 0), (1, 0), (1, 1)),
    "triangle": ((0, 0), (1, 0), (0, 1)),
}
GEM_RARITY: dict[str, int] = {"purple": 1, "red": 2, "white": 3}
"""Purple gems are common, red more rare, white the rarest (rulebook): the order to pay in."""


def neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


@lru_cache(maxsize=4096)
def _neighbours(cell: Cell) -> tuple[Cell, ...]:
    """`neighbours`, kept: boards are read often, always on the few cells of a layout."""
    return tuple(neighbours(cell))


def rotate(offset: Cell, steps: int) -> Cell:
    """Rotate an offset `steps` times 60° clockwise: (q, r) -> (-r, q + r)."""
    q, r = offset
    for _ in range(steps % 6):
        q, r = -r, q + r
    return q, r


def placement_cells(shape: str, at: Cell, rotation: int) -> list[Cell]:
    """The cells a tile covers, in the order of its spaces (contract: rotate, then translate)."""
    return [
        (at[0] + dq, at[1] + dr)
        for dq, dr in (rotate(o, rotation) for o in SHAPES[shape])
    ]


@dataclass
class Flowerbed:
    """A connected group of flower spaces, with the seat of its assistant (or None)."""

    cells: set[Cell] = field(default_factory=set)
    flowers: int = 0
    owner: int | None = None


class Held(NamedTuple):
    """What one seat's flowerbeds (those its assistants stand on) are next to and hold."""

    spaces: int
    """Their flower spaces."""
    tablets: int
    """The sacred tablets next to one of their spaces."""


@dataclass
class Board:
    """The vegetation on a view's board, indexed by cell."""

    flower: dict[Cell, int]
    grass: set[Cell]
    bed_of: dict[Cell, int]
    beds: list[Flowerbed]
    gems: dict[Cell, str]
    tablets: list[Cell] = field(default_factory=list)
    """The sacred tablets' cells, in cell order."""
    _adjacent: dict[Cell, frozenset[int]] = field(default_factory=dict)
    _held: dict[int, Held] = field(default_factory=dict)

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Board:
        flower: dict[Cell, int] = {}
        grass: set[Cell] = set()
        owner_at: dict[Cell, int] = {}
        for space in view["spaces"]:
            cell = (space["q"], space["r"])
            if space["kind"] == "flower":
                flower[cell] = int(space["flowers"])
                if space.get("assistant") is not None:
                    owner_at[cell] = int(space["assistant"])
            else:
                grass.add(cell)
        gems, tablets = _cells_facts(view["cells"])
        bed_of: dict[Cell, int] = {}
        beds: list[Flowerbed] = []
        for start in flower:
            if start in bed_of:
                continue
            bed = Flowerbed()
            stack = [start]
            bed_of[start] = len(beds)
            while stack:
                cell = stack.pop()
                bed.cells.add(cell)
                bed.flowers += flower[cell]
                if cell in owner_at:
                    bed.owner = owner_at[cell]
                for n in _neighbours(cell):
                    if n in flower and n not in bed_of:
                        bed_of[n] = len(beds)
                        stack.append(n)
            beds.append(bed)
        return cls(flower, grass, bed_of, beds, gems, tablets)

    def adjacent_beds(self, cell: Cell) -> frozenset[int]:
        """The flowerbeds next to `cell` (cached: a board is read many times per decision)."""
        found = self._adjacent.get(cell)
        if found is None:
            found = frozenset(
                self.bed_of[n] for n in neighbours(cell) if n in self.bed_of
            )
            self._adjacent[cell] = found
        return found

    def held(self, seat: int) -> Held:
        """What `seat`'s flowerbeds hold (cached: every position a search values that shows
        this board asks it again)."""
        found = self._held.get(seat)
        if found is None:
            mine = [bed for bed in self.beds if bed.owner == seat]
            cells = set().union(*(bed.cells for bed in mine)) if mine else set()
            near = sum(
                1 for t in self.tablets if any(n in cells for n in _neighbours(t))
            )
            found = self._held[seat] = Held(sum(len(bed.cells) for bed in mine), near)
        return found


_cells_seen: OrderedDict[int, tuple[Any, dict[Cell, str], list[Cell]]] = OrderedDict()


def _cells_facts(cells: list[dict[str, Any]]) -> tuple[dict[Cell, str], list[Cell]]:
    """The gems on the board and the tablets' cells of a view's `cells`, read once per
    `cells` object (the engine shares it between views while no gem is taken); read-only."""
    key = id(cells)
    with _boards_lock:
        hit = _cells_seen.get(key)
        if hit is not None and hit[0] is cells:
            return hit[1], hit[2]
    gems: dict[Cell, str] = {}
    tablets: list[Cell] = []
    for c in cells:
        terrain = c.get("terrain")
        if terrain == "rock":
            if c.get("gem"):
                gems[(c["q"], c["r"])] = c["rock"]
        elif terrain == "tablet":
            tablets.append((c["q"], c["r"]))
    with _boards_lock:
        _cells_seen[key] = (cells, gems, tablets)
        while len(_cells_seen) > BOARD_CACHE_SIZE:
            _cells_seen.popitem(last=False)
    return gems, tablets


@dataclass
class PlacementValue:
    """A quick value of putting one tile anywhere, for one seat: gems, flowers joined, icons.

    Flowers that join a flowerbed the seat controls count for it, those joining an opponent's
    count against it; an assistant icon that would start or grow an unclaimed flowerbed counts
    as most of the flowers the seat could claim with an assistant from its supply. The tile's
    own flower groups do not change with rotation, so they are worked out once per tile.
    """

    board: Board
    tile: dict[str, Any]
    seat: int
    assistants: int
    gems: int
    gem_value: dict[str, float]
    """What a gem of each colour is worth (bots/ishtar/edition.py)."""

    def __post_init__(self) -> None:
        shape = SHAPES[self.tile["shape"]]
        self.offsets = [[rotate(o, k) for o in shape] for k in range(6)]
        spaces = self.tile["spaces"]
        flowers = [i for i, s in enumerate(spaces) if s["kind"] == "flower"]
        groups: list[list[int]] = []
        for i in flowers:
            linked = [
                g for g in groups if any(_adjacent(shape[i], shape[j]) for j in g)
            ]
            merged = [i] + [j for g in linked for j in g]
            groups = [g for g in groups if g not in linked] + [merged]
        self.groups = [
            (
                g,
                sum(int(spaces[i]["flowers"]) for i in g),
                any(spaces[i].get("icon") in ("a", "w") for i in g)
                and self.assistants > 0,
            )
            for g in groups
        ]
        self.skill_icon = any(s.get("icon") in ("s", "w") for s in spaces)

    def __call__(self, at: Cell, rotation: int) -> float:
        board = self.board
        gems = board.gems
        q, r = at
        cells = [(q + dq, r + dr) for dq, dr in self.offsets[rotation % 6]]
        collected = [gems[c] for c in cells if c in gems]
        value = sum(self.gem_value[c] for c in collected)
        beds = board.beds
        adjacent = board.adjacent_beds
        for members, added, can_claim in self.groups:
            touched: set[int] = set()
            for i in members:
                touched |= adjacent(cells[i])
            if not touched:  # the most common case, valued as below with nothing joined
                if can_claim:
                    value += 0.9 * added + 0.4 * len(members)
                continue
            owners: set[int] = set()
            joined = 0
            for b in touched:
                bed = beds[b]
                if bed.owner is None:
                    joined += bed.flowers
                else:
                    owners.add(bed.owner)
            if self.seat in owners:
                value += added + joined
            elif owners:
                value -= 0.7 * (added + joined)
            elif can_claim:
                value += 0.9 * (added + joined) + 0.4 * len(members)
        if self.skill_icon and self.gems + len(collected) >= 2:
            value += 1.5
        return value


BOARD_CACHE_SIZE = 64
"""Boards kept by `board_of`, each with the two view parts it was read from."""

_boards: OrderedDict[tuple[int, int], tuple[Any, Any, Board]] = OrderedDict()
_boards_lock = threading.Lock()


def board_of(view: dict[str, Any]) -> Board:
    """`Board.from_view`, shared by the views whose `spaces` and `cells` are the same objects.

    A search reads the board of many states that differ in nothing it shows (the states
    after each pile is taken, after a skill or a pass): the engine hands them the same
    `spaces` and `cells` parts (the sharing contract of engine/ishtar/views.py), so the
    board is built once. The last `BOARD_CACHE_SIZE` boards are kept, each with the parts
    it was read from, so that an `id` in a key always names the object it was taken from;
    a board is read-only to its readers (its `adjacent_beds` cache only ever adds).
    """
    spaces, cells = view["spaces"], view["cells"]
    key = (id(spaces), id(cells))
    with _boards_lock:
        hit = _boards.get(key)
        if hit is not None and hit[0] is spaces and hit[1] is cells:
            _boards.move_to_end(key)
            return hit[2]
    board = Board.from_view(view)
    with _boards_lock:
        _boards[key] = (spaces, cells, board)
        _boards.move_to_end(key)
        while len(_boards) > BOARD_CACHE_SIZE:
            _boards.popitem(last=False)
    return board


def _adjacent(a: Cell, b: Cell) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS
