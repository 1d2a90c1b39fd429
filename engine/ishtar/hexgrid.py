"""Hexagonal grid arithmetic: axial coordinates on pointy-top hexagons.

One convention everywhere (see docs/games/ishtar/contract.md): a cell is ``(q, r)``; the six directions
in clockwise order starting east are E, SE, SW, W, NW, NE; one rotation step is 60° clockwise,
``(q, r) -> (-r, q + r)``.

>>> neighbours((0, 0))[:2]
((1, 0), (0, 1))
>>> rotate((1, 0), 1)
(0, 1)
>>> rotate((2, -1), 6)
(2, -1)
>>> distance((0, 0), (4, 3))
7
>>> len(disc((0, 0), 3))
37
"""

from __future__ import annotations

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""The six neighbour offsets, clockwise from east."""

BOARD_RADIUS = 3
"""A terrain board is the 37 cells within distance 3 of its centre."""

LATTICE_STEPS: tuple[Hex, ...] = ((4, 3), (-3, 7), (-7, 4), (-4, -3), (3, -7), (7, -4))
"""Offsets from a terrain board's centre to the centres of the six boards that can touch it."""


def add(a: Hex, b: Hex) -> Hex:
    """The sum of two axial vectors."""
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    """The difference of two axial vectors."""
    return (a[0] - b[0], a[1] - b[1])


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six cells next to ``h``, clockwise from east."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def rotate(h: Hex, steps: int) -> Hex:
    """Rotate the vector ``h`` around the origin by ``steps`` × 60° clockwise."""
    q, r = h
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def mirror(h: Hex) -> Hex:
    """Reflect ``h`` in a line through the origin (the one that swaps q and r).

    Any reflection will do for telling board sides apart up to symmetry.
    """
    return (h[1], h[0])


def length(h: Hex) -> int:
    """Distance from the origin, in steps."""
    q, r = h
    return max(abs(q), abs(r), abs(q + r))


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two cells."""
    return length(sub(a, b))


def disc(centre: Hex, radius: int) -> tuple[Hex, ...]:
    """All cells within ``radius`` of ``centre``, in row order (r, then q ascending)."""
    cq, cr = centre
    cells = []
    for r in range(-radius, radius + 1):
        for q in range(max(-radius, -radius - r), min(radius, radius - r) + 1):
            cells.append((cq + q, cr + r))
    return tuple(cells)


def lattice_coords(centre: Hex) -> tuple[int, int] | None:
    """Express a board centre in the lattice basis (4,3), (-3,7); None if it is off-lattice.

    >>> lattice_coords((1, 10))
    (1, 1)
    >>> lattice_coords((1, 0)) is None
    True
    """
    q, r = centre
    a, ra = divmod(7 * q + 3 * r, 37)
    b, rb = divmod(-3 * q + 4 * r, 37)
    if ra or rb:
        return None
    return (a, b)
