"""Golden playthroughs: the seeded games replay exactly as recorded."""

from __future__ import annotations

import json

import pytest

from engine.ishtar import final_scores, replay
from tests.engine.ishtar.golden_games import (
    EDITION,
    GAMES,
    GOLDEN_DIR,
    file_name,
    play,
    render,
)


@pytest.mark.parametrize(("players", "seed", "layout"), GAMES)
def test_golden_playthrough_is_unchanged(
    players: int, seed: int, layout: str | None
) -> None:
    path = GOLDEN_DIR / file_name(players, seed)
    assert render(play(players, seed, layout)) == path.read_text(), (
        f"{path.name} differs: run python -m tests.engine.ishtar.regenerate_golden and review the diff"
    )


@pytest.mark.parametrize(("players", "seed", "layout"), GAMES)
def test_golden_actions_replay_to_the_recorded_scores(
    players: int, seed: int, layout: str | None
) -> None:
    record = json.loads((GOLDEN_DIR / file_name(players, seed)).read_text())
    setup = {**record["setup"], "edition": EDITION}
    state = replay(setup, [step["action"] for step in record["steps"]])
    assert final_scores(state) == record["scores"]
