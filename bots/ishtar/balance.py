"""Tables of the balance report (docs/games/ishtar/balance.md), in one command or from
`ishtar simulate --json` outputs.

    python -m bots.ishtar.balance --play --games 400 --seed 20261202 --edition 4 --check
    python -m bots.ishtar.balance --play --players 2 --bots hard --games 100 --edition 4

plays the games itself (2, 3 and 4 players unless `--players` says, the bots of `--bots` in
every seat, seats rotated as `ishtar simulate` does; `--save DIR` keeps each run's JSON), and

    ishtar simulate --players 2 --bots medium,medium --games 400 --seed 20261129 --json > b2.json
    python -m bots.ishtar.balance b2.json b3.json b4.json

reads runs already played. Either way it prints the Markdown tables: first-player advantage,
share of points by category, how often a category decided the game, skills (unlocked, points,
win rate) and tree cards bought, then the table of issue 16's targets (each measure, its
target, its value per player count, met or MISSED). With ``--check`` the exit code is 1 when
any target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ishtar.components import TreeCard
from engine.ishtar.editions import DEFAULT, EDITIONS

SKILL_NAMES = {
    "A": "A gems left",
    "B": "B tablets",
    "C": "C fountains",
    "D": "D trees",
    "E": "E flower spaces",
    "F": "F free can step",
    "G": "G blooming token",
    "H": "H assistants back",
    "I": "I reserve a card",
    "J": "J double token",
}


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def tables(runs: Sequence[dict[str, Any]]) -> str:
    heads = " | ".join(f"{r['players']} players" for r in runs)
    rule = "|---" * (len(runs) + 1) + "|"
    out = [f"| | {heads} |", rule]
    out.append("| games | " + " | ".join(str(r["games"]) for r in runs) + " |")
    out.append(
        "| first player wins | "
        + " | ".join(
            f"{pct(r['first_player_win_rate'])} [{pct(r['first_player_ci'][0])}, "
            f"{pct(r['first_player_ci'][1])}] (fair {pct(1 / r['players'])})"
            for r in runs
        )
        + " |"
    )
    for position in ("1", "2", "3", "4"):
        out.append(
            f"| wins from position {position} | "
            + " | ".join(
                pct(r["position_win_rates"][position])
                if position in r["position_win_rates"]
                else "–"
                for r in runs
            )
            + " |"
        )
    out.append(
        "| game length (turns) | "
        + " | ".join(f"{r['avg_turns']:.1f}" for r in runs)
        + " |"
    )
    out.append("")
    categories = sorted({c for r in runs for c in r["category_share"]})
    out += [f"| share of points | {heads} |", rule]
    for category in categories:
        out.append(
            f"| {category} | "
            + " | ".join(pct(r["category_share"].get(category, 0)) for r in runs)
            + " |"
        )
    out.append("")
    out += [f"| winner alone best in category | {heads} |", rule]
    for category in categories:
        out.append(
            f"| {category} | "
            + " | ".join(pct(r["winner_led_category"].get(category, 0)) for r in runs)
            + " |"
        )
    out.append("")
    out += [
        "| skill | "
        + " | ".join(f"{r['players']}p unlocked / VP / win rate" for r in runs)
        + " |",
        rule,
    ]
    for skill, name in SKILL_NAMES.items():
        cells = []
        for r in runs:
            s = r["skills"][skill]
            vp = f"{s['avg_vp_when_unlocked']:.1f} VP" if skill in "ABCDE" else "–"
            cells.append(
                f"{pct(s['unlock_rate'])} / {vp} / {pct(s['win_rate_when_unlocked'])}"
            )
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out.append("")
    out += [f"| tree cards | {heads} |", rule]
    out.append(
        "| bought per player | "
        + " | ".join(
            f"{sum(r['tree_cards']['avg_per_player'].values()) / len(r['tree_cards']['avg_per_player']):.2f}"
            for r in runs
        )
        + " |"
    )
    out.append(
        "| bought per game (of 20 trees) | "
        + " | ".join(
            f"{sum(r['tree_cards']['bought_per_game'].values()):.2f}" for r in runs
        )
        + " |"
    )
    return "\n".join(out)


UPPER = "ABCDE"
LOWER = "FGHIJ"


@dataclass(frozen=True)
class Target:
    """One measure of issue 16: its name, the range it must fall in, the player counts it
    applies to (None: all) and how to read it from one run (None: not measured there)."""

    measure: str
    low: float
    high: float
    read: Any
    players: tuple[int, ...] | None = None
    percent: bool = True

    def text(self) -> str:
        if not self.percent:
            return f"{self.low:g}–{self.high:g}"
        return f"{100 * self.low:g}–{100 * self.high:g} %"

    def value(self, run: dict[str, Any]) -> float | None:
        if self.players is not None and run["players"] not in self.players:
            return None
        found: float | None = self.read(run)
        return found

    def met(self, value: float) -> bool:
        return self.low - 1e-9 <= value <= self.high + 1e-9


def mean_total(run: dict[str, Any]) -> float:
    """Average total per player over every level (seats weigh the same)."""
    totals = [cats["total"] for cats in run["avg_scores"].values()]
    return float(sum(totals) / len(totals))


def upper_share(run: dict[str, Any]) -> float:
    shares = run["category_share"]
    return float(sum(shares.get(f"skill_{s}", 0.0) for s in UPPER))


def largest_skill_share(run: dict[str, Any]) -> float:
    shares = run["category_share"]
    return float(max(shares.get(f"skill_{s}", 0.0) for s in UPPER))


def position_gap(position: int) -> Any:
    """Win rate of a seat position minus its fair share (None past the table's size)."""

    def read(run: dict[str, Any]) -> float | None:
        rates = run["position_win_rates"]
        if str(position) not in rates:
            return None
        return float(rates[str(position)] - 1 / run["players"])

    return read


def skill_unlocked(skill: str) -> Any:
    return lambda run: float(run["skills"][skill]["unlock_rate"])


def skill_win_gap(skill: str) -> Any:
    """Win rate among the players who unlocked `skill`, minus the fair share."""

    def read(run: dict[str, Any]) -> float | None:
        s = run["skills"][skill]
        if not s["unlock_rate"]:
            return None
        return float(s["win_rate_when_unlocked"] - 1 / run["players"])

    return read


def tree_cards(run: dict[str, Any]) -> dict[int, TreeCard]:
    """The tree cards of the edition the run played (`--options '{"edition": "2"}'`)."""
    edition = (run.get("options") or {}).get("edition") or DEFAULT
    return EDITIONS[edition].tree_cards


def least_bought_card(run: dict[str, Any]) -> float:
    """The smallest share of games in which a tree card was bought (each card is unique, so
    bought per game is that share; a card never bought is missing from the JSON)."""
    bought = run["tree_cards"]["bought_per_game"]
    return float(min(bought.get(str(card), 0.0) for card in tree_cards(run)))


def share(category: str) -> Any:
    return lambda run: float(run["category_share"].get(category, 0.0))


TARGETS: tuple[Target, ...] = (
    *(
        Target(f"win rate of position {p} − fair", -0.05, 0.05, position_gap(p))
        for p in (1, 2, 3, 4)
    ),
    Target("mean total per player", 50, 70, mean_total, (2,), percent=False),
    Target("share: trees", 0.25, 0.40, share("trees")),
    Target("share: flowers", 0.15, 0.30, share("flowers")),
    Target("share: fountains", 0.05, 0.15, share("fountains")),
    Target("share: upper skills", 0.20, 0.40, upper_share),
    Target("share: largest single skill", 0.0, 0.15, largest_skill_share),
    *(
        item
        for s in UPPER
        for item in (
            Target(f"skill {s} unlocked", 0.10, 0.60, skill_unlocked(s)),
            Target(f"skill {s} win rate − fair", -0.15, 0.15, skill_win_gap(s)),
        )
    ),
    *(Target(f"skill {s} unlocked", 0.10, 0.85, skill_unlocked(s)) for s in LOWER),
    Target(
        "least-bought tree card, share of games", 0.15, 1.0, least_bought_card, (2,)
    ),
)


def cell(target: Target, value: float | None) -> str:
    if value is None:
        return "–"
    shown = (
        f"{100 * value:+.1f} pt"
        if "fair" in target.measure
        else (pct(value) if target.percent else f"{value:.1f}")
    )
    return shown if target.met(value) else f"**{shown}**"


def verdicts(
    runs: Sequence[dict[str, Any]],
) -> list[tuple[Target, list[float | None], str]]:
    """Each target, its value per run (None where it does not apply) and its verdict: met,
    MISSED, or – when no run measures it."""
    result = []
    for target in TARGETS:
        values = [target.value(r) for r in runs]
        measured = [v for v in values if v is not None]
        verdict = "met" if all(target.met(v) for v in measured) else "MISSED"
        result.append((target, values, verdict if measured else "–"))
    return result


def rare_cards(run: dict[str, Any], below: float = 0.15) -> str:
    """The tree cards bought in fewer than `below` of the games, with their share."""
    bought = run["tree_cards"]["bought_per_game"]
    rare = [
        f"{card.name} {'/'.join(map(str, card.cost))} {pct(bought.get(str(i), 0.0))}"
        for i, card in tree_cards(run).items()
        if bought.get(str(i), 0.0) < below
    ]
    return ", ".join(rare) or "none"


def target_text(target: Target) -> str:
    if "fair" in target.measure:
        return f"within ±{100 * target.high:g} pt"
    if target.high >= 1.0 and target.percent:
        return f"≥ {100 * target.low:g} %"
    return target.text()


def target_table(runs: Sequence[dict[str, Any]]) -> tuple[str, bool]:
    """The Markdown table of the targets, and whether every one is met."""
    heads = " | ".join(f"{r['players']} players" for r in runs)
    out = [f"| measure | target | {heads} | |", "|---" * (len(runs) + 3) + "|"]
    everything = True
    for target, values, verdict in verdicts(runs):
        everything = everything and verdict != "MISSED"
        cells = " | ".join(cell(target, v) for v in values)
        out.append(
            f"| {target.measure} | {target_text(target)} | {cells} | {verdict} |"
        )
    out.append("")
    out.append("Tree cards bought in fewer than 15 % of games (purple/red/white cost):")
    out += [f"- {r['players']} players: {rare_cards(r)}" for r in runs]
    return "\n".join(out), everything


def play(
    players: Sequence[int],
    level: str,
    games: int,
    seed: int,
    jobs: int,
    options: dict[str, Any],
    save: str | None = None,
) -> list[dict[str, Any]]:
    """Play one run per player count (the summaries of `ishtar simulate --json`)."""
    from bots.ishtar import think
    from bots.simulate import run
    from bots.stats import summarize

    runs = []
    for count in players:
        bots = [level] * count
        records = run(
            bots,
            games,
            seed,
            jobs,
            progress=sys.stderr.isatty(),
            think=think,
            options=options,
        )
        summary = summarize(records)
        summary.update(
            options=options, bots=bots, players=count, seed=seed, game="ishtar"
        )
        if save is not None:
            Path(save).mkdir(parents=True, exist_ok=True)
            target = Path(save) / f"balance-{count}p.json"
            target.write_text(json.dumps(summary, indent=2), encoding="utf-8")
        runs.append(summary)
    return runs


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bots.ishtar.balance",
        description="Issue 16's balance tables and targets, from runs played here "
        "(--play) or from `ishtar simulate --json` files.",
    )
    parser.add_argument("runs", nargs="*", help="`ishtar simulate --json` outputs")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a target is missed"
    )
    parser.add_argument("--play", action="store_true", help="play the runs first")
    parser.add_argument("--players", default="2,3,4", help="player counts, e.g. 2,3,4")
    parser.add_argument("--bots", default="medium", help="the level in every seat")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--edition", default=None, help="the edition (default: new games')"
    )
    parser.add_argument("--save", default=None, help="a folder for each run's JSON")
    args = parser.parse_args(list(argv))
    if args.play == bool(args.runs):
        parser.error("give either --play or the JSON files of runs")
    try:
        args.counts = [int(p) for p in args.players.split(",") if p.strip()]
    except ValueError:
        parser.error(f"--players: {args.players!r} is not a list of numbers")
    if not args.counts or any(p not in (2, 3, 4) for p in args.counts):
        parser.error("--players: Ishtar is played by 2 to 4 players")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs are at least 1")
    from bots.ishtar import LEVELS

    if args.bots not in LEVELS:
        parser.error(f"--bots: one of {', '.join(LEVELS)}")
    if args.edition is not None and args.edition not in EDITIONS:
        parser.error(f"--edition: one of {', '.join(EDITIONS)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv if argv is not None else sys.argv[1:])
    if args.play:
        options = {} if args.edition is None else {"edition": args.edition}
        runs = play(
            args.counts, args.bots, args.games, args.seed, args.jobs, options, args.save
        )
    else:
        runs = []
        for path in args.runs:
            with open(path, encoding="utf-8") as handle:
                runs.append(json.load(handle))
    check = args.check
    print(tables(runs))
    table, met = target_table(runs)
    print()
    print(table)
    return 1 if check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
