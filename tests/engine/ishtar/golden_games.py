"""Golden playthroughs: seeded random games written out step by step.

Each file under tests/engine/ishtar/golden/ holds the set-up, every action with its log line and the
number of legal actions before it, and the final scores. Any change in the rules shows as a
readable diff; regenerate with ``python -m tests.engine.regenerate_golden`` and review it.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from engine.ishtar import (
    apply,
    encode_action,
    encode_state,
    final_scores,
    is_over,
    legal_actions,
    new_game,
)
from tests.engine.ishtar.in_english import narrate

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: tuple[tuple[int, int, str | None], ...] = (
    (2, 101, None),
    (3, 202, "random"),
    (4, 303, None),
    (4, 404, "random"),
)


def file_name(players: int, seed: int) -> str:
    return f"game-{players}p-seed{seed}.json"


EDITION = "1"
"""The golden games are edition 1's (their set-up names none, as before editions)."""


def play(players: int, seed: int, layout: str | None) -> dict[str, Any]:
    """The playthrough record of one seeded random game."""
    rng = random.Random(seed)
    state = new_game(players, seed, {"layout": layout, "edition": EDITION})
    steps = []
    while not is_over(state):
        legal = legal_actions(state)
        action = rng.choice(legal)
        steps.append(
            {
                "seat": state.current,
                "phase": state.phase,
                "legal": len(legal),
                "action": encode_action(action),
                "log": narrate(state, action),
            }
        )
        state = apply(state, action)
    digest = hashlib.sha256(
        json.dumps(encode_state(state), sort_keys=True).encode()
    ).hexdigest()
    return {
        "setup": {"players": players, "seed": seed, "layout": layout},
        "steps": steps,
        "scores": final_scores(state),
        "final_state_sha256": digest,
    }


def render(record: dict[str, Any]) -> str:
    """One step per line, so diffs stay readable."""
    lines = ["{", f'  "setup": {json.dumps(record["setup"])},', '  "steps": [']
    steps = record["steps"]
    for i, step in enumerate(steps):
        lines.append("    " + json.dumps(step) + ("," if i < len(steps) - 1 else ""))
    lines.append("  ],")
    lines.append(f'  "scores": {json.dumps(record["scores"])},')
    lines.append(f'  "final_state_sha256": {json.dumps(record["final_state_sha256"])}')
    lines.append("}")
    return "\n".join(lines) + "\n"
