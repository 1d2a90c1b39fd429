"""Warm the rules engines before serving: the first moves of the first games are as fast as any.

An engine may memoise what depends only on its set-up (each game's docs say what its engine
keeps). A fresh process builds these on the first moves it sees: the load benchmark's
first moves took 16-66 ms against 6 ms for the rest (docs/journal/benchmarks-history.md,
"Second session"). Playing a few seeded games with the default options at start-up (for
each number of players, to the end, through the same calls the server makes) builds them
once, in a few tens of milliseconds per game. A failure here is logged, never fatal: warming is
an optimisation.

The memos belong to the process, so a process warms each rules module once
(`warm_once`): an app created again in the same process (the tests create hundreds) finds
them built.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterable
from typing import Any

from app.play.rules import A, Rules, S

log = logging.getLogger("ishtar.warmup")

PLAYERS = (2, 3, 4)
MAX_STEPS = 400  # a bound, whatever the rules module: games here end well before it


_warmed: set[str] = set()
"""The rules modules this process has warmed (by module name)."""


def warm_once(rules: Rules[Any, Any], players: Iterable[int] = PLAYERS) -> bool:
    """Warm `rules` unless this process already has; whether it warmed now."""
    name = rules.__name__
    if name in _warmed:
        return False
    if warm_rules(rules, players=players):
        _warmed.add(name)
    return True


def warm_rules(
    rules: Rules[S, A], seed: int = 1, players: Iterable[int] = PLAYERS
) -> int:
    """Play one seeded game per player count, viewing and listing like the server; the steps
    played (0 if the rules module could not be warmed)."""
    started = time.perf_counter()
    steps = 0
    try:
        for count in players:
            rng = random.Random(seed * 10 + count)
            state = rules.new_game(count, seed)
            for _ in range(MAX_STEPS):
                if rules.is_over(state):
                    break
                for seat in (None, *range(count)):
                    rules.view_for(state, seat)
                rules.legal_with_previews(state)
                actions = [a for a in rules.legal_actions(state) if _forward(rules, a)]
                state = rules.apply(state, rng.choice(actions))
                steps += 1
    except Exception:
        log.warning("warming the rules engine failed; serving cold", exc_info=True)
        return 0
    log.info(
        "rules engine warmed: %d steps in %.0f ms",
        steps,
        1000 * (time.perf_counter() - started),
    )
    return steps


def _forward(rules: Rules[S, A], action: A) -> bool:
    """Not a step back (an undo would make the warm-up game longer, not wider)."""
    encoded = rules.encode_action(action)
    return not (isinstance(encoded, dict) and encoded.get("type") == "undo")
