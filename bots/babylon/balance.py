"""The balance report of Babylon Gardens' six floors (docs/games/babylon/balance.md).

    python -m bots.babylon.balance --games 200 --players 2,3,4 --seed 1 --jobs 1

plays medium bots against each other on every floor and player count (seats rotated, seat 0
first: bots/simulate.py) and prints Markdown tables: game length (turns per player), the
win rate of each position in the turn order with its 95 % Wilson interval (the first
player's advantage), and the points a player scores by category (fill, colour, lines).
`--json` prints the raw summaries instead.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from bots.babylon import think
from bots.simulate import run
from bots.stats import summarize, wilson
from engine.babylon.floors import FLOOR_IDS, floor

CATEGORIES = ("fill", "colour", "lines")


def measure(
    floor_id: str, players: int, games: int, seed: int, jobs: int = 1
) -> dict[str, Any]:
    """The `simulate` summary of `games` medium games on a floor, with its settings."""
    records = run(
        ["medium"] * players,
        games,
        seed,
        jobs,
        rules="engine.babylon",
        think=think,
        options={"floor": floor_id},
    )
    summary = summarize(records)
    summary.update(floor=floor_id, players=players, seed=seed)
    return summary


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def position_cell(summary: dict[str, Any], position: int) -> str:
    """A position's win rate and its interval, or a dash beyond the player count."""
    if position > summary["players"]:
        return "–"
    games = summary["games"]
    rate = summary["position_win_rates"][str(position)]
    low, high = wilson(rate * games, games)
    return f"{pct(rate)} [{pct(low)}, {pct(high)}]"


def tables(runs: Sequence[dict[str, Any]]) -> str:
    """The report's Markdown: one row per floor and player count."""
    head = (
        "| floor | players | games | turns per player | position 1 | position 2 "
        "| position 3 | position 4 |"
    )
    out = [head, "|---" * 8 + "|"]
    for r in runs:
        cells = [
            floor(r["floor"]).name,
            str(r["players"]),
            str(r["games"]),
            f"{r['avg_turns'] / r['players']:.1f}",
            *(position_cell(r, p) for p in range(1, 5)),
        ]
        out.append("| " + " | ".join(cells) + " |")
    out += [
        "",
        "| floor | players | points per player | fill | colour | lines "
        "| share fill / colour / lines |",
        "|---" * 7 + "|",
    ]
    for r in runs:
        scores = r["avg_scores"]["medium"]
        share = r["category_share"]
        cells = [
            floor(r["floor"]).name,
            str(r["players"]),
            f"{scores['total']:.1f}",
            *(f"{scores[c]:.1f}" for c in CATEGORIES),
            " / ".join(pct(share.get(c, 0)) for c in CATEGORIES),
        ]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.babylon.balance")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", default="2,3,4", help="player counts, e.g. 2,4")
    parser.add_argument("--floors", default=",".join(FLOOR_IDS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the raw summaries")
    args = parser.parse_args(argv)
    floors = [f.strip() for f in args.floors.split(",") if f.strip()]
    unknown = sorted(set(floors) - set(FLOOR_IDS))
    if unknown:
        parser.error(
            f"unknown floor(s) {', '.join(unknown)}: use {', '.join(FLOOR_IDS)}"
        )
    try:
        counts = [int(p) for p in args.players.split(",") if p.strip()]
    except ValueError:
        parser.error("--players lists player counts, e.g. 2,3,4")
    if not counts or any(p not in range(2, 5) for p in counts):
        parser.error("Babylon Gardens is played by 2 to 4 players")
    if args.games < 1:
        parser.error("--games must be at least 1")
    runs = [
        measure(f, p, args.games, args.seed, args.jobs) for f in floors for p in counts
    ]
    print(json.dumps(runs, indent=2) if args.json else tables(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
