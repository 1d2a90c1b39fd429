"""Perft-style legal-action counts at fixed positions: any change in move generation shows."""

from __future__ import annotations

import random

import pytest

from engine.ishtar import apply, is_over, legal_actions, new_game
from engine.ishtar.state import State


def perft(state: State, depth: int) -> int:
    """Number of action sequences of length ``depth`` from ``state``."""
    if depth == 0 or is_over(state):
        return 1
    return sum(perft(apply(state, a), depth - 1) for a in legal_actions(state))


@pytest.mark.parametrize(
    ("players", "seed", "counts"),
    [(2, 1, [6, 1128, 3384]), (3, 2, [6, 1370, 4110]), (4, 3, [6, 1698, 5094])],
)
def test_perft_from_the_start(players: int, seed: int, counts: list[int]) -> None:
    state = new_game(players, seed, {"first_player": 0})
    assert [perft(state, depth) for depth in (1, 2, 3)] == counts


PATH_COUNTS = [
    ("choose", 6), ("place", 294), ("special", 3), ("plant", 3), ("choose", 2),
    ("place", 270), ("special", 3), ("plant", 2), ("choose", 2), ("place", 258),
    ("special", 3), ("plant", 5), ("choose", 2), ("place", 264), ("special", 3),
    ("plant", 2), ("choose", 2), ("place", 259), ("special", 3), ("plant", 2),
    ("choose", 4), ("place", 256), ("special", 12), ("plant", 2), ("choose", 6),
    ("place", 252), ("special", 3), ("plant", 11), ("choose", 3), ("place", 244),
    ("special", 3), ("plant", 2), ("choose", 4), ("place", 243), ("special", 3),
    ("plant", 2), ("choose", 5), ("place", 221), ("special", 3), ("plant", 26),
    ("choose", 1), ("place", 210), ("special", 7), ("bloom", 19), ("plant", 2),
    ("choose", 6), ("place", 207), ("plant", 2), ("choose", 3), ("place", 199),
    ("plant", 2), ("choose", 2), ("place", 212), ("special", 3), ("plant", 2),
    ("choose", 1), ("place", 199), ("plant", 2), ("choose", 3), ("place", 190),
]  # fmt: skip


def test_legal_action_counts_along_a_seeded_four_player_game() -> None:
    state = new_game(4, 7, {"first_player": 0})
    rng = random.Random(7)
    counts = []
    for _ in PATH_COUNTS:
        legal = legal_actions(state)
        counts.append((state.phase, len(legal)))
        # the path never undoes, so that it goes deep; the counts include the undo offered
        state = apply(state, rng.choice([a for a in legal if a.type != "undo"]))
    assert counts == PATH_COUNTS
