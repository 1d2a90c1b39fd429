"""Transcripts of the engines' English: every log line, preview text and refusal reason of
seeded random games, so a change in how the words are made (docs/i18n.md: the English is now
rendered from messages) shows as a change of the transcript.

A transcript is one line per sentence: the log line of each move played, the undo preview's
``text`` and the ``no_assistant`` note where there is one, and ``why_illegal`` of a dozen
actions drawn at random around each position (most of them illegal, of every type and with
fields out of range), plus the refusals of bad options and malformed actions. The digests of
the transcripts made before the change are kept in tests/engine/golden/wording.json
(``python -m tests.engine.wording`` writes it; regenerate only for a deliberate change of
the English, and review the diff of the golden playthroughs too).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import engine.babylon as babylon
import engine.ishtar as ishtar
from engine.babylon.state import Action as BabylonAction
from engine.ishtar.components import BLOOMING_TOKEN_COUNTS, GEM_COLOURS, SKILLS
from engine.ishtar.state import Action as IshtarAction

GOLDEN = Path(__file__).parent / "golden" / "wording.json"

ISHTAR_GAMES: tuple[tuple[int, int, str | None], ...] = tuple(
    (2 + seed % 3, seed, "random" if seed % 2 else None) for seed in range(24)
)
BABYLON_GAMES: tuple[tuple[int, int, dict[str, Any]], ...] = tuple(
    (
        2 + seed % 3,
        seed,
        {
            "floor": ("lower", "middle", "higher", "roof", "ishtar", "tammuz")[
                seed % 6
            ],
            "scoreboards": "choose" if seed % 4 == 1 else "random",
        },
    )
    for seed in range(24)
)
PROBES = 12
"""Actions drawn around each position."""


def _ishtar_probe(rng: random.Random, state: ishtar.State) -> IshtarAction:
    kind = rng.choice(
        (
            "choose",
            "place",
            "discard",
            "assistant",
            "skill",
            "pass",
            "bloom",
            "reserve",
            "plant",
            "end",
            "undo",
        )
    )
    hexes = state.geo.hexes

    def spot() -> tuple[int, int]:
        if rng.random() < 0.8:
            return rng.choice(hexes)
        return (rng.randint(-12, 12), rng.randint(-12, 12))

    def pay() -> tuple[str, ...]:
        return tuple(
            sorted(
                (rng.choice(GEM_COLOURS) for _ in range(rng.randint(0, 4))),
                key=GEM_COLOURS.index,
            )
        )

    if kind == "choose":
        return IshtarAction("choose", pile=rng.randint(-1, 7), pay=pay())
    if kind == "place":
        return IshtarAction("place", at=spot(), rotation=rng.randint(-1, 6))
    if kind == "skill":
        return IshtarAction("skill", skill=rng.choice([*SKILLS, "K"]), pay=pay())
    if kind == "bloom":
        cells = tuple(spot() for _ in range(rng.randint(1, 2)))
        return IshtarAction(
            "bloom", token=rng.choice([*BLOOMING_TOKEN_COUNTS, "F9"]), cells=cells
        )
    if kind == "reserve":
        return IshtarAction("reserve", card=rng.randint(0, 27))
    if kind == "plant":
        return IshtarAction("plant", card=rng.randint(0, 27), at=spot())
    return IshtarAction(kind)


def _why(engine: Any, state: Any, action: Any) -> str | None:
    """An engine's refusal of ``action`` in English, or None if it is legal."""
    said = engine.why_illegal(state, action)
    return None if said is None else str(engine.english(said))


def ishtar_transcript(players: int, seed: int, layout: str | None) -> Iterator[str]:
    """The English of one seeded random game of Ishtar."""
    rng = random.Random(seed)
    state = ishtar.new_game(players, seed, {"layout": layout, "edition": "1"})
    while not ishtar.is_over(state):
        for _ in range(PROBES):
            yield f"why {_why(ishtar, state, _ishtar_probe(rng, state))}"
        legal = ishtar.legal_actions(state)
        action = rng.choice(legal)
        shown = ishtar.preview(state, action)
        for field in ("text", "no_assistant"):
            if field in shown:
                yield f"{field} {shown[field]}"
        yield f"log {ishtar.english(ishtar.narrate(state, action))}"
        state = ishtar.apply(state, action)
    yield f"why {_why(ishtar, state, IshtarAction('end'))}"


def _babylon_probe(rng: random.Random) -> BabylonAction:
    kind = rng.choice(("scoreboard", "irrigate", "irrigate", "harvest", "undo", "hop"))
    if kind == "scoreboard":
        side = rng.choice(["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "Z9", None])
        return BabylonAction("scoreboard", side=side)
    if kind == "irrigate":
        return BabylonAction("irrigate", at=(rng.randint(-1, 9), rng.randint(-1, 9)))
    return BabylonAction(kind)


def babylon_transcript(
    players: int, seed: int, options: dict[str, Any]
) -> Iterator[str]:
    """The English of one seeded random game of Babylon Gardens."""
    rng = random.Random(seed)
    state = babylon.new_game(players, seed, options)
    while not babylon.is_over(state):
        for _ in range(PROBES):
            yield f"why {_why(babylon, state, _babylon_probe(rng))}"
        action = rng.choice(babylon.legal_actions(state))
        yield f"log {babylon.english(babylon.narrate(state, action))}"
        state = babylon.apply(state, action)
    yield f"why {_why(babylon, state, BabylonAction('harvest'))}"


BAD_OPTIONS: tuple[tuple[Any, Any], ...] = (
    (1, None),
    (5, {}),
    (True, {}),
    (2, {"colour": "red"}),
    (2, {"layout": "spiral"}),
    (2, {"layout": [1, 2]}),
    (2, {"layout": [{"board": 1}]}),
    (2, {"first_player": 2}),
    (3, {"first_player": -1}),
    (2, {"turn_end": "never"}),
    (2, {"floor": "attic"}),
    (2, {"scoreboards": "mine"}),
    (2, {"teams": "yes"}),
    (2, {"teams": True}),
    (2, "options"),
)

BAD_ACTIONS: tuple[Any, ...] = (
    [],
    "place",
    {},
    {"type": "fly"},
    {"type": "f" * 40},
    {"type": 7},
    {"type": "choose"},
    {"type": "choose", "pile": "1", "pay": []},
    {"type": "choose", "pile": 1, "pay": ["gold"]},
    {"type": "place", "at": [0], "rotation": 0},
    {"type": "place", "at": [0, 0], "rotation": 9},
    {"type": "place", "at": [0, "0"], "rotation": 1},
    {"type": "skill", "skill": "Z", "pay": []},
    {"type": "bloom", "token": "F7", "cells": []},
    {"type": "bloom", "token": "F2", "cells": []},
    {"type": "reserve", "card": True},
    {"type": "plant", "card": 3},
    {"type": "irrigate"},
    {"type": "irrigate", "at": [1, 99]},
    {"type": "irrigate", "at": [1, 1], "side": "A1"},
    {"type": "scoreboard", "side": 12},
    {"type": "harvest", "x": 1},
    {"type": "undo"},
)


def refusals(module: Any) -> Iterator[str]:
    """The reasons of bad options and malformed actions (the same probes for both games)."""
    for players, options in BAD_OPTIONS:
        yield "options " + _refusal(partial(module.check_options, players, options))
    for data in BAD_ACTIONS:
        yield "action " + _refusal(partial(module.decode_action, data))


def _refusal(call: Callable[[], Any]) -> str:
    try:
        call()
    except ValueError as error:
        return f"{type(error).__name__}: {getattr(error, 'reason', error)}"
    return "accepted"


def digest(lines: Iterator[str]) -> dict[str, Any]:
    """How many lines and their sha256 (joined by newlines)."""
    listed = list(lines)
    text = "\n".join(listed).encode()
    return {"lines": len(listed), "sha256": hashlib.sha256(text).hexdigest()}


def transcripts() -> dict[str, dict[str, Any]]:
    """Every transcript's digest, by name."""
    found: dict[str, dict[str, Any]] = {}
    for players, seed, layout in ISHTAR_GAMES:
        found[f"ishtar {players}p seed {seed}"] = digest(
            ishtar_transcript(players, seed, layout)
        )
    for players, seed, options in BABYLON_GAMES:
        found[f"babylon {players}p seed {seed}"] = digest(
            babylon_transcript(players, seed, options)
        )
    found["ishtar refusals"] = digest(refusals(ishtar))
    found["babylon refusals"] = digest(refusals(babylon))
    return found


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(transcripts(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
