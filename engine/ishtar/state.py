"""The game state, the actions, and the phases of a turn.

A ``State`` is immutable by convention: the rules never change one in place, they build a new
one with ``evolve`` and fresh containers for whatever they touch (copy-on-write), sharing the
rest. Cells are small integers into the layout's ``Geometry`` (engine.geometry); the codec and
the views translate them to axial ``(q, r)``.

Phases follow the steps of a turn (RB): ``choose`` a vegetation tile with the watering can,
``place`` it (collecting gems), the optional ``special`` action, ``bloom`` (after skills G/J)
or ``reserve`` (after skill I), ``plant`` trees; ``over`` once the game has ended.

Undo (engine.rules.undo): ``steps`` are the current player's steps of this turn since the
last one that revealed hidden information, and ``checkpoint`` the state before the first of
them; taking a step back replays ``steps[:-1]`` from the checkpoint. Both are server-side
only, like the piles: views never show them.

View lineage (engine.views): once a state's view is built (``cache[VIEW]``), ``evolve``
gives the new state ``cache[LINEAGE] = (that state, names of the fields passed to evolve
since, evolves since)``, carried on through the intermediate states of one ``apply`` (whose
views are never built), so the new state's view can reuse the parts whose fields did not
change. A lineage is dropped after ``MAX_LINEAGE`` evolves (a bot's playout from a viewed
state then stops paying for it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from engine.ishtar.editions import Edition
from engine.ishtar.geometry import Geometry
from engine.ishtar.hexgrid import Hex
from engine.ishtar.layout import Layout

PHASES: tuple[str, ...] = (
    "choose",
    "place",
    "special",
    "bloom",
    "reserve",
    "plant",
    "over",
)

ACTION_TYPES: dict[str, tuple[str, ...]] = {
    "choose": ("choose",),
    "place": ("place", "discard"),
    "special": ("assistant", "skill", "pass"),
    "bloom": ("bloom",),
    "reserve": ("reserve",),
    "plant": ("plant", "end"),
    "over": (),
}
"""Which action types each phase accepts (``undo`` is accepted in every phase but ``over``)."""


class Action(NamedTuple):
    """One step of a turn. Only the fields of its ``type`` are set (see docs/games/ishtar/contract.md)."""

    type: str
    pile: int | None = None
    pay: tuple[str, ...] = ()
    at: Hex | None = None
    rotation: int | None = None
    skill: str | None = None
    token: str | None = None
    cells: tuple[Hex, ...] = ()
    card: int | None = None


class PlacedTile(NamedTuple):
    """A vegetation tile on the map: who placed it, on which turn, on which cells."""

    tile: str
    seat: int
    turn: int
    at: Hex
    rotation: int
    cells: tuple[int, int, int]


class PlacedToken(NamedTuple):
    """A blooming token on the map, on one or two grass spaces."""

    token: str
    seat: int
    cells: tuple[int, ...]


VIEW = "view"
"""Cache key of the state's memoised viewer-independent view (engine.views)."""
GARDENS = "gardens"
"""Cache key of the garden analysis (engine.rules.gardens)."""
FRONTIER = "frontier"
"""Cache key of the placement frontier (engine.rules.place)."""

BOARD_DERIVED: dict[str, frozenset[str]] = {
    GARDENS: frozenset({"layout", "geo", "flowers", "assistants"}),
    FRONTIER: frozenset({"layout", "geo", "flowers", "assistants"}),
}
"""Cache entries computed from these fields alone (engine.rules.gardens, ``place.frontier``):
``evolve`` hands them on to the new state when it is given none of those fields. Most steps
leave the vegetation and the assistants alone, so the garden analysis of one state serves the
states after it: the next player's place step usually finds it made (at the special step)."""

LINEAGE = "view_lineage"
"""Cache key of (nearest viewed ancestor, fields passed to evolve since, evolves since)."""
MAX_LINEAGE = 64
"""Evolves after which a lineage is dropped (an ``apply`` takes a few; an undo replays a turn)."""

Gems = tuple[int, int, int]
"""Gem counts in the order purple, red, white."""


@dataclass(slots=True)
class State:
    """Everything about a game in progress, hidden information included."""

    players: int
    seed: int
    layout: Layout
    geo: Geometry = field(compare=False, repr=False)
    edition: str
    """The name of the edition of the component data the game is played with."""
    ed: Edition = field(compare=False, repr=False)
    """That edition (``EDITIONS[edition]``), which every rule reads its numbers from."""
    first_player: int
    fountains: tuple[str, ...]
    """Colour of the fountain on each fountain cell, in ``geo.fountain_cells`` order."""
    gems_on_board: frozenset[int]
    bank: Gems
    """The general supply of gems."""
    flowers: tuple[int, ...]
    """Per cell: -1 no vegetation, 0 grass, n > 0 a flower space with n flowers."""
    placed: tuple[PlacedTile, ...]
    tokens: tuple[PlacedToken, ...]
    assistants: dict[int, int]
    """Cell → seat of the assistant standing there."""
    trees: dict[int, int]
    """Cell → tree card whose tree stands there."""
    cups: tuple[str, ...]
    piles: tuple[tuple[str, ...], ...]
    """Per carpet spot, the tiles of its pile from bottom to top."""
    can: int | None
    tokens_left: dict[str, int]
    discarded: tuple[str, ...]
    removed: tuple[str, ...]
    market: tuple[int, ...]
    market_trees: frozenset[int]
    deck: tuple[int, ...]
    """The tree card draw pile, next card first."""
    trees_left: int
    gems: tuple[Gems, ...]
    assistants_supply: tuple[int, ...]
    assistants_carpet: tuple[int, ...]
    skills: tuple[dict[str, tuple[str, ...]], ...]
    """Per seat: unlocked skill letter → the gem colours paid on it."""
    tree_cards: tuple[tuple[int, ...], ...]
    reserved: tuple[int | None, ...]
    current: int
    phase: str
    turn: int
    hand: str | None
    bloom: str | None
    """During the bloom phase: "single" (skill G) or "double" (skill J)."""
    end_triggered: bool
    auto_end: bool = False
    """The rule of games begun before engine 1.2.0 (option ``turn_end: "auto"``): a turn with
    nothing left to plant or to take back ends by itself. Otherwise a turn ends with ``end``."""
    checkpoint: State | None = field(default=None, repr=False)
    """The state before the first undoable step of this turn (None: nothing to undo)."""
    steps: tuple[Action, ...] = ()
    """The undoable steps taken since ``checkpoint``, oldest first."""
    cache: dict[str, Any] = field(
        default_factory=dict, compare=False, repr=False, init=False
    )
    """Derived data memoised per state (gardens, legal placements); never encoded."""

    def evolve(self, **changes: Any) -> State:
        """A copy with ``changes``; untouched containers are shared, the cache is not.

        The new cache holds the view lineage (see the module docstring), if any, and the
        ``BOARD_DERIVED`` entries whose fields are not among ``changes``.
        """
        new = object.__new__(State)
        _copy_fields(self, new)
        for name, value in changes.items():
            setattr(new, name, value)
        cache = self.cache
        carried = _lineage(self, changes) if VIEW in cache or LINEAGE in cache else {}
        for key, depends_on in BOARD_DERIVED.items():
            found = cache.get(key)
            if found is not None and depends_on.isdisjoint(changes):
                carried[key] = found
        object.__setattr__(new, "cache", carried)
        return new


def _lineage(parent: State, changes: dict[str, Any]) -> dict[str, Any]:
    """The cache of a state evolved from ``parent``: its view lineage, if still short."""
    if VIEW in parent.cache:
        return {LINEAGE: (parent, frozenset(changes), 1)}
    ancestor, changed, depth = parent.cache[LINEAGE]
    if depth >= MAX_LINEAGE:
        return {}
    return {LINEAGE: (ancestor, changed.union(changes), depth + 1)}


_FIELD_NAMES: tuple[str, ...] = tuple(
    f.name for f in fields(State) if f.name != "cache"
)


def _copy_fields(old: State, new: State) -> None:
    """Set every field of ``new`` but its cache to ``old``'s: one plain attribute copy per
    field, seven times faster than a loop of getattr and setattr (``evolve`` runs a few
    times per step of a game). A field added to `State` must be added here too
    (tests/engine/ishtar/test_fast_paths.py checks that none is missing).
    """
    new.players = old.players
    new.seed = old.seed
    new.layout = old.layout
    new.geo = old.geo
    new.edition = old.edition
    new.ed = old.ed
    new.first_player = old.first_player
    new.fountains = old.fountains
    new.gems_on_board = old.gems_on_board
    new.bank = old.bank
    new.flowers = old.flowers
    new.placed = old.placed
    new.tokens = old.tokens
    new.assistants = old.assistants
    new.trees = old.trees
    new.cups = old.cups
    new.piles = old.piles
    new.can = old.can
    new.tokens_left = old.tokens_left
    new.discarded = old.discarded
    new.removed = old.removed
    new.market = old.market
    new.market_trees = old.market_trees
    new.deck = old.deck
    new.trees_left = old.trees_left
    new.gems = old.gems
    new.assistants_supply = old.assistants_supply
    new.assistants_carpet = old.assistants_carpet
    new.skills = old.skills
    new.tree_cards = old.tree_cards
    new.reserved = old.reserved
    new.current = old.current
    new.phase = old.phase
    new.turn = old.turn
    new.hand = old.hand
    new.bloom = old.bloom
    new.end_triggered = old.end_triggered
    new.auto_end = old.auto_end
    new.checkpoint = old.checkpoint
    new.steps = old.steps


def replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of the tuple ``items`` with ``items[index] = value``."""
    return (*items[:index], value, *items[index + 1 :])


def shared_parts(state: State) -> tuple[tuple[object, int], ...]:
    """What ``state`` keeps alive that other states share, each with an estimate of its
    bytes: its layout's geometry (every state of a game, and on a preset layout every game,
    reach the same one). A cache of states weighs each of these once, however many of its
    states reach it."""
    return ((state.geo, state.geo.bytes),)
