"""Choose a vegetation tile: the watering can (RB "Choose a Vegetation Tile")."""

from __future__ import annotations

import pytest

from engine.ishtar import (
    Action,
    IllegalAction,
    apply,
    legal_actions,
    view_for,
)
from engine.ishtar.rules.choose import destinations
from tests.engine.ishtar.builders import game, with_gems, with_skills
from tests.engine.ishtar.in_english import why_illegal


def test_first_turn_can_goes_on_any_non_empty_pile_for_free() -> None:
    state = game()
    actions = legal_actions(state)
    assert actions == [Action("choose", pile=p, pay=()) for p in range(6)]


def test_first_turn_cannot_choose_an_empty_pile() -> None:
    state = game()
    state = state.evolve(piles=((), *state.piles[1:]))
    assert [a.pile for a in legal_actions(state)] == [1, 2, 3, 4, 5]
    assert why_illegal(state, Action("choose", pile=0)) == "pile 1 is empty"


def test_rulebook_example_one_free_step_empty_pile_skipped_two_paid() -> None:
    # RB: the can is on one pile; the next is free, an empty pile is ignored, and the tile
    # two further piles on costs 2 gems.
    state = game()
    state = state.evolve(
        can=0, piles=(state.piles[0], state.piles[1], (), *state.piles[3:])
    )
    assert destinations(state) == [(1, 0), (3, 1), (4, 2), (5, 3)]
    state = with_gems(state, 0, purple=1, red=1)
    after = apply(state, Action("choose", pile=4, pay=("purple", "red")))
    assert after.gems[0] == (0, 0, 0)
    assert after.can == 4


def test_each_further_step_costs_one_gem_of_any_colour() -> None:
    state = with_gems(game().evolve(can=0), 0, purple=1, white=1)
    pays = sorted(a.pay for a in legal_actions(state) if a.pile == 2)
    assert pays == [("purple",), ("white",)]


def test_not_enough_gems_for_the_step() -> None:
    state = with_gems(game().evolve(can=0), 0, purple=1)
    assert why_illegal(state, Action("choose", pile=3, pay=("purple",))) == (
        "not enough gems: this step costs 2"
    )
    with pytest.raises(IllegalAction, match="this step costs 2"):
        apply(state, Action("choose", pile=3, pay=("purple",)))


def test_payment_must_match_the_cost() -> None:
    state = with_gems(game().evolve(can=0), 0, purple=3)
    assert why_illegal(state, Action("choose", pile=1, pay=("purple",))) == (
        "moving the watering can to pile 2 costs 0 gems"
    )


def test_watering_can_must_leave_its_pile() -> None:
    state = game().evolve(can=2)
    assert (
        why_illegal(state, Action("choose", pile=2))
        == "the watering can must leave its pile"
    )


def test_can_alone_on_the_last_non_empty_pile_takes_from_it_free() -> None:
    state = game()
    piles = tuple(p if i == 3 else () for i, p in enumerate(state.piles))
    state = state.evolve(can=3, piles=piles)
    assert legal_actions(state) == [Action("choose", pile=3, pay=())]
    after = apply(state, Action("choose", pile=3))
    assert after.hand == state.piles[3][-1]


def test_skill_f_makes_the_first_paid_step_free() -> None:
    state = with_skills(with_gems(game().evolve(can=0), 0, purple=1), 0, "F")
    assert destinations(state) == [(1, 0), (2, 0), (3, 1), (4, 2), (5, 3)]


def test_gems_paid_for_steps_go_to_the_general_supply() -> None:
    state = with_gems(game().evolve(can=0), 0, red=2)
    after = apply(state, Action("choose", pile=3, pay=("red", "red")))
    assert after.bank == (state.bank[0], state.bank[1] + 2, state.bank[2])


def test_the_top_tile_is_taken_and_the_left_pile_revealed() -> None:
    state = game()
    first = apply(state, Action("choose", pile=0))
    assert first.hand == state.piles[0][-1]
    view = view_for(first, 1)
    assert view["carpet"]["piles"][0]["top"] is None  # face down under the can
    assert view["hand"]["tile"] == first.hand
    moved = first.evolve(phase="choose", current=1, hand=None)
    second = apply(moved, Action("choose", pile=1))
    assert (
        view_for(second, 0)["carpet"]["piles"][0]["top"]["tile"] == first.piles[0][-1]
    )
