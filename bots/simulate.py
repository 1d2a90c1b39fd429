"""`ishtar simulate`: many bot games in parallel, with win rates, scores and game length.

    ishtar simulate --players 4 --bots hard,medium,easy,easy --games 200 --seed 1 --jobs 2
    ishtar simulate --game babylon-gardens --players 2 --bots hard,medium \
        --options '{"floor": "ishtar"}'

Game g seats the bots rotated by g (seat s gets `bots[(s + g) % players]`) with seat 0 first,
so every level plays every position equally often over a multiple of `players` games. Game g
uses the seed `seed + g`; a run is reproducible from its arguments, whatever `--jobs` is (the
hard bot counts iterations, not time). `--options` holds the game's own options as one JSON
object (a floor, team mode, ...), checked by the game's `check_options` before any game is
played; seat 0 is first unless they name a `first_player`. See bots/stats.py for how shared
wins are counted. Besides the game's levels, `--bots` may seat `random` (uniformly random
legal play), the yardstick the easy level is measured against:

    ishtar simulate --players 2 --bots easy,random --games 200 --seed 11 --jobs 1
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from bots.match import GameRecord, Think, play_game
from bots.stats import summarize


@dataclass(frozen=True)
class GameBots:
    """What the simulator needs of a game: its engine module's name, its bots, their levels
    and the player counts."""

    rules: str
    think: Think
    levels: Sequence[str]
    players: range


YARDSTICKS = ("random",)
"""Levels a measurement may seat besides the game's own: `random` plays a uniformly random
legal action (every game's `make_bot` knows it; players are never offered it)."""

Resolve = Callable[[str], GameBots | None]
"""The games the simulator may play, by id (the server's registry, given by `ishtar`)."""


def seating(bots: Sequence[str], game: int) -> list[str]:
    """The level in each seat of game `game`: the list rotated by the game number."""
    return [bots[(seat + game) % len(bots)] for seat in range(len(bots))]


Task = tuple[list[str], int, str, Think | None, dict[str, Any] | None]


def _play(args: Task) -> GameRecord:
    levels, seed, rules, think, options = args
    return play_game(
        levels, seed, first_player=0, rules=rules, think=think, options=options
    )


def run(
    bots: Sequence[str],
    games: int,
    seed: int,
    jobs: int = 1,
    progress: bool = False,
    *,
    rules: str = "engine.ishtar",
    think: Think | None = None,
    options: dict[str, Any] | None = None,
) -> list[GameRecord]:
    """Play `games` games (in `jobs` processes) and return their records in game order;
    `rules`, `think` and `options` as in `play_game` (a module name and a module-level
    function, so that worker processes can load them)."""
    tasks: list[Task] = [
        (seating(bots, g), seed + g, rules, think, options) for g in range(games)
    ]
    records: dict[int, GameRecord] = {}
    if jobs <= 1:
        with ProgressBar(progress, games) as advance:
            for g, task in enumerate(tasks):
                records[g] = _play(task)
                advance()
    else:
        with (
            ProcessPoolExecutor(max_workers=jobs) as pool,
            ProgressBar(progress, games) as advance,
        ):
            futures = {pool.submit(_play, task): g for g, task in enumerate(tasks)}
            for future in as_completed(futures):
                records[futures[future]] = future.result()
                advance()
    return [records[g] for g in range(games)]


class ProgressBar:
    """A rich progress bar on stderr when asked for, else nothing."""

    def __init__(self, enabled: bool, total: int) -> None:
        self.enabled, self.total = enabled, total
        self.bar: Any = None

    def __enter__(self) -> Any:
        if self.enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                transient=True,
            )
            self.bar.__enter__()
            task = self.bar.add_task("games", total=self.total)
            return lambda: self.bar.advance(task)
        return lambda: None

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def render(summary: dict[str, Any], bots: Sequence[str]) -> str:
    """The summary as text for a terminal."""
    lines = [
        f"{summary['games']} games, bots {','.join(bots)} (seats rotated, seat 0 first)"
    ]
    if summary.get("options"):
        lines.append(f"options {json.dumps(summary['options'], sort_keys=True)}")
    lines.append("win rates (95% Wilson interval; shared wins split):")
    for level, r in summary["win_rates"].items():
        lines.append(
            f"  {level:<7} {r['rate']:6.1%}  [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"
            f"  over {r['trials']:g} seat-games"
        )
    lines.append("average scores by category:")
    for level, categories in summary["avg_scores"].items():
        parts = ", ".join(f"{c} {v:.1f}" for c, v in categories.items() if c != "total")
        lines.append(f"  {level:<7} total {categories['total']:.1f}: {parts}")
    low, high = summary["first_player_ci"]
    lines.append(
        f"first player wins {summary['first_player_win_rate']:.1%} [{low:.1%}, {high:.1%}]"
        f" (fair share {1 / len(bots):.1%})"
    )
    lines.append(
        f"game length: {summary['avg_turns']:.1f} turns ({summary['avg_rounds']:.1f} rounds)"
    )
    for level, t in summary["ms_per_move"].items():
        c = summary["cpu_ms_per_move"][level]
        lines.append(
            f"  {level:<7} thinks {t['mean']:.1f} ms per move (p95 {t['p95']:.1f},"
            f" p99 {t['p99']:.1f}, max {t['max']:.1f}; CPU {c['mean']:.1f},"
            f" p95 {c['p95']:.1f}, p99 {c['p99']:.1f}, max {c['max']:.1f})"
        )
    return "\n".join(lines)


def register_simulate(subparsers: Any, resolve: Resolve) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play bot games to measure strength and balance"
    )
    parser.add_argument(
        "--game",
        default="ishtar",
        help="the id of the game to play (GET /api/games lists them); default ishtar",
    )
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument(
        "--bots",
        required=True,
        help="one level per seat, comma-separated, e.g. hard,medium",
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--options",
        default=None,
        help='the game\'s options as one JSON object, e.g. \'{"floor": "ishtar"}\''
        " (seat 0 first unless it names first_player)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead"
    )
    parser.set_defaults(handler=lambda args: simulate(args, resolve))


def simulate(args: argparse.Namespace, resolve: Resolve) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    found = resolve(args.game)
    if found is None:
        print(f"no game {args.game!r} with bots here", file=sys.stderr)
        return 2
    if not found.levels:
        print(f"the game {args.game!r} has no bots yet", file=sys.stderr)
        return 2
    if args.players not in found.players:
        print(
            f"{args.game} is played by {found.players.start} to"
            f" {found.players.stop - 1} players",
            file=sys.stderr,
        )
        return 2
    if len(bots) != args.players:
        print(
            f"--bots names {len(bots)} seats but --players is {args.players}",
            file=sys.stderr,
        )
        return 2
    unknown = sorted(set(bots) - set(found.levels) - set(YARDSTICKS))
    if unknown:
        print(
            f"unknown bot level(s) {', '.join(unknown)}: use {', '.join(found.levels)}",
            file=sys.stderr,
        )
        return 2
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    options, problem = game_options(found.rules, args.players, args.options)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    records = run(
        bots,
        args.games,
        args.seed,
        args.jobs,
        progress=sys.stderr.isatty(),
        rules=found.rules,
        think=found.think,
        options=options,
    )
    summary = summarize(records)
    summary["options"] = options or {}
    summary["bots"] = bots
    summary["players"] = args.players
    summary["seed"] = args.seed
    summary["game"] = args.game
    print(json.dumps(summary, indent=2) if args.json else render(summary, bots))
    return 0


def game_options(
    rules: str, players: int, text: str | None
) -> tuple[dict[str, Any] | None, str | None]:
    """The `--options` of a run, parsed and checked by the game's own `check_options` (as
    the server checks a room's), or the sentence saying what is wrong with them."""
    if text is None:
        return None, None
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"--options is not JSON: {error.msg} (at character {error.pos})"
    if not isinstance(options, dict):
        return None, '--options is one JSON object, e.g. \'{"floor": "ishtar"}\''
    check = getattr(importlib.import_module(rules), "check_options", None)
    if check is not None:
        try:
            check(players, {"first_player": 0, **options})
        except ValueError as error:
            return None, f"--options: {getattr(error, 'reason', None) or error}"
    return options, None
