"""``sample_state`` (spec §8, R-15): a full state consistent with a seat's view, drawn from
the bot's seed, never from the real piles."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.babylon import (
    apply,
    decode_state,
    encode_state,
    legal_actions,
    sample_state,
    view_for,
)
from engine.babylon.components import TILES
from tests.engine.babylon.builders import random_game
from tests.engine.babylon.invariants import check_all


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (2, 31, {"floor": "middle", "scoreboards": "choose"}),
        (3, 32, {"floor": "higher"}),
        (4, 33, {"floor": "ishtar", "teams": True}),
        (2, 34, {"floor": "lower", "first_player": 1}),
    ],
)
def test_a_sample_shows_exactly_the_view_it_was_drawn_from(
    players: int, seed: int, options: dict[str, object]
) -> None:
    for n, (state, _) in enumerate(random_game(players, seed, options)):
        seat = state.current
        view = json.loads(json.dumps(view_for(state, seat)))
        sampled = sample_state(view, n)
        assert view_for(sampled, seat) == view
        check_all(sampled)
        assert (
            decode_state(encode_state(sampled)) == sampled
        )  # a state the codec accepts
        assert legal_actions(sampled) == legal_actions(state)
        for pile, real in zip(sampled.piles, state.piles, strict=True):
            assert Counter(pile) == Counter(real)  # the contents are deducible


def test_a_sample_never_reads_the_real_piles() -> None:
    """Two games equal but for the order of their piles (and the seed) give the same
    view, hence the same sample."""
    *_, (state, _) = list(random_game(3, 40, {"floor": "roof"}))[:30]
    other = state.evolve(
        piles=(state.piles[0][::-1], state.piles[1][::-1]), seed=state.seed + 99
    )
    view, other_view = view_for(state, 0), view_for(other, 0)
    assert view == other_view
    assert sample_state(view, 5) == sample_state(other_view, 5)


def test_samples_of_different_seeds_differ_in_the_piles_order() -> None:
    *_, (state, _) = list(random_game(2, 41, {"floor": "lower"}))[:10]
    view = view_for(state, state.current)
    orders = {sample_state(view, seed).piles for seed in range(10)}
    assert len(orders) == 10


def test_a_sample_plays_on_like_a_game() -> None:
    *_, (state, action) = list(random_game(4, 42, {"floor": "tammuz"}))[:40]
    sampled = sample_state(view_for(state, state.current), 1)
    after = apply(sampled, action)
    assert after.current == apply(state, action).current
    assert sum(TILES[t].flowers >= 1 for t in after.tiles) == len(after.tiles)
