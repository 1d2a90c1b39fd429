"""What a viewer must never receive, and the check that no message carries it.

The secrets are read from the engine's full encoded state (which the server stores and
never sends): the seed, and what the game's own tests say its rules hide, in a function
``secrets(full, viewer)`` (`game_secrets`: tests/engine/<game>/secrets.py for a game under
engine/, the module itself for a game the tests define, such as the toy game). Every
message is also checked to carry exactly `view_for(state, viewer)` for its version.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine


def normal(value: Any) -> Any:
    """Tuples as lists, as after a trip through JSON."""
    return json.loads(json.dumps(value))


async def game_record(
    database_url: str, room_id: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The set-up (with the seed) and the logged actions of a room's game, from the database."""
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            game_id, setup = (
                await conn.execute(
                    text("SELECT id, setup FROM games WHERE room_id = :room"),
                    {"room": room_id},
                )
            ).one()
            actions = list(
                (
                    await conn.execute(
                        text(
                            "SELECT action FROM moves WHERE game_id = :g ORDER BY seq"
                        ),
                        {"g": game_id},
                    )
                ).scalars()
            )
    finally:
        await engine.dispose()
    return setup, actions


def states(
    rules: Any, setup: dict[str, Any], actions: list[dict[str, Any]]
) -> list[Any]:
    """The state at every version: index v is the state after v moves."""
    state = rules.new_game(setup["players"], setup["seed"], setup["options"])
    found = [state]
    for action in actions:
        state = rules.apply(state, rules.decode_action(action))
        found.append(state)
    return found


def _walk(value: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, key)
    else:
        yield key, value


Secrets = Callable[[dict[str, Any], int | None], tuple[list[str], set[int]]]
"""``secrets(full, viewer)``: (substrings that must not appear, card ids that must not
appear as cards) in what `viewer` receives, from the full encoded state."""


def game_secrets(rules: Any) -> Secrets:
    """The ``secrets`` function the game's tests write: tests/engine/<game>/secrets.py for
    the engine ``engine.<game>``, else the rules module's own (a game the tests define)."""
    name = rules.__name__
    if name.startswith("engine."):
        found: Secrets = importlib.import_module(f"tests.{name}.secrets").secrets
        return found
    own: Secrets = rules.secrets
    return own


def secrets_of(
    rules: Any, state: Any, viewer: int | None
) -> tuple[list[str], set[int]]:
    """(substrings that must not appear, tree-card ids that must not appear as cards)."""
    full = normal(rules.encode_state(state))
    strings, cards = game_secrets(rules)(full, viewer)
    return [str(full["seed"]), *strings], cards


def assert_no_secret(
    rules: Any,
    timeline: list[Any],
    viewer: int | None,
    raw: str,
    message: dict[str, Any],
) -> None:
    """Check one message received by `viewer` against the game at the message's version."""
    version = message.get("version")
    if version is None or version >= len(timeline):
        raise AssertionError(f"message without a known version: {raw[:200]}")
    state = timeline[version]
    forbidden, cards = secrets_of(rules, state, viewer)
    for secret in forbidden:
        assert secret not in raw, (
            f"{secret} leaked to viewer {viewer} in {message['type']}"
        )
    if cards:
        for key, value in _walk(message):
            if key in ("card", "reserved", "tree", "tree_cards") and type(value) is int:
                assert value not in cards, f"deck card {value} leaked to {viewer}"
    if message.get("view") is not None:
        assert message["view"] == normal(rules.view_for(state, viewer)), (
            f"{message['type']} v{version} is not view_for(state, {viewer})"
        )
    if message["type"] in ("welcome", "update", "sync") and (
        viewer is None or rules.current_player(state) != viewer
    ):
        assert message["legal"] == [], "legal actions go only to the seat to act"
