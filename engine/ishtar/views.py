"""What one player (or a spectator) may see: ``view_for(state, seat | None)``.

Removed: the seed, the face-down tiles of every pile (identity and order), the tiles removed
at set-up, the tree card deck order. The top tile of a pile is face up, except on the pile
under the watering can, whose top stays face down until the can leaves (RB). Everything else
is public: supplies, skills, the market, tiles taken, discarded tiles, sizes of piles and deck.

Every audience sees the same view but for ``viewer`` (keep it so: nothing here may depend on
the seat). The viewer-independent view is built once per state and memoised in
``state.cache``; ``view_for`` returns a new top-level dict at each call (``viewer`` set, keys
in the same order as ever), whose values are shared.

Views are read-only: callers must never change anything inside a view (the top-level dict
returned is the caller's own), since its values are shared between audiences, between
states and, for the layout and the tiles' JSON, between games.

Sharing contract (the server relies on it to skip serialising and diffing; identity is an
optimisation, never needed for correctness):

1. One state: in ``view_for(state, seat)`` for every seat and None, each value but
   ``viewer`` is the same object.
2. From one viewed state to the next: let ``A`` be a state whose view was built, and ``B``
   a state derived from ``A`` by at most ``MAX_LINEAGE`` (engine.state) calls of
   ``State.evolve`` through states whose views were not built. ``apply`` derives the new
   state from the one it is given that way, except an undo, which derives it from the turn's
   checkpoint (or returns the checkpoint itself). Then for each key of ``PART_FIELDS``
   whose fields are all equal in ``A`` and ``B`` (the same object, or of the same type and
   ``==``; dicts also in the same order), ``B``'s value is ``A``'s object (``is``). If a
   state between them was viewed, this holds from that state instead.
3. A value shared by identity, at the top level or inside (``UPDATES`` in
   engine.view_updates reuse the unchanged cells, placed tiles, spaces and players of the
   ancestor's part), is always equal to the value built from scratch.
4. Nothing else is promised: a value not shared may still be equal (e.g. a state decoded
   from storage has no viewed ancestor, so only ``layout``, memoised per layout while its
   memo is kept (engine.ishtar.memos), is
   shared), and the scalar entries (``phase``, ``turn``, ``deck_size``…) and ``scores``
   are rebuilt each time. ``standing`` is the ancestor's object where the fields the scores
   are computed from (``SCORE_FIELDS``) are all equal and the ancestor's game is not over
   (then ``scores``, once over, are made from it too): sharing it saves the scoring of the
   many states a bot weighs that score alike. Otherwise it is rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ishtar.components import GAME
from engine.ishtar.rules.turn import piles_to_end
from engine.ishtar.scoring import final_scores, with_tiebreak_message
from engine.ishtar.state import LINEAGE, VIEW, State
from engine.ishtar.view_parts import (
    BUILDERS,
    card_json,
    face_up_top,
    gems_json,
    tile_json,
)
from engine.ishtar.view_updates import UPDATES

__all__ = [
    "PART_FIELDS",
    "VIEW_FORMAT",
    "adopt_view",
    "card_json",
    "face_up_top",
    "gems_json",
    "tile_json",
    "view_for",
]

VIEW_FORMAT = 1

PART_FIELDS: dict[str, tuple[str, ...]] = {
    "players": (
        "players",
        "gems",
        "assistants_supply",
        "assistants_carpet",
        "skills",
        "tree_cards",
        "reserved",
    ),
    "layout": ("layout", "geo"),
    "cells": ("layout", "geo", "fountains", "gems_on_board"),
    "tiles": ("layout", "geo", "placed"),
    "spaces": ("layout", "geo", "placed", "flowers", "tokens", "assistants", "trees"),
    "tokens": ("layout", "geo", "tokens"),
    "carpet": ("cups", "piles", "can", "tokens_left"),
    "hand": ("hand",),
    "discarded": ("discarded",),
    "market": ("market", "market_trees"),
}
"""Top-level view key → the State fields its value is built from (and nothing else)."""

SCORE_FIELDS = frozenset(
    {
        "players",
        "layout",
        "geo",
        "edition",
        "ed",
        "fountains",
        "flowers",
        "assistants",
        "gems",
        "skills",
        "tree_cards",
    }
)
"""The State fields the scores are computed from (engine.ishtar.scoring, and nothing else)."""

_READ_FIELDS = SCORE_FIELDS.union(f for fields in PART_FIELDS.values() for f in fields)
assert list(PART_FIELDS) == list(BUILDERS), "one builder per part, in view order"


def view_for(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``state`` for ``seat`` (None: a spectator); read-only values."""
    shared: dict[str, Any] | None = state.cache.get(VIEW)
    if shared is None:
        shared = _build(state)
    view = shared.copy()
    view["viewer"] = seat
    return view


def adopt_view(state: State, view: Mapping[str, Any]) -> None:
    """Make ``view`` (from ``view_for``, read-only as ever) ``state``'s view, its big parts
    and projection shared, when ``state`` shows the same: a determinization of it
    (engine.ishtar.sampling), whose public fields are the view's. A bot values the states
    that follow from its sample: their views are then updates of the one it was handed
    (and read the boards it read), rather than of one built whole (sharing contract, 3).
    """
    if view.get("format") != VIEW_FORMAT or view.get("standing") is None:
        return  # a finished game, or not a view of this engine's: built when asked
    shared = _header(state)
    for key in BUILDERS:
        shared[key] = view[key]
    shared["deck_size"] = len(state.deck)
    shared["trees_left"] = state.trees_left
    shared["scores"] = None
    shared["standing"] = view["standing"]
    state.cache[VIEW] = shared
    state.cache.pop(LINEAGE, None)


def _header(state: State) -> dict[str, Any]:
    """The view's first entries, before its parts: facts of the turn, rebuilt each time."""
    return {
        "game": GAME,
        "format": VIEW_FORMAT,
        "viewer": None,
        "phase": state.phase,
        "current": None if state.phase == "over" else state.current,
        "turn": state.turn,
        "first_player": state.first_player,
        "end_triggered": state.end_triggered,
        "piles_to_end": piles_to_end(state),
        "bloom": state.bloom,
        "turn_end": "auto" if state.auto_end else "explicit",
        "edition": state.edition,
    }


def _build(state: State) -> dict[str, Any]:
    """The view with ``viewer`` None, reusing what it can of the viewed ancestor's view."""
    cache = state.cache
    over = state.phase == "over"
    view = _header(state)
    lineage = cache.get(LINEAGE)
    projected: dict[str, Any] | None = None
    if lineage is not None and VIEW in lineage[0].cache:
        ancestor = lineage[0]
        differ = _differing(ancestor, state, lineage[1])
        _inherit(view, state, ancestor, differ)
        if differ.isdisjoint(SCORE_FIELDS):
            projected = ancestor.cache[VIEW]["standing"]  # None if its game was over
    else:
        for key, build in BUILDERS.items():
            view[key] = build(state)
    view["deck_size"] = len(state.deck)
    view["trees_left"] = state.trees_left
    # the projection mid-game (who would score what if it ended now, who holds each
    # fountain): the running score the players follow; all of it public. The final
    # scores carry the tie-break as a message too, for the readers' languages.
    if projected is None:
        projected = final_scores(state)
    view["scores"] = with_tiebreak_message(projected) if over else None
    view["standing"] = None if over else projected
    cache[VIEW] = view
    cache.pop(LINEAGE, None)
    return view


def _differing(ancestor: State, state: State, changed: frozenset[str]) -> set[str]:
    """The fields among ``changed`` that a view or its scores read and that differ."""
    return {
        name
        for name in changed
        if name in _READ_FIELDS and _differs(ancestor, state, name)
    }


def _inherit(
    view: dict[str, Any], state: State, ancestor: State, differ: set[str]
) -> None:
    """Add the parts to ``view``: the ancestor's where their fields are all equal (none is
    in ``differ``), else updated from the ancestor's (``UPDATES``) or built afresh."""
    parts: dict[str, Any] = ancestor.cache[VIEW]
    for key, build in BUILDERS.items():
        fields = differ.intersection(PART_FIELDS[key])
        if not fields:
            view[key] = parts[key]
        elif key in UPDATES:
            view[key] = UPDATES[key](state, ancestor, parts[key], fields)
        else:
            view[key] = build(state)


def _differs(a: State, b: State, name: str) -> bool:
    """Whether field ``name`` may show differently: not the same object, nor equal (dicts
    in the same order, as their order shows in the view)."""
    x, y = getattr(a, name), getattr(b, name)
    if x is y:
        return False
    if type(x) is not type(y):
        return True
    if isinstance(x, dict):
        return list(x.items()) != list(y.items())
    return bool(x != y)
