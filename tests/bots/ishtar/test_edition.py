"""The bots value a game by the numbers of its edition (bots/ishtar/edition.py): what a skill
would score and a tree card is worth come from the catalogue's edition the view names."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from bots.ishtar import edition
from bots.ishtar.evaluation import equities
from engine.ishtar import catalogue, final_scores, new_game, view_for
from engine.ishtar.editions import EDITION_1, EDITIONS


@pytest.fixture
def tuned(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(
        EDITIONS, "test", replace(EDITION_1, skill_a_vp=(2, 4, 6), skill_c_vp=5)
    )
    edition.numbers.cache_clear()
    yield
    edition.numbers.cache_clear()


def test_the_numbers_are_those_of_the_views_edition(tuned: None) -> None:
    first = edition.of_view(view_for(new_game(2, 1, {"edition": "1"}), None))
    assert first.skill_a_vp == {"purple": 1, "red": 2, "white": 3}
    assert (first.skill_b_vp, first.skill_c_vp, first.skill_e_spaces_per_vp) == (
        2,
        3,
        1,
    )
    cards = {c["card"]: c["vp"] for c in catalogue()["editions"]["1"]["tree_cards"]}
    assert first.card_vp == cards
    test = edition.of_view(view_for(new_game(2, 1, {"edition": "test"}), None))
    assert test.skill_a_vp == {"purple": 2, "red": 4, "white": 6}
    assert test.skill_c_vp == 5
    assert edition.of_view({}) == first, "a view from before editions is of edition 1"


def test_a_seat_holding_skill_f_values_skill_a_by_its_edition(tuned: None) -> None:
    values = {}
    for name in ("1", "test"):
        state = new_game(2, 1, {"edition": name, "first_player": 0})
        state = state.evolve(
            skills=({"F": ("purple", "red")}, {}), gems=((3, 2, 1),) * 2
        )
        values[name] = equities(view_for(state, None), final_scores(state))
    assert values["test"][0] > values["1"][0]
    assert values["test"][1] == values["1"][1]
