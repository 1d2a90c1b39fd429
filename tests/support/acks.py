"""Reading an update that carries the mover's ack (docs/protocol.md, `ack`).

The server sends the ack of a move inside the move's update when it can (one message
instead of two). A client reads that as the `ack` message followed by the update, which is
what every test client here does, so tests keep asserting on `ack` messages.
"""

from __future__ import annotations

from typing import Any


def unfold(message: dict[str, Any]) -> list[dict[str, Any]]:
    """`[ack, update]` for an update carrying an ack; `[message]` for anything else."""
    if message.get("type") != "update" or "ack" not in message:
        return [message]
    ack = message.pop("ack")
    return [{"type": "ack", "version": message["version"], **ack}, message]
