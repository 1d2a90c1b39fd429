"""The bots' paths are the rules' paths, and their harvests score what the engine scores."""

from __future__ import annotations

import random

import pytest

from bots.babylon.paths import plans, trie
from bots.babylon.position import from_view
from bots.babylon.scores import append_gain, board_total
from engine.babylon import Action, apply, legal_actions, new_game, view_for
from engine.babylon.components import NECTAR, TILES
from engine.babylon.scoreboards import SIDES
from engine.babylon.scoring import total
from tests.bots.babylon.conftest import FLOORS, positions

# Spec §2's table: every legal path of every length on an empty floor.
PATHS_FROM_THE_WELL = {
    "lower": 60,
    "middle": 88,
    "higher": 252,
    "roof": 116,
    "ishtar": 1908,
    "tammuz": 152,
}


@pytest.mark.parametrize("floor", FLOORS)
def test_the_paths_of_a_floor_are_the_specs(floor: str) -> None:
    assert len(trie(floor).tile) - 1 == PATHS_FROM_THE_WELL[floor]
    state = new_game(2, 1, {"floor": floor, "first_player": 0})
    assert len(list(plans(from_view(view_for(state, 0))))) == PATHS_FROM_THE_WELL[floor]


def _lay(state, path):  # type: ignore[no-untyped-def]
    spaces = from_view(view_for(state, state.current)).graph.spaces
    for i in path[len(state.path) :]:
        action = Action("irrigate", at=spaces[i])
        assert action in legal_actions(state)
        state = apply(state, action)
    return apply(state, Action("harvest"))


@pytest.mark.parametrize("floor", FLOORS)
def test_a_plans_harvest_is_the_engines(floor: str) -> None:
    rng = random.Random(floor)
    checked = 0
    for state, seat in positions(2, seed=3, floor=floor, every=2):
        position = from_view(view_for(state, seat))
        every = list(plans(position))
        for plan in rng.sample(every, min(6, len(every))):
            after = _lay(state, plan.path)
            assert after.winks[seat] == plan.winks
            side = state.sides[seat]
            assert total(side, plan.winks) - total(side, state.winks[seat]) == plan.gain
            assert (after.phase == "over") == plan.ends
            ready = sum(
                1
                for tile, gems in zip(after.tiles, after.gems, strict=True)
                if TILES[tile].kind == "multi" and gems + 1 == TILES[tile].flowers
            )
            assert plan.ready_left == ready or plan.ends
            checked += 1
    assert checked > 20


def test_a_laid_path_is_the_first_plan_and_every_plan_extends_it() -> None:
    for state, seat in positions(2, seed=6, floor="ishtar", every=1):
        if len(state.path) >= 2:
            position = from_view(view_for(state, seat))
            laid = position.path
            found = list(plans(position))
            assert found[0].path == laid
            assert all(p.path[: len(laid)] == laid for p in found)
            return
    raise AssertionError("no position with a laid path")


def test_the_bots_totals_are_the_engines_on_random_boards() -> None:
    rng = random.Random(12)
    for _ in range(3000):
        side = rng.choice(SIDES)
        winks = [rng.choice(NECTAR) for _ in range(rng.randrange(26))]
        assert board_total(side, winks) == total(side, winks)
        if len(winks) < 25:
            colour = rng.choice(NECTAR)
            grown = [*winks, colour]
            assert append_gain(side, winks, colour) == total(side, grown) - total(
                side, winks
            )
