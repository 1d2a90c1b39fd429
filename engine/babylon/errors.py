"""The engine's refusals: what the rules do not allow, and what is not an action at all.

The shared bases (engine/refusals.py) worded in this engine's English.
"""

from __future__ import annotations

from engine import refusals
from engine.babylon.words import english
from engine.messages import Message


class IllegalAction(refusals.IllegalAction):
    """An action (or a set-up) the rules refuse: ``message`` says why (docs/i18n.md, a
    ``babylon.reason.*`` key and its params), ``reason`` is its English sentence."""

    def __init__(self, message: Message) -> None:
        super().__init__(message, english(message))


class MalformedAction(IllegalAction, refusals.MalformedAction):
    """Not an action at all (a wrong type, a missing or mistyped field): the client's fault."""
