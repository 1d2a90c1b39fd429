"""`python -m bots.ishtar.balance`: the target table of issue 16 and `--check`'s exit code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bots.ishtar import balance
from engine.ishtar.editions import EDITION_1

TREE_CARDS = EDITION_1.tree_cards  # the same 26 card ids in every edition


def run(players: int, **changes: Any) -> dict[str, Any]:
    """A synthetic `ishtar simulate --json` summary that meets every target."""
    fair = 1 / players
    skills = {
        s: {
            "unlock_rate": 0.3,
            "avg_vp_when_unlocked": 8.0,
            "win_rate_when_unlocked": fair,
        }
        for s in "ABCDEFGHIJ"
    }
    summary: dict[str, Any] = {
        "players": players,
        "games": 10,
        "first_player_win_rate": fair,
        "first_player_ci": [0.0, 1.0],
        "position_win_rates": {str(p + 1): fair for p in range(players)},
        "avg_turns": 20.0,
        "avg_scores": {"medium": {"total": 60.0}},
        "category_share": {
            "trees": 0.35,
            "flowers": 0.25,
            "fountains": 0.10,
            **{f"skill_{s}": 0.06 for s in "ABCDE"},
        },
        "winner_led_category": {},
        "skills": skills,
        "tree_cards": {
            "avg_per_player": {"medium": 3.0},
            "bought_per_game": {str(c): 0.3 for c in TREE_CARDS},
        },
    }
    summary.update(changes)
    return summary


def write(tmp_path: Path, runs: list[dict[str, Any]]) -> list[str]:
    paths = []
    for k, r in enumerate(runs):
        path = tmp_path / f"b{k}.json"
        path.write_text(json.dumps(r), encoding="utf-8")
        paths.append(str(path))
    return paths


def rows(out: str) -> dict[str, str]:
    """The verdict of each measure of the target table."""
    found = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) > 2 and cells[-1] in ("met", "MISSED"):
            found[cells[0]] = cells[-1]
    return found


def test_every_target_met_passes_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = write(tmp_path, [run(2), run(3), run(4)])
    assert balance.main([*paths, "--check"]) == 0
    verdicts = rows(capsys.readouterr().out)
    assert set(verdicts.values()) == {"met"}
    assert "mean total per player" in verdicts


def test_a_seat_advantage_is_missed_and_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unfair = run(2, position_win_rates={"1": 0.4, "2": 0.6})
    paths = write(tmp_path, [unfair, run(3)])
    assert balance.main([*paths, "--check"]) == 1
    verdicts = rows(capsys.readouterr().out)
    assert verdicts["win rate of position 1 − fair"] == "MISSED"
    assert verdicts["win rate of position 3 − fair"] == "met"


def test_without_check_a_miss_still_exits_zero(tmp_path: Path) -> None:
    paths = write(tmp_path, [run(2, avg_scores={"medium": {"total": 84.0}})])
    assert balance.main(paths) == 0
    assert balance.main([*paths, "--check"]) == 1


def test_a_card_never_bought_misses_in_two_players_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bought = {str(c): 0.3 for c in TREE_CARDS if c != 8}
    cards = {"avg_per_player": {"medium": 3.0}, "bought_per_game": bought}
    paths = write(tmp_path, [run(3, tree_cards=cards)])
    assert balance.main([*paths, "--check"]) == 0
    paths = write(tmp_path, [run(2, tree_cards=cards)])
    assert balance.main([*paths, "--check"]) == 1
    assert (
        rows(capsys.readouterr().out)["least-bought tree card, share of games"]
        == "MISSED"
    )


def test_a_dominant_skill_and_a_rare_one_are_missed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shares = {"trees": 0.3, "flowers": 0.25, "fountains": 0.1, "skill_E": 0.2}
    skills = run(2)["skills"]
    skills["H"] = {**skills["H"], "unlock_rate": 0.95}
    paths = write(tmp_path, [run(2, category_share=shares, skills=skills)])
    assert balance.main([*paths, "--check"]) == 1
    verdicts = rows(capsys.readouterr().out)
    assert verdicts["share: largest single skill"] == "MISSED"
    assert verdicts["share: upper skills"] == "met"
    assert verdicts["skill H unlocked"] == "MISSED"
    assert verdicts["skill G unlocked"] == "met"


def test_play_runs_the_games_and_prints_the_target_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One command plays the runs (here two 2-player games between easy bots), saves their
    JSON and prints the report with the targets; a missed target fails --check."""
    args = ["--play", "--players", "2", "--bots", "easy", "--games", "2"]
    args += ["--jobs", "1", "--edition", "3", "--save", str(tmp_path), "--check"]
    code = balance.main(args)
    out = capsys.readouterr().out
    saved = json.loads((tmp_path / "balance-2p.json").read_text(encoding="utf-8"))
    assert saved["players"] == 2 and saved["games"] == 2
    assert saved["options"] == {"edition": "3"}
    verdicts = rows(out)
    assert "mean total per player" in verdicts
    assert code == (1 if "MISSED" in verdicts.values() else 0)
    # the saved run read back gives the same table
    assert balance.main([str(tmp_path / "balance-2p.json")]) == 0
    assert rows(capsys.readouterr().out) == verdicts


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--play", "some.json"],
        ["--play", "--players", "5"],
        ["--play", "--players", "two"],
        ["--play", "--bots", "genius"],
        ["--play", "--edition", "9"],
        ["--play", "--games", "0"],
    ],
)
def test_bad_arguments_are_refused_before_any_game(args: list[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        balance.main(args)
    assert refused.value.code == 2
