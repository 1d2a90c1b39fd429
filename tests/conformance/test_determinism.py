"""Every game is deterministic: the same seed and actions give the same states whatever the
process's own randomness (the global `random`, the hash seed), and different seeds deal
different games."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conformance.games import (
    CASES,
    GAMES,
    IDS,
    SEED,
    normal,
    play,
    played,
    viewers,
)

ROOT = Path(__file__).resolve().parents[2]


def digest(index: int) -> str:
    """A fingerprint of a fresh playout of ``CASES[index]``: every state and legal list,
    every tenth state's views."""
    case = CASES[index]
    rules, game = case.rules, play(case)
    hashed = hashlib.sha256()
    for step, state in enumerate(game.states):
        seen = [
            rules.encode_state(state),
            [rules.encode_action(a) for a in rules.legal_actions(state)],
        ]
        if step % 10 == 0 or step == len(game.states) - 1:
            seen.append([rules.view_for(state, seat) for seat in viewers(case)])
        hashed.update(json.dumps(seen).encode())
    return hashed.hexdigest()


@pytest.mark.parametrize("index", range(len(CASES)), ids=IDS)
def test_the_same_seed_gives_the_same_game(index: int) -> None:
    case = CASES[index]
    rules = case.rules
    first = digest(index)
    random.seed(12345)  # an engine drawing from the global generator would now differ
    assert digest(index) == first
    assert (
        rules.new_game(case.players, case.seed, case.options) == played(index).states[0]
    )
    assert rules.public_setup(
        rules.new_game(case.players, case.seed, case.options)
    ) == rules.public_setup(played(index).states[0])


def test_the_same_seed_gives_the_same_game_in_other_processes() -> None:
    """Another hash seed (set and dict-of-str orders) plays the very same games."""
    picked = [IDS.index(next(c.id for c in CASES if c.game is game)) for game in GAMES]
    code = (
        "from tests.conformance.test_determinism import digest; "
        f"print([digest(i) for i in {picked}])"
    )
    here = str([digest(i) for i in picked])
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == here


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_different_seeds_deal_different_games(game: object) -> None:
    rules = game.rules  # type: ignore[attr-defined]
    players = game.players.start  # type: ignore[attr-defined]
    dealt = set()
    for seed in range(SEED, SEED + 8):
        data = normal(rules.encode_state(rules.new_game(players, seed, {})))
        data.pop("seed", None)
        dealt.add(json.dumps(data, sort_keys=True))
    assert len(dealt) > 1
