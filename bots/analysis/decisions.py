"""One decision valued: the move played and the bots' moves, rolled out on common samples.

The deciding seat's view is all the valuation reads: each sample is a full position drawn
from that view by the engine's `sample_state` (what the seat could not know is filled at
random), and each candidate is applied to the same sample and rolled out with the same bot
seeds. The real position, with the draws that were to come, is never used.

The candidates may be compared on rollouts cut short (`Cut`: a few moves, then the game's
value of a position), which cost a fraction of whole ones; the played move's first rollouts
are then also played to the end, for the chances the chart shows (`Valued.chart`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bots.analysis.marks import settled
from bots.analysis.rollouts import Cut, Estimate, Outcome, Think, play_out
from bots.base import derive_seed


@dataclass(frozen=True)
class Valued:
    """The candidates of one decision (the played move first) and their estimates; where
    those were cut short, `chart`: the played move's first rollouts played to the end."""

    seat: int
    candidates: tuple[Any, ...]
    estimates: tuple[Estimate, ...]
    chart: Estimate | None = None

    def chances(self) -> Estimate | None:
        """The played move's rollouts to the end (its expected scores and chances of
        winning), if it has any."""
        if self.chart is not None:
            return self.chart
        return self.estimates[0] if self.estimates else None

    def best(self) -> int:
        """The index of the candidate with the best expected lead for the deciding seat."""
        leads = [e.lead(self.seat) for e in self.estimates]
        return max(range(len(leads)), key=lambda i: (leads[i], -i))


def key(engine: Any, action: Any) -> str:
    """An action's identity: its JSON, keys sorted."""
    return json.dumps(engine.encode_action(action), sort_keys=True)


def candidates(
    engine: Any,
    think: Think,
    state: Any,
    played: Any,
    levels: Sequence[str],
    seed: int,
) -> list[Any]:
    """The played move, then each distinct move the bots of `levels` choose here; none
    when the played move is the first level's own choice (the bot that plays the
    rollouts: its choice is what they take to be best, and the weaker bots' choices,
    rolled out against it, mostly measured noise at twice the cost)."""
    seat = engine.current_player(state)
    legal = list(engine.legal_actions(state))
    found = [played]
    seen = {key(engine, played)}
    if len(legal) < 2:
        return found
    view = engine.view_for(state, seat)
    for n, level in enumerate(levels):
        choice = think(level, view, list(legal), derive_seed(seed, level), None)
        k = key(engine, choice)
        if k not in seen:
            seen.add(k)
            found.append(choice)
        elif n == 0:
            return found
    return found


def value(
    engine: Any,
    think: Think,
    state: Any,
    moves: Sequence[Any],
    *,
    rollouts: int,
    policy: str,
    seed: int,
    max_steps: int,
    first: int | None = None,
    cut: Cut | None = None,
) -> Valued:
    """Each of `moves` valued by rollouts from positions sampled from the deciding seat's
    view; sample k and its bot seeds are the same for every move.

    Sequential: `first` rollouts each (all of them if not given), then `first` more at a
    time while the played move's mark is not settled (bots/analysis/marks.py), up to
    `rollouts`. A lone move (the chances' point only) gets `first`. Rollout k is the same
    whichever round computes it, so the result depends on the seed alone.

    With `cut`, several moves are compared on rollouts cut short there; the played move's
    first round is also played to the end (`Valued.chart`). A lone move is never cut.
    """
    seat = engine.current_player(state)
    view = engine.view_for(state, seat)
    results: list[list[Outcome]] = [[] for _ in moves]
    chart: list[Outcome] = []
    kept = list(range(len(moves)))
    step = max(1, min(first or rollouts, rollouts))
    cut = cut if len(moves) > 1 else None
    done = 0
    while done < rollouts:
        for k in range(done, min(done + step, rollouts)):
            sample = engine.sample_state(view, derive_seed(seed, "sample", k))
            for i in list(kept):
                try:
                    after = engine.apply(sample, moves[i])
                except ValueError:
                    # a move legal in the real position is legal in every sample of the
                    # same view; should an engine disagree, the candidate is dropped,
                    # not guessed
                    if i == 0:
                        raise
                    kept.remove(i)
                    continue
                short, end = play_out(
                    engine,
                    think,
                    after,
                    policy,
                    derive_seed(seed, "roll", k),
                    max_steps,
                    cut,
                    to_end=cut is not None and i == 0 and k < step,
                )
                results[i].append(short)
                if end is not None:
                    chart.append(end)
        done = min(done + step, rollouts)
        if len(kept) < 2 or settled(_losses(results, kept, seat)):
            break
    return Valued(
        seat=seat,
        candidates=tuple(moves[i] for i in kept),
        estimates=tuple(Estimate(tuple(results[i])) for i in kept),
        chart=Estimate(tuple(chart)) if chart else None,
    )


def _losses(
    results: list[list[Outcome]], kept: list[int], seat: int
) -> list[list[float]]:
    """The played move's paired losses in lead against each other kept candidate."""
    played = results[kept[0]]
    return [
        [o.lead(seat) - p.lead(seat) for o, p in zip(results[i], played)]
        for i in kept[1:]
    ]
