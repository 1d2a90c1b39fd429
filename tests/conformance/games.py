"""The games the conformance suite runs over, and their seeded random playouts.

The games are the registry's (app/games.py): the bundled ones and the toy game of the server
tests. Each game is played with every player count on its default options, and once with
each value of each of its enumerated options (Literal and bool fields of its options
model), so a new option value is played too. A playout is computed once per process.
"""

from __future__ import annotations

import json
import random
import typing
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.games import Game, registry

GAMES: list[Game] = list(registry(["tests.app.toygame"]))
"""Every game of the registry, the toy game of the server tests included."""

MAX_ACTIONS = 5000
"""A playout that has not ended after this many actions fails."""

SEED = 739_104_862_551
"""Seeds are long and distinctive, so that one found in a view is not a coincidence."""


@dataclass(frozen=True)
class Case:
    game: Game
    players: int
    options: dict[str, Any]
    seed: int

    @property
    def id(self) -> str:
        named = ",".join(f"{k}={v}" for k, v in self.options.items()) or "defaults"
        return f"{self.game.id}-{self.players}p-{named}"

    @property
    def rules(self) -> Any:
        return self.game.rules

    def setup(self) -> dict[str, Any]:
        """The set-up as the server stores it."""
        normal = self.rules.check_options(self.players, self.options)
        return {"players": self.players, "seed": self.seed, "options": normal}


def option_values(game: Game) -> list[tuple[str, Any]]:
    """Each non-default value of each enumerated option of the game's options model."""
    values = []
    for name, field in game.options.model_fields.items():
        if field.annotation is bool:
            choices: tuple[Any, ...] = (False, True)
        elif typing.get_origin(field.annotation) is typing.Literal:
            choices = typing.get_args(field.annotation)
        else:
            continue
        values += [(name, value) for value in choices if value != field.default]
    return values


def cases() -> list[Case]:
    found: list[Case] = []
    for game in GAMES:
        counts = list(game.players)
        wanted = [(players, {}) for players in counts]
        for k, (name, value) in enumerate(option_values(game)):
            # the first player count, from a rotating start, whose rules take the value
            order = counts[k % len(counts) :] + counts[: k % len(counts)]
            for players in order:
                try:
                    game.rules.check_options(players, {name: value})
                except ValueError:
                    continue
                wanted.append((players, {name: value}))
                break
            else:
                raise AssertionError(f"{game.id}: no player count takes {name}={value}")
        for players, options in wanted:
            found.append(Case(game, players, options, SEED + 7919 * len(found)))
    return found


CASES = cases()
IDS = [case.id for case in CASES]


def normal(value: Any) -> Any:
    """A value as after a trip through JSON."""
    return json.loads(json.dumps(value))


@dataclass(frozen=True)
class Playout:
    states: list[Any]
    """The state before each action, and the last one."""
    actions: list[Any]


def play(case: Case, player_seed: int | None = None) -> Playout:
    """A random player's game: a legal action drawn uniformly at every step."""
    rules = case.rules
    rng = random.Random(case.seed if player_seed is None else player_seed)
    state = rules.new_game(case.players, case.seed, case.options)
    states, actions = [state], []
    for _ in range(MAX_ACTIONS):
        if rules.is_over(state):
            return Playout(states, actions)
        action = rng.choice(list(rules.legal_actions(state)))
        state = rules.apply(state, action)
        actions.append(action)
        states.append(state)
    raise AssertionError(f"{case.id}: no end after {MAX_ACTIONS} actions")


@cache
def played(index: int) -> Playout:
    """The playout of ``CASES[index]`` (computed once; tests only read it)."""
    return play(CASES[index])


def viewers(case: Case) -> list[int | None]:
    return [None, *range(case.players)]
