"""The state of a game and its actions: immutable values (``apply`` returns a new state).

The floor is held as two tuples indexed like the floor's `spaces` (its tile spaces in
reading order): the tile on each space and the gems on it. Piles are tuples whose *last*
item is the top. Everything the rules need is here, the hidden order of the piles and the
seed included; `view_for` decides what a seat may see.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.babylon.floors import Floor, Pos, floor

PHASES = ("scoreboard", "irrigate", "over")

ACTION_TYPES = ("scoreboard", "irrigate", "harvest", "undo")


@dataclass(frozen=True)
class Action:
    """One step of a turn (R-16): choose a scoreboard side, irrigate a tile, harvest, undo."""

    type: str
    at: Pos | None = None
    side: str | None = None


@dataclass(frozen=True)
class Draw:
    """One first-player draw (R-6): a seat's multi tile in a round of the draw."""

    seat: int
    tile: str
    round: int


@dataclass(frozen=True)
class Harvested:
    """A tile harvested in the last turn, what replaced it and the slot its wink took."""

    at: Pos
    tile: str
    colour: str
    slot: int
    seat: int
    replaced_by: str


@dataclass(frozen=True)
class State:
    """A position of the game."""

    players: int
    seed: int
    options: tuple[tuple[str, Any], ...]
    """The normalised options (check_options), as sorted pairs."""
    floor_id: str
    tiles: tuple[str, ...]
    """The tile on each space of the floor, in the floor's reading order."""
    gems: tuple[int, ...]
    piles: tuple[tuple[str, ...], tuple[str, ...]]
    """The single and the multi pile, face down; the last item is the top (hidden order)."""
    discards: tuple[tuple[str, ...], tuple[str, ...]]
    """The single and the multi discard piles, face up, oldest first."""
    sides: tuple[str | None, ...]
    """Each seat's scoreboard side (None while it has still to choose, R-5)."""
    winks: tuple[tuple[str, ...], ...]
    """Each seat's winks in slot order."""
    phase: str
    current: int
    turn: int
    first_player: int
    draws: tuple[Draw, ...] = ()
    path: tuple[Pos, ...] = ()
    harvested: tuple[Harvested, ...] = ()
    reshuffles: int = 0
    """How many times a discard pile became a pile: each reshuffle's own seed counts it."""
    _memo: dict[str, Any] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    @property
    def floor(self) -> Floor:
        return floor(self.floor_id)

    @property
    def option(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def teams(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """R-14: the teams are seats {0, 2} and {1, 3} in team mode."""
        return ((0, 2), (1, 3)) if self.option.get("teams") else None

    def evolve(self, **changes: Any) -> State:
        """A copy with `changes`, sharing every other value, and an empty memo.

        ``dataclasses.replace`` goes through ``__init__`` and every field's getattr: it
        was half of a random game's time. The fields are immutable, so a copy of the
        instance's dict is a correct copy."""
        assert changes.keys() <= _FIELDS, sorted(changes.keys() - _FIELDS)
        new = object.__new__(State)
        values = new.__dict__
        values.update(self.__dict__)
        values.update(changes)
        values["_memo"] = {}
        return new

    def index(self, at: Pos) -> int:
        """The index of a tile space in `tiles` and `gems`."""
        return _space_index(self.floor_id)[at]


_FIELDS = frozenset(f.name for f in fields(State)) - {"_memo"}

_INDEX: dict[str, dict[Pos, int]] = {}


def _space_index(floor_id: str) -> dict[Pos, int]:
    index = _INDEX.get(floor_id)
    if index is None:
        index = {at: i for i, at in enumerate(floor(floor_id).spaces)}
        _INDEX[floor_id] = index
    return index


def kind_index(kind: str) -> int:
    """0 for the single pile, 1 for the multi pile."""
    return 0 if kind == "single" else 1
