"""The largest number of live rooms one and two workers hold: issue 35's target 4 in one run.

    python -m bench.largest --rooms 1500,2000,2500,3000 --workers 1,2 --repeat 3
                            [--seconds 30] [--p99-ms 100] [--json] [-- SCALE_ARGS...]

For each N in ``--rooms`` and each repeat, `bench.scale` plays N rooms against ours served
by ``ishtar serve --workers W`` for each W of ``--workers``, alternating their order from
one repeat to the next (1, 2, then 2, 1, ...): this machine's speed drifts from minute to
minute (the same commit's CPU a move varied by a third between runs minutes apart), so each
W meets the same stretches. Each run is a `bench.scale --target ishtar --json` subprocess,
on a fresh database and server; arguments after ``--`` go to every one of them (for
example ``-- --think 2-6 --settle 2``).

N is held by W when the median p99 of its runs is at most ``--p99-ms`` (100 ms) and none of
them left a move undelivered or had an error. The largest N held is reported for each W,
with the ratio of each W's to the first W's (the target: two workers hold at least 1.5
times the rooms of one), and every run's p99, CPU a move and cores used, so that a median
can be read against its spread.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.procs import die_with_parent

P99_MS = 100.0
"""The p99 a number of rooms is held at (issue 35, target 4)."""

Runner = Callable[[int, int, float, Sequence[str]], dict[str, Any]]
"""Plays N rooms on W workers for S seconds (with extra `bench.scale` arguments): the run."""


@dataclass
class Plan:
    rooms: list[int] = field(default_factory=lambda: [1500, 2000, 2500, 3000])
    workers: list[int] = field(default_factory=lambda: [1, 2])
    repeat: int = 3
    seconds: float = 30.0
    p99_ms: float = P99_MS
    extra: list[str] = field(default_factory=list)


def scale_run(
    rooms: int, workers: int, seconds: float, extra: Sequence[str]
) -> dict[str, Any]:
    """One `bench.scale` run of ours on `workers` workers: its run's figures."""
    argv = [
        sys.executable,
        "-m",
        "bench.scale",
        *("--rooms", str(rooms), "--seconds", str(seconds)),
        *("--target", "ishtar", "--workers", str(workers), "--json"),
        *extra,
    ]
    # the run dies with this search, even a SIGKILLed one (its servers and PostgreSQL too)
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=die_with_parent if sys.platform == "linux" else None,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"bench.scale --rooms {rooms} --workers {workers} failed: {done.stderr[-2000:]}"
        )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return next(r for r in report["runs"] if r["target"] == "ishtar")


def order(workers: Sequence[int], repeat: int) -> list[int]:
    """The workers' order in a repeat: as given in even ones, reversed in odd ones.

    >>> order([1, 2], 0), order([1, 2], 1)
    ([1, 2], [2, 1])
    """
    return list(workers) if repeat % 2 == 0 else list(workers)[::-1]


def held(runs: Sequence[dict[str, Any]], p99_ms: float) -> bool:
    """Whether these runs of one N on one W hold it: median p99 within the bound, and
    nothing undelivered and no error in any of them."""
    return (
        bool(runs)
        and statistics.median(r["p99_ms"] for r in runs) <= p99_ms
        and all(r["undelivered"] == 0 and r["errors"] == 0 for r in runs)
    )


def search(
    plan: Plan, run: Runner = scale_run, say: Callable[[str], None] = print
) -> dict[str, Any]:
    """Every N of the plan on every W, alternating; the largest N each W holds."""
    runs: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for n in plan.rooms:
        for repeat in range(plan.repeat):
            for w in order(plan.workers, repeat):
                result = run(n, w, plan.seconds, plan.extra)
                runs.setdefault((n, w), []).append(result)
                say(
                    f"{n} rooms, {w} worker(s), run {repeat + 1}: p99 {result['p99_ms']} ms,"
                    f" CPU a move {result['server_cpu_ms_per_move']} ms,"
                    f" undelivered {result['undelivered']}, errors {result['errors']}"
                )
    rows = []
    for (n, w), rs in sorted(runs.items()):
        rows.append(
            {
                "rooms": n,
                "workers": w,
                "p99_ms": [r["p99_ms"] for r in rs],
                "p99_ms_median": statistics.median(r["p99_ms"] for r in rs),
                "server_cpu_ms_per_move": [r["server_cpu_ms_per_move"] for r in rs],
                "cores": [
                    round(
                        (
                            r["server_cpu_percent"]
                            + r["pg_cpu_percent"]
                            + r["driver_cpu_percent"]
                        )
                        / 100,
                        2,
                    )
                    for r in rs
                ],
                "undelivered": sum(r["undelivered"] for r in rs),
                "errors": sum(r["errors"] for r in rs),
                "held": held(rs, plan.p99_ms),
            }
        )
    largest = {
        w: max(
            (row["rooms"] for row in rows if row["workers"] == w and row["held"]),
            default=0,
        )
        for w in plan.workers
    }
    first = largest[plan.workers[0]]
    return {
        "plan": {
            "rooms": plan.rooms,
            "workers": plan.workers,
            "repeat": plan.repeat,
            "seconds": plan.seconds,
            "p99_ms": plan.p99_ms,
            "extra": plan.extra,
        },
        "rows": rows,
        "largest": {str(w): n for w, n in largest.items()},
        "ratio_to_first": {
            str(w): round(n / first, 2) if first else None for w, n in largest.items()
        },
    }


def parse_ints(text: str) -> list[int]:
    values = [int(part) for part in text.split(",") if part.strip()]
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError("a comma-separated list of positive numbers")
    return values


def main(argv: Sequence[str] | None = None) -> None:
    args_list = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in args_list:
        cut = args_list.index("--")
        args_list, extra = args_list[:cut], args_list[cut + 1 :]
    parser = argparse.ArgumentParser(
        description="The largest N of live rooms each number of workers holds."
    )
    default = Plan()
    parser.add_argument("--rooms", type=parse_ints, default=default.rooms)
    parser.add_argument("--workers", type=parse_ints, default=default.workers)
    parser.add_argument("--repeat", type=int, default=default.repeat)
    parser.add_argument("--seconds", type=float, default=default.seconds)
    parser.add_argument("--p99-ms", type=float, default=default.p99_ms)
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = parser.parse_args(args_list)
    if args.repeat < 1:
        parser.error("--repeat: at least 1")
    plan = Plan(
        rooms=args.rooms,
        workers=args.workers,
        repeat=args.repeat,
        seconds=args.seconds,
        p99_ms=args.p99_ms,
        extra=extra,
    )

    def say(line: str) -> None:
        print(line, file=sys.stderr if args.json else sys.stdout, flush=True)

    report = search(plan, say=say)
    if args.json:
        print(json.dumps(report))
        return
    print(f"held: median p99 <= {plan.p99_ms} ms, nothing undelivered, no error")
    for row in report["rows"]:
        print(
            f"{row['rooms']:>6} rooms, {row['workers']} worker(s): p99 median"
            f" {row['p99_ms_median']} ms (runs {row['p99_ms']}), CPU a move"
            f" {row['server_cpu_ms_per_move']} ms, cores used {row['cores']}:"
            f" {'held' if row['held'] else 'not held'}"
        )
    for w, n in report["largest"].items():
        print(
            f"largest N held by {w} worker(s): {n} ({report['ratio_to_first'][w]} x the first)"
        )


if __name__ == "__main__":
    main()
