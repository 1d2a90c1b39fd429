"""The categories of a decision's loss: inaccuracy, mistake, blunder.

A loss is measured in points of lead: the deciding seat's expected final score less the
best other seat's, the best candidate's less the played move's (bots/analysis/decisions.py).
A move is marked only when its loss is at least a category's threshold AND more than
`NOISE` standard errors of the paired differences: a loss the rollouts cannot tell from
noise is never held against a player. The thresholds were set on bot games
(docs/analysis.md, "Quality"): an easy bot's planted moves lose about 4 points of lead on
average, a hard bot's moves rarely more than 2.
"""

from __future__ import annotations

CATEGORIES: tuple[str, ...] = ("inaccuracy", "mistake", "blunder")
THRESHOLDS: dict[str, float] = {"inaccuracy": 3.0, "mistake": 6.0, "blunder": 12.0}
"""Points of lead given up against the best option found."""
NOISE = 2.0
"""How many standard errors a loss must exceed to be marked."""


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
