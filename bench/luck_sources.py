"""Where a bot game's result varies from: what the luck of the draw could take away at most,
and AIVAT's term for a known bot's own random choices (docs/analysis.md, "5. Luck").

    python -m bench.luck_sources within --game ishtar --deals 6 --seeds 4
    python -m bench.luck_sources choices --game ishtar --games 12 --alternatives 4

Each prints one JSON object; `--jobs` spreads games over processes. Games are played from
the game seed `seed + g` (the deal and every hidden order) with the bots' own seeds apart
(`derive_seed(bot_seed, move)`), so one deal can be played again with other bot seeds.

- within: each deal (game seed) played with `--seeds` different bot seeds, levels as
  `--levels` (the first's score less the second's; seats rotated from deal to deal). With
  the deal and the hidden order fixed, what is left of the result's variance (the mean
  variance within a deal, over the total) comes from the bots' own random choices, and from
  the draws falling to other seats as play differs. A bot that plays the same move in the
  same position whatever its seed (the medium bots) leaves none.
- choices: AIVAT's correction for a known policy's randomisation (as DeepStack's games were
  judged with its own strategy): at each decision of a bot with more than one legal move,
  the game's value of a position after the move played less its mean after the moves the
  same bot makes from `--alternatives` other seeds (zero in expectation: the move played is
  one draw of the same). Summed per seat as a lead (the first level's less the second's)
  and taken off the result, with and without the draws' luck by the same value (64
  possible draws each, as `analysis_quality luck --luck-value` measures it): each
  variance against the raw result's.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.games import registry
from bots.analysis.luck import is_chance, measure_by_value
from bots.base import derive_seed

BOT_SEED = 77_000
"""The first bot seed of `within` (then BOT_SEED + 1, ...); `choices` plays with the game seed."""
LUCK_SAMPLES = 64
"""Possible draws a draw's luck averages over in `choices` by default (`--luck-samples`: the
value's depth in the docs)."""


def _play(
    game_id: str,
    game_seed: int,
    bot_seed: int,
    levels: Sequence[str],
    each: Callable[[Any, Any, list[Any], Any, int], None] | None = None,
) -> list[float]:
    """A bot game's final scores by seat; `each(state, action, legal, view, n)` sees every move."""
    game = registry(()).get(game_id)
    engine, think = game.engine, game.think
    assert think is not None, f"{game_id} has no bots"
    options = game.check_options(len(levels), {"first_player": 0})
    state = engine.new_game(len(levels), game_seed, options)
    n = 0
    while (seat := engine.current_player(state)) is not None:
        legal = list(engine.legal_actions(state))
        view = engine.view_for(state, seat)
        action = think(levels[seat], view, legal, derive_seed(bot_seed, n), None)
        if each is not None:
            each(state, action, legal, view, n)
        state = engine.apply(state, action)
        n += 1
    players = sorted(engine.final_scores(state)["players"], key=lambda p: p["seat"])
    return [float(p["total"]) for p in players]


def _levels(order: Sequence[str], g: int) -> tuple[list[str], int]:
    """The seats' levels for game `g` (rotated every other game) and the first level's seat."""
    levels = list(order) if g % 2 == 0 else list(order)[::-1]
    return levels, levels.index(order[0]) if order[0] != order[1] else g % 2


def _within(task: tuple[str, int, int, list[str], int]) -> float:
    game_id, game_seed, bot_seed, levels, first = task
    scores = _play(game_id, game_seed, bot_seed, levels)
    return scores[first] - scores[1 - first]


def within(args: argparse.Namespace) -> dict[str, Any]:
    order = args.levels.split(",")
    tasks = []
    for d in range(args.deals):
        levels, first = _levels(order, d)
        for s in range(args.seeds):
            tasks.append((args.game, args.seed + d, BOT_SEED + s, levels, first))
    started = time.process_time()
    results = _map(_within, tasks, args.jobs)
    by_deal = [
        results[d * args.seeds : (d + 1) * args.seeds] for d in range(args.deals)
    ]
    total = statistics.variance(results)
    share = _within_share(by_deal)
    rng = random.Random(args.seed)
    shares = sorted(
        _within_share([rng.choice(by_deal) for _ in by_deal]) for _ in range(2000)
    )
    return {
        "game": args.game,
        "levels": order,
        "deals": args.deals,
        "seeds": args.seeds,
        "results": by_deal,
        "mean": round(statistics.fmean(results), 2),
        "variance": round(total, 1),
        "within_deal_variance": round(share * total, 1),
        "within_share": round(share, 3),
        "within_share_95": [round(shares[50], 2), round(shares[1949], 2)],
        "deals_alike_whatever_the_seed": sum(len(set(r)) == 1 for r in by_deal),
        "cpu_s_per_game": round((time.process_time() - started) / len(tasks), 2)
        if args.jobs == 1
        else None,
    }


def _within_share(by_deal: list[list[float]]) -> float:
    every = [x for deal in by_deal for x in deal]
    total = statistics.variance(every)
    if total == 0:
        return 0.0
    return statistics.fmean(statistics.variance(d) for d in by_deal) / total


def _choices(task: tuple[str, int, list[str], int, int, int]) -> dict[str, Any]:
    game_id, game_seed, levels, first, alternatives, samples = task
    game = registry(()).get(game_id)
    engine, think, value = game.engine, game.think, game.value
    assert think is not None and value is not None, f"{game_id} has no value"

    def lead(worth: Sequence[float]) -> float:
        return worth[first] - worth[1 - first]

    term = [0.0, 0.0]  # by seat
    differing = [0, 0]
    decisions = [0, 0]
    luck = 0.0

    def each(state: Any, action: Any, legal: list[Any], view: Any, n: int) -> None:
        nonlocal luck
        after = engine.apply(state, action)
        seat = engine.current_player(state)
        assert seat is not None
        if len(legal) > 1:
            decisions[seat] += 1
            played = _key(engine, action)
            worth = {played: lead(value(after))}
            alts = []
            for k in range(alternatives):
                other = think(
                    levels[seat],
                    view,
                    legal,
                    derive_seed(game_seed, n, "alternative", k),
                    None,
                )
                key = _key(engine, other)
                if key not in worth:
                    worth[key] = lead(value(engine.apply(state, other)))
                differing[seat] += key != played
                alts.append(worth[key])
            term[seat] += worth[played] - statistics.fmean(alts)
        if is_chance(engine, state, action, after, n):
            share = measure_by_value(
                engine,
                value,
                state,
                action,
                after,
                samples=samples,
                seed=derive_seed(game_seed, "luck", n),
            )
            luck += lead(share)

    started = time.process_time()
    scores = _play(game_id, game_seed, game_seed, levels, each)
    # Each seat's term is already a lead of the first level over the second: the
    # second's own choices count against the first.
    return {
        "raw": scores[first] - scores[1 - first],
        "luck": luck,
        "choices": term[first] + term[1 - first],
        "choices_by_level": [term[first], term[1 - first]],
        "decisions_by_level": [decisions[first], decisions[1 - first]],
        "differing_by_level": [differing[first], differing[1 - first]],
        "cpu_s": time.process_time() - started,
    }


def _key(engine: Any, action: Any) -> str:
    return json.dumps(engine.encode_action(action), sort_keys=True)


def choices(args: argparse.Namespace) -> dict[str, Any]:
    order = args.levels.split(",")
    tasks = []
    for g in range(args.games):
        levels, first = _levels(order, g)
        tasks.append(
            (
                args.game,
                args.seed + g,
                levels,
                first,
                args.alternatives,
                args.luck_samples,
            )
        )
    results = _map(_choices, tasks, args.jobs)
    raw = [r["raw"] for r in results]

    def adjusted(less: Callable[[dict[str, Any]], float]) -> dict[str, Any]:
        values = [r["raw"] - less(r) for r in results]
        return {
            "mean": round(statistics.fmean(values), 2),
            "sd": round(statistics.stdev(values), 2),
            "variance_ratio": round(
                statistics.variance(values) / statistics.variance(raw), 3
            ),
        }

    terms = [r["choices"] for r in results]
    return {
        "game": args.game,
        "levels": order,
        "games": args.games,
        "alternatives": args.alternatives,
        "luck_samples": args.luck_samples,
        "raw": adjusted(lambda r: 0.0),
        "less_luck": adjusted(lambda r: r["luck"]),
        "less_choices": adjusted(lambda r: r["choices"]),
        "less_both": adjusted(lambda r: r["luck"] + r["choices"]),
        "choices": {
            "mean": round(statistics.fmean(terms), 2),
            "sd": round(statistics.stdev(terms), 2),
            "correlation_with_raw": _correlation(raw, terms),
        },
        "decisions_by_level": [
            sum(r["decisions_by_level"][i] for r in results) for i in range(2)
        ],
        "alternatives_differing_by_level": [
            sum(r["differing_by_level"][i] for r in results) for i in range(2)
        ],
        "cpu_s_per_game": round(statistics.fmean(r["cpu_s"] for r in results), 1),
    }


def _correlation(x: list[float], y: list[float]) -> float | None:
    """Pearson's r, or None where either side never varies."""
    if len(set(x)) < 2 or len(set(y)) < 2:
        return None
    return round(statistics.correlation(x, y), 3)


def _map(fn: Callable[[Any], Any], tasks: list[Any], jobs: int) -> list[Any]:
    if jobs <= 1:
        return [fn(t) for t in tasks]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(fn, tasks))


MEASURES = {"within": within, "choices": choices}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.luck_sources")
    parser.add_argument("measure", choices=sorted(MEASURES))
    parser.add_argument("--game", required=True)
    parser.add_argument("--levels", default="hard,medium")
    parser.add_argument("--seed", type=int, default=1000, help="the first game seed")
    parser.add_argument("--deals", type=int, default=6, help="within: game seeds")
    parser.add_argument("--seeds", type=int, default=4, help="within: bot seeds a deal")
    parser.add_argument("--games", type=int, default=12, help="choices: games")
    parser.add_argument(
        "--alternatives", type=int, default=4, help="choices: other seeds a decision"
    )
    parser.add_argument(
        "--luck-samples",
        type=int,
        default=LUCK_SAMPLES,
        help="choices: possible draws a draw's luck averages over",
    )
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if len(args.levels.split(",")) != 2:
        parser.error("--levels names two bots: the first's score less the second's")
    started = time.time()
    result = MEASURES[args.measure](args)
    result["wall_s"] = round(time.time() - started, 1)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
