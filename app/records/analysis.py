"""A finished record analysed: its moves replayed and checked, then `bots.analysis.analyse`.

The one place that joins a record (app/records/gamerecord.py) to the analysis package,
which names no game: the record's game gives the engine and the bots. Used by the
background workers (app/background/analyses.py) and by `ishtar analyse record.json`.
Pure: no database, no HTTP.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.config.settings import get_settings
from app.games import AnyGame, Registry, registry
from app.records.gamerecord import RecordError, check_record
from app.records.reading import NotJson, read_record
from bots.analysis import Depth, TooCostly, analyse
from bots.analysis.report import Progress

Subparsers = Any


class NotAnalysable(ValueError):
    """A record that cannot be analysed: not over, or a game without bots."""

    def __init__(self, reason: str, code: str) -> None:
        super().__init__(reason)
        self.reason, self.code = reason, code


def depth_for(game: AnyGame, given: Mapping[str, Any] | None = None) -> Depth:
    """The analysis's depth for `game`: the default, the game's own (its descriptor's
    `analysis`), then what is `given`."""
    return replace(Depth(), **{**dict(game.analysis), **dict(given or {})})


def analyse_record(
    games: Registry,
    record: Any,
    depth: Mapping[str, Any] | None = None,
    *,
    progress: Progress | None = None,
    cpu_budget: float | None = None,
) -> dict[str, Any]:
    """The analysis of a finished record (RecordError if it does not replay,
    NotAnalysable if it is not over or its game has no bots, TooCostly past the budget)."""
    if isinstance(record, dict) and record.get("status") == "playing":
        raise NotAnalysable(
            "The game is not over: only a finished game is analysed.", "game_not_over"
        )
    checked = check_record(games, record)
    game = checked.game
    if game.think is None:
        raise NotAnalysable(f"{game.title} has no bots to analyse it with.", "no_bots")
    rules = game.rules
    actions = [rules.decode_action(m["action"]) for m in record["moves"]]
    result = analyse(
        game.engine,  # the module: the analysis samples states (`sample_state`)
        game.think,
        checked.states,
        actions,
        depth_for(game, depth),
        progress=progress,
        cpu_budget=cpu_budget,
        value_of=game.value,
    )
    result["game"] = game.id
    result["engine_version"] = rules.ENGINE_VERSION
    return result


def register_analyse(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "analyse",
        help="analyse a finished game record: every decision and the luck, as JSON",
    )
    parser.add_argument(
        "record", help="a record file (.json), as /api/rooms/<id>/record gives it"
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=None,
        help=f"rollouts per candidate (default {Depth.rollouts})",
    )
    parser.add_argument(
        "--luck-samples",
        type=int,
        default=None,
        help="samples of each draw's luck (default: the game's, else "
        f"{Depth.luck_samples})",
    )
    parser.add_argument("--seed", type=int, default=0, help="the samples' seed")
    parser.add_argument(
        "--cpu", type=float, default=None, help="give up after this many seconds of CPU"
    )
    parser.set_defaults(handler=run_analyse)


def run_analyse(args: argparse.Namespace) -> int:
    try:
        record = read_record(Path(args.record).read_bytes())
    except OSError as error:
        print(f"ishtar analyse: cannot read {args.record}: {error}", file=sys.stderr)
        return 2
    except (NotJson, RecordError) as error:
        print(
            f"ishtar analyse: {args.record} is not a game record: {error}",
            file=sys.stderr,
        )
        return 2
    if args.rollouts is not None and args.rollouts < 2:
        print("ishtar analyse: --rollouts must be at least 2", file=sys.stderr)
        return 2
    try:
        result = analyse_record(
            registry(get_settings().extra_games),
            record,
            {"seed": args.seed}
            | ({"rollouts": args.rollouts} if args.rollouts is not None else {})
            | (
                {"luck_samples": args.luck_samples}
                if args.luck_samples is not None
                else {}
            ),
            cpu_budget=args.cpu,
        )
    except RecordError as error:
        print(f"ishtar analyse: {error.reason}", file=sys.stderr)
        return 1
    except (NotAnalysable, TooCostly) as error:
        print(f"ishtar analyse: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=1))
    return 0


__all__ = ["NotAnalysable", "analyse_record", "register_analyse"]
