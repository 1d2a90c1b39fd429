"""Golden playthroughs of Babylon Gardens: seeded random games written out step by step.

Each file under tests/engine/babylon/golden/ holds the set-up (players, seed, options and
what the seed drew), every action with the seat, the phase, the number of legal actions
before it and its log line, and the final scores and state digest. Any change of the rules
shows as a readable diff: regenerate with ``python -m tests.engine.babylon.regenerate_golden``
and review it.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from engine.babylon import (
    apply,
    encode_action,
    encode_state,
    final_scores,
    is_over,
    legal_actions,
    new_game,
    public_setup,
)
from engine.babylon.state import Action
from tests.engine.babylon.in_english import narrate

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: tuple[tuple[int, int, dict[str, Any]], ...] = (
    (2, 101, {"floor": "lower"}),
    (3, 202, {"floor": "higher", "scoreboards": "choose"}),
    (4, 303, {"floor": "ishtar", "teams": True}),
    (4, 404, {"floor": "tammuz", "scoreboards": "choose"}),
    (2, 505, {"floor": "roof", "first_player": 1}),
    (3, 606, {"floor": "middle"}),
)


def file_name(players: int, seed: int, options: dict[str, Any]) -> str:
    return f"game-{options['floor']}-{players}p-seed{seed}.json"


def choose(rng: random.Random, legal: list[Action]) -> Action:
    """A random player who undoes now and then (one step in ten when it can)."""
    if legal[-1].type == "undo" and rng.random() < 0.1:
        return legal[-1]
    return rng.choice([a for a in legal if a.type != "undo"])


def play(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The playthrough record of one seeded random game."""
    rng = random.Random(seed)
    state = new_game(players, seed, options)
    steps = []
    while not is_over(state):
        legal = legal_actions(state)
        action = choose(rng, legal)
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
        "setup": {"players": players, "seed": seed, "options": options},
        "drawn": public_setup(state),
        "steps": steps,
        "scores": final_scores(state),
        "final_state_sha256": digest,
    }


def render(record: dict[str, Any]) -> str:
    """One step per line, so diffs stay readable."""
    lines = [
        "{",
        f'  "setup": {json.dumps(record["setup"])},',
        f'  "drawn": {json.dumps(record["drawn"])},',
        '  "steps": [',
    ]
    steps = record["steps"]
    for i, step in enumerate(steps):
        lines.append("    " + json.dumps(step) + ("," if i < len(steps) - 1 else ""))
    lines.append("  ],")
    lines.append(f'  "scores": {json.dumps(record["scores"])},')
    lines.append(f'  "final_state_sha256": {json.dumps(record["final_state_sha256"])}')
    lines.append("}")
    return "\n".join(lines) + "\n"
