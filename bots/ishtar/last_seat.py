"""Is the last seat's edge the bots' or the game's? Medium bots, with a stronger bot for the end.

    python -m bots.ishtar.last_seat --players 3 --games 200 --seed 1000 --edition 3 [--late hard]

Plays medium bots, the first seat rotated with the seed; every move of a seat that is in its
last turn with a chance of 5 % or more (by bots/ishtar/horizon.py) is played by the `--late`
level instead. It prints the win rate and mean score of each seat position, the share of moves the
late level played, and how often each position led the standing just before the game's last
turn (the last seat's). docs/journal/ishtar-balance-history.md, "Edition 4 (steps 28–30)",
reads it: with hard bots for the end, the last of three seats still wins 40.8 % of edition
3's games.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bots.base import derive_seed
from bots.ishtar import LEVELS, choose_action
from bots.ishtar.horizon import outlook, seat_turns
from engine.ishtar import apply, current_player, legal_actions, new_game, view_for
from engine.ishtar.editions import DEFAULT, EDITIONS


@dataclass(frozen=True)
class Game:
    """One game's result by seat position (0: the first player)."""

    wins: dict[int, float]
    scores: dict[int, int]
    leaders: dict[int, float]
    late_moves: int
    moves: int


def may_be_last(view: dict[str, Any], chance: float = 0.05) -> bool:
    """Whether the seat to act is in its last turn with at least this `chance`."""
    seat = int(view["current"])
    last = sum(p for p, future in outlook(view) if seat_turns(view, seat, future) == 0)
    return last >= chance


def _shares(scores: dict[str, Any]) -> dict[int, float]:
    """Each winner's share of a win, by seat, from the engine's scores or standing (its
    ``winners`` apply the rulebook's tie-breaks; a tie they leave is shared)."""
    winners = [int(seat) for seat in scores["winners"]]
    return {seat: 1 / len(winners) for seat in winners}


def play(seed: int, players: int, edition: str, late: str) -> Game:
    """A game of medium bots whose possibly-last moves `late` plays."""
    first = seed % players
    state = new_game(players, seed, {"first_player": first, "edition": edition})
    moves = late_moves = 0
    last_turn_start: dict[int, float] = {}
    while (seat := current_player(state)) is not None:
        view = view_for(state, seat)
        if view["phase"] == "choose" and seat == (first - 1) % players:
            # the last seat's turn starts: its last one is the game's last turn
            last_turn_start = _shares(view["standing"])
        level = late if may_be_last(view) else "medium"
        late_moves += level != "medium"
        action = choose_action(
            level, view, legal_actions(state), derive_seed(seed, moves)
        )
        state = apply(state, action)
        moves += 1
    final = view_for(state, None)["scores"]
    totals = {int(p["seat"]): int(p["total"]) for p in final["players"]}

    def position(seat: int) -> int:
        return (seat - first) % players

    return Game(
        wins={position(s): share for s, share in _shares(final).items()},
        scores={position(s): total for s, total in totals.items()},
        leaders={position(s): share for s, share in last_turn_start.items()},
        late_moves=late_moves,
        moves=moves,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.ishtar.last_seat")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--edition", choices=list(EDITIONS), default=None)
    parser.add_argument("--late", choices=LEVELS, default="hard")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs: at least 1")
    edition = args.edition or DEFAULT
    seeds = range(args.seed, args.seed + args.games)
    wins: Counter[int] = Counter()
    scores: Counter[int] = Counter()
    leaders: Counter[int] = Counter()
    late = moves = 0
    n = args.games
    with ProcessPoolExecutor(args.jobs) as pool:
        for game in pool.map(
            play, seeds, [args.players] * n, [edition] * n, [args.late] * n
        ):
            wins.update(game.wins)
            scores.update(game.scores)
            leaders.update(game.leaders)
            late, moves = late + game.late_moves, moves + game.moves
    positions = range(args.players)
    print(
        f"{n} games of {args.players} players, edition {edition}, medium bots, "
        f"{args.late} for the moves that may be a seat's last ({late / moves:.1%} of moves)"
    )
    print("position        " + "".join(f"{p + 1:>9}" for p in positions))
    print("wins            " + "".join(f"{wins[p] / n:>9.1%}" for p in positions))
    print("mean VP         " + "".join(f"{scores[p] / n:>9.1f}" for p in positions))
    print("led before the  " + "".join(f"{leaders[p] / n:>9.1%}" for p in positions))
    print("  last turn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
