"""The engine's refusals: what the rules do not allow, and what is not an action at all."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action (or a set-up) the rules refuse; ``reason`` is a sentence a player can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedAction(IllegalAction):
    """Not an action at all (a wrong type, a missing or mistyped field): the client's fault."""
