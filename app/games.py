"""The registry: the games this server plays, each described once by a `Game`.

This is the one place of the server that names a game, by the module of its descriptor
(`INSTALLED`: games/<game>.py, which joins the game's engine and bots to its options
model). Everything else asks the registry for a room's game by its id (``rooms.game``, a
record's ``game``) and reads the rules, the options, the bot levels, the upgrade of old
records' options and the client module from its descriptor.

A game's options are a pydantic model: its JSON Schema is what `GET /api/games` publishes
and the home page draws as a form; the model checks the types, and the engine's
`check_options` then checks what depends on the rules (a first seat beyond the player
count, a layout that does not fit). Tests register more games (the toy game of the server
tests) with `ISHTAR_EXTRA_GAMES`, naming modules that define a ``DESCRIPTOR``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Generic

from pydantic import BaseModel, ConfigDict, ValidationError

from app.play.protocol import ServiceError, msg
from app.play.rules import A, Engine, Rules, S

DEFAULT_GAME = "ishtar"
"""The game of everything from before the registry: a room created without a game (unless
`ISHTAR_DEFAULT_GAME` says otherwise), records of format 1 and 2, `/api/catalogue`."""

LegacySetup = tuple[dict[str, Any], dict[str, Any] | None]
"""A legacy record's options, and its public set-up to check (None: nothing to check)."""

BotThink = Callable[[str, dict[str, Any], list[Any], int, float | None], Any]
"""``think(level, view, legal, seed, think_s) -> action``: a module-level function, so that
a process pool can run it (app/background/bot_runner.py)."""

PositionValue = Callable[[Any], Sequence[float]]
"""``value(state) -> [expected final score of each seat]``: a game's bots' value of a
position, from what a spectator sees of it (the analysis's luck, docs/analysis.md)."""


def labelled(labels: Mapping[str, str]) -> Callable[[dict[str, Any]], None]:
    """A `json_schema_extra` that names each value of an enum: the schema's ``enum``
    becomes a ``oneOf`` of ``const``s with a ``title`` each, which the home form shows."""

    def extra(schema: dict[str, Any]) -> None:
        values = schema.pop("enum", list(labels))
        schema["oneOf"] = [{"const": v, "title": labels.get(v, str(v))} for v in values]
        schema.pop("type", None)

    return extra


class Options(BaseModel):
    """Base of the options models: unknown keys are refused, values are JSON."""

    model_config = ConfigDict(extra="forbid", strict=False)


@dataclass(frozen=True)
class Game(Generic[S, A]):
    """What the platform knows about one game."""

    engine: Engine[S, A]
    """The game's rules engine module (docs/contract.md), checked by mypy against `Engine`;
    the server plays it through `rules`. It names the game: `id`, `title`, `players`."""
    options: type[Options]
    bots: tuple[str, ...] = ()
    """The bot levels, weakest first; () means the game has no bots yet."""
    think: BotThink | None = None
    client: str = ""
    """The game's ES module, a path under /static (its screen: board and panels)."""
    summary: str = ""
    """A sentence or two for the home page when this game is picked."""
    legacy_setup: Callable[[Mapping[str, Any]], LegacySetup] | None = field(
        default=None, repr=False
    )
    """The options and public set-up of a record written before rooms recorded options
    (records of format 1 and 2, which only this game could write)."""
    analysis: Mapping[str, Any] = field(default_factory=dict)
    """The analysis's depth where this game's costs differ from the default's (fields of
    `bots.analysis.Depth`; docs/analysis.md): none for a game that takes the default."""
    value: PositionValue | None = field(default=None, repr=False)
    """The bots' value of a position, ``value(state) -> [expected final score per seat]``,
    read from the spectator's view alone (optional: the analysis values a draw's luck with
    it where the depth says ``luck_value``; docs/analysis.md, "Luck")."""
    upgrade_options: Callable[[dict[str, Any], str | None], dict[str, Any]] | None = (
        field(default=None, repr=False)
    )
    """The options a record's game was played with, from its stored options and the engine
    version that played it: what an engine release added or changed the meaning of, filled
    in as the older engine played (the engine's own rule: Ishtar's `upgrade_options`)."""
    rules: Rules[S, A] = field(init=False, repr=False, compare=False)
    """`engine` as the server plays it, its optional members filled in once, here."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", Rules(self.engine))

    @property
    def id(self) -> str:
        """Stored on ``rooms.game`` and in records: the engine's `GAME`."""
        return self.engine.GAME

    @property
    def title(self) -> str:
        return self.engine.TITLE

    @property
    def players(self) -> range:
        return self.engine.PLAYERS

    def check_options(self, players: int, given: Any) -> dict[str, Any]:
        """The options of a new room, normalised, or `bad_options` saying what is wrong."""
        if players not in self.players:
            low, high = self.players.start, self.players.stop - 1
            raise ServiceError(
                "bad_options",
                f"{self.title} is played by {low} to {high} players.",
                message=msg(
                    "error.bad_options.players", game=self.title, min=low, max=high
                ),
            )
        if given is not None and not isinstance(given, dict):
            raise ServiceError(
                "bad_options",
                "The options are a JSON object.",
                message=msg("error.bad_options.not_object"),
            )
        try:
            typed = self.options.model_validate(given or {}).model_dump()
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "options"
            if first["type"] == "extra_forbidden":
                reason = f"{self.title} has no option {where[:40]!r}."
                message = msg(
                    "error.bad_options.no_such_option",
                    game=self.title,
                    option=where[:40],
                )
            else:
                reason = f"Option {where!r}: {first['msg']}."
                message = msg("error.bad_options.value", option=where[:40])
            raise ServiceError("bad_options", reason, message=message) from None
        try:
            return self.rules.check_options(players, typed)
        except self.rules.IllegalAction as error:
            raise ServiceError(
                "bad_options", error.reason or str(error), message=error.message
            ) from None
        except ValueError as error:
            raise ServiceError("bad_options", str(error)) from None

    def describe(self) -> dict[str, Any]:
        """The game as `GET /api/games` lists it (the client URL is added by the route)."""
        return {
            "id": self.id,
            "title": self.title,
            "players": {"min": self.players.start, "max": self.players.stop - 1},
            "options": self.options.model_json_schema(),
            "bots": list(self.bots),
            "summary": self.summary,
        }


AnyGame = Game[Any, Any]
"""A game of the registry, whatever its engine's types: the server holds games of many, and
keeps each state and action to its own engine (`Game.rules`)."""


SEAT: dict[str, Any] = {"x-seat": True}
"""Schema annotation of an option whose value is a seat number (from 0): the home page's
form counts it from 1 and offers only the seats of the chosen player count. An option with
``"x-players": [...]`` is offered only for those player counts (docs/protocol.md "Games")."""


VERSION = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6}){0,3}")
"""An engine version as records carry it: "1.1.0"."""


INSTALLED: tuple[str, ...] = ("games.ishtar", "games.babylon")
"""The games this server plays, bundled with it: each a module that defines ``DESCRIPTOR``
(games/), loaded as the extra games of `registry` are."""


@cache
def bundled() -> tuple[AnyGame, ...]:
    """The descriptors of `INSTALLED`, in its order (imported on first use: a descriptor
    module imports this one for `Game` and `Options`)."""
    return tuple(_descriptor(name) for name in INSTALLED)


def _descriptor(module: str) -> AnyGame:
    game = importlib.import_module(module).DESCRIPTOR
    if not isinstance(game, Game):
        raise TypeError(f"{module}.DESCRIPTOR is not a Game")
    return game


class Registry:
    """The games of this server by id, the bundled ones first."""

    def __init__(self, games: Iterable[AnyGame]) -> None:
        self._games: dict[str, AnyGame] = {}
        for game in games:
            if game.id in self._games:
                raise ValueError(f"two games registered as {game.id!r}")
            self._games[game.id] = game

    def __iter__(self) -> Iterator[AnyGame]:
        return iter(self._games.values())

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def get(self, game_id: str) -> AnyGame:
        """The game of this id, or `unknown_game` naming the ones there are."""
        game = self._games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            known = ", ".join(repr(g) for g in self._games)
            shown = game_id[:40] if isinstance(game_id, str) else game_id
            raise ServiceError(
                "unknown_game", f"There is no game {shown!r} here (games: {known})."
            )
        return game


def registry(extra_modules: Iterable[str] = ()) -> Registry:
    """The bundled games and those of `extra_modules` (each defines ``DESCRIPTOR``)."""
    return Registry([*bundled(), *(_descriptor(name) for name in extra_modules)])
