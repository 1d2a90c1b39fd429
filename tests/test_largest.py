"""bench.largest: the search for the largest number of rooms each number of workers holds
(issue 35, target 4), with a stand-in for `bench.scale`'s runs. tests/test_benchmarks.py
runs it for real."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bench.largest import Plan, held, main, order, parse_ints, search


def a_run(p99_ms: float, undelivered: int = 0, errors: int = 0) -> dict[str, Any]:
    return {
        "p99_ms": p99_ms,
        "undelivered": undelivered,
        "errors": errors,
        "server_cpu_ms_per_move": 1.2,
        "server_cpu_percent": 60.0,
        "pg_cpu_percent": 20.0,
        "driver_cpu_percent": 30.0,
    }


def test_the_workers_alternate_from_one_repeat_to_the_next() -> None:
    calls: list[tuple[int, int]] = []

    def run(n: int, w: int, seconds: float, extra: Sequence[str]) -> dict[str, Any]:
        calls.append((n, w))
        assert seconds == 5 and list(extra) == ["--think", "1-2"]
        return a_run(10)

    search(
        Plan(
            rooms=[10, 20],
            workers=[1, 2],
            repeat=3,
            seconds=5,
            extra=["--think", "1-2"],
        ),
        run,
        say=lambda _: None,
    )
    assert calls == [
        (10, 1), (10, 2), (10, 2), (10, 1), (10, 1), (10, 2),
        (20, 1), (20, 2), (20, 2), (20, 1), (20, 1), (20, 2),
    ]  # fmt: skip


def test_a_number_is_held_by_the_median_p99_and_nothing_lost() -> None:
    assert held([a_run(50), a_run(500), a_run(90)], 100)  # median 90
    assert not held([a_run(50), a_run(500), a_run(110)], 100)  # median 110
    assert not held([a_run(5), a_run(5, undelivered=1), a_run(5)], 100)
    assert not held([a_run(5), a_run(5, errors=2)], 100)
    assert not held([], 100)


def test_the_largest_number_held_and_its_ratio_to_one_worker() -> None:
    # One worker holds 1,000 and 2,000 rooms; two hold up to 3,000.
    p99 = {(1000, 1): 20, (2000, 1): 80, (3000, 1): 900, (1000, 2): 15, (2000, 2): 40}
    p99[(3000, 2)] = 95

    def run(n: int, w: int, seconds: float, extra: Sequence[str]) -> dict[str, Any]:
        return a_run(p99[(n, w)])

    report = search(Plan(rooms=[1000, 2000, 3000], repeat=1), run, say=lambda _: None)
    assert report["largest"] == {"1": 2000, "2": 3000}
    assert report["ratio_to_first"] == {"1": 1.0, "2": 1.5}
    row = next(r for r in report["rows"] if r["rooms"] == 3000 and r["workers"] == 1)
    assert row["held"] is False and row["p99_ms"] == [900]
    assert row["cores"] == [1.1]


def test_none_held_is_zero_and_no_ratio() -> None:
    def run(n: int, w: int, seconds: float, extra: Sequence[str]) -> dict[str, Any]:
        return a_run(1000)

    report = search(Plan(rooms=[100], repeat=1), run, say=lambda _: None)
    assert report["largest"] == {"1": 0, "2": 0}
    assert report["ratio_to_first"] == {"1": None, "2": None}


def test_bad_arguments_are_refused() -> None:
    assert order([1, 2, 4], 1) == [4, 2, 1]
    assert parse_ints("1, 2") == [1, 2]
    for bad in ("--rooms", "0"), ("--workers", ""), ("--repeat", "0"):
        with pytest.raises(SystemExit):
            main([*bad])
