"""The numbers of a game's edition that the bots' evaluation weighs, read from the engine's
catalogue (``catalogue()["editions"][view["edition"]]``): tree cards' VP and the upper
skills' VP, so that a bot values a game by the numbers it is played with."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from engine.ishtar import catalogue

FIRST = "1"
"""The edition of a view that names none (from before editions)."""


class EditionNumbers(NamedTuple):
    """What the evaluation needs of one edition."""

    card_vp: dict[int, int]
    """Tree card id -> victory points."""
    skill_a_vp: dict[str, int]
    """Skill A: VP per gem left, by colour."""
    skill_b_vp: int
    """Skill B: VP per tablet next to a controlled flowerbed."""
    skill_c_vp: int
    """Skill C: VP per fountain controlled."""
    skill_e_spaces_per_vp: int
    """Skill E: flower spaces per VP."""


@cache
def numbers(edition: str) -> EditionNumbers:
    """The numbers of ``edition`` (a name the engine's catalogue has)."""
    data = catalogue()["editions"][edition]
    params: dict[str, dict[str, Any]] = {
        s["skill"]: s.get("params", {}) for s in data["skills"]
    }
    return EditionNumbers(
        card_vp={int(c["card"]): int(c["vp"]) for c in data["tree_cards"]},
        skill_a_vp={c: int(params["A"][c]) for c in ("purple", "red", "white")},
        skill_b_vp=int(params["B"]["vp"]),
        skill_c_vp=int(params["C"]["vp"]),
        skill_e_spaces_per_vp=int(params["E"]["spaces"]),
    )


def of_view(view: dict[str, Any]) -> EditionNumbers:
    """The numbers of the edition the game of ``view`` is played with."""
    return numbers(str(view.get("edition", FIRST)))
