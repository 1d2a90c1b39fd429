"""A scoreboard's total, counted the engine's way but fast enough for every path's harvest.

The engine's `scoring.total` builds the whole score (each line's runs, the matched slots)
for the views; a bot compares thousands of wink sequences a turn and only needs the total.
This counts the same three categories from the engine's own tables (`LINES`, `borders`) and
its own `line_runs`, memoizing each line's points by the five colours along it (at most
5^5 patterns). tests/bots/babylon/test_scores.py checks it equals `scoring.total` on random
boards of every side.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.babylon.components import SLOTS
from engine.babylon.scoreboards import LINES, borders
from engine.babylon.scoring import (
    COLOUR_POINTS,
    FILL_POINTS,
    FULL_LINE_POINTS,
    LINE_POINTS,
    line_runs,
)


@cache
def line_points(colours: tuple[str | None, ...]) -> int:
    """R-12: the points of one line holding these colours end to end (None: empty)."""
    points = 0
    for _, indices in line_runs(colours):
        each = FULL_LINE_POINTS if len(indices) == len(colours) else LINE_POINTS
        points += each * len(indices)
    return points


@cache
def _borders(side: str | None) -> tuple[tuple[int, str], ...]:
    return tuple(borders(side).items()) if side else ()


def board_total(side: str | None, winks: Sequence[str]) -> int:
    """The total points of a scoreboard side holding `winks` in slot order."""
    count = len(winks)
    points = FILL_POINTS * min(count, SLOTS)
    for slot, colour in _borders(side):
        if slot <= count and winks[slot - 1] == colour:
            points += COLOUR_POINTS
    for _, slots in LINES:
        points += line_points(
            tuple(winks[s - 1] if s <= count else None for s in slots)
        )
    return points


@cache
def _lines_through(slot: int) -> tuple[tuple[int, ...], ...]:
    """The lines (as slot numbers end to end) that pass through a slot."""
    return tuple(slots for _, slots in LINES if slot in slots)


@cache
def _border(side: str | None, slot: int) -> str | None:
    return borders(side).get(slot) if side else None


def append_gain(side: str | None, winks: Sequence[str], colour: str) -> int:
    """What one more wink of `colour`, in the next slot after `winks`, adds to the total.
    Slots fill in order, so only the lines through the new slot change."""
    slot = len(winks) + 1
    if slot > SLOTS:
        return 0
    gain = FILL_POINTS
    if _border(side, slot) == colour:
        gain += COLOUR_POINTS
    for slots in _lines_through(slot):
        before = tuple(winks[s - 1] if s < slot else None for s in slots)
        after = tuple(colour if s == slot else c for s, c in zip(slots, before))
        gain += line_points(after) - line_points(before)
    return gain
