"""`bench.luck_sources` keeps working, and what docs/analysis.md ("5. Luck") says of the
medium bots holds: the same deal and hidden order played again with other bot seeds gives
the same game, so their own choices add nothing to a result's variance and AIVAT's term for
them is zero. The figures themselves are for the docs, not for assertions."""

from __future__ import annotations

import json

import pytest

from bench.luck_sources import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_medium_bots_play_a_deal_alike_whatever_their_seeds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = run(
        capsys,
        *("within", "--game", "ishtar", "--levels", "medium,medium"),
        *("--deals", "2", "--seeds", "2"),
    )
    assert result["deals_alike_whatever_the_seed"] == 2
    assert result["within_share"] == 0.0
    results = result["results"]
    assert isinstance(results, list) and len(results) == 2
    assert all(len(deal) == 2 for deal in results)


@pytest.mark.slow
def test_the_choices_term_of_a_bot_that_never_varies_is_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = run(
        capsys,
        *("choices", "--game", "ishtar", "--levels", "medium,medium"),
        *("--games", "2", "--alternatives", "1", "--luck-samples", "2"),
    )
    assert result["alternatives_differing_by_level"] == [0, 0]
    decisions = result["decisions_by_level"]
    assert isinstance(decisions, list) and min(decisions) > 0
    assert result["choices"] == {"mean": 0.0, "sd": 0.0, "correlation_with_raw": None}
    assert result["less_choices"] == result["raw"]


def test_two_levels_are_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["within", "--game", "ishtar", "--levels", "hard"])
    assert "two bots" in capsys.readouterr().err
