"""The registry: the games this server plays, each described once by a `Game`.

This is the one place of the server that names a game. Everything else asks the registry
for a room's game by its id (``rooms.game``, a record's ``game``) and reads the rules, the
options, the bot levels and the client module from its descriptor.

A game's options are a pydantic model: its JSON Schema is what `GET /api/games` publishes
and the home page draws as a form; the model checks the types, and the engine's
`check_options` then checks what depends on the rules (a first seat beyond the player
count, a layout that does not fit). Tests register more games (the toy game of the server
tests) with `ISHTAR_EXTRA_GAMES`, naming modules that define a ``DESCRIPTOR``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import bots.babylon as babylon_bots
import bots.ishtar as ishtar_bots
import engine.babylon as babylon_engine
import engine.ishtar as ishtar_engine
from app.play.protocol import ServiceError, msg
from app.play.rules import Rules

DEFAULT_GAME = "ishtar"
"""The game of everything from before the registry: a room created without a game (unless
`ISHTAR_DEFAULT_GAME` says otherwise), records of format 1 and 2, `/api/catalogue`."""

LegacySetup = tuple[dict[str, Any], dict[str, Any] | None]
"""A legacy record's options, and its public set-up to check (None: nothing to check)."""

BotThink = Callable[[str, dict[str, Any], list[Any], int, float | None], Any]
"""``think(level, view, legal, seed, think_s) -> action``: a module-level function, so that
a process pool can run it (app/background/bot_runner.py)."""


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
class Game:
    """What the platform knows about one game."""

    id: str
    """Stored on ``rooms.game`` and in records: lower case, digits and dashes."""
    title: str
    players: range
    rules: Rules
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
    played_options: Callable[[dict[str, Any], str | None], dict[str, Any]] | None = (
        field(default=None, repr=False)
    )
    """The options a record's game was played with, from its options and the engine
    version that played it: options whose meaning an engine change would otherwise alter."""

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
        except ValueError as error:
            reason = getattr(error, "reason", None) or str(error)
            worded = getattr(error, "message", None)
            raise ServiceError(
                "bad_options",
                reason,
                message=worded if isinstance(worded, dict) else None,
            ) from None

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


ISHTAR_EDITIONS: dict[str, str] = {
    "4": "Recommended (balanced)",
    "1": "Classic numbers",
    "2": "First retuning (2026)",
    "3": "Second retuning (2026)",
}
"""The editions of Ishtar's component data (engine.ishtar.editions), the default first, as
the form names them; the engine's `check_options` refuses a name it does not have."""


SEAT: dict[str, Any] = {"x-seat": True}
"""Schema annotation of an option whose value is a seat number (from 0): the home page's
form counts it from 1 and offers only the seats of the chosen player count. An option with
``"x-players": [...]`` is offered only for those player counts (docs/protocol.md "Games")."""


class IshtarOptions(Options):
    """Ishtar's options: the board layout, a fixed first seat and the edition of the
    components (a new room gets the engine's default, edition 4; `turn_end` is not offered:
    new rooms end turns with `end`)."""

    layout: Literal["preset", "random"] = Field(
        "preset",
        title="Board layout",
        description="The rulebook's layout, or boards drawn at random.",
    )
    first_player: int | None = Field(
        None,
        ge=0,
        le=3,
        title="First player",
        description="A seat number, or none for a random draw.",
        json_schema_extra=SEAT,
    )
    edition: str = Field(
        next(iter(ISHTAR_EDITIONS)),
        title="Edition",
        description="The numbers of the tiles, tree cards and skills: recommended, tuned "
        "so every seat has a fair chance, or the classic numbers the first games used.",
        json_schema_extra=labelled(ISHTAR_EDITIONS),
    )


VERSION = re.compile(r"[0-9]{1,6}(\.[0-9]{1,6}){0,3}")
"""An engine version as records carry it: "1.1.0"."""


def _ishtar_played_options(
    options: dict[str, Any], engine_version: str | None
) -> dict[str, Any]:
    """Before engine 1.2.0 a turn with nothing left to do ended by itself: a record of
    such a game (which names no `turn_end`) replays with ``turn_end: "auto"``. Before
    engine 1.3.0 there were no editions: a record that names none is of edition "1" (the
    engine gives a new game its default)."""
    played = dict(options)
    if "turn_end" not in played and _before(engine_version, (1, 2)):
        played["turn_end"] = "auto"
    played.setdefault("edition", "1")
    return played


def _before(version: str | None, release: tuple[int, ...]) -> bool:
    """Whether ``version`` ("1.1.0") is an engine version older than ``release``; a missing
    or unreadable one is not (the record is then read as the current engine's).

    >>> _before("1.1.0", (1, 2)), _before("1.2.0", (1, 2)), _before("x", (1, 2))
    (True, False, False)
    """
    if not isinstance(version, str) or not VERSION.fullmatch(version):
        return False
    return tuple(int(part) for part in version.split(".")) < release


def _ishtar_legacy_setup(record: Mapping[str, Any]) -> LegacySetup:
    """Formats 1 and 2: the options at the top of the set-up, the drawn layout beside it."""
    setup = record.get("setup")
    setup = setup if isinstance(setup, Mapping) else {}
    options = {
        "layout": setup.get("layout") or "preset",
        "first_player": setup.get("first_player"),
    }
    drawn = record.get("layout")
    return options, None if drawn is None else {"layout": drawn}


ISHTAR = Game(
    id="ishtar",
    title="Ishtar: Gardens of Babylon",
    players=range(2, 5),
    rules=ishtar_engine,
    options=IshtarOptions,
    bots=("easy", "medium", "hard"),
    think=ishtar_bots.think,
    client="games/ishtar/screen.js",
    summary=(
        "Lay vegetation tiles around the fountains, gather gems, train your assistants "
        "and plant the King's trees. Two to four players, live in the browser."
    ),
    legacy_setup=_ishtar_legacy_setup,
    played_options=_ishtar_played_options,
)


class BabylonOptions(Options):
    """Babylon Gardens' options (docs/games/babylon/contract.md): the floor, how the
    scoreboards are given out, team mode and a fixed first seat."""

    floor: Literal["lower", "middle", "higher", "roof", "ishtar", "tammuz"] = Field(
        "lower",
        title="Floor",
        description="Which garden to play: the Lower Garden is the rulebook's first game.",
        json_schema_extra=labelled(
            {
                "lower": "Lower Garden",
                "middle": "Middle Garden",
                "higher": "Higher Garden",
                "roof": "Roof Garden",
                "ishtar": "Ishtar's Garden",
                "tammuz": "Tammuz's Garden",
            }
        ),
    )
    scoreboards: Literal["random", "choose"] = Field(
        "random",
        title="Scoreboards",
        description="Dealt at random, or each player chooses one in turn.",
        json_schema_extra=labelled(
            {"random": "Dealt at random", "choose": "Chosen in turn"}
        ),
    )
    teams: bool = Field(
        False,
        title="Team mode",
        description="4 players only: the first and third seats against the second and fourth, their scores added.",
        json_schema_extra={"x-players": [4]},
    )
    first_player: int | None = Field(
        None,
        ge=0,
        le=3,
        title="First player",
        description="A seat number, or none for the rulebook's draw of multi-flower tiles.",
        json_schema_extra=SEAT,
    )


BABYLON = Game(
    id="babylon-gardens",
    title="Babylon Gardens",
    players=range(2, 5),
    rules=babylon_engine,
    options=BabylonOptions,
    bots=("easy", "medium", "hard"),
    think=babylon_bots.think,
    # its bots are cheap: a draw's luck looked at 32 moves ahead, 64 times, separates a
    # hard bot from a medium one in fewer games than the raw score (docs/analysis.md)
    analysis={"luck_samples": 64, "luck_plies": 32},
    client="games/babylon/screen.js",
    summary=(
        "Water the flower tiles from the well, harvest their nectar and fill your "
        "scoreboard in colours and lines. Two to four players, or two teams of two."
    ),
)

BUNDLED: tuple[Game, ...] = (ISHTAR, BABYLON)


class Registry:
    """The games of this server by id, the bundled ones first."""

    def __init__(self, games: Iterable[Game]) -> None:
        self._games: dict[str, Game] = {}
        for game in games:
            if game.id in self._games:
                raise ValueError(f"two games registered as {game.id!r}")
            self._games[game.id] = game

    def __iter__(self) -> Iterator[Game]:
        return iter(self._games.values())

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def get(self, game_id: str) -> Game:
        """The game of this id, or `unknown_game` naming the ones there are."""
        game = self._games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            known = ", ".join(repr(g) for g in self._games)
            shown = game_id[:40] if isinstance(game_id, str) else game_id
            raise ServiceError(
                "unknown_game", f"There is no game {shown!r} here (games: {known})."
            )
        return game

    def of_rules(self, rules: Any) -> Game:
        """The game whose engine is `rules` (for callers that hold a module)."""
        for game in self._games.values():
            if game.rules is rules:
                return game
        raise KeyError(getattr(rules, "GAME", rules))


def registry(extra_modules: Iterable[str] = ()) -> Registry:
    """The bundled games and those of `extra_modules` (each defines ``DESCRIPTOR``)."""
    extra = [importlib.import_module(name).DESCRIPTOR for name in extra_modules]
    return Registry([*BUNDLED, *extra])
