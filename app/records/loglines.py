"""The lines of a replay's move list in the reader's language: each move's message.

A record's moves keep their English `text` only (docs/records.md), so the replay page asks
for the messages apart (`GET …/replay/log`, docs/protocol.md "Replays"). A room's game has
them in its log (`moves.message`); an imported record's are the engine's words for each of
its moves, found by replaying it: the record is checked on import, so it replays. Either
way the answer is `{"version": V, "messages": [m1, …, mV]}`, one per move (null for a move
logged before messages existed: the page shows its `text`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.games import Registry
from app.play.protocol import dumps
from app.records.gamerecord import check_record

Message = dict[str, Any] | None


def answer(messages: Sequence[Message]) -> str:
    """The log answer as JSON text."""
    return dumps({"version": len(messages), "messages": list(messages)})


def record_messages(registry: Registry, body: str) -> list[Message]:
    """The engine's message for each move of a stored record (its text as imported).
    CPU-bound (a whole replay): run in a worker thread."""
    checked = check_record(registry, json.loads(body))
    rules = checked.game.rules
    moves = checked.record["moves"]
    return [
        rules.narrate(state, rules.decode_action(move["action"]))
        for state, move in zip(checked.states, moves, strict=False)
    ]
