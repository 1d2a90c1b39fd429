"""The hard bot's thinking per move, and a fingerprint of what it decided.

    python -m bench.bot_think [--games 4] [--seed 9000] [--players 2] [--bots hard,medium]
                              [--jobs 1] [--json]

Plays `--games` whole Ishtar games in this process, one after another, with the seats
rotated as in ``ishtar simulate`` (the same seeds give the same games), and prints for each
bot level the CPU time per move it asked for (mean, p50, p95, p99, max, over every move
with more than one legal action, as ``simulate`` counts them), the scores, and a
*fingerprint*: a SHA-256 of every game's record without its timings (the scores by
category, turns, steps, skills and tree cards of each seat).

The bots' budget is a number of playouts, so two builds that decide alike print the same
fingerprint whatever the machine's speed: an optimisation that claims to change no decision
is checked by it, and its speed-up by the CPU figures, alternating the builds. To run
another checkout's code, run this file from it with ``python -S -m bench.bot_think``: the
project's editable install maps ``bots`` and ``engine`` to the checkout it was installed
from whatever the current directory (the engine and bots need only the standard library);
the report names the checkout whose code it ran (``code``).

Besides the levels of ``bots.ishtar``, ``--bots`` takes ``hard-unbounded``: the hard bot
without its bound on the work of a move (``HardBot(work=math.inf)``, the search as it was
before the bound), to measure what the bound costs in strength head to head.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
from pathlib import Path
from typing import Any

import bots
from bots.ishtar import HardBot
from bots.ishtar import think as ishtar_think
from bots.simulate import run
from bots.stats import timing, wilson

UNBOUNDED = "hard-unbounded"


def think(
    level: str, view: dict[str, Any], legal: Any, seed: int, think_s: float | None
) -> Any:
    """`bots.ishtar.think`, and the hard bot without its work bound as `hard-unbounded`."""
    if level == UNBOUNDED:
        return HardBot(time_limit=think_s, work=math.inf).act(view, legal, seed)
    return ishtar_think(level, view, legal, seed, think_s)


def figures(values: list[float]) -> dict[str, float]:
    """`bots.stats.timing` (as `simulate` reports it), to a tenth of a millisecond."""
    return {k: round(v, 1) for k, v in timing(values).items()}


def fingerprint(records: list[Any]) -> str:
    digest = hashlib.sha256()
    for r in records:
        decided = {
            "seed": r.seed,
            "levels": r.levels,
            "scores": r.scores,
            "turns": r.turns,
            "steps": r.steps,
            "skills": r.skills,
            "tree_cards": r.tree_cards,
        }
        digest.update(json.dumps(decided, sort_keys=True).encode())
    return digest.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="hard,medium")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or not 2 <= args.players <= 4:
        parser.error("--games must be at least 1 and --players 2 to 4")
    levels = args.bots.split(",")
    seats = [levels[i % len(levels)] for i in range(args.players)]
    records = run(seats, args.games, args.seed, jobs=max(1, args.jobs), think=think)
    cpu: dict[str, list[float]] = {}
    wins: dict[str, float] = {}
    for r in records:
        for level, values in r.cpu_ms.items():
            cpu.setdefault(level, []).extend(values)
        totals = [p["total"] for p in r.scores["players"]]
        best = max(totals)
        for seat, total in enumerate(totals):
            level = r.levels[seat]
            wins[level] = wins.get(level, 0.0) + (
                1.0 / totals.count(best) if total == best else 0.0
            )
    report = {
        "games": args.games,
        "seed": args.seed,
        "bots": seats,
        "code": str(Path(bots.__file__).resolve().parent.parent),
        "fingerprint": fingerprint(records),
        "wins": wins,
        "win_rate_95": {
            level: [round(x, 3) for x in wilson(w, args.games)]
            for level, w in wins.items()
        },
        "cpu_ms_per_move": {level: figures(v) for level, v in cpu.items()},
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"{args.games} games of {','.join(seats)} from seed {args.seed} ({report['code']}):"
        f" fingerprint {report['fingerprint']}, wins {wins}"
        f" (95 % intervals of the win rate {report['win_rate_95']})"
    )
    for level, f in report["cpu_ms_per_move"].items():
        if f["moves"]:
            print(
                f"  {level:<7} CPU ms per move over {f['moves']} moves: mean {f['mean']},"
                f" p50 {f['p50']}, p95 {f['p95']}, p99 {f['p99']}, max {f['max']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
