"""`python -m bots.babylon.balance`: the report's tables from medium games on each floor."""

from __future__ import annotations

import pytest

from bots.babylon import balance


def test_the_report_has_a_row_per_floor_and_player_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--games", "2", "--players", "2,3", "--floors", "lower,tammuz"]
    assert balance.main(argv) == 0
    out = capsys.readouterr().out
    assert "| floor | players | games | turns per player | position 1 |" in out
    assert "| fill | colour | lines |" in out
    for name in ("Lower Garden", "Tammuz's Garden"):
        assert out.count(f"| {name} | 2 |") == 2
        assert out.count(f"| {name} | 3 |") == 2


@pytest.mark.parametrize(
    "argv",
    [["--floors", "attic"], ["--players", "5"], ["--players", "two"], ["--games", "0"]],
)
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as error:
        balance.main(argv)
    assert error.value.code == 2
