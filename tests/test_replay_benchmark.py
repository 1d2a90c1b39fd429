"""`bench.replays` keeps working: a small run end to end prints every documented figure.

The figures are for docs/benchmarks.md ("Replays and the position cache"), not for
assertions (the machine is shared)."""

from __future__ import annotations

import pytest

from tests.test_benchmarks import run_json

pytestmark = pytest.mark.slow


def test_the_replay_benchmark_reports_its_figures(postgres: str) -> None:
    result = run_json(
        "bench.replays",
        *("--rooms", "1", "--records", "2", "--moves", "200"),
        *("--rounds", "1", "--clients", "2", "--idle-moves", "3"),
        database=postgres,
    )
    figures = result["ishtar"]
    assert isinstance(figures, dict)
    for key in (
        "uncached_room_replay_ms",
        "uncached_record_replay_ms",
        "cycled_room_replay_ms",
        "cycled_record_replay_ms",
        "rss_before_mib",
        "rss_after_mib",
        "other_move_idle_ms",
        "other_move_while_replays_ms",
    ):
        assert key in figures, key
    assert figures["uncached_record_replay_ms"]["n"] == 2
