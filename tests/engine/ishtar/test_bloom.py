"""Blooming tokens from skills G and J (GAME-SPEC §7)."""

from __future__ import annotations

from engine.ishtar import Action, apply, legal_actions
from engine.ishtar.rules.gardens import gardens
from tests.engine.ishtar.builders import (
    cell,
    force_assistant,
    force_tile,
    force_token,
    game,
)
from tests.engine.ishtar.in_english import why_illegal


def blooming(state, size="single", seat=0):  # type: ignore[no-untyped-def]
    return state.evolve(phase="bloom", bloom=size, current=seat, hand=None)


def test_single_token_goes_on_a_free_grass_space() -> None:
    state = blooming(force_tile(game(), "line-02", (1, 0), 0))  # F2s F1 G: grass (3,0)
    assert legal_actions(state) == [
        Action("bloom", token="F2", cells=((3, 0),)),
        Action("bloom", token="F3", cells=((3, 0),)),
    ]
    after = apply(state, Action("bloom", token="F3", cells=((3, 0),)))
    assert after.flowers[cell(state, (3, 0))] == 3
    assert after.tokens_left["F3"] == 1


def test_token_cannot_go_on_a_flower_space_or_under_a_tree() -> None:
    state = force_tile(game(), "line-06", (1, 0), 0)  # F4 G G
    state = blooming(state.evolve(trees={cell(state, (3, 0)): 1}))
    expected = "a blooming token goes on a free grass space (no tree, no token)"
    assert why_illegal(state, Action("bloom", token="F2", cells=((1, 0),))) == expected
    assert why_illegal(state, Action("bloom", token="F2", cells=((3, 0),))) == expected
    assert why_illegal(state, Action("bloom", token="F2", cells=((2, 0),))) is None


def test_double_token_covers_two_adjacent_grass_spaces_possibly_on_two_tiles() -> None:
    state = force_tile(game(), "line-03", (1, 0), 0)  # G F3 G
    state = force_tile(state, "line-07", (1, -1), 0)  # G F2a G on (1,-1) (2,-1) (3,-1)
    state = blooming(state, "double")
    action = Action("bloom", token="F1F2", cells=((3, 0), (3, -1)))  # two tiles
    assert why_illegal(state, action) is None
    after = apply(state, action)
    assert after.flowers[cell(state, (3, 0))] == 1  # cell i gets the i-th space
    assert after.flowers[cell(state, (3, -1))] == 2
    assert why_illegal(
        state, Action("bloom", token="F1F1", cells=((1, 0), (3, 0)))
    ) == ("the two spaces of a double token must be adjacent")


def test_token_spaces_are_flower_spaces_and_may_merge_flowerbeds() -> None:
    state = force_tile(game(), "line-01", (1, 0), 0)  # F1a F2 G
    state = force_tile(state, "line-04", (4, 0), 0)  # F1 G F1s: flower (4,0)
    state = force_assistant(state, (1, 0), 0)
    state = blooming(state)
    # (3,0) is grass between the bed (1,0)-(2,0) and the flower (4,0).
    after = apply(state, Action("bloom", token="F2", cells=((3, 0),)))
    g = gardens(after)
    assert g.bed[cell(state, (4, 0))] == g.bed[cell(state, (1, 0))]


def test_token_cannot_put_two_assistants_in_one_flowerbed() -> None:
    state = force_tile(game(), "line-01", (1, 0), 0)
    state = force_tile(state, "line-01", (4, 0), 0)  # F1a F2 G on (4,0) (5,0) (6,0)
    state = force_assistant(state, (1, 0), 0)
    state = force_assistant(state, (4, 0), 1)
    state = blooming(state)
    assert why_illegal(state, Action("bloom", token="F2", cells=((3, 0),))) == (
        "two assistants would share one flowerbed"
    )


def test_no_token_left_of_that_size() -> None:
    state = force_tile(game(), "line-02", (1, 0), 0)
    state = force_token(state, "F2", [(3, 0)])
    state = state.evolve(tokens_left={"F2": 0, "F3": 0, "F1F1": 2, "F1F2": 2})
    state = force_tile(state, "line-03", (1, -1), 0)
    state = blooming(state)
    assert legal_actions(state) == []
    assert why_illegal(state, Action("bloom", token="F3", cells=((1, -1),))) == (
        "no F3 blooming token is left"
    )
    assert why_illegal(state, Action("bloom", token="F1F1", cells=((1, -1),))) == (
        "this skill gives a single blooming token"
    )
