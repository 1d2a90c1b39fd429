"""Layouts of the terrain boards: presets, a seeded random layout, and validation.

A layout places ``players + 2`` terrain boards (RB). Each placement names the board (1–6),
the side (a/b), a rotation (0–5, × 60° clockwise) and the board's centre on the super-hex
lattice. Legal layouts are edge-connected: every board touches another.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from engine.ishtar.components import BOARDS, SIDES
from engine.ishtar.errors import IllegalAction
from engine.ishtar.hexgrid import LATTICE_STEPS, Hex, add, lattice_coords
from engine.ishtar.words import raw, refusal


class BoardPlacement(NamedTuple):
    """One terrain board in play."""

    board: int
    side: str
    rotation: int
    at: Hex


Layout = tuple[BoardPlacement, ...]

_U, _V = (
    LATTICE_STEPS[0],
    LATTICE_STEPS[1],
)  # (4,3) and (-3,7): 60° apart, so they touch


def _lattice(a: int, b: int) -> Hex:
    return (a * _U[0] + b * _V[0], a * _U[1] + b * _V[1])


_PRESET_CENTRES: dict[int, tuple[Hex, ...]] = {
    # 2 players: a rhombus of 4 boards.
    2: (_lattice(0, 0), _lattice(1, 0), _lattice(0, 1), _lattice(1, 1)),
    # 3 players: a trapezoid of 5 boards.
    3: (_lattice(0, 0), _lattice(1, 0), _lattice(2, 0), _lattice(0, 1), _lattice(1, 1)),
    # 4 players: a parallelogram of 6 boards, each touching at least two others.
    4: (
        _lattice(0, 0),
        _lattice(1, 0),
        _lattice(2, 0),
        _lattice(0, 1),
        _lattice(1, 1),
        _lattice(2, 1),
    ),
}
_PRESET_SIDES = ("a", "b", "a", "b", "a", "b")


class LayoutError(IllegalAction):
    """A custom layout that breaks a rule of set-up; the message says which."""


def preset_layout(players: int) -> Layout:
    """The shipped layout for ``players`` players (boards 1.., alternating sides)."""
    if players not in _PRESET_CENTRES:
        raise LayoutError(refusal("layout.players", players=raw(players)))
    return tuple(
        BoardPlacement(i + 1, _PRESET_SIDES[i], 0, centre)
        for i, centre in enumerate(_PRESET_CENTRES[players])
    )


def random_layout(players: int, rng: random.Random) -> Layout:
    """A connected layout grown board by board from ``rng`` (boards, sides, rotations)."""
    count = players + 2
    boards = rng.sample(BOARDS, count)
    centres: list[Hex] = [(0, 0)]
    while len(centres) < count:
        base = rng.choice(centres)
        candidate = add(base, rng.choice(LATTICE_STEPS))
        if candidate not in centres:
            centres.append(candidate)
    return tuple(
        BoardPlacement(board, rng.choice(SIDES), rng.randrange(6), centre)
        for board, centre in zip(boards, centres)
    )


def parse_layout(raw: Iterable[Any]) -> Layout:
    """Read a layout from JSON-like data (dicts with board, side, rotation, at) or placements.

    ``board`` and ``rotation`` are whole numbers and ``at`` a pair of them, as JSON gives
    them: ``1.5``, ``true``, ``"3"`` or infinity are refused (`LayoutError`), not truncated
    or converted."""
    placements = []
    for item in raw:
        if isinstance(item, BoardPlacement):
            placements.append(item)
            continue
        if not isinstance(item, Mapping):
            raise LayoutError(refusal("layout.board_object"))
        missing = [key for key in ("at", "board", "side") if key not in item]
        if missing:
            raise LayoutError(refusal("layout.board_malformed", error=repr(missing[0])))
        at = item["at"]
        if not isinstance(at, (list, tuple)) or len(at) != 2:
            raise LayoutError(refusal("layout.position", at=_shown(at)))
        placements.append(
            BoardPlacement(
                _whole(item["board"], "board"),
                str(item["side"]),
                _whole(item.get("rotation", 0), "rotation"),
                (_whole(at[0], "at"), _whole(at[1], "at")),
            )
        )
    return tuple(placements)


SHOWN = 40
"""At most this many characters of a given value are echoed in a refusal."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _whole(value: Any, field: str) -> int:
    """`value` if it is a whole number (not a bool), else LayoutError naming `field`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LayoutError(
            refusal("layout.whole_number", field=field, value=_shown(value))
        )
    return value


def validate_layout(layout: Sequence[BoardPlacement], players: int) -> None:
    """Raise LayoutError with a readable reason unless ``layout`` is legal for ``players``."""
    if players not in _PRESET_CENTRES:
        raise LayoutError(refusal("layout.players", players=raw(players)))
    if len(layout) != players + 2:
        raise LayoutError(
            refusal(
                "layout.board_count",
                players=players,
                boards=players + 2,
                given=len(layout),
            )
        )
    seen_boards: set[int] = set()
    centres: set[Hex] = set()
    for p in layout:
        if p.board not in BOARDS:
            raise LayoutError(refusal("layout.no_board", board=raw(p.board)))
        if p.board in seen_boards:
            raise LayoutError(refusal("layout.board_twice", board=p.board))
        seen_boards.add(p.board)
        if p.side not in SIDES:
            raise LayoutError(refusal("layout.side", board=p.board, side=repr(p.side)))
        if not 0 <= p.rotation <= 5:
            raise LayoutError(
                refusal("layout.rotation", board=p.board, rotation=raw(p.rotation))
            )
        if lattice_coords(p.at) is None:
            raise LayoutError(
                refusal("layout.lattice", board=p.board, at=str(list(p.at)))
            )
        if p.at in centres:
            raise LayoutError(
                refusal("layout.overlap", board=p.board, at=str(list(p.at)))
            )
        centres.add(p.at)
    _check_connected(centres)


def _check_connected(centres: set[Hex]) -> None:
    start = next(iter(centres))
    reached = {start}
    frontier = [start]
    while frontier:
        c = frontier.pop()
        for step in LATTICE_STEPS:
            n = add(c, step)
            if n in centres and n not in reached:
                reached.add(n)
                frontier.append(n)
    if reached != centres:
        raise LayoutError(refusal("layout.connected"))


def resolve_layout(layout: Any, players: int, rng: random.Random) -> Layout:
    """Turn the ``layout`` argument of new_game (None, "preset", "random" or a list) into a Layout."""
    if layout is None or layout == "preset":
        result = preset_layout(players)
    elif layout == "random":
        result = random_layout(players, rng)
    elif isinstance(layout, (list, tuple)):
        result = parse_layout(layout)
    else:  # another name, a number, true, an object
        raise LayoutError(refusal("layout.unknown", layout=_shown(layout)))
    validate_layout(result, players)
    return result


def layout_to_json(layout: Layout) -> list[dict[str, Any]]:
    """The JSON form of a layout (as in the view)."""
    return [
        {
            "board": p.board,
            "side": p.side,
            "rotation": p.rotation,
            "at": [p.at[0], p.at[1]],
        }
        for p in layout
    ]
