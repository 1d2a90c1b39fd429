"""Analysis of a finished game: every decision valued, the luck of every draw measured.

A platform feature: it names no game. It is given a game's engine module (the contract of
docs/contract.md: `apply`, `legal_actions`, `view_for`, `sample_state`, `final_scores`, ...)
and its bots' `think(level, view, legal, seed, think_s)`, the states of a finished game and
the actions played, and returns plain JSON (docs/analysis.md):

- each decision's candidates (the move played and the moves the game's bots would play
  there) valued by rollouts with the bots, from positions sampled from the deciding seat's
  view (`sample_state`), never the real future draws; every candidate on the same samples
  and the same bot seeds (common random numbers), so that their difference is measured
  with little noise; sequentially: a few rollouts each, more only while the mark is in
  doubt (bots/analysis/decisions.py);
- a mark (inaccuracy, mistake, blunder) only when the loss exceeds both its threshold and
  two standard errors of the paired differences (bots/analysis/marks.py);
- the luck of each random event: the value of what was drawn less the average over what
  could have been drawn, GNU Backgammon's formula (bots/analysis/luck.py);
- each seat's chances after every move, turning points, per-player figures
  (bots/analysis/report.py).
"""

from __future__ import annotations

from bots.analysis.marks import CATEGORIES, THRESHOLDS, category
from bots.analysis.report import (
    Depth,
    TooCostly,
    analyse,
    decision,
    draw_luck,
    move_seed,
)

__all__ = [
    "CATEGORIES",
    "THRESHOLDS",
    "Depth",
    "TooCostly",
    "analyse",
    "category",
    "decision",
    "draw_luck",
    "move_seed",
]
