"""What a bot reads off a view's board: flowerbeds, their owners, and quick placement values.

This is public information only (the `cells`, `spaces` and `hand` of a view) and the geometry
of docs/contract.md. It lets a bot rank a hundred tile placements cheaply, before it asks the
engine for the exact outcome of the few best ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
SHAPES: dict[str, tuple[Cell, ...]] = {
    "line": ((0, 0), (1, 0), (2, 0)),
    "chevron": ((0, 0), (1, 0), (1, 1)),
    "triangle": ((0, 0), (1, 0), (0, 1)),
}
GEM_TREE_VALUE: dict[str, float] = {"purple": 1.1, "red": 1.9, "white": 2.7}


def neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


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


@dataclass
class Board:
    """The vegetation on a view's board, indexed by cell."""

    flower: dict[Cell, int]
    grass: set[Cell]
    bed_of: dict[Cell, int]
    beds: list[Flowerbed]
    gems: dict[Cell, str]

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
        gems = {
            (c["q"], c["r"]): c["rock"]
            for c in view["cells"]
            if c.get("terrain") == "rock" and c.get("gem")
        }
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
                for n in neighbours(cell):
                    if n in flower and n not in bed_of:
                        bed_of[n] = len(beds)
                        stack.append(n)
            beds.append(bed)
        return cls(flower, grass, bed_of, beds, gems)

    def gems_covered(self, cells: list[Cell]) -> dict[str, int]:
        found = {"purple": 0, "red": 0, "white": 0}
        for cell in cells:
            colour = self.gems.get(cell)
            if colour:
                found[colour] += 1
        return found

    def placement_value(
        self,
        tile: dict[str, Any],
        cells: list[Cell],
        seat: int,
        assistants: int,
        gems: int,
    ) -> float:
        """A quick value of putting `tile` on `cells` for `seat`: gems, flowers joined, icons.

        Flowers that join a flowerbed the seat controls count for it, those joining an
        opponent's count against it; an assistant icon on an unclaimed flowerbed counts as the
        flowers the seat could claim with an assistant from its supply.
        """
        collected = self.gems_covered(cells)
        value = sum(GEM_TREE_VALUE[c] * n for c, n in collected.items())
        spaces = tile["spaces"]
        new_flower = {
            c: int(s["flowers"]) for c, s in zip(cells, spaces) if s["kind"] == "flower"
        }
        seen: set[Cell] = set()
        for start in new_flower:
            if start in seen:
                continue
            group = {start}
            stack = [start]
            touched: set[int] = set()
            while stack:
                cell = stack.pop()
                for n in neighbours(cell):
                    if n in new_flower and n not in group:
                        group.add(n)
                        stack.append(n)
                    elif n in self.bed_of:
                        touched.add(self.bed_of[n])
            seen |= group
            added = sum(new_flower[c] for c in group)
            owners = {self.beds[b].owner for b in touched} - {None}
            joined = sum(
                self.beds[b].flowers for b in touched if self.beds[b].owner is None
            )
            if seat in owners:
                value += added + joined
            elif owners:
                value -= 0.7 * (added + joined)
            else:
                icon_here = any(
                    spaces[i].get("icon") in ("a", "w")
                    for i, c in enumerate(cells)
                    if c in group
                )
                if icon_here and assistants > 0:
                    value += 0.9 * (added + joined) + 0.4 * len(group)
        icons = {s.get("icon") for s in spaces}
        if icons & {"s", "w"} and gems + sum(collected.values()) >= 2:
            value += 1.5
        return value
