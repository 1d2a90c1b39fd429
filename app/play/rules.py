"""The platform contract: what the server needs of a game's rules engine (docs/contract.md).

A game's engine is a module (``engine.ishtar``, the toy game of the tests) that provides
the names of `Engine`, a Protocol generic in the engine's own state and action types: mypy
checks each registered module against it where its descriptor (games/<game>.py) hands it
to a `Game` (app/games.py), and that the module's functions agree on those types. To the
server, states and actions are opaque values that it hands back to the same engine (the
type variables keep them apart), and views JSON that it sends as it is.

`Rules` is the server's side of the seam: it wraps an engine module once, when the game
is registered, and fills in the members the contract makes optional (the legal actions
with their previews, their JSON, the memo to forget, the parts states share) with what
the server would do without them, so that no part of the server asks a module what it
has. Refusals are the typed bases of engine/refusals.py, with their ``reason`` and
``message``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:  # types only: the server imports no engine (pyproject.toml)
    from engine.refusals import IllegalAction, MalformedAction

S = TypeVar("S")
"""An engine's state type."""
A = TypeVar("A")
"""An engine's action type."""

Message = dict[str, Any]
"""What an engine says to people: ``{"key": str, "params": {...}}`` (docs/i18n.md)."""

Dumps = Callable[[Any], str]
"""The server's JSON serialiser, which `legal_json` writes the legal list with."""


class Engine(Protocol[S, A]):
    """A rules engine module: pure functions of immutable states, deterministic from a seed."""

    __name__: str
    """The module's name: worker processes load the engine by it."""
    GAME: str
    """The game's id: stored on ``rooms.game`` and in records (lower case, digits, dashes)."""
    TITLE: str
    """The game's name, as players know it."""
    PLAYERS: range
    """How many players a game takes."""
    ENGINE_VERSION: str

    @property
    def IllegalAction(self) -> type[IllegalAction]:
        """Raised by `apply`, `new_game` and `check_options`: a subclass of the shared
        base, with a ``reason`` for people and its ``message`` for their language."""

    @property
    def MalformedAction(self) -> type[MalformedAction]:
        """The subclass `decode_action` raises for what is not an action of the game at all."""

    def check_options(
        self, players: int, options: Mapping[str, Any] | None, /
    ) -> dict[str, Any]: ...
    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None, /
    ) -> S: ...
    def public_setup(self, state: S, /) -> dict[str, Any]: ...
    def current_player(self, state: S, /) -> int | None: ...
    def legal_actions(self, state: S, /) -> Sequence[A]: ...
    def why_illegal(self, state: S, action: A, /) -> Message | None:
        """None if `action` is legal, else the reason as a message."""

    def apply(self, state: S, action: A, /) -> S: ...
    def preview(self, state: S, action: A, /) -> dict[str, Any]: ...
    def narrate(self, state: S, action: A, /) -> Message:
        """The action's line for the log, as a message, from the state before it."""

    def english(self, message: Message, /) -> str:
        """A message of the engine in the English the log and the errors have always said."""

    def messages(self, lang: str, /) -> dict[str, str]:
        """The engine's catalogue of one language (``en``, ``fr``, ``nl``): key → pattern."""

    def is_over(self, state: S, /) -> bool: ...
    def final_scores(self, state: S, /) -> dict[str, Any]: ...
    def view_for(self, state: S, seat: int | None, /) -> dict[str, Any]: ...
    def encode_state(self, state: S, /) -> dict[str, Any]: ...
    def decode_state(self, data: dict[str, Any], /) -> S: ...
    def encode_action(self, action: A, /) -> dict[str, Any]: ...
    def decode_action(self, data: Any, /) -> A: ...
    def catalogue(self) -> dict[str, Any]: ...


def _no_parts(state: object) -> tuple[tuple[object, int], ...]:
    return ()


def _nothing_to_forget(state: object) -> None:
    return None


class Rules(Generic[S, A]):
    """An engine as the server plays it: the contract's members, and the optional ones
    filled in once (docs/contract.md, "Optional").

    A member of the contract calls the module's function, looked up at each call (a
    test may patch a module's function, and the server sees it); an optional member is
    the module's own, or the default, chosen here once. The defaults do what the server
    did without the optional member. `memoises_legal` and `forgets_legal` say what an
    engine's own `legal_json` keeps in the state (app/play/positions.py counts it, or has
    it forgotten).
    """

    def __init__(self, engine: Engine[S, A]) -> None:
        self.engine = engine
        self.__name__ = engine.__name__
        self.GAME = engine.GAME
        self.ENGINE_VERSION = engine.ENGINE_VERSION
        self.IllegalAction: type[IllegalAction] = engine.IllegalAction
        self.MalformedAction: type[MalformedAction] = engine.MalformedAction

        # The optional members, looked up here only: the one place that asks.
        listed = getattr(engine, "legal_with_previews", None)
        self.legal_with_previews: Callable[[S], list[dict[str, Any]]] = (
            listed if listed is not None else self._legal_with_previews
        )
        """Every legal action of the seat to act, ``{"action", "preview"}`` each."""
        as_json = getattr(engine, "legal_json", None)
        self.legal_json: Callable[[S, Dumps], str] = (
            as_json if as_json is not None else self._legal_json
        )
        """`legal_with_previews` as JSON text."""
        forget = getattr(engine, "forget_legal", None)
        self.forget_legal: Callable[[S], None] = (
            forget if forget is not None else _nothing_to_forget
        )
        """Drop what the engine memoised of a state's legal actions (kept only as a
        newer state's past); nothing to do for an engine that memoises nothing."""
        shared = getattr(engine, "shared_parts", None)
        self.shared_parts: Callable[[S], Iterable[tuple[object, int]]] = (
            shared if shared is not None else _no_parts
        )
        """What a state keeps alive that other states share, each with its bytes."""
        self.memoises_legal = as_json is not None
        """The engine's own `legal_json` memoises the list in the state."""
        self.forgets_legal = forget is not None
        """The engine can drop that memo (`forget_legal`)."""

    def check_options(
        self, players: int, options: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        return self.engine.check_options(players, options)

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> S:
        return self.engine.new_game(players, seed, options)

    def public_setup(self, state: S) -> dict[str, Any]:
        return self.engine.public_setup(state)

    def current_player(self, state: S) -> int | None:
        return self.engine.current_player(state)

    def legal_actions(self, state: S) -> Sequence[A]:
        return self.engine.legal_actions(state)

    def why_illegal(self, state: S, action: A) -> Message | None:
        return self.engine.why_illegal(state, action)

    def apply(self, state: S, action: A) -> S:
        return self.engine.apply(state, action)

    def preview(self, state: S, action: A) -> dict[str, Any]:
        return self.engine.preview(state, action)

    def narrate(self, state: S, action: A) -> Message:
        return self.engine.narrate(state, action)

    def english(self, message: Message) -> str:
        return self.engine.english(message)

    def messages(self, lang: str) -> dict[str, str]:
        return self.engine.messages(lang)

    def is_over(self, state: S) -> bool:
        return self.engine.is_over(state)

    def final_scores(self, state: S) -> dict[str, Any]:
        return self.engine.final_scores(state)

    def view_for(self, state: S, seat: int | None) -> dict[str, Any]:
        return self.engine.view_for(state, seat)

    def encode_state(self, state: S) -> dict[str, Any]:
        return self.engine.encode_state(state)

    def decode_state(self, data: dict[str, Any]) -> S:
        return self.engine.decode_state(data)

    def encode_action(self, action: A) -> dict[str, Any]:
        return self.engine.encode_action(action)

    def decode_action(self, data: Any) -> A:
        return self.engine.decode_action(data)

    def catalogue(self) -> dict[str, Any]:
        return self.engine.catalogue()

    def _legal_with_previews(self, state: S) -> list[dict[str, Any]]:
        return [
            {
                "action": self.encode_action(action),
                "preview": self.preview(state, action),
            }
            for action in self.legal_actions(state)
        ]

    def _legal_json(self, state: S, dumps: Dumps) -> str:
        return dumps(self.legal_with_previews(state))

    def __repr__(self) -> str:
        return f"Rules({self.__name__})"
