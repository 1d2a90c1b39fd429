"""The checks run on every message a fuzzed server sends: nothing hidden leaves it.

`Audit` knows the true game (replayed from the stored set-up, seed included) at every
version, and for each message to a viewer asserts:

- no secret appears anywhere in the text: a seat or host token, the seed, the identity of a
  face-down tile (every pile tile but the face-up tops, and the tiles removed at set-up);
- no key naming a secret (``seed``, ``host_token``, ``deck``, …) with a value anywhere in
  the JSON (the seed may be revealed once the game is over, for replays);
- a ``view`` is exactly ``engine.view_for(state, viewer)`` at the message's version, an
  update's ``changes`` exactly the entries of that view that differ from the version before,
  and
  ``legal`` exactly the engine's legal actions with their previews for the seat to act (and
  empty for everyone else), so nothing beyond what the engine chose to show is ever sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from engine import ishtar
from engine.ishtar.views import face_up_top

SECRET_KEYS = {"seed", "host_token", "token_hash", "seat_token", "snapshot", "deck"}


def as_json(value: Any) -> Any:
    """`value` as it reads after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def hidden_tiles(state: ishtar.State) -> set[str]:
    """Tiles nobody may identify in `state`: face-down pile tiles and removed tiles."""
    hidden = set(state.removed)
    for i, pile in enumerate(state.piles):
        top = face_up_top(state, i)
        hidden.update(tile for tile in pile if tile != top)
    return hidden


def items(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair anywhere in a JSON document."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from items(item)
    elif isinstance(value, list):
        for item in value:
            yield from items(item)


def expected_legal(state: ishtar.State, seat: int | None) -> list[dict[str, Any]]:
    if seat is None or ishtar.current_player(state) != seat:
        return []
    return [
        {"action": ishtar.encode_action(a), "preview": ishtar.preview(state, a)}
        for a in ishtar.legal_actions(state)
    ]


class Audit:
    """The true game at each version, and the checks of one message against it."""

    def __init__(self, setup: dict[str, Any], tokens: list[str]) -> None:
        self.setup = setup
        self.tokens = tokens
        self.states = [ishtar.replay(setup, [])]
        self.messages = 0

    @property
    def state(self) -> ishtar.State:
        return self.states[-1]

    @property
    def version(self) -> int:
        return len(self.states) - 1

    def applied(self, action: dict[str, Any]) -> None:
        self.states.append(ishtar.apply(self.state, ishtar.decode_action(action)))

    def check(self, text: str, seat: int | None) -> dict[str, Any]:
        """Audit one server message to `seat` (None: a spectator); the parsed message."""
        self.messages += 1
        message: dict[str, Any] = json.loads(text)
        for token in self.tokens:
            assert token not in text, "a token was sent over the websocket"
        seed = str(self.setup["seed"])
        assert len(seed) < 6 or seed not in text or ishtar.is_over(self.state), (
            "seed sent"
        )
        over = ishtar.is_over(self.state)  # a finished game may reveal its seed
        leaks = {k for k, v in items(message) if k in SECRET_KEYS and v is not None}
        assert not leaks or (over and leaks == {"seed"}), leaks
        version = message.get("version")
        if isinstance(version, int) and 0 <= version <= self.version:
            state = self.states[version]
            for tile in hidden_tiles(state):
                assert f'"{tile}"' not in text, f"face-down tile {tile} was sent"
            if message.get("view") is not None:
                assert message["view"] == as_json(ishtar.view_for(state, seat))
            if message.get("type") == "update":  # exactly the entries that changed
                now = as_json(ishtar.view_for(state, seat))
                then = as_json(ishtar.view_for(self.states[version - 1], seat))
                changed = {k: v for k, v in now.items() if then.get(k) != v}
                assert message["changes"] == changed, (version, seat)
            if "legal" in message and message.get("type") != "error":
                assert message["legal"] == as_json(expected_legal(state, seat))
        return message
