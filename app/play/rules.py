"""The platform contract: what the server needs of a game's rules engine (docs/contract.md).

A game's engine is a module (``engine.ishtar``, the toy game of the tests) that provides
these names. `Rules` states them as a Protocol, so mypy checks each registered module
against it where the registry (app/games.py) assigns it to a `Game` descriptor. States,
actions and views are the engine's own types: to the server they are opaque values that
it hands back to the same engine, and JSON it sends as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Rules(Protocol):
    """A rules engine: pure functions of immutable states, deterministic from a seed."""

    __name__: str
    """The module's name: worker processes load the engine by it."""
    GAME: str
    ENGINE_VERSION: str

    @property
    def IllegalAction(self) -> type[ValueError]:
        """Raised by `apply`, `new_game` and `check_options`, with a ``reason`` for people
        and its ``message`` (docs/i18n.md) for their language."""

    @property
    def MalformedAction(self) -> type[ValueError]:
        """The subclass `decode_action` raises for what is not an action of the game at all."""

    def check_options(
        self, players: int, options: Mapping[str, Any] | None, /
    ) -> dict[str, Any]: ...
    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None, /
    ) -> Any: ...
    def public_setup(self, state: Any, /) -> dict[str, Any]: ...
    def current_player(self, state: Any, /) -> int | None: ...
    def legal_actions(self, state: Any, /) -> Sequence[Any]: ...
    def why_illegal(self, state: Any, action: Any, /) -> str | None: ...
    def why_illegal_message(self, state: Any, action: Any, /) -> dict[str, Any] | None:
        """`why_illegal` as a message (docs/i18n.md): ``{"key", "params"}``, or None."""

    def apply(self, state: Any, action: Any, /) -> Any: ...
    def preview(self, state: Any, action: Any, /) -> dict[str, Any]: ...
    def narrate(self, state: Any, action: Any, /) -> str: ...
    def narrate_message(self, state: Any, action: Any, /) -> dict[str, Any]:
        """The log line of `narrate` as a message; `narrate` is its English."""

    def messages(self, lang: str, /) -> dict[str, str]:
        """The engine's catalogue of one language (``en``, ``fr``, ``nl``): key → pattern."""

    def is_over(self, state: Any, /) -> bool: ...
    def final_scores(self, state: Any, /) -> dict[str, Any]: ...
    def view_for(self, state: Any, seat: int | None, /) -> dict[str, Any]: ...
    def encode_state(self, state: Any, /) -> dict[str, Any]: ...
    def decode_state(self, data: dict[str, Any], /) -> Any: ...
    def encode_action(self, action: Any, /) -> dict[str, Any]: ...
    def decode_action(self, data: Any, /) -> Any: ...
    def catalogue(self) -> dict[str, Any]: ...
