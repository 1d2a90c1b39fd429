"""bench/bot_fairness.py keeps working: a tiny run end to end, its JSON keys checked.

The figures are for docs/benchmarks.md ("Bot fairness"), not for assertions (the machine is
shared); this only checks that the script serves, times the bot's turns and reports them.
"""

from __future__ import annotations

import pytest

from tests.test_benchmarks import run_json

pytestmark = pytest.mark.slow


def test_the_bot_fairness_benchmark_times_a_bots_turns_beside_busy_rooms(
    postgres: str,
) -> None:
    result = run_json(
        "bench.bot_fairness",
        *("--busy", "1", "--levels", "easy", "--turns", "2", "--window", "60"),
        database=postgres,
    )
    runs = result["runs"]
    assert isinstance(runs, list) and len(runs) == 1
    (run,) = runs
    assert run["busy_rooms"] == 1 and run["level"] == "easy"
    assert run["turns"] == 2 and len(run["turn_s"]) == len(run["steps"]) == 2
    assert all(steps >= 1 for steps in run["steps"])
    for key in (
        "turn_s_median",
        "turn_s_max",
        "overhead_s_median",
        "unfinished_turn_s",
    ):
        assert key in run, key
