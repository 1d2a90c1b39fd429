"""Ishtar's words as messages (docs/i18n.md): the catalogues and the makers of messages.

The catalogues are package data, ``engine/ishtar/i18n/{en,fr,nl}.json``, read once at import:
``ishtar.log.*`` (the game log), ``ishtar.reason.*`` (every refusal a player can meet) and
``ishtar.word.*`` (pieces and previews). The engine says everything as a message and renders
its English (the log's lines, a refusal's ``reason``) from it with `english`, so
there is one source of English. A seat renders in English as its capitalised colour ("Blue").
"""

from __future__ import annotations

from typing import Any

from engine.ishtar.components import GEM_COLOURS, PLAYER_COLOURS
from engine.ishtar.editions import Edition
from engine.messages import (
    Catalogue,
    Message,
    listed,
    load_catalogues,
    message,
    messages_factory,
    render,
)

CATALOGUES: dict[str, Catalogue] = load_catalogues("engine.ishtar")
EN = CATALOGUES["en"]

messages = messages_factory("Ishtar", CATALOGUES)
"""The patterns of one language (``en``, ``fr``, ``nl``), by key; ValueError for another."""


def seat_colour(seat: int) -> str:
    """A seat in the engine's English: its colour, capitalised."""
    return PLAYER_COLOURS[seat].capitalize()


def english(msg: Message) -> str:
    """The English text of a message, as the log and the errors have always said it."""
    return render(EN, msg, "en", seat=seat_colour)


def log(name: str, **params: Any) -> Message:
    return message(f"ishtar.log.{name}", **params)


def refusal(name: str, **params: Any) -> Message:
    return message(f"ishtar.reason.{name}", **params)


def word(name: str, **params: Any) -> Message:
    return message(f"ishtar.word.{name}", **params)


def gems(counts: tuple[int, int, int]) -> Message:
    """Gems by colour in words: "no gems", "2 red gems", "1 purple and 2 red gems"."""
    parts = [
        word("gem_count", n=n, colour=GEM_COLOURS[i]) for i, n in enumerate(counts) if n
    ]
    return word("gems", total=sum(counts), colours=listed(*parts))


_SIZES: dict[tuple[int, ...], str] = {(1,): "single", (2,): "double"}
"""Blooming token sizes of skills G and J by their word (``any``: both)."""


def skill_params(ed: Edition, letter: str) -> dict[str, Any]:
    """The numbers of edition ``ed`` that the text of skill ``letter`` says."""
    if letter == "A":
        purple, red, white = ed.skill_a_vp
        return {"purple": purple, "red": red, "white": white}
    if letter == "B":
        most = 0 if ed.skill_b_max is None else ed.skill_b_max  # 0: no limit
        return {"vp": ed.skill_b_vp, "max": most}
    if letter == "C":
        return {"vp": ed.skill_c_vp}
    if letter == "E":
        most = 0 if ed.skill_e_max is None else ed.skill_e_max  # 0: no limit
        return {"vp": ed.skill_e_vp, "spaces": ed.skill_e_spaces_per_vp, "max": most}
    if letter == "H":
        return {"assistants": ed.skill_h_assistants}
    if letter in ("G", "J"):
        sizes = ed.skill_g_sizes if letter == "G" else ed.skill_j_sizes
        return {"size": _SIZES.get(tuple(sorted(sizes)), "any")}
    return {}


def skill_text(ed: Edition, letter: str) -> Message:
    """What skill ``letter`` does in edition ``ed``: ``ishtar.word.skill.<letter>``."""
    return word(f"skill.{letter}", **skill_params(ed, letter))


def raw(value: Any) -> Any:
    """A param echoing a value the caller gave: a whole number as a number, else its text
    as Python writes it (the English has always said ``None``, ``True``)."""
    return value if type(value) is int else str(value)
