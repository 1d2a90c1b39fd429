"""What a gem is worth to the bots (bots/ishtar/edition.py): `gem_values` fits the tree
cards' VP on their costs, `numbers` scales the fit by `GEM_SHARE`; and the engine's
`tree_vp`, which prices a tree card from its cost and an edition's `tree_vp_bonus`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from bots.ishtar import edition
from bots.ishtar.edition import COLOURS, gem_values, numbers
from engine.ishtar import catalogue
from engine.ishtar.components import tree_vp
from engine.ishtar.editions import EDITION_1, EDITION_2, EDITIONS


@pytest.fixture
def no_bonus(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Edition 2 without the VP per gem beyond the first, as edition "test"."""
    monkeypatch.setitem(EDITIONS, "test", replace(EDITION_2, tree_vp_bonus=0))
    edition.numbers.cache_clear()
    yield
    edition.numbers.cache_clear()


def linear_vp(cost: tuple[int, ...]) -> int:
    purple, red, white = cost
    return purple + 2 * red + 3 * white


def test_gem_values_of_linear_cards_are_one_two_three() -> None:
    costs = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (2, 1, 0), (1, 1, 1), (0, 2, 2)]
    fitted = gem_values([(c, linear_vp(c)) for c in costs])
    assert fitted == pytest.approx([1.0, 2.0, 3.0])


def test_gem_values_of_a_printed_table_without_bonus_are_one_two_three() -> None:
    # The costs of every tree card of edition 1.
    costs = [card.cost for card in EDITION_1.tree_cards.values()]
    fitted = gem_values([(c, linear_vp(c)) for c in costs])
    assert fitted == pytest.approx([1.0, 2.0, 3.0])


def test_gem_values_follow_the_cards_not_the_colours_order() -> None:
    # White worth 1, purple 3: the fit reads the VP, it does not assume 1 / 2 / 3.
    costs = [(2, 0, 0), (0, 2, 0), (0, 0, 2), (1, 1, 0), (0, 1, 1), (1, 0, 1)]
    fitted = gem_values([(c, 3 * c[0] + 2 * c[1] + c[2]) for c in costs])
    assert fitted == pytest.approx([3.0, 2.0, 1.0])


def test_edition_1_keeps_the_gem_values_the_bots_were_tuned_with() -> None:
    assert numbers("1").gem_value == pytest.approx(
        {"purple": 1.1, "red": 1.9, "white": 2.7}
    )


def test_without_the_bonus_every_gem_is_worth_less(no_bonus: None) -> None:
    test, second = numbers("test").gem_value, numbers("2").gem_value
    for colour in COLOURS:
        assert test[colour] < second[colour], colour


def test_without_the_bonus_a_tree_card_is_worth_its_gems(no_bonus: None) -> None:
    cards = catalogue()["editions"]["test"]["tree_cards"]
    assert len(cards) == len(EDITION_2.tree_cards)
    for card in cards:
        cost = tuple(int(card["cost"][c]) for c in COLOURS)
        assert card["vp"] == linear_vp(cost), card["name"]
    vp = numbers("test").card_vp
    assert vp == {
        int(c["card"]): linear_vp(tuple(c["cost"][k] for k in COLOURS)) for c in cards
    }


def test_without_the_bonus_the_fit_is_exactly_one_two_three(no_bonus: None) -> None:
    test = numbers("test").gem_value
    expected = {
        c: round(edition.GEM_SHARE[c] * v, 3) for c, v in zip(COLOURS, (1, 2, 3))
    }
    assert test == pytest.approx(expected)


@pytest.mark.parametrize(
    ("cost", "bonus", "vp"),
    [
        ((1, 0, 0), 0, 1),
        ((1, 0, 0), 1, 1),
        ((1, 0, 0), 2, 1),
        ((2, 0, 0), 0, 2),
        ((2, 0, 0), 1, 3),
        ((2, 0, 0), 2, 4),
        ((1, 1, 1), 0, 6),
        ((1, 1, 1), 1, 8),
        ((1, 1, 1), 2, 10),
        ((0, 2, 2), 0, 10),
        ((0, 2, 2), 1, 13),
        ((0, 2, 2), 2, 16),
        ((0, 0, 3), 1, 11),
    ],
)
def test_tree_vp_counts_the_gems_and_the_bonus_beyond_the_first(
    cost: tuple[int, int, int], bonus: int, vp: int
) -> None:
    assert tree_vp(cost, bonus) == vp


def test_tree_vp_bonus_defaults_to_one() -> None:
    assert tree_vp((2, 1, 0)) == tree_vp((2, 1, 0), 1) == 6
