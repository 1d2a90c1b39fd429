"""Engine benchmark: ``python -m bench.engine [--json] [--games N] [--positions N]``.

Measures CPU time of this one process (``time.process_time``), so the figures are those of
one core even when other work shares the machine:
- ``legal_actions`` latency (p50 / p99 over positions, best of 3 runs each; the single-shot
  p99 is printed too) in the tile-placement step of mid-game 4-player positions taken from
  seeded random games (each run on a fresh copy of the position, so the
  per-state memo does not help; the positions are frozen out of the garbage collector's
  view first, as the harness's own heap is not the engine's cost);
- ``apply`` latency (p50) over all actions of those games;
- complete random games per second for 2, 3 and 4 players (uniform random legal actions);
- ``view_for`` as the server uses it (``view_for_ms``): after ``apply``, the views of three
  audiences (the seat to act, another seat, a spectator) of the new state, mean, p50 and p99
  per move of seeded games, once with every state viewed as the game goes (the parent's
  view is built, so its unchanged parts are inherited, see engine.views) and once from
  scratch (on a fresh copy of each new state);
- ``legal_with_previews`` in the place step (``legal_with_previews_place_ms``, p50 best of 3
  on fresh copies of the placement positions), and the same list built the slow way, one
  ``encode_action`` and ``preview`` per legal action (``legal_previews_slow_place_ms``).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from typing import Any

from engine.ishtar import (
    apply,
    encode_action,
    is_over,
    legal_actions,
    legal_with_previews,
    new_game,
    preview,
    view_for,
)
from engine.ishtar.state import State


def _fresh(state: State) -> State:
    """The same position without its memoised derived data (nor a view lineage)."""
    copy = state.evolve()
    copy.cache.clear()
    return copy


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def placement_positions(count: int, seed: int = 1) -> list[State]:
    """Place-step positions from the middle third of random 4-player games."""
    positions: list[State] = []
    game = 0
    while len(positions) < count:
        rng = random.Random(seed * 1000 + game)
        state = new_game(
            4, seed * 1000 + game, {"layout": "random" if game % 2 else None}
        )
        game += 1
        while not is_over(state):
            if state.phase == "place" and 10 <= state.turn <= 26:
                positions.append(state)
            state = apply(state, rng.choice(legal_actions(state)))
    return positions[:count]


def measure_legal(
    positions: list[State], repeats: int = 3
) -> tuple[list[float], list[float]]:
    """Per position: the best of ``repeats`` timings, and the first (single-shot) timing.

    The best of a few runs is the cost of the position itself; a single shot may also carry
    a pass of the garbage collector, shown apart.
    """
    best, single = [], []
    for state in positions:
        runs = []
        for _ in range(repeats):
            fresh = _fresh(state)
            start = time.process_time()
            legal_actions(fresh)
            runs.append((time.process_time() - start) * 1000)
        best.append(min(runs))
        single.append(runs[0])
    return best, single


def measure_apply(games: int, seed: int = 7) -> list[float]:
    times = []
    for game in range(games):
        rng = random.Random(seed + game)
        state = new_game(4, seed + game)
        while not is_over(state):
            action = rng.choice(legal_actions(state))
            fresh = _fresh(state)
            start = time.process_time()
            apply(fresh, action)
            times.append((time.process_time() - start) * 1000)
            state = apply(state, action)
    return times


def games_per_second(players: int, games: int, seed: int = 11) -> float:
    start = time.process_time()
    for game in range(games):
        rng = random.Random(seed + game)
        state = new_game(players, seed + game)
        while not is_over(state):
            state = apply(state, rng.choice(legal_actions(state)))
    return games / (time.process_time() - start)


def measure_views(games: int, inherited: bool, seed: int = 23) -> list[float]:
    """Per move of seeded random 4-player games: CPU time of the views of the new state for
    three audiences (the seat to act, the next seat, a spectator), right after ``apply``.

    With ``inherited`` the games go on as on the server: every state is viewed, so a new
    state reuses the unchanged parts of its parent's view (and an undo those of the state it
    returns to). Without, each new state is viewed on a fresh copy, from scratch.
    """
    times = []
    for game in range(games):
        rng = random.Random(seed + game)
        state = new_game(4, seed + game, {"layout": "random" if game % 2 else None})
        if inherited:
            view_for(state, None)
        while not is_over(state):
            state = apply(state, rng.choice(legal_actions(state)))
            viewed = state if inherited else _fresh(state)
            seat = viewed.current
            audiences = (seat, (seat + 1) % viewed.players, None)
            start = time.process_time()
            for audience in audiences:
                view_for(viewed, audience)
            times.append((time.process_time() - start) * 1000)
    return times


def slow_legal_with_previews(state: State) -> list[dict[str, Any]]:
    """The legal actions with previews, one ``encode_action`` and ``preview`` each."""
    return [
        {"action": encode_action(a), "preview": preview(state, a)}
        for a in legal_actions(state)
    ]


def measure_previews(
    positions: list[State], slow: bool, repeats: int = 3
) -> list[float]:
    """Per position: the best of ``repeats`` timings on fresh copies."""
    build = slow_legal_with_previews if slow else legal_with_previews
    best = []
    for state in positions:
        runs = []
        for _ in range(repeats):
            fresh = _fresh(state)
            start = time.process_time()
            build(fresh)
            runs.append((time.process_time() - start) * 1000)
        best.append(min(runs))
    return best


def _summary(samples: list[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(samples), 4),
        "p50": round(statistics.median(samples), 4),
        "p99": round(_percentile(samples, 0.99), 4),
    }


def run(games: int, positions: int) -> dict[str, Any]:
    sample = placement_positions(positions)
    # The harness keeps hundreds of positions alive; freeze them so that the collector's
    # full passes over the harness's own heap are not billed to legal_actions.
    gc.collect()
    gc.freeze()
    legal, single = measure_legal(sample)
    applied = measure_apply(max(1, games // 4))
    fast_previews = measure_previews(sample, slow=False)
    slow_previews = measure_previews(sample, slow=True)
    view_games = max(1, games // 4)
    views_inherited = measure_views(view_games, inherited=True)
    views_fresh = measure_views(view_games, inherited=False)
    return {
        "legal_actions_p50_ms": round(statistics.median(legal), 3),
        "legal_actions_p99_ms": round(_percentile(legal, 0.99), 3),
        "legal_actions_single_shot_p99_ms": round(_percentile(single, 0.99), 3),
        "apply_p50_ms": round(statistics.median(applied), 3),
        "games_per_s": {
            str(n): round(games_per_second(n, games), 1) for n in (2, 3, 4)
        },
        "legal_with_previews_place_ms": _summary(fast_previews),
        "legal_previews_slow_place_ms": _summary(slow_previews),
        "view_for_ms": {
            "inherited": _summary(views_inherited),
            "fresh": _summary(views_fresh),
            "moves": len(views_inherited),
        },
        "positions": len(legal),
        "games": games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--games", type=int, default=40, help="random games per player count"
    )
    parser.add_argument(
        "--positions", type=int, default=400, help="placement positions"
    )
    args = parser.parse_args()
    result = run(args.games, args.positions)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"legal_actions (place step, 4 players, {result['positions']} positions, best of 3):"
    )
    print(
        f"  p50 {result['legal_actions_p50_ms']:.3f} ms   p99 {result['legal_actions_p99_ms']:.3f} ms"
    )
    print(
        f"  single-shot p99 {result['legal_actions_single_shot_p99_ms']:.3f} ms (collector passes included)"
    )
    print(f"apply p50 {result['apply_p50_ms']:.3f} ms")
    fast, slow = (
        result["legal_with_previews_place_ms"],
        result["legal_previews_slow_place_ms"],
    )
    print("legal actions with previews (place step, best of 3):")
    print(
        f"  legal_with_previews p50 {fast['p50']:.4f} ms   p99 {fast['p99']:.4f} ms"
        f"   (slow comprehension p50 {slow['p50']:.4f} ms   p99 {slow['p99']:.4f} ms)"
    )
    views = result["view_for_ms"]
    print(f"view_for, 3 audiences of a new state after apply ({views['moves']} moves):")
    for mode in ("inherited", "fresh"):
        v = views[mode]
        print(
            f"  {mode:9} mean {v['mean']:.4f} ms   p50 {v['p50']:.4f} ms   p99 {v['p99']:.4f} ms"
        )
    for n, rate in result["games_per_s"].items():
        print(f"random complete games, {n} players: {rate:.1f} games/s")


if __name__ == "__main__":
    main()
