"""Every game of the registry provides the engine contract (docs/contract.md,
app/play/rules.py): its names, its id, its errors, its options, its catalogues, and a clear
`MalformedAction` for what is not an action at all."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games import VERSION, Game
from app.play.rules import Engine
from engine import refusals
from engine.messages import LANGUAGES
from tests.conformance.games import GAMES

pytestmark = pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])

NAMES = sorted(
    {n for n in vars(Engine) if not n.startswith("_")}
    | set(Engine.__annotations__) - {"__name__"}
)


def test_the_engine_has_every_name_of_the_contract(game: Game) -> None:
    missing = [name for name in NAMES if not hasattr(game.engine, name)]
    assert not missing
    assert game.id == game.rules.GAME
    assert VERSION.fullmatch(game.rules.ENGINE_VERSION)
    assert issubclass(game.rules.IllegalAction, refusals.IllegalAction)
    assert issubclass(game.rules.MalformedAction, game.rules.IllegalAction)
    assert issubclass(game.rules.MalformedAction, refusals.MalformedAction)


@pytest.mark.parametrize(
    "junk", [None, [], "pass", 7, {}, {"type": "no-such-action"}, {"type": 3}]
)
def test_junk_is_a_malformed_action(game: Game, junk: Any) -> None:
    with pytest.raises(game.rules.MalformedAction) as info:
        game.rules.decode_action(junk)
    assert isinstance(info.value.reason, str) and info.value.reason.strip()


def test_options_are_normalised_once_and_for_all(game: Game) -> None:
    for players in game.players:
        typed = game.options.model_validate({}).model_dump()
        normal = game.rules.check_options(players, typed)
        assert game.rules.check_options(players, normal) == normal
        assert game.check_options(players, {}) == normal
        json.dumps(normal)


def test_catalogues_and_messages(game: Game) -> None:
    json.dumps(game.rules.catalogue())
    english = game.rules.messages("en")
    assert english and all(isinstance(v, str) for v in english.values())
    for lang in LANGUAGES:
        assert set(game.rules.messages(lang)) == set(english), lang
