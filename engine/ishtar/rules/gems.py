"""Gems in a player's supply: paying (watering-can steps, skills, trees) and collecting."""

from __future__ import annotations

from collections.abc import Sequence

from engine.ishtar.components import GEM_COLOURS
from engine.ishtar.state import Gems


def payments(gems: Gems, count: int) -> list[tuple[str, ...]]:
    """Every distinct way to pay ``count`` gems of any colours from ``gems``, sorted."""
    purple, red, white = gems
    options: list[tuple[str, ...]] = []
    for p in range(min(count, purple), -1, -1):
        for r in range(min(count - p, red), -1, -1):
            w = count - p - r
            if w <= white:
                options.append(("purple",) * p + ("red",) * r + ("white",) * w)
    return options


def as_counts(pay: Sequence[str]) -> Gems | None:
    """Gem counts of a list of colours; None if a colour is unknown."""
    counts = [0, 0, 0]
    for colour in pay:
        if colour not in GEM_COLOURS:
            return None
        counts[GEM_COLOURS.index(colour)] += 1
    return (counts[0], counts[1], counts[2])


def covers(gems: Gems, cost: Gems) -> bool:
    """Whether a supply holds at least ``cost``."""
    return gems[0] >= cost[0] and gems[1] >= cost[1] and gems[2] >= cost[2]


def minus(a: Gems, b: Gems) -> Gems:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def plus(a: Gems, b: Gems) -> Gems:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def describe(counts: Gems) -> str:
    """Words for a number of gems, e.g. "1 white gem", "2 purple and 1 red gems"."""
    parts = [f"{n} {GEM_COLOURS[i]}" for i, n in enumerate(counts) if n]
    if not parts:
        return "no gems"
    total = sum(counts)
    noun = "gem" if total == 1 else "gems"
    if len(parts) == 1:
        return f"{parts[0]} {noun}"
    return ", ".join(parts[:-1]) + f" and {parts[-1]} {noun}"
