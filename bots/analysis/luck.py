"""Which moves drew something at random, and what each draw was worth.

A move is a random event when what it reveals depends on the hidden order: the same move
applied to positions sampled from the public view before it (`sample_state` of the
spectator's view) shows something else than it showed in the game. Its luck for each seat
is GNU Backgammon's: the value of the position it revealed, less the average value over
what could have been revealed (the rollouts of the move from those samples, which is the
value of the move before the draw).

Values here are short: the standing a few moves on (`measure`), not the end of the game.
A whole game's rollouts carry every later draw's noise, and a luck summed over some twenty
draws would carry twenty times it; a few moves on, what a draw gave shows already (the
tile placed, the garden harvested) and little else has happened. The luck-adjusted score
(the score less the luck) is then a control variate in the manner of AIVAT: its mean is
the score's, its variance smaller (docs/analysis.md, "Quality").

A game whose bots give a value of a position (`Value`: each seat's expected final score,
from what a spectator sees) has its draws valued by it instead (`measure_by_value`): no
rollout, so no later draw's noise, and cheap enough to average over many possible draws.

The deal (the game's first position: the tiles and cards face up, the seat order where it
is drawn) is a draw too, as GNU Backgammon counts the opening roll: `measure_deal` values
it against other deals of the same game. The analysis does not count it yet (it walks the
moves, and a deal needs the record's options); the bench measures what it would take away
(docs/analysis.md, "Luck").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bots.analysis.rollouts import Think, Value
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


def standing(engine: Any, state: Any) -> list[float]:
    """Every seat's score as it stands (the engine's `final_scores`, which both bundled
    engines give mid-game: the running score players follow)."""
    players = sorted(engine.final_scores(state)["players"], key=lambda p: p["seat"])
    return [float(p["total"]) for p in players]


def ahead(
    engine: Any, think: Think, state: Any, policy: str, seed: int, plies: int
) -> list[float]:
    """The standing after `plies` more moves by the bots (fewer if the game ends)."""
    for ply in range(plies):
        seat = engine.current_player(state)
        if seat is None:
            break
        legal = engine.legal_actions(state)
        action = (
            legal[0]
            if len(legal) == 1
            else think(
                policy,
                engine.view_for(state, seat),
                list(legal),
                derive_seed(seed, ply),
                None,
            )
        )
        state = engine.apply(state, action)
    return standing(engine, state)


def measure(
    engine: Any,
    think: Think,
    before: Any,
    action: Any,
    after: Any,
    *,
    samples: int,
    plies: int,
    policy: str,
    seed: int,
) -> list[float]:
    """Each seat's luck in points from a random event: the standing `plies` moves after
    the position it revealed, less the same after what it could have revealed (the move
    applied to samples of the public view before it), both averaged over `samples`
    rollouts with the same bot seeds. Short rollouts judge what the draw gave with little
    noise; both sides roll out alike, so the luck of a draw averages zero."""
    view_before = engine.view_for(before, None)
    view_after = engine.view_for(after, None)
    drawn = []
    possible = []
    for k in range(samples):
        roll = derive_seed(seed, "luck-roll", k)
        world = engine.sample_state(view_after, derive_seed(seed, "luck-real", k))
        drawn.append(ahead(engine, think, world, policy, roll, plies))
        other = engine.apply(
            engine.sample_state(view_before, derive_seed(seed, "luck-other", k)), action
        )
        possible.append(ahead(engine, think, other, policy, roll, plies))
    seats = len(drawn[0])
    return [
        sum(d[s] for d in drawn) / samples - sum(p[s] for p in possible) / samples
        for s in range(seats)
    ]


def measure_by_value(
    engine: Any,
    value: Value,
    before: Any,
    action: Any,
    after: Any,
    *,
    samples: int,
    seed: int,
) -> list[float]:
    """Each seat's luck in points from a random event, by the game's `value`: the value of
    the position it revealed, less the mean value over `samples` positions it could have
    revealed (the move applied to samples of the public view before it).

    `value` reads the spectator's view alone, so positions that look alike to a spectator
    (the same tile turned up) are valued once, with the weight of their samples: the mean
    is over the possible draws, each as often as it was sampled."""
    view_before = engine.view_for(before, None)
    drawn = value(after)
    seen: dict[str, list[Any]] = {}
    for k in range(samples):
        other = engine.apply(
            engine.sample_state(view_before, derive_seed(seed, "luck-other", k)), action
        )
        shown = public(engine, other)
        if shown in seen:
            seen[shown][1] += 1
        else:
            seen[shown] = [other, 1]
    mean = [0.0] * len(drawn)
    for other, count in seen.values():
        for s, x in enumerate(value(other)):
            mean[s] += x * count / samples
    return [d - m for d, m in zip(drawn, mean)]


def mean_deal(
    value: Value, deal: Callable[[int], Any], *, deals: int, seed: int
) -> list[float]:
    """Each seat's mean value over `deals` first positions `deal(seed)` of the same game
    (the engine's `new_game` with the record's players and options), for `measure_deal`."""
    return _mean(value(deal(derive_seed(seed, "deal", k))) for k in range(deals))


def measure_deal(
    value: Value, first: Any, deal: Callable[[int], Any], *, deals: int, seed: int
) -> list[float]:
    """Each seat's luck in points from the deal: the value of the first position, less
    its mean over `deals` other deals (`mean_deal`). What every deal gives a seat (the
    first seat's edge where the seat order is fixed) is in the mean, so it is no luck."""
    mean = mean_deal(value, deal, deals=deals, seed=seed)
    return [x - m for x, m in zip(value(first), mean)]


def _mean(rows: Iterable[Sequence[float]]) -> list[float]:
    total: list[float] = []
    count = 0
    for row in rows:
        total = [t + x for t, x in zip(total, row)] if total else list(row)
        count += 1
    return [t / count for t in total]
