"""Views (spec §8, R-15, §9's shape): everything public, the piles' order and the seed
never; every audience the same view; the parts shared with the previous state's view."""

from __future__ import annotations

import json

import pytest

from engine.babylon import apply, decode_state, encode_state, final_scores, view_for
from engine.babylon.components import TILES
from engine.babylon.scoring import tiebreak_message
from tests.engine.babylon.builders import (
    HARVEST,
    force_floor,
    force_pile,
    game,
    irrigate,
    random_game,
    turn,
    walk,
)
from tests.engine.babylon.invariants import check_view_hides_secrets


def test_view_shape_of_the_contract() -> None:
    state = walk(game(2, seed=3, first_player=None), [(1, 0)])
    view = view_for(state, 1)
    assert list(view) == [
        "viewer", "game", "format", "phase", "current", "turn", "first_player", "floor",
        "tiles", "path", "piles", "discards", "draws", "teams", "harvested", "players",
        "scores",
    ]  # fmt: skip
    assert view["viewer"] == 1
    assert (view["game"], view["format"], view["phase"]) == (
        "babylon-gardens",
        1,
        "irrigate",
    )
    assert view["floor"] == {
        "id": "lower", "name": "Lower Garden", "rows": 3, "cols": 3, "well": [1, 1]
    }  # fmt: skip
    tile = view["tiles"][3]
    assert tile["at"] == [1, 0] and tile["gems"] == 1
    assert tile == {
        "at": [1, 0],
        "kind": "single",
        "tile": state.tiles[3],
        "colour": TILES[state.tiles[3]].colour,
        "flowers": 1,
        "gems": 1,
    }
    assert [t["at"] for t in view["tiles"]] == [list(at) for at in state.floor.spaces]
    assert view["path"] == [[1, 0]]
    assert view["piles"] == {"single": 20, "multi": 28}
    assert view["discards"] == {"single": [], "multi": []}
    assert view["draws"] == [
        {"seat": d.seat, "tile": d.tile, "round": d.round} for d in state.draws
    ]
    assert view["teams"] is None
    assert view["players"][0]["colour"] == "blue"
    assert view["players"][1]["side"] == state.sides[1]
    assert view["players"][0]["score"]["total"] == 0
    assert view["scores"] is None
    json.dumps(view)


def test_the_view_shows_last_turns_harvest_and_the_discards() -> None:
    state = force_floor(game(), {(0, 1): ("S-r1", 0)})
    state = force_pile(state, "single", ["S-p6"])
    state = turn(state, [(0, 1)])
    view = view_for(state, None)
    assert view["harvested"] == [
        {"at": [0, 1], "tile": "S-r1", "colour": "red", "slot": 1, "seat": 0,
         "replaced_by": "S-p6"}
    ]  # fmt: skip
    assert view["discards"] == {"single": ["S-r1"], "multi": []}
    assert view["players"][0]["winks"] == ["red"]
    assert view["current"] == 1 and view["turn"] == 2


def test_r14_teams_are_in_the_view() -> None:
    view = view_for(game(4, teams=True), 2)
    assert view["teams"] == [[0, 2], [1, 3]]


def test_r14_teammates_see_nothing_the_others_cannot() -> None:
    state = walk(game(4, teams=True), [(0, 1)])
    views = [view_for(state, seat) for seat in (None, 0, 1, 2, 3)]
    for view in views:
        assert {k: v for k, v in view.items() if k != "viewer"} == {
            k: v for k, v in views[0].items() if k != "viewer"
        }


def test_the_view_at_the_end_holds_the_final_scores() -> None:
    *_, (last, _) = random_game(2, 5, {"floor": "lower"})
    view = view_for(last, 0)
    assert view["phase"] == "over" and view["current"] is None
    scores = final_scores(last)
    assert view["scores"] == {**scores, "tiebreak_message": tiebreak_message(scores)}


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (2, 11, {"floor": "lower", "scoreboards": "choose"}),
        (3, 12, {"floor": "roof"}),
        (4, 13, {"floor": "ishtar", "teams": True}),
    ],
)
def test_r15_no_view_holds_the_seed_or_a_piles_order(
    players: int, seed: int, options: dict[str, object]
) -> None:
    for state, _ in random_game(players, seed, options):
        check_view_hides_secrets(state)


def test_r15_the_seed_is_nowhere_in_a_view() -> None:
    state = game(2, seed=987654321)
    for seat in (None, 0, 1):
        assert "987654321" not in json.dumps(view_for(state, seat))


def test_a_view_is_the_same_built_fresh_or_from_the_previous_view() -> None:
    """A state viewed after its parent reuses the parent's parts; the result equals a
    view built from scratch (on the state decoded from storage)."""
    for state, action in random_game(4, 21, {"floor": "tammuz"}):
        if action.type == "over":
            break
        view_for(state, None)
        after = apply(state, action)
        inherited = view_for(after, 0)
        fresh = view_for(decode_state(encode_state(after)), 0)
        assert inherited == fresh


def test_unchanged_parts_are_the_same_objects_as_the_previous_views() -> None:
    state = game(2)
    before = view_for(state, None)
    after_step = apply(state, irrigate((0, 1)))
    view = view_for(after_step, None)
    for key in ("floor", "piles", "discards", "draws", "teams", "harvested", "players"):
        assert view[key] is before[key], key
    assert view["tiles"] is not before["tiles"]
    changed = after_step.index((0, 1))
    for i, (old, new) in enumerate(zip(before["tiles"], view["tiles"], strict=True)):
        assert (old is new) == (i != changed)
    harvested = apply(after_step, HARVEST)
    final = view_for(harvested, 1)
    assert final["players"][1] is view["players"][1]  # Orange's board did not change
    assert final["players"][0] is not view["players"][0]


def test_view_for_refuses_a_seat_that_is_not_in_the_game() -> None:
    state = game(2)
    for seat in (2, -1, True):
        with pytest.raises(ValueError, match="no seat"):
            view_for(state, seat)  # type: ignore[arg-type]
