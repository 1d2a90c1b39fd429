"""The engine's refusals and log lines in English, as the tests compare them.

`why_illegal` and `narrate` return messages (docs/contract.md); the tests that check
what a player reads compare their English, which `english` words."""

from __future__ import annotations

from engine import ishtar
from engine.ishtar import Action, State, english


def why_illegal(state: State, action: Action) -> str | None:
    """None if `action` is legal, else the reason as a player reads it."""
    said = ishtar.why_illegal(state, action)
    return None if said is None else english(said)


def narrate(state: State, action: Action) -> str:
    """The log line of `action` as a player reads it."""
    return english(ishtar.narrate(state, action))
