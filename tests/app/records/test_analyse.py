"""`ishtar analyse record.json` and `analyse_record`: a finished record of each game analysed
through its engine and bots (the analysis package names no game), refusals for the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games import registry
from app.ops.cli import main
from app.records.analysis import NotAnalysable, analyse_record, depth_for
from app.records.gamerecord import RecordError
from bots.analysis import Depth
from tests.app.records.finished import bot_record

SHALLOW = {"rollouts": 2, "luck_samples": 4}
"""A small depth: the suite stays fast (docs/analysis.md measures the default)."""


def test_a_babylon_gardens_record_is_analysed_through_its_bots() -> None:
    record = bot_record("babylon-gardens", 2, seed=7)
    report = analyse_record(registry(()), record, SHALLOW)
    assert report["game"] == "babylon-gardens"
    assert report["complete"] is True
    assert report["moves_done"] == len(record["moves"])
    assert len(report["points"]) == len(record["moves"]) + 1
    assert any(m["chance"] for m in report["moves"])  # tiles drawn after harvests
    final = report["points"][-1]["score"]
    assert final == [
        float(p["total"])
        for p in sorted(record["result"]["players"], key=lambda p: p["seat"])
    ]
    for player in report["players"]:
        assert player["decisions"] > 0
        assert player["luck_adjusted"] == pytest.approx(
            player["score"] - player["luck"]
        )


def test_a_game_not_over_is_not_analysed() -> None:
    record = bot_record("babylon-gardens", 2, seed=7)
    record.update(status="playing", finished_at=None, seed=None, result=None)
    record["moves"] = record["moves"][:10]
    record["version"] = 10
    with pytest.raises(NotAnalysable) as refused:
        analyse_record(registry(()), record, SHALLOW)
    assert refused.value.code == "game_not_over"


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = bot_record("babylon-gardens", 2, seed=7)
    record["moves"][3]["action"] = {"type": "nonsense"}
    with pytest.raises(RecordError):
        analyse_record(registry(()), record, SHALLOW)


def test_the_command_prints_the_analysis_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bot_record("babylon-gardens", 3, seed=11)))
    assert main(["analyse", str(path), "--rollouts", "2", "--luck-samples", "4"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["format"] == "ishtar-online/analysis"
    assert len(printed["players"]) == 3
    assert printed["depth"]["rollouts"] == 2


def test_the_command_refuses_what_is_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"not": "a record"}')
    assert main(["analyse", str(path), "--rollouts", "2", "--luck-samples", "4"]) == 1
    assert "not a game record" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2


def test_a_game_may_set_its_own_depth_and_a_caller_overrides_it() -> None:
    games = registry(())
    babylon = depth_for(games.get("babylon-gardens"), {"rollouts": 2})
    assert (babylon.luck_samples, babylon.luck_plies, babylon.rollouts) == (64, 32, 2)
    assert depth_for(games.get("ishtar")) == Depth(horizon=8)
    # Ishtar's bots give a value of a position, for a depth that asks for it
    assert games.get("ishtar").value is not None
    assert games.get("babylon-gardens").value is None
    record = bot_record("babylon-gardens", 2, seed=7)
    report = analyse_record(games, record, {"rollouts": 2, "luck_plies": 2})
    # the game's 64 luck samples stay where the caller says nothing of them
    assert report["depth"]["luck_samples"] == 64 and report["depth"]["luck_plies"] == 2
