"""The refusals every engine raises: the shared, typed base of the platform contract.

An engine refuses in two ways (docs/contract.md), as python-chess tells an illegal move
from an invalid one: `IllegalAction`, an action (or a set-up) its rules do not allow, and
its subclass `MalformedAction`, what is not an action of the game at all. Each carries the
refusal as a message (docs/i18n.md) and its English. Each engine subclasses both to word
its messages in its own English (engine/<game>/errors.py); the server catches these bases
and reads ``reason`` and ``message`` without knowing the game.

Standard library only: both engines import it (they stay independent of each other).
"""

from __future__ import annotations

from engine.messages import Message


class IllegalAction(ValueError):
    """What the rules refuse: ``message`` says why (a ``<game>.reason.*`` key and its
    params), ``reason`` is its English sentence, as the engine words it."""

    def __init__(self, message: Message, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.message = message


class MalformedAction(IllegalAction):
    """Not an action at all (a wrong type, a missing or mistyped field): the client's fault."""
