"""Golden playthroughs: the seeded games replay exactly as recorded, move by move."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.babylon import (
    apply,
    decode_action,
    final_scores,
    legal_actions,
    new_game,
    public_setup,
)
from tests.engine.babylon.golden_games import GAMES, GOLDEN_DIR, file_name, play, render
from tests.engine.babylon.in_english import narrate


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_golden_playthrough_is_unchanged(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    path = GOLDEN_DIR / file_name(players, seed, options)
    assert render(play(players, seed, options)) == path.read_text(), (
        f"{path.name} differs: run python -m tests.engine.babylon.regenerate_golden "
        "and review the diff"
    )


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_golden_actions_replay_move_by_move(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    record = json.loads((GOLDEN_DIR / file_name(players, seed, options)).read_text())
    setup = record["setup"]
    state = new_game(setup["players"], setup["seed"], setup["options"])
    assert public_setup(state) == record["drawn"]
    for step in record["steps"]:
        action = decode_action(step["action"])
        assert state.current == step["seat"]
        assert state.phase == step["phase"]
        assert len(legal_actions(state)) == step["legal"]
        assert narrate(state, action) == step["log"]
        state = apply(state, action)
    assert final_scores(state) == record["scores"]


def test_golden_games_cover_every_floor_and_option() -> None:
    floors = {options["floor"] for _, _, options in GAMES}
    assert floors == {"lower", "middle", "higher", "roof", "ishtar", "tammuz"}
    assert {players for players, _, _ in GAMES} == {2, 3, 4}
    assert any(options.get("teams") for _, _, options in GAMES)
    assert any(options.get("scoreboards") == "choose" for _, _, options in GAMES)
    assert any(options.get("first_player") is not None for _, _, options in GAMES)
