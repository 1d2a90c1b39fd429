"""The numbers of a game's edition that the bots' evaluation weighs, read from the engine's
catalogue (``catalogue()["editions"][view["edition"]]``): tree cards' VP, what a gem of each
colour is worth in trees, and the upper skills' VP, so that a bot values a game by the
numbers it is played with."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

from engine.ishtar import catalogue
from engine.ishtar.components import GEM_COLOURS as COLOURS

FIRST = "1"
"""The edition of a view that names none (from before editions)."""

GEM_SHARE: dict[str, float] = {"purple": 0.645, "red": 0.702, "white": 0.728}
"""The share of a gem's tree VP (`gem_values`) a bot counts it for while it is not yet in a
tree: it must wait for a card of its colours, and may never plant it. Calibrated so that
edition 1 keeps the values the bots were tuned with (1.1 / 1.9 / 2.7)."""


class EditionNumbers(NamedTuple):
    """What the evaluation needs of one edition."""

    card_vp: dict[int, int]
    """Tree card id -> victory points."""
    gem_value: dict[str, float]
    """What a gem of each colour is worth to a bot, in VP of trees (`GEM_SHARE`)."""
    card_gain: dict[int, float]
    """Tree card id -> what planting it gains over keeping its cost in gems: its VP less
    the worth of its gems (`gem_value`)."""
    skill_a_vp: dict[str, int]
    """Skill A: VP per gem left, by colour."""
    skill_b_vp: int
    """Skill B: VP per tablet next to a controlled flowerbed."""
    skill_b_max: int
    """Skill B: at most so many VP (0: no limit)."""
    skill_c_vp: int
    """Skill C: VP per fountain controlled."""
    skill_e_spaces_per_vp: int
    """Skill E: flower spaces per group."""
    skill_e_vp: int
    """Skill E: VP per group of `skill_e_spaces_per_vp` flower spaces."""
    skill_e_max: int
    """Skill E: at most so many VP (0: no limit)."""


@cache
def numbers(edition: str) -> EditionNumbers:
    """The numbers of ``edition`` (a name the engine's catalogue has)."""
    data = catalogue()["editions"][edition]
    params: dict[str, dict[str, Any]] = {
        s["skill"]: s.get("params", {}) for s in data["skills"]
    }
    fitted = gem_values(
        [
            (tuple(int(c["cost"][k]) for k in COLOURS), int(c["vp"]))
            for c in data["tree_cards"]
        ]
    )
    gem_value = {
        colour: round(GEM_SHARE[colour] * fitted[i], 3)
        for i, colour in enumerate(COLOURS)
    }
    return EditionNumbers(
        card_vp={int(c["card"]): int(c["vp"]) for c in data["tree_cards"]},
        gem_value=gem_value,
        card_gain={
            int(c["card"]): int(c["vp"])
            - sum(gem_value[k] * int(c["cost"][k]) for k in COLOURS)
            for c in data["tree_cards"]
        },
        skill_a_vp={c: int(params["A"][c]) for c in COLOURS},
        skill_b_vp=int(params["B"]["vp"]),
        skill_b_max=int(params["B"].get("max", 0)),
        skill_c_vp=int(params["C"]["vp"]),
        skill_e_spaces_per_vp=int(params["E"]["spaces"]),
        skill_e_vp=int(params["E"].get("vp", 1)),
        skill_e_max=int(params["E"].get("max", 0)),
    )


def of_view(view: dict[str, Any]) -> EditionNumbers:
    """The numbers of the edition the game of ``view`` is played with."""
    return numbers(str(view.get("edition", FIRST)))


def gem_values(cards: Sequence[tuple[tuple[int, ...], int]]) -> list[float]:
    """The VP a purple, red and white gem brings in a tree card: the least-squares fit of the
    cards' VP on their costs (``cards``: (cost, VP) pairs). Edition 1 gives 1.71 / 2.71 / 3.71
    (1 / 2 / 3 and its bonus for each gem beyond the first, spread over the gems)."""
    normal = [[0.0] * 4 for _ in COLOURS]
    for cost, vp in cards:
        for i in range(3):
            for j in range(3):
                normal[i][j] += cost[i] * cost[j]
            normal[i][3] += cost[i] * vp
    for i in range(3):  # Gauss-Jordan on the 3 x 3 normal equations
        pivot = max(range(i, 3), key=lambda r: abs(normal[r][i]))
        normal[i], normal[pivot] = normal[pivot], normal[i]
        for r in range(3):
            if r != i:
                factor = normal[r][i] / normal[i][i]
                normal[r] = [
                    a - factor * b for a, b in zip(normal[r], normal[i], strict=True)
                ]
    return [normal[i][3] / normal[i][i] for i in range(3)]
