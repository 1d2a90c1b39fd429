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
    state = new_game(players, seed, {"first_player": 0, "edition": "1"})
    assert [perft(state, depth) for depth in (1, 2, 3)] == counts


PATH_COUNTS = [
    ("choose", 6), ("place", 294), ("special", 3), ("plant", 3), ("plant", 1),
    ("choose", 2), ("place", 270), ("special", 3), ("plant", 2), ("choose", 2),
    ("place", 288), ("special", 3), ("plant", 5), ("choose", 2), ("place", 297),
    ("special", 3), ("plant", 2), ("choose", 2), ("place", 317), ("special", 3),
    ("plant", 2), ("choose", 2), ("place", 318), ("special", 12), ("bloom", 17),
    ("plant", 2), ("choose", 6), ("place", 318), ("special", 3), ("plant", 12),
    ("plant", 1), ("choose", 3), ("place", 310), ("special", 3), ("plant", 2),
    ("choose", 2), ("place", 292), ("special", 13), ("bloom", 5), ("plant", 2),
    ("choose", 2), ("place", 296), ("plant", 2), ("choose", 4), ("place", 300),
    ("plant", 9), ("choose", 2), ("place", 272), ("plant", 2), ("choose", 2),
    ("place", 254), ("plant", 2), ("choose", 4), ("place", 276), ("special", 13),
    ("plant", 2), ("choose", 6), ("place", 252), ("special", 3), ("plant", 2),
]  # fmt: skip
# ("plant", 1): a purchase that revealed the next card, with nothing left to plant: the
# turn waits for "end" (docs/games/ishtar/rules.md, "A turn ends with end").


def test_legal_action_counts_along_a_seeded_four_player_game() -> None:
    state = new_game(4, 7, {"first_player": 0, "edition": "1"})
    rng = random.Random(7)
    counts = []
    for _ in PATH_COUNTS:
        legal = legal_actions(state)
        counts.append((state.phase, len(legal)))
        # the path never undoes, so that it goes deep; the counts include the undo offered
        state = apply(state, rng.choice([a for a in legal if a.type != "undo"]))
    assert counts == PATH_COUNTS
