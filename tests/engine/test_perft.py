"""Perft-style legal-action counts at fixed positions: any change in move generation shows."""

from __future__ import annotations

import random

import pytest

from engine import apply, is_over, legal_actions, new_game
from engine.state import State


def perft(state: State, depth: int) -> int:
    """Number of action sequences of length ``depth`` from ``state``."""
    if depth == 0 or is_over(state):
        return 1
    return sum(perft(apply(state, a), depth - 1) for a in legal_actions(state))


@pytest.mark.parametrize(
    ("players", "seed", "counts"),
    [(2, 1, [6, 1128, 2256]), (3, 2, [6, 1370, 2740]), (4, 3, [6, 1698, 3396])],
)
def test_perft_from_the_start(players: int, seed: int, counts: list[int]) -> None:
    state = new_game(players, seed, None, 0)
    assert [perft(state, depth) for depth in (1, 2, 3)] == counts


PATH_COUNTS = [
    ("choose", 6), ("place", 294), ("special", 2), ("plant", 2), ("choose", 2),
    ("place", 270), ("special", 2), ("choose", 2), ("place", 258), ("special", 2),
    ("choose", 2), ("place", 292), ("special", 2), ("choose", 2), ("place", 313),
    ("plant", 7), ("choose", 4), ("place", 276), ("special", 2), ("choose", 4),
    ("place", 277), ("special", 22), ("bloom", 12), ("choose", 2), ("place", 255),
    ("special", 2), ("choose", 2), ("place", 243), ("choose", 4), ("place", 244),
    ("special", 2), ("plant", 8), ("choose", 4), ("place", 239), ("plant", 9),
    ("choose", 3), ("place", 231), ("special", 2), ("choose", 6), ("place", 229),
    ("special", 2), ("choose", 1), ("place", 224), ("choose", 2), ("place", 222),
    ("special", 6), ("choose", 2), ("place", 234), ("choose", 8), ("place", 212),
    ("special", 2), ("choose", 4), ("place", 188), ("special", 2), ("choose", 1),
    ("place", 198), ("choose", 4), ("place", 156), ("choose", 9), ("place", 168),
]  # fmt: skip


def test_legal_action_counts_along_a_seeded_four_player_game() -> None:
    state = new_game(4, 7, None, 0)
    rng = random.Random(7)
    counts = []
    for _ in PATH_COUNTS:
        legal = legal_actions(state)
        counts.append((state.phase, len(legal)))
        state = apply(state, rng.choice(legal))
    assert counts == PATH_COUNTS
