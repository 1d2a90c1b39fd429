"""The `simulate` command: seat rotation, pooled win rates, Wilson intervals, the JSON keys."""

from __future__ import annotations

import json

import pytest

import bots.ishtar as ishtar_bots
from bots.match import GameRecord
from bots.simulate import GameBots, register_simulate, run, seating
from bots.stats import summarize, wilson

ISHTAR_BOTS = {
    "ishtar": GameBots(
        "engine.ishtar", ishtar_bots.think, ishtar_bots.LEVELS, range(2, 5)
    )
}


def test_seats_rotate_so_every_level_plays_every_position() -> None:
    bots = ["hard", "medium", "easy", "easy"]
    seen = {(seating(bots, g)[seat], seat) for g in range(4) for seat in range(4)}
    assert {(level, seat) for level in set(bots) for seat in range(4)} <= seen


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(9, 10)
    assert low == pytest.approx(0.5958, abs=1e-3)
    assert high == pytest.approx(0.9821, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def record(levels: list[str], winners: list[int], first: int = 0) -> GameRecord:
    players = [
        {
            "seat": s,
            "total": 10 * (s in winners),
            "categories": {"trees": 10 * (s in winners)},
        }
        for s in range(len(levels))
    ]
    return GameRecord(
        seed=0,
        levels=levels,
        first_player=first,
        scores={"players": players, "winners": winners, "tiebreak": None},
        turns=20,
        steps=80,
        skills=[{} for _ in levels],
        tree_cards=[[] for _ in levels],
        think_ms={level: [1.0] for level in levels},
    )


def test_shared_wins_count_as_fractions_and_levels_are_pooled() -> None:
    records = [
        record(["medium", "easy", "easy"], [0]),
        record(["easy", "medium", "easy"], [0, 1]),
    ]
    summary = summarize(records)
    assert summary["win_rates"]["medium"]["rate"] == pytest.approx(0.75)
    assert summary["win_rates"]["easy"]["rate"] == pytest.approx(0.5 / 4)
    assert summary["first_player_win_rate"] == pytest.approx(0.75)
    assert summary["avg_scores"]["medium"]["trees"] == pytest.approx(10)


def test_a_run_is_the_same_whatever_the_number_of_jobs() -> None:
    one = run(["easy", "easy"], games=3, seed=4, jobs=1, think=ishtar_bots.think)
    two = run(["easy", "easy"], games=3, seed=4, jobs=2, think=ishtar_bots.think)
    assert [r.scores for r in one] == [r.scores for r in two]


def test_the_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    register_simulate(parser.add_subparsers(dest="command"), ISHTAR_BOTS.get)
    args = parser.parse_args(
        [
            "simulate",
            "--players",
            "2",
            "--bots",
            "medium,easy",
            "--games",
            "2",
            "--json",
        ]
    )
    assert args.handler(args) == 0
    summary = json.loads(capsys.readouterr().out)
    for key in (
        "games",
        "win_rates",
        "avg_scores",
        "first_player_win_rate",
        "avg_turns",
    ):
        assert key in summary
    assert summary["games"] == 2
    assert set(summary["win_rates"]) == {"medium", "easy"}
    assert set(summary["win_rates"]["medium"]) >= {"rate", "ci_low", "ci_high"}


def test_the_command_refuses_a_seat_count_that_does_not_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    register_simulate(parser.add_subparsers(dest="command"), ISHTAR_BOTS.get)
    args = parser.parse_args(["simulate", "--players", "3", "--bots", "medium,easy"])
    assert args.handler(args) == 2
    assert "--players" in capsys.readouterr().err


def test_ishtar_simulate_plays_the_game_named_by_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ishtar simulate --game ID` asks the server's registry: a game with bots plays
    (through its descriptor's `think`), one without says so, an unknown one too."""
    from app.config.settings import get_settings
    from app.ops import cli

    monkeypatch.setenv("ISHTAR_EXTRA_GAMES", "tests.app.toygame")
    get_settings.cache_clear()
    try:
        base = ["simulate", "--players", "2", "--bots", "easy,easy", "--games", "1"]
        assert cli.main([*base, "--game", "ishtar", "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["game"] == "ishtar" and summary["games"] == 1
        assert cli.main([*base, "--game", "toy"]) == 2
        assert "has no bots yet" in capsys.readouterr().err
        assert cli.main([*base, "--game", "chess"]) == 2
        assert "no game 'chess'" in capsys.readouterr().err
        assert cli.main([*base[:2], "5", *base[3:], "--game", "ishtar"]) == 2
        assert "2 to 4 players" in capsys.readouterr().err
    finally:
        get_settings.cache_clear()
