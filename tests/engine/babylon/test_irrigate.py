"""Irrigation (spec §5, RB "Irrigation Phase", R-7, R-8, R-9, R-16): the path from the
well, one tile a step, and the refusals in a player's words.

Lower Garden (``game()``'s floor)::

    (0,0)M (0,1)S (0,2)M
    (1,0)S  well  (1,2)S
    (2,0)M (2,1)S (2,2)M
"""

from __future__ import annotations

import pytest

from engine.babylon import (
    IllegalAction,
    apply,
    current_player,
    is_over,
    legal_actions,
)
from engine.babylon.state import Action
from tests.engine.babylon.builders import (
    HARVEST,
    UNDO,
    force_floor,
    game,
    irrigate,
    turn,
    walk,
)
from tests.engine.babylon.in_english import why_illegal


def _refused(state: object, action: Action, reason: str) -> None:
    assert why_illegal(state, action) == reason  # type: ignore[arg-type]
    with pytest.raises(IllegalAction) as info:
        apply(state, action)  # type: ignore[arg-type]
    assert info.value.reason == reason


def test_rb_the_first_step_goes_to_a_tile_next_to_the_well() -> None:
    state = game()
    assert legal_actions(state) == [
        irrigate(at) for at in ((0, 1), (1, 0), (1, 2), (2, 1))
    ]
    after = apply(state, irrigate((1, 0)))
    assert after.path == ((1, 0),)
    assert after.gems[after.index((1, 0))] == 1


def test_rb_no_diagonal_step() -> None:
    _refused(game(), irrigate((0, 0)), "Diagonal steps are not allowed.")
    _refused(
        walk(game(), [(1, 0)]), irrigate((0, 1)), "Diagonal steps are not allowed."
    )


def test_rb_no_skipping_tiles() -> None:
    state = game(floor="middle")  # the well at (2, 2); (2, 1) and (2, 0) to its left
    _refused(
        state,
        irrigate((2, 0)),
        "You cannot skip tiles: step onto a tile next to the well.",
    )
    _refused(
        walk(state, [(2, 3)]),
        irrigate((4, 2)),
        "Step onto a tile next to your path's last tile.",
    )
    _refused(
        walk(game(floor="tammuz"), [(2, 3), (2, 4)]),
        irrigate((0, 4)),
        "You cannot skip tiles: step onto a tile next to your path's last tile.",
    )


def test_rb_no_crossing_a_gap() -> None:
    """Higher Garden: (0, 1) and (0, 3) are tiles with no tile between them."""
    state = walk(game(floor="higher"), [(1, 2), (1, 1), (0, 1)])
    _refused(
        state,
        irrigate((0, 3)),
        "The path cannot cross a gap: step onto a tile next to your path's last tile.",
    )
    _refused(
        walk(game(floor="tammuz"), [(2, 3)]),
        irrigate((0, 3)),
        "The path cannot cross a gap: step onto a tile next to your path's last tile.",
    )
    _refused(game(floor="middle"), irrigate((0, 0)), "There is no tile there.")


def test_rb_no_tile_twice_in_a_turn() -> None:
    state = walk(game(), [(0, 1), (0, 0), (1, 0)])
    assert irrigate((0, 0)) not in legal_actions(state)
    _refused(state, irrigate((0, 0)), "This tile is already on your path.")


def test_rb_off_the_floor_is_no_tile() -> None:
    _refused(game(), irrigate((3, 1)), "There is no tile there.")
    _refused(game(), irrigate((63, 63)), "There is no tile there.")
    _refused(game(), Action("irrigate"), "Say which tile to water.")


def test_r7_the_well_is_the_origin_not_a_tile_of_the_path() -> None:
    state = game()
    _refused(
        state, irrigate((1, 1)), "The path starts at the well: water a tile next to it."
    )
    _refused(
        walk(state, [(1, 0)]),
        irrigate((1, 1)),
        "The path may not come back to the well.",
    )
    assert (1, 1) not in state.floor.spaces  # it holds no gem
    assert len(walk(state, [(1, 0), (0, 0)]).path) == 2  # nor counts in the length


def test_rb_the_minimum_path_is_one_tile() -> None:
    _refused(game(), HARVEST, "Water at least one tile before you harvest.")
    assert HARVEST in legal_actions(walk(game(), [(2, 1)]))


def test_r16_a_step_offers_at_most_5_actions_and_4_from_the_well() -> None:
    state = game(floor="ishtar")
    assert len(legal_actions(state)) == 4
    state = walk(state, [(3, 4)])
    actions = legal_actions(state)
    assert len(actions) == 5
    assert actions == [
        irrigate((2, 4)),
        irrigate((3, 5)),
        irrigate((4, 4)),
        HARVEST,
        UNDO,
    ]


def test_r16_a_path_that_cannot_be_extended_waits_for_harvest() -> None:
    ring = [(0, 1), (0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]
    state = walk(game(), ring)
    assert legal_actions(state) == [HARVEST, UNDO]
    assert current_player(state) == 0


def test_r8_a_filled_tile_stays_and_the_path_carries_on_through_it() -> None:
    state = force_floor(game(), {(0, 1): ("S-r1", 0), (0, 0): ("M-g3-1", 0)})
    state = walk(state, [(0, 1)])
    assert state.gems[state.index((0, 1))] == 1  # filled: 1 gem on 1 flower
    assert state.tiles[state.index((0, 1))] == "S-r1"  # not harvested yet
    state = walk(state, [(0, 0), (1, 0)])
    assert state.path == ((0, 1), (0, 0), (1, 0))


def test_r9_gems_on_an_unfilled_tile_stay_for_later_paths() -> None:
    state = force_floor(game(), {(0, 0): ("M-g3-1", 0)})
    state = turn(state, [(0, 1), (0, 0)])  # Blue: 1 gem on the 3-flower tile
    assert state.gems[state.index((0, 0))] == 1
    assert state.current == 1
    state = turn(state, [(1, 0), (0, 0)])  # Orange: a second
    assert state.gems[state.index((0, 0))] == 2
    assert state.tiles[state.index((0, 0))] == "M-g3-1"


def test_r9_whoever_fills_a_tile_harvests_it() -> None:
    state = force_floor(game(), {(0, 0): ("M-g2-1", 1)})  # watered before by Blue
    state = turn(state, [(0, 1)])  # Blue fills the single only
    state = turn(state, [(1, 0), (0, 0)])  # Orange fills both of its path
    assert state.winks[1][-1] == "green"
    assert state.harvested[-1].tile == "M-g2-1" and state.harvested[-1].seat == 1


def test_irrigate_in_turn_order_ascending_seats() -> None:
    state = game(3, first_player=1)
    seats = []
    for _ in range(4):
        seats.append(state.current)
        state = turn(state, [(2, 1)])
    assert seats == [1, 2, 0, 1]
    assert not is_over(state)
