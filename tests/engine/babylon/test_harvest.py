"""The harvest (spec §5, RB "Harvesting Phase" a-d, R-10) and the immediate end (R-11).

Lower Garden (``game()``'s floor)::

    (0,0)M (0,1)S (0,2)M
    (1,0)S  well  (1,2)S
    (2,0)M (2,1)S (2,2)M
"""

from __future__ import annotations

from engine.babylon import (
    apply,
    current_player,
    final_scores,
    is_over,
    legal_actions,
    preview,
)
from engine.babylon.state import Harvested, State
from tests.engine.babylon.builders import (
    HARVEST,
    force_empty_pile,
    force_floor,
    force_pile,
    force_winks,
    game,
    irrigate,
    turn,
    walk,
)
from tests.engine.babylon.in_english import why_illegal


def _three_to_fill() -> State:
    """Blue's path (0,1) (0,0) (1,0) fills the single S-r1, the multi M-g2-1 (1 gem
    already) and the single S-p1, in that order. The single pile's top is S-y1, then
    S-g6; the multi pile's top is M-p5-1."""
    state = force_floor(
        game(), {(0, 1): ("S-r1", 0), (0, 0): ("M-g2-1", 1), (1, 0): ("S-p1", 0)}
    )
    state = force_pile(state, "single", ["S-g6", "S-y1"])
    state = force_pile(state, "multi", ["M-p5-1"])
    return walk(state, [(0, 1), (0, 0), (1, 0)])


def test_rb_no_tile_filled_no_harvest_and_the_turn_passes() -> None:
    """Higher Garden: the well's four neighbours are multis; one gem fills none."""
    state = game(floor="higher")
    state = force_floor(state, {(1, 2): ("M-r3-1", 0)})
    after = turn(state, [(1, 2)])
    assert after.winks == ((), ())
    assert after.harvested == ()
    assert after.tiles == state.tiles
    assert after.gems[after.index((1, 2))] == 1  # the gem stays
    assert (after.current, after.turn) == (1, 2)
    assert after.piles == state.piles and after.discards == state.discards


def test_rb_each_filled_tile_is_harvested_in_fill_order() -> None:
    after = apply(_three_to_fill(), HARVEST)
    assert after.winks[0] == ("red", "green", "purple")
    assert after.harvested == (
        Harvested((0, 1), "S-r1", "red", 1, 0, "S-y1"),
        Harvested((0, 0), "M-g2-1", "green", 2, 0, "M-p5-1"),
        Harvested((1, 0), "S-p1", "purple", 3, 0, "S-g6"),
    )


def test_rb_a_the_tile_goes_face_up_on_its_discard_pile_and_its_gems_back() -> None:
    before = _three_to_fill()
    after = apply(before, HARVEST)
    assert after.discards == (("S-r1", "S-p1"), ("M-g2-1",))
    for at in ((0, 1), (0, 0), (1, 0)):
        assert after.gems[after.index(at)] == 0
    assert sum(after.gems) == sum(before.gems) - 1 - 2 - 1


def test_rb_b_the_top_of_the_same_pile_replaces_it_face_up_and_dry() -> None:
    before = _three_to_fill()
    after = apply(before, HARVEST)
    assert after.tiles[after.index((0, 1))] == "S-y1"
    assert after.tiles[after.index((0, 0))] == "M-p5-1"
    assert after.tiles[after.index((1, 0))] == "S-g6"
    assert len(after.piles[0]) == len(before.piles[0]) - 2
    assert len(after.piles[1]) == len(before.piles[1]) - 1


def test_rb_c_each_tile_gives_one_wink_whatever_its_flowers() -> None:
    state = force_floor(game(), {(0, 0): ("M-g5-1", 4)})
    after = turn(state, [(0, 1), (0, 0)])
    assert len(after.winks[0]) == 2
    assert after.winks[0][1] == "green"


def test_r10_an_empty_pile_is_rebuilt_from_its_discard_pile_reshuffled() -> None:
    state = force_empty_pile(_three_to_fill(), "single")
    discarded = state.discards[0]
    assert state.piles[0] == () and len(discarded) == 24 - 4
    after = apply(state, HARVEST)
    # the first single harvested joins the discards, which become the pile (shuffled,
    # the tile just removed included) and give its replacement; the second single is
    # discarded onto the new, empty discard pile and replaced from the rebuilt pile
    assert after.reshuffles == 1
    assert after.discards[0] == ("S-p1",)
    rebuilt = {*after.piles[0], after.tiles[after.index((0, 1))]}
    rebuilt.add(after.tiles[after.index((1, 0))])
    assert rebuilt == {*discarded, "S-r1"}
    assert len(after.piles[0]) == len(discarded) + 1 - 2
    assert after.piles[1] == state.piles[1][:-1]  # the multi pile is not touched
    assert after == apply(state, HARVEST)  # the reshuffle is drawn from the seed
    assert apply(state.evolve(seed=1), HARVEST).piles[0] != after.piles[0]


def test_r11_the_game_ends_on_the_25th_wink_at_once() -> None:
    state = force_winks(_three_to_fill(), 0, " ".join(["y"] * 23))
    state = force_winks(state, 1, "r g")
    assert preview(state, HARVEST)["ends"] is True
    after = apply(state, HARVEST)
    assert is_over(after)
    assert current_player(after) is None
    assert legal_actions(after) == []
    assert why_illegal(after, irrigate((2, 1))) == "The game is over."
    assert after.winks[0][-2:] == ("red", "green")
    assert len(after.winks[0]) == 25
    assert after.winks[1] == ("red", "green")  # the others stay incomplete


def test_r11_filled_tiles_not_yet_harvested_stay_and_score_nothing() -> None:
    state = force_winks(_three_to_fill(), 0, " ".join(["y"] * 23))
    after = apply(state, HARVEST)
    assert [h.tile for h in after.harvested] == ["S-r1", "M-g2-1"]
    assert after.tiles[after.index((1, 0))] == "S-p1"  # filled, still on the floor
    assert after.gems[after.index((1, 0))] == 1
    assert "purple" not in after.winks[0][-2:]
    assert final_scores(after)["players"][0]["winks"] == 25
