"""Place a vegetation tile and collect gems (RB "Place a Vegetation Tile", "Collect Gems")."""

from __future__ import annotations

from engine import Action, apply, legal_actions, preview, why_illegal
from engine.rules.gardens import gardens
from tests.engine.builders import (
    FOUNTAIN_A,
    cell,
    force_assistant,
    force_tile,
    game,
    terrain,
    with_hand,
)


def placements(state):  # type: ignore[no-untyped-def]
    return {(a.at, a.rotation) for a in legal_actions(state) if a.type == "place"}


def test_first_tile_must_touch_a_fountain() -> None:
    state = with_hand(game(), "line-03")
    legal = placements(state)
    assert legal
    fountains = {
        state.geo.fountain_cells[k] for k in range(len(state.geo.fountain_cells))
    }
    for at, rotation in legal:
        cells = [cell(state, h) for h in state.geo.cells_of("line", at, rotation)]
        assert any(n in fountains for c in cells for n in state.geo.neighbours[c])
    assert why_illegal(state, Action("place", at=(2, 0), rotation=0)) == (
        "the tile must touch a fountain or a vegetation tile placed earlier"
    )


def test_tile_may_touch_a_vegetation_tile_placed_earlier() -> None:
    state = force_tile(game(), "line-03", (1, 0), 0)  # (1,0) (2,0) (3,0), next to A
    state = with_hand(state, "line-12")
    # (4,0) (5,0) (6,0) touches only the earlier tile, not the fountain.
    assert why_illegal(state, Action("place", at=(4, 0), rotation=0)) is None


def test_tile_cannot_cover_a_fountain() -> None:
    state = with_hand(game(), "line-03")
    assert why_illegal(state, Action("place", at=(-1, 0), rotation=0)) == (
        "a vegetation tile cannot cover a fountain"
    )


def test_tile_cannot_cover_a_sacred_tablet() -> None:
    state = with_hand(game(), "line-03")
    assert terrain(state, (-2, 0)) == "tablet"
    assert why_illegal(state, Action("place", at=(-2, 0), rotation=0)) == (
        "a vegetation tile cannot cover a sacred tablet"
    )


def test_tile_cannot_cover_another_vegetation_tile() -> None:
    state = with_hand(force_tile(game(), "line-03", (1, 0), 0), "line-12")
    assert why_illegal(state, Action("place", at=(2, 0), rotation=0)) == (
        "a vegetation tile cannot cover another vegetation tile"
    )


def test_tile_cannot_stick_out_of_the_terrain_boards() -> None:
    state = with_hand(game(), "line-03")
    assert why_illegal(state, Action("place", at=(3, -3), rotation=0)) == (
        "the tile would stick out of the terrain boards"
    )


def test_rulebook_example_tile_joining_two_fountains_gardens_is_refused() -> None:
    state = game()
    state = force_tile(state, "line-03", (1, 0), 0)  # garden of fountain A (0,0)
    state = force_tile(
        state, "line-03", (3, 3), 5
    )  # (3,3) (4,2) (5,1): garden of B (4,3)
    state = with_hand(state, "triangle-03")
    covered = set(state.geo.cells_of("triangle", (2, 2), 5))
    assert covered == {(2, 2), (3, 1), (3, 2)}
    action = Action("place", at=(2, 2), rotation=5)
    assert (
        why_illegal(state, action)
        == "this tile would join the gardens of two fountains"
    )
    assert (action.at, action.rotation) not in placements(state)


def _two_assistants_position(hand: str):  # type: ignore[no-untyped-def]
    """P (assistant of seat 0) by fountain A and Q (assistant of seat 1) two cells away."""
    state = game()
    state = force_tile(state, "line-01", (1, 0), 0)  # F1a (1,0), F2 (2,0), G (3,0)
    state = force_tile(state, "line-01", (2, 2), 1)  # F1a (2,2), F2 (2,3), G (2,4)
    state = force_assistant(state, (1, 0), 0)
    state = force_assistant(state, (2, 2), 1)
    return with_hand(state, hand)


def test_rulebook_example_two_assistants_in_one_flowerbed_is_refused() -> None:
    # line-06 is F4 G G: laid from (2,1) westwards its flower space (2,1) touches both beds.
    state = _two_assistants_position("line-06")
    action = Action("place", at=(2, 1), rotation=3)
    assert state.geo.cells_of("line", (2, 1), 3) == ((2, 1), (1, 1), (0, 1))
    assert why_illegal(state, action) == "two assistants would share one flowerbed"


def test_rulebook_example_same_place_with_grass_in_between_is_legal() -> None:
    # The same three cells from (0,1) eastwards: the flower space (0,1) touches one bed only,
    # the grass spaces (1,1) and (2,1) keep the two flowerbeds apart.
    state = _two_assistants_position("line-06")
    action = Action("place", at=(0, 1), rotation=0)
    assert why_illegal(state, action) is None
    after = apply(state, action)
    g = gardens(after)
    assert len(g.bed_assistant) == 2


def test_assistants_of_the_same_player_cannot_share_a_flowerbed_either() -> None:
    state = _two_assistants_position("line-06")
    assistants = dict(state.assistants)
    assistants[cell(state, (2, 2))] = 0
    state = state.evolve(assistants=assistants)
    assert why_illegal(state, Action("place", at=(2, 1), rotation=3)) == (
        "two assistants would share one flowerbed"
    )


def test_tile_next_only_to_vegetation_outside_any_garden_is_legal() -> None:
    # Q of the position above touches no fountain: a tile touching only Q is legal.
    state = _two_assistants_position("line-12")
    g = gardens(state)
    q_cell = cell(state, (2, 4))
    assert g.garden_fountain[g.garden[q_cell]] == -1
    assert why_illegal(state, Action("place", at=(1, 4), rotation=3)) is None


def test_fountain_neighbours_connect_vegetation_to_that_fountain() -> None:
    state = force_tile(game(), "line-03", (1, 0), 0)
    g = gardens(state)
    fountain_a = state.geo.fountain_of[cell(state, FOUNTAIN_A)]
    assert g.garden_fountain[g.garden[cell(state, (3, 0))]] == fountain_a


def test_collect_the_gems_of_the_rock_spaces_covered() -> None:
    state = with_hand(game(), "line-03")
    # (1,0) purple rock, (2,0) sand, (3,0) sand
    assert terrain(state, (1, 0)) == "rock-purple"
    action = Action("place", at=(1, 0), rotation=0)
    assert preview(state, action)["gems"] == {"purple": 1, "red": 0, "white": 0}
    after = apply(state, action)
    assert after.gems[0] == (2, 0, 0)
    assert cell(state, (1, 0)) not in after.gems_on_board


def test_rulebook_example_collect_a_white_and_a_purple_gem() -> None:
    state = force_tile(game(), "line-03", (1, 0), 0)
    state = with_hand(state, "triangle-03")
    action = Action(
        "place", at=(2, 2), rotation=5
    )  # (2,2) white, (3,1) purple, (3,2) sand
    assert why_illegal(state, action) is None
    assert preview(state, action) == {
        "cells": [[2, 2], [3, 1], [3, 2]],
        "gems": {"purple": 1, "red": 0, "white": 1},
    }
    assert apply(state, action).gems[0] == (2, 0, 1)


def test_tile_with_no_legal_placement_is_discarded_face_up() -> None:
    state = with_hand(game(), "line-03")
    # Fill every fountain's surroundings so nothing touches: make every cell covered.
    state = state.evolve(
        flowers=tuple(
            0 if i in state.geo.placeable else -1 for i in range(len(state.flowers))
        )
    )
    assert legal_actions(state) == [Action("discard")]
    after = apply(state, Action("discard"))
    assert after.discarded == ("line-03",)
    assert after.gems == state.gems
    assert after.phase in ("plant", "choose")


def test_a_placeable_tile_cannot_be_discarded() -> None:
    state = with_hand(game(), "line-03")
    assert why_illegal(state, Action("discard")) == (
        "this tile can be placed, so it cannot be discarded"
    )


def test_tiles_rotate_in_six_steps_but_never_flip() -> None:
    state = with_hand(game(), "chevron-09")
    rotations = {rotation for _, rotation in placements(state)}
    assert rotations == set(range(6))


def test_placement_needs_a_space_and_a_rotation_from_0_to_5() -> None:
    state = with_hand(game(), "line-03")
    expected = "a placement names a space and a rotation from 0 to 5"
    assert why_illegal(state, Action("place", at=(1, 0), rotation=6)) == expected
    assert why_illegal(state, Action("place")) == expected


def test_two_gardens_of_the_same_fountain_may_join() -> None:
    state = force_tile(game(), "line-03", (1, 0), 0)  # east of fountain A
    state = force_tile(state, "line-03", (-1, 0), 2)  # west of fountain A
    state = with_hand(state, "triangle-03")
    wanted = {(0, 1), (-1, 1), (-1, 2)}
    rotation = next(
        r for r in range(6) if set(state.geo.cells_of("triangle", (0, 1), r)) == wanted
    )
    after = apply(state, Action("place", at=(0, 1), rotation=rotation))
    g = gardens(after)
    assert g.garden[cell(after, (3, 0))] == g.garden[cell(after, (-3, 2))]
