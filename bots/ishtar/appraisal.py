"""The value of a position for the analysis's luck: each seat's expected final score.

The analysis measures a draw's luck as the value of what was drawn less the average value of
what could have been drawn (docs/analysis.md, "Luck"). Short rollouts give that value with
the noise of every later draw; this gives it without: the bots' own evaluation
(bots/ishtar/evaluation.py, `evaluate`: the score as it stands plus what gems, assistants,
skills and a reserved card will be worth), a few turns on.

A few turns on, because what Ishtar draws is a tile turned up on a pile or a tree card put
on the market, and the evaluation, which reads what the seats hold, sees neither until
somebody takes it: so the rest of the turn and the next `TURNS` - 1 seats' turns are played
by the medium bot's greedy policy, from a sample of the spectator's view, and then valued.
The piles' face-up tiles and the market are public, and the tiles those turns turn up in
their turn are valued by nobody before the lookahead ends (their seat has not taken them):
so the value depends on the spectator's view alone, which the tests check. It reads
nothing a spectator of the game could not see then.

The evaluation is a bot's heuristic; `SLOPE` scales what it adds to the standing (the points
still to come, as it sees them) onto final points. Fitted on 16 games between the hard and
the medium bot (seeds 5000-5015, seats rotated, every other position: 724 positions,
`python -m bench.analysis_quality fit-value --game ishtar --games 16 --seed 5000`), the
least-squares slope of the points that came (final score less the standing, relative to
the other seat) on those valued is 0.994 at `SLOPE` = 1 (correlation 0.70): the evaluation
two turns on is already on the scale of final points, and `SLOPE` stays 1. A draw's luck
is a difference of one seat's values whose standing is the same, so it scales with `SLOPE`.
"""

from __future__ import annotations

from typing import Any

from bots.ishtar.evaluation import evaluate
from bots.ishtar.medium import Greedy
from engine.ishtar import current_player, final_scores, sample_state, view_for

TURNS = 2
"""Turns played before the evaluation: the rest of the seat's on move and the next seat's
(the one who first may take what a draw turned up)."""
SLOPE = 1.0
"""Final points to come per point the evaluation adds to the standing, two turns on
(fitted: the module's docstring)."""
SAMPLE_SEED = 0
"""The seed of the sample the turns are played on (the hidden tiles they turn up)."""


def value(state: Any) -> list[float]:
    """Each seat's expected final score, from the spectator's view of `state`: the final
    scores once the game is over."""
    view = view_for(state, None)
    if view["standing"] is None:
        return _totals(final_scores(state))
    ahead = sample_state(view, SAMPLE_SEED)
    greedy = Greedy()
    for _ in range(TURNS):
        seat = current_player(ahead)
        if seat is None:
            return _totals(final_scores(ahead))
        ahead = greedy.play_turn(ahead, seat, max_pay=None)
    if current_player(ahead) is None:
        return _totals(final_scores(ahead))
    now = _totals(view["standing"])
    return [s + SLOPE * (e - s) for s, e in zip(now, evaluate(ahead))]


def _totals(scores: dict[str, Any]) -> list[float]:
    players = sorted(scores["players"], key=lambda p: int(p["seat"]))
    return [float(p["total"]) for p in players]
