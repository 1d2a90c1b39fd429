"""Babylon Gardens' engine benchmark: ``python -m bench.babylon_engine [--json] [--games N]``.

Measures CPU time of this one process (``time.process_time``), one core, as bench/engine.py
does for Ishtar. The games are seeded random games: at each step a uniform choice among the
legal actions but ``undo`` (an undo-happy random player never ends a game), 4 players unless
said otherwise.

- ``legal_actions`` latency (p50 / p99 over positions, best of 3 runs each) on irrigation
  positions of every floor, each run on a fresh copy of the position so no memo helps;
- ``apply`` latency (p50 and p99) of an irrigation step and of a harvest, on fresh copies;
- ``view_for`` as the server uses it: after ``apply``, the views of three audiences (the seat
  to act, another seat, a spectator) of the new state, mean / p50 / p99 per move, and the
  view's JSON size;
- ``sample_state`` from the seat to act's view (what a searching bot calls), p50 / p99;
- complete random games per second on each floor, for 2 and for 4 players.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.babylon import (
    apply,
    decode_state,
    encode_state,
    is_over,
    legal_actions,
    new_game,
    sample_state,
    view_for,
)
from engine.babylon.floors import FLOOR_IDS
from engine.babylon.state import Action, State


def _fresh(state: State) -> State:
    """The same position with nothing memoised (as a state decoded from storage)."""
    return decode_state(encode_state(state))


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _summary(samples: list[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(samples), 4),
        "p50": round(statistics.median(samples), 4),
        "p99": round(_percentile(samples, 0.99), 4),
    }


def random_move(state: State, rng: random.Random) -> Action:
    """A uniform choice among the legal actions but undo."""
    return rng.choice([a for a in legal_actions(state) if a.type != "undo"])


def play(
    players: int, seed: int, floor_id: str, each: Callable[[State], None] | None = None
) -> State:
    """One seeded random game to its end, calling `each` on every position before a move."""
    rng = random.Random(seed)
    state = new_game(players, seed, {"floor": floor_id})
    while not is_over(state):
        if each is not None:
            each(state)
        state = apply(state, random_move(state, rng))
    return state


def positions(games: int, seed: int = 1) -> list[State]:
    """The irrigation positions of `games` random 4-player games on each floor."""
    found: list[State] = []
    for f, floor_id in enumerate(FLOOR_IDS):
        for game in range(games):
            play(4, seed * 1000 + f * 100 + game, floor_id, found.append)
    return found


def _timed(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def measure_legal(sample: list[State], repeats: int = 3) -> list[float]:
    """Per position: the best of `repeats` timings, each on a fresh copy."""
    best = []
    for state in sample:
        runs = []
        for _ in range(repeats):
            fresh = _fresh(state)
            runs.append(_timed(lambda fresh=fresh: legal_actions(fresh)))  # type: ignore[misc]
        best.append(min(runs))
    return best


def measure_apply(sample: list[State], seed: int = 7) -> dict[str, list[float]]:
    """The time of one random move from each position, on a fresh copy, by action type."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"irrigate": [], "harvest": []}
    for state in sample:
        action = random_move(state, rng)
        fresh = _fresh(state)
        times[action.type].append(
            _timed(lambda fresh=fresh, action=action: apply(fresh, action))  # type: ignore[misc]
        )
    return times


def measure_views(games: int, seed: int = 23) -> tuple[list[float], list[int]]:
    """Per move of random 4-player games on every floor: the views of three audiences of
    the new state, right after apply; and the spectator view's JSON size in bytes."""
    times, sizes = [], []
    for f, floor_id in enumerate(FLOOR_IDS):
        for game in range(games):
            rng = random.Random(seed + f * 100 + game)
            state = new_game(4, seed + f * 100 + game, {"floor": floor_id})
            while not is_over(state):
                state = apply(state, random_move(state, rng))
                seat = state.current
                audiences = (seat, (seat + 1) % state.players, None)
                start = time.process_time()
                for audience in audiences:
                    view_for(state, audience)
                times.append((time.process_time() - start) * 1000)
                sizes.append(len(json.dumps(view_for(state, None))))
    return times, sizes


def measure_sampling(sample: list[State], seed: int = 31) -> list[float]:
    """``sample_state`` from the seat to act's view (as JSON, as a bot receives it)."""
    times = []
    for i, state in enumerate(sample):
        view = json.loads(json.dumps(view_for(state, state.current)))
        times.append(_timed(lambda view=view, i=i: sample_state(view, seed + i)))  # type: ignore[misc]
    return times


def games_per_second(players: int, floor_id: str, games: int, seed: int = 11) -> float:
    start = time.process_time()
    for game in range(games):
        play(players, seed + game, floor_id)
    return games / (time.process_time() - start)


def run(games: int) -> dict[str, Any]:
    sample = positions(max(1, games // 10))
    # The harness keeps thousands of positions alive; freeze them so that the collector's
    # passes over the harness's own heap are not billed to the engine.
    gc.collect()
    gc.freeze()
    legal = measure_legal(sample)
    applied = measure_apply(sample)
    views, sizes = measure_views(max(1, games // 10))
    sampled = measure_sampling(sample[:: max(1, len(sample) // 500)])
    return {
        "legal_actions_ms": _summary(legal),
        "apply_ms": {kind: _summary(t) for kind, t in applied.items()},
        "view_for_ms": _summary(views),
        "view_bytes": {"mean": round(statistics.fmean(sizes)), "max": max(sizes)},
        "sample_state_ms": _summary(sampled),
        "games_per_s": {
            floor_id: {
                str(n): round(games_per_second(n, floor_id, games), 1) for n in (2, 4)
            }
            for floor_id in FLOOR_IDS
        },
        "positions": len(sample),
        "moves_viewed": len(views),
        "games": games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--games", type=int, default=20, help="random games per floor and player count"
    )
    args = parser.parse_args()
    result = run(args.games)
    if args.json:
        print(json.dumps(result))
        return

    def line(name: str, s: dict[str, float]) -> None:
        print(
            f"  {name:28} mean {s['mean']:.4f}  p50 {s['p50']:.4f}  p99 {s['p99']:.4f} ms"
        )

    print(f"Babylon Gardens' engine ({result['positions']} irrigation positions):")
    line("legal_actions (best of 3)", result["legal_actions_ms"])
    for kind, s in result["apply_ms"].items():
        line(f"apply {kind}", s)
    line(f"view_for x3 ({result['moves_viewed']} moves)", result["view_for_ms"])
    line("sample_state", result["sample_state_ms"])
    size = result["view_bytes"]
    print(f"  view JSON {size['mean']} bytes mean, {size['max']} max")
    print("random complete games per second (2 / 4 players):")
    for floor_id, rates in result["games_per_s"].items():
        print(f"  {floor_id:8} {rates['2']:8.1f} {rates['4']:8.1f}")


if __name__ == "__main__":
    main()
