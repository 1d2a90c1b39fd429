"""Positions reached by playing: stored games of real moves, replayed through ``apply``.

Some rules only show late in a game (a tie at the end, a tile with no legal placement left).
Laying such a position by hand (tests/engine/ishtar/builders.py) risks a board no game can reach, so
these tests replay a stored game instead: ``engine.replay`` checks every move with ``apply``,
so the position is one that play reaches.

Each stored game (``GAMES``, files under tests/engine/ishtar/played_games/) was found by playing the
random moves of ``random.Random(seed)`` from the seeded set-up, the way the golden games are
played, and keeping the first position with the wanted property; the steps that were undone
are left out (an undo restores the state before its step exactly, so the position is the
same). ``python -m tests.engine.played`` finds and writes them again, after a rules change
that makes a stored game illegal: review the diff as you would a golden file.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.ishtar import (
    Action,
    State,
    apply,
    encode_action,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    replay,
)

PLAYED_DIR = Path(__file__).parent / "played_games"
MAX_SEEDS = 5000
"""Seeds tried per stored game before giving up (ties come about once in 50 games)."""

Wanted = Callable[[State], bool]


def _tiebreak(words: str | None) -> Wanted:
    """A finished game whose winner is decided by ``words`` (None: a shared win). Won on
    trees planted, the winner must have fewer gems left, so that the order shows."""

    def wanted(state: State) -> bool:
        if not is_over(state):
            return False
        scores = final_scores(state)
        winners = scores["winners"]
        if words is None:
            return len(winners) > 1
        if words not in (scores["tiebreak"] or "") or len(winners) != 1:
            return False
        if words == TREES:
            gems = [sum(g) for g in state.gems]
            best = max(p["total"] for p in scores["players"])
            tied = [p["seat"] for p in scores["players"] if p["total"] == best]
            return all(gems[winners[0]] < gems[s] for s in tied if s != winners[0])
        return True

    return wanted


def _discard_only(state: State) -> bool:
    """A tile in hand that has no legal placement anywhere."""
    return state.phase == "place" and [a.type for a in legal_actions(state)] == [
        "discard"
    ]


TREES = "wins on trees planted"

GAMES: dict[str, tuple[int, str | None, Wanted]] = {
    "tie-on-trees": (2, None, _tiebreak(TREES)),
    "tie-on-gems": (2, None, _tiebreak("wins on gems left")),
    "tie-shared": (2, None, _tiebreak(None)),
    "discard": (3, "random", _discard_only),
}
"""Stored game → (players, layout, the property of its last position)."""


def load(name: str) -> State:
    """The last position of stored game ``name``, replayed move by move through ``apply``."""
    record = json.loads((PLAYED_DIR / f"{name}.json").read_text())
    return replay(record["setup"], record["moves"])


def find(
    players: int, layout: str | None, wanted: Wanted, first_seed: int = 0
) -> dict[str, Any]:
    """The first seeded random game reaching ``wanted``: its set-up and moves up to there."""
    for seed in range(first_seed, first_seed + MAX_SEEDS):
        moves = _play_until(players, seed, layout, wanted)
        if moves is not None:
            state = new_game(players, seed, {"layout": layout, "edition": "1"})
            return {
                "setup": {
                    "players": players,
                    "seed": seed,
                    "layout": layout,
                    "first_player": state.first_player,
                },
                "moves": [encode_action(a) for a in moves],
            }
    raise LookupError(f"no game of {MAX_SEEDS} seeds reached the position")


def reach(
    players: int, layout: str | None, wanted: Wanted, seeds: range = range(50)
) -> State:
    """The first position with ``wanted`` in the seeded random games of ``seeds``, played
    live through ``apply`` (for positions that come up early in most games)."""
    for seed in seeds:
        moves = _play_until(players, seed, layout, wanted)
        if moves is not None:
            state = new_game(players, seed, {"layout": layout, "edition": "1"})
            for action in moves:
                state = apply(state, action)
            return state
    raise LookupError("no seeded game reached the position")


def _play_until(
    players: int, seed: int, layout: str | None, wanted: Wanted
) -> list[Action] | None:
    """The moves (undone steps left out) of seed's random game up to ``wanted``, if ever."""
    rng = random.Random(seed)
    state = new_game(players, seed, {"layout": layout, "edition": "1"})
    moves: list[Action] = []
    while True:
        if wanted(state):
            return moves
        if is_over(state):
            return None
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        if action.type == "undo":
            moves.pop()  # an undo takes back the last step, which is the last move kept
        else:
            moves.append(action)


def _render(record: dict[str, Any]) -> str:
    """One move per line, so a diff shows which moves changed."""
    moves = ",\n".join("    " + json.dumps(m) for m in record["moves"])
    return f'{{\n  "setup": {json.dumps(record["setup"])},\n  "moves": [\n{moves}\n  ]\n}}\n'


def write_all() -> None:
    PLAYED_DIR.mkdir(exist_ok=True)
    for name, (players, layout, wanted) in GAMES.items():
        record = find(players, layout, wanted)
        assert wanted(replay(record["setup"], record["moves"]))
        (PLAYED_DIR / f"{name}.json").write_text(_render(record))
        print(f"{name}: seed {record['setup']['seed']}, {len(record['moves'])} moves")


if __name__ == "__main__":
    write_all()
    sys.exit(0)
