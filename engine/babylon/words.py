"""Babylon Gardens' words as messages (docs/i18n.md): the catalogues and the message makers.

The catalogues are package data, ``engine/babylon/i18n/{en,fr,nl}.json``, read once at
import: ``babylon.log.*`` (the game log), ``babylon.reason.*`` (every refusal a player can
meet) and ``babylon.word.*`` (colours, tiles, floors). The engine says everything as a
message and renders its English (the log's lines, a refusal's ``reason``) from it
with `english`: one source of English. A seat renders in English as its colour ("Blue").
"""

from __future__ import annotations

from typing import Any

from engine.babylon.components import PLAYER_COLOURS
from engine.messages import (
    Catalogue,
    Message,
    load_catalogues,
    message,
    messages_factory,
    render,
)

CATALOGUES: dict[str, Catalogue] = load_catalogues("engine.babylon")
EN = CATALOGUES["en"]

messages = messages_factory("Babylon Gardens", CATALOGUES)
"""The patterns of one language (``en``, ``fr``, ``nl``), by key; ValueError for another."""


def seat_name(seat: int) -> str:
    """A seat in the engine's English: its colour, capitalised ("Blue")."""
    return PLAYER_COLOURS[seat].capitalize()


def english(msg: Message) -> str:
    """The English text of a message, as the log and the errors have always said it."""
    return render(EN, msg, "en", seat=seat_name)


def log(name: str, **params: Any) -> Message:
    return message(f"babylon.log.{name}", **params)


def refusal(name: str, **params: Any) -> Message:
    return message(f"babylon.reason.{name}", **params)


def word(name: str, **params: Any) -> Message:
    return message(f"babylon.word.{name}", **params)


def series(items: list[Message]) -> Message | str:
    """Items joined by commas ("red, green, red"), as ``babylon.word.series`` of the first
    and the series of the rest (the log names each harvested colour, repeats included)."""
    if not items:
        return ""
    found: Message = items[-1]
    for item in reversed(items[:-1]):
        found = word("series", first=item, rest=found)
    return found
