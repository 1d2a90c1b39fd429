"""An engine's refusals and log lines in English, as the tests compare them.

`why_illegal` and `narrate` return messages (docs/contract.md); the tests that check
what a player reads compare their English, which the engine's `english` words. Each
game's `tests/engine/<game>/in_english.py` binds this to its engine."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from engine.messages import Message

S = TypeVar("S")
A = TypeVar("A")
S_in = TypeVar("S_in", contravariant=True)
A_in = TypeVar("A_in", contravariant=True)


class Worded(Protocol[S_in, A_in]):
    """What an engine module gives for this (app/play/rules.py's `Engine` has more)."""

    def why_illegal(self, state: S_in, action: A_in, /) -> Message | None: ...

    def narrate(self, state: S_in, action: A_in, /) -> Message: ...

    def english(self, msg: Message, /) -> str: ...


class InEnglish(Generic[S, A]):
    """`why_illegal` and `narrate` of `engine`, worded by its `english`."""

    def __init__(self, engine: Worded[S, A]) -> None:
        self.engine = engine

    def why_illegal(self, state: S, action: A) -> str | None:
        """None if `action` is legal, else the reason as a player reads it."""
        said = self.engine.why_illegal(state, action)
        return None if said is None else self.engine.english(said)

    def narrate(self, state: S, action: A) -> str:
        """The log line of `action` as a player reads it."""
        return self.engine.english(self.engine.narrate(state, action))
