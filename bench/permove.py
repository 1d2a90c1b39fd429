"""The server's own work per move, in-process: what a move costs before any framework.

    python -m bench.permove [--games 30] [--players 2] [--json]

Plays seeded random games (never `undo`) through the server's own code path for a move,
without network or database, and times each part per move (`time.perf_counter`; the
collector is off while timing):

- ``judge``: decode the action, `apply`, narrate and word it in English, encode it
  (app/play/submission.py `_judge`);
- ``view_for``: the engine's views of the three audiences of a 2-player room (two seats and
  the public) at the new version;
- ``parts``: their top-level entries as JSON (`Position.parts`: each changed value
  serialised once, shared by the audiences);
- ``changes``: each audience's `changes` object for its update;
- ``legal``: the next seat's legal actions with previews; ``legal_json``: that list as JSON
  (`Position.legal_json`, which uses `engine.legal_json`).

The load benchmark (`bench.load`) measures everything else around it: uvicorn, Starlette,
asyncpg, the sockets and PostgreSQL.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from typing import Any

from app.play.positions import Position, Positions
from app.play.rules import Rules
from engine import ishtar

RULES = Rules(ishtar)
"""Ishtar as the server plays it (app/play/rules.py)."""

PARTS = ("judge", "view_for", "parts", "changes", "legal", "legal_json")


def play(seed: int, players: int, rng: random.Random) -> dict[str, list[float]]:
    """One game; per move, the seconds each part took."""
    times: dict[str, list[float]] = {part: [] for part in PARTS}
    audiences: list[int | None] = [*range(players), None]
    positions = Positions()
    position = positions.put(1, Position(RULES, 0, ishtar.new_game(players, seed)))
    for audience in audiences:
        position.parts(audience)
    clock = time.perf_counter
    while not position.over:
        forward = [e for e in position.legal() if e["action"]["type"] != "undo"]
        move = rng.choice(forward)["action"]
        t0 = clock()
        action = ishtar.decode_action(move)
        state = ishtar.apply(position.state, action)
        ishtar.english(ishtar.narrate(position.state, action))
        ishtar.encode_action(action)
        after = positions.put(1, Position(RULES, position.version + 1, state, position))
        t1 = clock()
        for audience in audiences:
            ishtar.view_for(after.state, audience)
        t2 = clock()
        for audience in audiences:
            after.parts(audience, position)
        t3 = clock()
        for audience in audiences:
            after.changes_json(audience, position)
        t4 = clock()
        if not after.over:
            after.legal()
        t5 = clock()
        after.legal_json(after.current)
        t6 = clock()
        for part, took in zip(
            PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5), strict=True
        ):
            times[part].append(took)
        position = after
    return times


def measure(games: int, players: int, seed: int = 5) -> dict[str, Any]:
    rng = random.Random(seed)
    times: dict[str, list[float]] = {part: [] for part in PARTS}
    gc.collect()
    gc.disable()
    try:
        for game in range(games):
            for part, values in play(game, players, rng).items():
                times[part] += values
    finally:
        gc.enable()
    moves = len(times["judge"])
    out: dict[str, Any] = {"games": games, "players": players, "moves": moves}
    for part, values in times.items():
        out[f"{part}_us"] = round(1e6 * statistics.fmean(values), 1)
    out["total_us"] = round(sum(out[f"{part}_us"] for part in PARTS), 1)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The server's own work per move.")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(args.games, args.players)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['moves']} moves of {args.games} {args.players}-player games")
    for part in (*PARTS, "total"):
        print(f"{part:12} {result[f'{part}_us']:8.1f} µs per move (mean)")


if __name__ == "__main__":
    main()
