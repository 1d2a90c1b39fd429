"""Place a vegetation tile and collect gems (RB "Place a Vegetation Tile", "Collect Gems")."""

from __future__ import annotations

import pytest

from engine.ishtar import (
    Action,
    IllegalAction,
    apply,
    decode_action,
    legal_actions,
    preview,
    view_for,
)
from engine.ishtar.rules.gardens import gardens
from tests.engine.ishtar.builders import (
    FOUNTAIN_A,
    cell,
    force_tile,
    game,
    terrain,
    with_hand,
)
from tests.engine.ishtar.in_english import why_illegal
from tests.engine.ishtar.played import load


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


def _played(moves: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    """The 2-player preset game of seed 0, Blue first, after ``moves`` (each through apply)."""
    state = game()
    for move in moves:
        state = apply(state, decode_action(move))
    return state


def _two_assistants_position():  # type: ignore[no-untyped-def]
    """Blue's assistant and Yellow's stand in two flowerbeds of fountain B's garden, with
    three free spaces between them; Blue holds triangle-A (F1a F1 G) to place.

    Turn 1, Blue: triangle-B (F2a G G) with its assistant on (6,2) next to fountain B (4,3).
    Turn 2, Yellow: line-A (F1a F1 G) on (3,5) (4,4) (5,3) with its assistant on (3,5).
    Turn 3, Blue pays a purple gem to take triangle-A.
    """
    return _played(
        [
            {"type": "choose", "pile": 0, "pay": []},
            {"type": "place", "at": [6, 2], "rotation": 3},
            {"type": "assistant"},
            {"type": "end"},
            {"type": "choose", "pile": 1, "pay": []},
            {"type": "place", "at": [3, 5], "rotation": 5},
            {"type": "assistant"},
            {"type": "end"},
            {"type": "choose", "pile": 3, "pay": ["purple"]},
        ]
    )


def test_rulebook_example_two_assistants_in_one_flowerbed_is_refused() -> None:
    state = _two_assistants_position()
    assert state.hand == "triangle-A"
    assert {state.geo.hexes[c]: seat for c, seat in state.assistants.items()} == {
        (6, 2): 0,
        (3, 5): 1,
    }
    # (6,3) touches Blue's bed (6,2), (5,4) touches Yellow's bed (4,4) (3,5): with its two
    # flower spaces on them, triangle-A would join the two beds ("tile A").
    action = Action("place", at=(5, 4), rotation=5)
    assert state.geo.cells_of("triangle", (5, 4), 5) == ((5, 4), (6, 3), (6, 4))
    assert why_illegal(state, action) == "two assistants would share one flowerbed"
    assert (action.at, action.rotation) not in placements(state)
    with pytest.raises(IllegalAction):
        apply(state, action)


def test_rulebook_example_same_place_with_grass_in_between_is_legal() -> None:
    # The same three spaces turned so that a grass space lies between the beds ("tile B"):
    # grass on (5,4) keeps Yellow's bed apart, or grass on (6,3) keeps Blue's apart.
    state = _two_assistants_position()
    for at, rotation, grass in (((6, 3), 1, (5, 4)), ((6, 4), 3, (6, 3))):
        cells = state.geo.cells_of("triangle", at, rotation)
        assert set(cells) == {(5, 4), (6, 3), (6, 4)}
        assert cells[2] == grass  # triangle-A's third space is its grass
        after = apply(state, Action("place", at=at, rotation=rotation))
        g = gardens(after)
        beds = {g.bed[c] for c in after.assistants}
        assert len(beds) == 2, "each assistant keeps its own flowerbed"
        assert g.bed_assistant == {g.bed[c]: s for c, s in after.assistants.items()}


def test_assistants_of_the_same_player_cannot_share_a_flowerbed_either() -> None:
    # Blue's two assistants (turns 1 and 3) stand in two beds one space apart; Yellow's
    # triangle-B (F2a G G) with its flower space on (0,-2) would join them.
    state = _played(
        [
            {"type": "choose", "pile": 1, "pay": []},
            {"type": "place", "at": [2, -3], "rotation": 2},
            {"type": "assistant"},
            {"type": "end"},
            {"type": "choose", "pile": 2, "pay": []},
            {"type": "place", "at": [-2, 3], "rotation": 5},
            {"type": "assistant"},
            {"type": "end"},
            {"type": "choose", "pile": 3, "pay": []},
            {"type": "place", "at": [-1, -2], "rotation": 1},
            {"type": "assistant"},
            {"type": "end"},
            {"type": "choose", "pile": 0, "pay": ["purple", "red"]},
        ]
    )
    assert (state.current, state.hand) == (1, "triangle-B")
    blue = sorted(state.geo.hexes[c] for c, s in state.assistants.items() if s == 0)
    assert blue == [(-1, -2), (2, -3)]
    assert why_illegal(state, Action("place", at=(0, -2), rotation=4)) == (
        "two assistants would share one flowerbed"
    )
    # The same spaces with grass on (0,-2) are legal.
    assert why_illegal(state, Action("place", at=(0, -3), rotation=0)) is None


def test_tile_next_only_to_vegetation_outside_any_garden_is_legal() -> None:
    # Laid by hand: no game reaches vegetation outside every garden (each tile touches a
    # fountain or earlier vegetation), but the rule is written generally.
    state = force_tile(game(), "line-01", (2, 2), 1)  # (2,2) (2,3) (2,4), no fountain
    state = with_hand(state, "line-12")
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
    # A 3-player game on a random layout, 33 turns in: Yellow takes triangle-06 and no three free spaces of
    # sand or rock that touch a garden can take it.
    state = load("discard")
    assert (state.turn, state.current, state.hand) == (33, 1, "triangle-06")
    assert legal_actions(state) == [Action("discard")]
    for at in state.geo.hexes:
        for rotation in range(6):
            assert why_illegal(state, Action("place", at=at, rotation=rotation))
    after = apply(state, Action("discard"))
    assert after.discarded == ("triangle-06",)
    assert after.gems == state.gems
    assert after.flowers == state.flowers and after.placed == state.placed
    assert all("triangle-06" not in pile for pile in after.piles)
    assert after.phase in ("plant", "choose")  # no special step: on to planting
    assert view_for(after, None)["discarded"] == ["triangle-06"]


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


def test_a_tile_may_lie_across_two_terrain_boards() -> None:
    # Board 1's cell (-3,3) and board 3's (-3,4) (-3,5) are ordinary neighbours: Blue's first
    # tile, line-A (F1a F1 G), lies across the seam next to board 3's fountain (-3,6).
    state = apply(game(), Action("choose", pile=1))
    assert state.hand == "line-A"
    action = Action("place", at=(-3, 3), rotation=1)
    cells = state.geo.cells_of("line", (-3, 3), 1)
    assert cells == ((-3, 3), (-3, 4), (-3, 5))
    assert [state.geo.board[cell(state, h)] for h in cells] == [1, 3, 3]
    assert [terrain(state, h) for h in cells] == ["sand", "rock-white", "rock-purple"]
    assert (action.at, action.rotation) in placements(state)
    after = apply(state, action)
    assert after.gems[0] == (2, 0, 1)  # the gems of both boards' covered rocks
    assert [after.flowers[cell(after, h)] for h in cells] == [1, 1, 0]
    g = gardens(after)
    fountain = after.geo.fountain_of[cell(after, (-3, 6))]
    assert {g.garden_fountain[g.garden[cell(after, h)]] for h in cells} == {fountain}
    # The icon's space is on board 1, its flowerbed runs on into board 3.
    after = apply(after, Action("assistant"))
    assert after.assistants == {cell(after, (-3, 3)): 0}
    assert g.bed[cell(after, (-3, 3))] == g.bed[cell(after, (-3, 4))]
    tiles = view_for(after, None)["tiles"]
    assert tiles[0]["cells"] == [list(h) for h in cells]
