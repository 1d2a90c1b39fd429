"""The categories of a decision's loss: inaccuracy, mistake, blunder.

A loss is measured in points of lead: the deciding seat's expected final score less the
best other seat's, the best candidate's less the played move's (bots/analysis/decisions.py).
A move is marked only when its loss is at least a category's threshold AND more than
`NOISE` standard errors of the paired differences: a loss the rollouts cannot tell from
noise is never held against a player. The thresholds (3, 6 and 12 points) were set on bot
games (docs/analysis.md, "Sensitivity"): a uniformly random move planted among a hard bot's
loses about 12 points of lead on average in Babylon Gardens and 5 in Ishtar, the hard
bot's own moves under 1 point; the inaccuracy's 3 points lie between.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

CATEGORIES: tuple[str, ...] = ("inaccuracy", "mistake", "blunder")
THRESHOLDS: dict[str, float] = {"inaccuracy": 3.0, "mistake": 6.0, "blunder": 12.0}
"""Points of lead given up against the best option found."""
NOISE = 2.0
"""How many standard errors a loss must exceed to be marked."""
CLOSE = 1.5
"""Points of lead: a played move whose mean loss so far against every candidate is at most
this is settled unmarked (`settled`)."""


def category(loss: float, stderr: float) -> str | None:
    """The mark of a loss of `loss` points of lead measured with standard error `stderr`.

    >>> category(7.0, 1.0), category(7.0, 4.0), category(2.0, 0.1), category(20.0, 2.0)
    ('mistake', None, None, 'blunder')
    """
    if loss <= NOISE * stderr:
        return None
    found = None
    for name in CATEGORIES:
        if loss >= THRESHOLDS[name]:
            found = name
    return found


def _bucket(loss: float) -> int:
    """How many thresholds `loss` reaches (0: none, 3: a blunder's)."""
    return sum(1 for name in CATEGORIES if loss >= THRESHOLDS[name])


def settled(losses: Sequence[Sequence[float]]) -> bool:
    """Whether more rollouts are unlikely to change a decision's mark (sequential testing).

    `losses[c]` holds the played move's paired losses against candidate `c`, one per
    rollout so far (the same samples and bot seeds). Settled when no rollout lost as much
    as an inaccuracy against any candidate (the common case: nothing to mark); when the
    mean loss against every candidate is at most `CLOSE` (the played move looks as good as
    the best: for an inaccuracy the later rollouts would have to lose 3 points more than
    these on average, which a move its first rollouts judge this well rarely does; a few
    borderline marks are the price, docs/analysis.md "Sensitivity"); or when the loss
    against the best candidate, give or take `NOISE` standard errors, stays within one
    category: then the mark `category` gives is the one the rollouts point to.

    >>> settled([[1.0, -2.0]]), settled([[9.0, 9.0]]), settled([[9.0, 9.0, 9.0]])
    (True, False, True)
    >>> settled([[9.0, 1.0, 5.0, 2.0]]), settled([[12.0, -12.0]]), settled([[12.0, -8.0]])
    (False, True, False)
    """
    first = THRESHOLDS[CATEGORIES[0]]
    if all(loss < first for row in losses for loss in row):
        return True
    if all(statistics.fmean(row) <= CLOSE for row in losses):
        return True
    worst = max(losses, key=statistics.fmean)
    if len(worst) < 3:
        return False
    mean = statistics.fmean(worst)
    error = NOISE * statistics.stdev(worst) / len(worst) ** 0.5
    return _bucket(max(mean - error, 0.0)) == _bucket(mean + error)
