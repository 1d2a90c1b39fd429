"""Previews (spec §9) equal what ``apply`` then does; the log's sentences (narrate)."""

from __future__ import annotations

import pytest

from engine.babylon import apply, legal_actions, preview
from engine.babylon.components import TILES
from engine.babylon.scoring import score_board
from engine.babylon.state import Action, State
from tests.engine.babylon.builders import (
    HARVEST,
    UNDO,
    force_floor,
    force_winks,
    game,
    irrigate,
    random_game,
    walk,
)
from tests.engine.babylon.in_english import narrate


def _check_preview(state: State, action: Action) -> None:
    seen = preview(state, action)
    after = apply(state, action)
    seat = state.current
    if action.type == "irrigate":
        assert action.at is not None
        i = state.index(action.at)
        tile = TILES[state.tiles[i]]
        assert seen == {
            "gems": after.gems[i],
            "flowers": tile.flowers,
            "fills": after.gems[i] == tile.flowers,
            "colour": tile.colour,
        }
    elif action.type == "harvest":
        gained = after.winks[seat][len(state.winks[seat]) :]
        assert seen["winks"] == [
            {"colour": colour, "slot": len(state.winks[seat]) + n + 1}
            for n, colour in enumerate(gained)
        ]
        assert [h.slot for h in after.harvested] == [w["slot"] for w in seen["winks"]]
        old = score_board(state.sides[seat], state.winks[seat])["total"]
        new = score_board(after.sides[seat], after.winks[seat])
        assert seen["points"] == new["total"] - old
        assert seen["score"] == new
        assert seen["ends"] == (after.phase == "over")
    elif action.type == "undo":
        assert seen == {"at": list(state.path[-1])}
        assert after.path == state.path[:-1]
    else:
        assert seen == {"side": action.side, "board": action.side[0]}  # type: ignore[index]


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (2, 1, {"floor": "lower"}),
        (3, 2, {"floor": "higher", "scoreboards": "choose"}),
        (4, 3, {"floor": "ishtar", "teams": True}),
        (4, 4, {"floor": "tammuz"}),
    ],
)
def test_previews_of_every_legal_action_equal_what_apply_does(
    players: int, seed: int, options: dict[str, object]
) -> None:
    for state, _ in random_game(players, seed, options):
        for action in legal_actions(state):
            _check_preview(state, action)


def test_irrigate_preview_gems_flowers_fills_colour() -> None:
    state = force_floor(game(), {(0, 0): ("M-y3-1", 1), (0, 1): ("S-r1", 0)})
    assert preview(state, irrigate((0, 1))) == {
        "gems": 1, "flowers": 1, "fills": True, "colour": "red"
    }  # fmt: skip
    state = walk(state, [(0, 1)])
    assert preview(state, irrigate((0, 0))) == {
        "gems": 2, "flowers": 3, "fills": False, "colour": "yellow"
    }  # fmt: skip


def test_harvest_preview_winks_points_and_end() -> None:
    state = force_floor(game(), {(0, 1): ("S-r1", 0), (0, 0): ("M-r2-1", 1)})
    state = walk(state, [(0, 1), (0, 0)])
    seen = preview(state, HARVEST)
    # two red winks in slots 1 and 2: fill 2 + a run of 2 on the column line (2 1) = 12
    assert seen["winks"] == [{"colour": "red", "slot": 1}, {"colour": "red", "slot": 2}]
    assert seen["points"] == 12
    assert seen["ends"] is False
    nearly = force_winks(state, 0, " ".join(["g"] * 24))
    assert preview(nearly, HARVEST)["winks"] == [{"colour": "red", "slot": 25}]
    assert preview(nearly, HARVEST)["ends"] is True


def test_narrate_irrigation_steps_with_the_tile_and_its_gems() -> None:
    state = force_floor(game(), {(0, 1): ("S-r1", 0), (0, 0): ("M-g3-1", 1)})
    assert narrate(state, irrigate((0, 1))) == (
        "Blue waters the red tile of 1 flower (1 of 1): filled."
    )
    state = walk(state, [(0, 1)])
    assert narrate(state, irrigate((0, 0))) == (
        "Blue waters the green tile of 3 flowers (2 of 3)."
    )
    state = walk(state, [(0, 0)])
    assert narrate(state, UNDO) == (
        "Blue takes back the last step, onto the green tile of 3 flowers."
    )


def test_narrate_the_harvest() -> None:
    state = force_floor(game(), {(0, 1): ("S-r1", 0), (0, 0): ("M-r2-1", 1)})
    state = walk(state, [(0, 1), (0, 0)])
    assert narrate(state, HARVEST) == (
        "Blue harvests 2 tiles (red, red) along a path of 2 tiles: +12 points."
    )
    nearly = force_winks(state, 0, " ".join(["g"] * 24))
    assert narrate(nearly, HARVEST).endswith(
        "Blue's scoreboard is full: the game is over."
    )
    dry = walk(force_floor(game(floor="higher"), {(1, 2): ("M-r3-1", 0)}), [(1, 2)])
    assert narrate(dry, HARVEST) == "Blue waters a path of 1 tile; nothing is filled."


def test_narrate_the_scoreboard_choice() -> None:
    state = game(2, scoreboards="choose")
    action = Action("scoreboard", side="C2")
    assert narrate(state, action) == "Blue takes scoreboard C2."
    assert preview(state, action) == {"side": "C2", "board": "C"}
