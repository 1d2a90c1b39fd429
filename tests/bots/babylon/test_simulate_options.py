"""`ishtar simulate --game babylon-gardens --options JSON`: any game's options reach its
games (a floor, team mode), checked by the game's own `check_options` first."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

import bots.babylon as babylon_bots
from bots.match import play_game
from bots.simulate import GameBots, register_simulate

BABYLON = {
    "babylon-gardens": GameBots(
        "engine.babylon", babylon_bots.think, babylon_bots.LEVELS, range(2, 5)
    )
}


def _simulate(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    register_simulate(parser.add_subparsers(dest="command"), BABYLON.get)
    args = parser.parse_args(
        ["simulate", "--game", "babylon-gardens", "--games", "1", "--jobs", "1", *argv]
    )
    code: int = args.handler(args)
    return code


class FloorSpy:
    """A medium bot that remembers which floor each view it was shown is on."""

    level = "medium"

    def __init__(self) -> None:
        self.floors: set[str] = set()
        self.teams: set[Any] = set()

    def act(self, view: dict[str, Any], legal: Any, seed: int) -> Any:
        self.floors.add(view["floor"]["id"])
        self.teams.add(json.dumps(view["teams"]))
        return babylon_bots.make_bot("medium").act(view, legal, seed)


def test_play_game_passes_the_options_and_keeps_first_player() -> None:
    spy = FloorSpy()
    record = play_game(
        ["medium"] * 4,
        seed=3,
        rules="engine.babylon",
        bots=[spy] * 4,
        options={"floor": "tammuz", "teams": True},
    )
    assert spy.floors == {"tammuz"}
    assert spy.teams == {json.dumps([[0, 2], [1, 3]])}
    assert record.first_player == 0
    assert record.scores["teams"] is not None


def test_the_command_plays_the_floor_named_by_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = _simulate(
        "--players",
        "2",
        "--bots",
        "medium,easy",
        "--options",
        '{"floor": "middle"}',
        "--json",
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["options"] == {"floor": "middle"}
    assert summary["games"] == 1


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ("{floor", "--options is not JSON"),
        ('["ishtar"]', "--options is one JSON object"),
        ('{"floor": "attic"}', "The floor is one of"),
        ('{"teams": true}', "Team mode is for exactly 4 players"),
        ('{"colour": "red"}', "has no option 'colour'"),
    ],
)
def test_bad_options_are_refused_before_any_game(
    capsys: pytest.CaptureFixture[str], options: str, says: str
) -> None:
    assert _simulate("--players", "2", "--bots", "easy,easy", "--options", options) == 2
    assert says in capsys.readouterr().err


def test_ishtar_simulate_names_the_game_with_its_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The server's registry (app/games.py) gives `simulate` Babylon Gardens' bots."""
    from app.ops import cli

    argv = ["simulate", "--game", "babylon-gardens", "--players", "2", "--bots"]
    rest = ["--games", "1", "--jobs", "1", "--json", "--options", '{"floor": "roof"}']
    assert cli.main([*argv, "hard,medium", *rest]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "babylon-gardens"
    assert set(summary["win_rates"]) == {"hard", "medium"}
