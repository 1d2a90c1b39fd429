"""Flowerbeds, gardens and fountains (RB "Flowerbeds, Garden and Fountain").

- A flowerbed is a connected group of flower spaces (blooming tokens included).
- A garden is a connected group of vegetation; it belongs to the fountain it touches (a
  vegetation space next to a fountain's cell connects it to that fountain). The placement
  rules keep every garden touching at most one fountain.
- A player controls a flowerbed where one of their assistants stands, and controls a fountain
  with the most flower spaces (not flowers) in flowerbeds they control in that fountain's
  gardens; ties all control, nobody with zero.

The analysis is derived from the state once and memoised in ``state.cache``.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.ishtar.state import GARDENS, State


class Gardens:
    """Component labels of the vegetation of one state."""

    __slots__ = (
        "garden",
        "garden_fountain",
        "bed",
        "bed_cells",
        "bed_assistant",
        "controllers",
        "holdings",
    )

    def __init__(self, state: State) -> None:
        flowers = state.flowers
        neighbours = state.geo.neighbours
        self.garden: dict[int, int] = {}
        """Vegetation cell → garden label (the smallest cell of the garden)."""
        self.garden_fountain: dict[int, int] = {}
        """Garden label → index of the fountain it touches, or -1."""
        self.bed: dict[int, int] = {}
        """Flower cell → flowerbed label (the smallest cell of the bed)."""
        self.bed_cells: dict[int, list[int]] = {}
        self.bed_assistant: dict[int, int] = {}
        """Flowerbed label → seat of its assistant (beds without one are absent)."""
        self.controllers: list[list[int]] | None = None
        """``fountain_controllers``, once asked for (it reads nothing else)."""
        self.holdings: dict[int, Holding] = {}
        """Seat → its `Holding`, once asked for (`holding`)."""
        vegetation = [c for c, f in enumerate(flowers) if f >= 0]  # in cell order
        self._label_gardens(vegetation, flowers, neighbours, state.geo.fountain_of)
        self._label_beds(vegetation, flowers, neighbours, state.assistants)

    def _label_gardens(
        self,
        vegetation: list[int],
        flowers: tuple[int, ...],
        neighbours: tuple[tuple[int, ...], ...],
        fountain_of: dict[int, int],
    ) -> None:
        garden = self.garden
        garden_fountain = self.garden_fountain
        for start in vegetation:
            if start in garden:
                continue
            fountain = -1
            garden[start] = start
            stack = [start]
            while stack:
                for n in neighbours[stack.pop()]:
                    if flowers[n] >= 0:
                        if n not in garden:
                            garden[n] = start
                            stack.append(n)
                    elif n in fountain_of:
                        fountain = fountain_of[n]
            garden_fountain[start] = fountain

    def _label_beds(
        self,
        vegetation: list[int],
        flowers: tuple[int, ...],
        neighbours: tuple[tuple[int, ...], ...],
        assistants: dict[int, int],
    ) -> None:
        bed = self.bed
        for start in vegetation:
            if flowers[start] <= 0 or start in bed:
                continue
            cells = [start]
            bed[start] = start
            for c in cells:  # grows while it is walked: a breadth-first search
                for n in neighbours[c]:
                    if flowers[n] > 0 and n not in bed:
                        bed[n] = start
                        cells.append(n)
            self.bed_cells[start] = cells
            for c in cells:
                if c in assistants:
                    self.bed_assistant[start] = assistants[c]

    def fountain_of_bed(self, bed: int) -> int:
        """The fountain whose garden holds this flowerbed, or -1."""
        return self.garden_fountain[self.garden[bed]]


def gardens(state: State) -> Gardens:
    """The (memoised) flowerbed and garden analysis of ``state``."""
    found = state.cache.get(GARDENS)
    if found is None:
        found = state.cache[GARDENS] = Gardens(state)
    assert isinstance(found, Gardens)
    return found


class Holding(NamedTuple):
    """The flowerbeds a seat controls (where one of its assistants stands), as the final
    scoring counts them."""

    beds: list[int]
    """Their labels, in the order of ``Gardens.bed_assistant``."""
    flowers: int
    """The flowers in them."""
    spaces: int
    """Their flower spaces."""


def holding(state: State, seat: int) -> Holding:
    """What ``seat`` holds: memoised with the garden analysis it is read from (like
    `fountain_controllers`, so shared by the states that share it, a few dozen bytes a
    seat); read-only."""
    g = gardens(state)
    found = g.holdings.get(seat)
    if found is None:
        beds = [bed for bed, owner in g.bed_assistant.items() if owner == seat]
        flowers = state.flowers
        cells = [c for bed in beds for c in g.bed_cells[bed]]
        found = Holding(beds, sum(flowers[c] for c in cells), len(cells))
        g.holdings[seat] = found
    return found


def controlled_beds(state: State, seat: int) -> list[int]:
    """Labels of the flowerbeds where ``seat`` has an assistant (read-only)."""
    return holding(state, seat).beds


def fountain_controllers(state: State) -> list[list[int]]:
    """For each fountain (in ``geo.fountain_cells`` order), the seats that control it.

    Memoised with the garden analysis it is read from (so shared by the states that share
    it): the lists are the cache's own, to read and never to change.
    """
    g = gardens(state)
    if g.controllers is None:
        g.controllers = _controllers(state, g)
    return g.controllers


def _controllers(state: State, g: Gardens) -> list[list[int]]:
    spaces = [[0] * state.players for _ in state.geo.fountain_cells]
    for bed, seat in g.bed_assistant.items():
        fountain = g.fountain_of_bed(bed)
        if fountain >= 0:
            spaces[fountain][seat] += len(g.bed_cells[bed])
    result = []
    for counts in spaces:
        best = max(counts)
        result.append([seat for seat, n in enumerate(counts) if best > 0 and n == best])
    return result


def shares_assistant(state: State, new_flowers: list[int]) -> bool:
    """Whether making these cells flower spaces would put two assistants in one flowerbed.

    The new flower spaces join every flowerbed next to them, and join each other when they are
    adjacent or touch a common flowerbed; each merged bed may hold at most one assistant.
    """
    g = gardens(state)
    if len(g.bed_assistant) < 2:
        return False  # no two assistants to share a bed
    flowers = state.flowers
    neighbours = state.geo.neighbours
    beds_next = [
        {g.bed[n] for n in neighbours[c] if flowers[n] > 0} for c in new_flowers
    ]
    assisted = g.bed_assistant
    if sum(1 for b in set().union(*beds_next) if b in assisted) < 2:
        return False  # however they merge, no bed gets two
    group = list(range(len(new_flowers)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i, ci in enumerate(new_flowers):
        for j in range(i):
            if ci in neighbours[new_flowers[j]] or beds_next[i] & beds_next[j]:
                group[root(i)] = root(j)
    merged: dict[int, set[int]] = {}
    for i, beds in enumerate(beds_next):
        merged.setdefault(root(i), set()).update(beds)
    return any(
        sum(1 for b in beds if b in g.bed_assistant) > 1 for beds in merged.values()
    )
