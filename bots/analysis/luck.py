"""Which moves drew something at random, and what each draw was worth.

A move is a random event when what it reveals depends on the hidden order: the same move
applied to positions sampled from the public view before it (`sample_state` of the
spectator's view) shows something else than it showed in the game. Its luck for each seat
is GNU Backgammon's: the value of the position it revealed, less the average value over
what could have been revealed (the rollouts of the move from those samples, which is the
value of the move before the draw).
"""

from __future__ import annotations

import json
from typing import Any

from bots.base import derive_seed

PROBES = 3
"""Sampled positions tried before a move is called free of chance."""


def public(engine: Any, state: Any) -> str:
    """The spectator's view of a state, as comparable text."""
    view = dict(engine.view_for(state, None))
    view.pop("viewer", None)
    return json.dumps(view, sort_keys=True, default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, tuple):
        return list(value)
    try:
        return dict(value)
    except (TypeError, ValueError):
        return repr(value)


def is_chance(engine: Any, before: Any, action: Any, after: Any, seed: int) -> bool:
    """Whether `action` from `before` revealed something the public could not foresee."""
    shown = public(engine, after)
    view = engine.view_for(before, None)
    for probe in range(PROBES):
        sample = engine.sample_state(view, derive_seed(seed, "probe", probe))
        try:
            other = engine.apply(sample, action)
        except ValueError:
            return True
        if public(engine, other) != shown:
            return True
    return False
