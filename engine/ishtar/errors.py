"""The engine's refusals: what the rules do not allow, and what is not an action at all."""

from __future__ import annotations

from engine.ishtar.words import english
from engine.messages import Message


class IllegalAction(ValueError):
    """An action (or a set-up) the rules refuse: ``message`` says why (docs/i18n.md, an
    ``ishtar.reason.*`` key and its params), ``reason`` is its English sentence."""

    def __init__(self, message: Message) -> None:
        reason = english(message)
        super().__init__(reason)
        self.reason = reason
        self.message = message


class MalformedAction(IllegalAction):
    """Not an action at all (a wrong type, a missing or mistyped field): the client's fault."""
