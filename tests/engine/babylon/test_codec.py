"""The codec: actions and states as JSON; junk is refused (MalformedAction for actions,
ValueError for states), and a tampered state is not a state."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.babylon import (
    MalformedAction,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
)
from engine.babylon.state import Action
from tests.engine.babylon.builders import force_floor, game, turn, walk


@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"type": "irrigate", "at": [1, 0]}, Action("irrigate", at=(1, 0))),
        ({"type": "harvest"}, Action("harvest")),
        ({"type": "undo"}, Action("undo")),
        ({"type": "scoreboard", "side": "C2"}, Action("scoreboard", side="C2")),
    ],
)
def test_actions_round_trip(data: dict[str, Any], action: Action) -> None:
    assert decode_action(data) == action
    assert encode_action(action) == data


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (None, "An action is a JSON object with a 'type'."),
        ([], "An action is a JSON object with a 'type'."),
        ("harvest", "An action is a JSON object with a 'type'."),
        (7, "An action is a JSON object with a 'type'."),
        ({}, "There is no action None in Babylon Gardens (scoreboard, irrigate, harvest, undo)."),
        ({"type": "fly"}, "There is no action 'fly' in Babylon Gardens (scoreboard, irrigate, harvest, undo)."),
        ({"type": 3}, "There is no action 3 in Babylon Gardens (scoreboard, irrigate, harvest, undo)."),
        ({"type": "x" * 1000}, "There is no action 'xxxxxxxxxxxxxxxxxxxx' in Babylon Gardens (scoreboard, irrigate, harvest, undo)."),
        ({"type": "harvest", "at": [1, 0]}, "A harvest action has no field 'at'."),
        ({"type": "undo", "extra": 1}, "An undo action has no field 'extra'."),
        ({"type": "irrigate", "at": [1, 0], "side": "A1"}, "An irrigate action has no field 'side'."),
        ({"type": "harvest", 1: 2}, "A harvest action has no field '1'."),
        ({"type": "irrigate"}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": [1]}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": [1, 2, 3]}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": "1,0"}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": [True, 0]}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": [1.0, 0]}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": [10**100, 0]}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": [-1, 0]}, "'at' is a tile's position [row, column]."),
        ({"type": "irrigate", "at": {"row": 1}}, "'at' is a tile's position [row, column]."),
        ({"type": "scoreboard"}, "'side' names a scoreboard side, such as 'C2'."),
        ({"type": "scoreboard", "side": 2}, "'side' names a scoreboard side, such as 'C2'."),
        ({"type": "scoreboard", "side": "A" * 100}, "'side' names a scoreboard side, such as 'C2'."),
    ],
)  # fmt: skip
def test_decode_action_refuses_junk_as_malformed(data: Any, reason: str) -> None:
    with pytest.raises(MalformedAction) as info:
        decode_action(data)
    assert info.value.reason == reason


def _encoded() -> dict[str, Any]:
    state = force_floor(game(3, seed=4, first_player=None), {(0, 0): ("M-g3-1", 1)})
    state = turn(state, [(0, 1)])
    return json.loads(json.dumps(encode_state(walk(state, [(1, 0), (0, 0)]))))


def test_states_round_trip_through_json() -> None:
    data = _encoded()
    assert encode_state(decode_state(data)) == data
    chosen = game(3, scoreboards="choose")
    assert decode_state(json.loads(json.dumps(encode_state(chosen)))) == chosen


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        target: Any = data
        for key in keys:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key)


def _swap_tile_into_pile(data: dict[str, Any]) -> None:
    data["piles"]["single"].append(data["tiles"][1])  # a tile twice


def _second_path(data: dict[str, Any]) -> None:
    data["path"] = [[1, 0], [0, 1]]  # not a step from (1, 0)


def _filled_off_path(data: dict[str, Any]) -> None:
    data["path"] = []
    data["gems"][data["tiles"].index("M-g3-1")] = 3


tampered: dict[str, Callable[[dict[str, Any]], None]] = {
    "format": _set("format", 9),
    "no players": _drop("players"),
    "players 5": _set("players", 5),
    "players bool": _set("players", True),
    "options": _set("options", {"colour": "red"}),
    "options not a dict": _set("options", ["floor"]),
    "floor": _set("floor", "attic"),
    "floor differs from options": _set("floor", "middle"),
    "unknown tile": _set("tiles.0", "M-x9-9"),
    "tile of the wrong back": _set("tiles.1", "M-r2-1"),
    "tile not a string": _set("tiles.0", ["M-r2-1"]),
    "a tile twice": _swap_tile_into_pile,
    "too many gems": _set("gems.0", 9),
    "negative gems": _set("gems.0", -1),
    "gems bool": _set("gems.0", True),
    "short floor": lambda d: d["tiles"].pop(),
    "pile of the wrong kind": lambda d: d["piles"]["single"].append(
        d["piles"]["multi"].pop()
    ),
    "sides on one board": _set("sides", ["A1", "A2", "B1"]),
    "unknown side": _set("sides.0", "E1"),
    "no side in play": _set("sides.0", None),
    "winks too many": _set("winks.0", ["red"] * 26),
    "wink colour": _set("winks.0", ["blue"]),
    "winks a string": _set("winks.0", "red"),
    "over without a full board": _set("phase", "over"),
    "full board in play": _set("winks.1", ["red"] * 25),
    "phase": _set("phase", "bloom"),
    "scoreboard phase with random boards": _set("phase", "scoreboard"),
    "current out of range": _set("current", 3),
    "current bool": _set("current", False),
    "turn zero": _set("turn", 0),
    "first player": _set("first_player", 7),
    "path off the floor": _set("path", [[5, 5]]),
    "path not from the well": _set("path", [[0, 0]]),
    "path broken": _second_path,
    "path twice on a tile": _set("path", [[1, 0], [1, 0]]),
    "path as a string": _set("path", "1,0"),
    "filled tile off the path": _filled_off_path,
    "draws junk": _set("draws", [[0, "M-r2-1"]]),
    "draw of a single": _set("draws", [[0, "S-r1", 1]]),
    "draw seat": _set("draws", [[9, "M-r2-1", 1]]),
    "harvested junk": _set("harvested", [[1, 2]]),
    "harvested colour": _set("harvested", [[[0, 1], "S-r1", "green", 1, 0, "S-r2"]]),
    "harvested slot": _set("harvested", [[[0, 1], "S-r1", "red", 99, 0, "S-r2"]]),
    "reshuffles": _set("reshuffles", -1),
    "seed": _set("seed", "abc"),
}


@pytest.mark.parametrize("name", sorted(tampered))
def test_decode_state_refuses_a_tampered_state(name: str) -> None:
    data = copy.deepcopy(_encoded())
    tampered[name](data)
    with pytest.raises(ValueError, match="not a Babylon Gardens state"):
        decode_state(data)


@pytest.mark.parametrize("junk", [None, [], "state", 3, {"format": 1}])
def test_decode_state_refuses_junk(junk: Any) -> None:
    with pytest.raises(ValueError, match="not a Babylon Gardens state"):
        decode_state(junk)
