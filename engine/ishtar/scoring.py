"""Final scoring (RB "Final Scoring"), one function per rule, and the tie-breaks.

Categories per player: ``trees`` (tree cards planted; an unplanted reserved card is
discarded), ``flowers`` (1 VP per flower in flowerbeds your assistants control),
``fountains`` (4 / 6 / 8 VP for each purple / red / white fountain you control), and
``skill_A`` … ``skill_E`` for the upper skills unlocked. Ties are broken by most trees
planted, then most gems left in the supply; still tied players share the win.
"""

from __future__ import annotations

from typing import Any

from engine.ishtar.components import FOUNTAIN_VP, PLAYER_COLOURS, TREE_CARDS
from engine.ishtar.rules.gardens import controlled_beds, fountain_controllers, gardens
from engine.ishtar.state import State


def score_trees(state: State, seat: int) -> int:
    return sum(TREE_CARDS[card].vp for card in state.tree_cards[seat])


def score_flowers(state: State, seat: int) -> int:
    g = gardens(state)
    return sum(
        state.flowers[c]
        for bed in controlled_beds(state, seat)
        for c in g.bed_cells[bed]
    )


def fountains_controlled(state: State, seat: int) -> list[int]:
    """Indices of the fountains ``seat`` controls."""
    return [k for k, seats in enumerate(fountain_controllers(state)) if seat in seats]


def score_fountains(state: State, seat: int) -> int:
    return sum(
        FOUNTAIN_VP[state.fountains[k]] for k in fountains_controlled(state, seat)
    )


def skill_a(state: State, seat: int) -> int:
    """1 / 2 / 3 VP per purple / red / white gem left in the supply (gems on skills excluded)."""
    purple, red, white = state.gems[seat]
    return purple + 2 * red + 3 * white


def skill_b(state: State, seat: int) -> int:
    """2 VP per sacred tablet next to a flower space of a flowerbed you control; each once."""
    g = gardens(state)
    neighbours = state.geo.neighbours
    controlled = {c for bed in controlled_beds(state, seat) for c in g.bed_cells[bed]}
    return 2 * sum(
        1 for t in state.geo.tablets if any(n in controlled for n in neighbours[t])
    )


def skill_c(state: State, seat: int) -> int:
    return 3 * len(fountains_controlled(state, seat))


def skill_d(state: State, seat: int) -> int:
    return 2 * len(state.tree_cards[seat])


def skill_e(state: State, seat: int) -> int:
    g = gardens(state)
    return sum(len(g.bed_cells[bed]) for bed in controlled_beds(state, seat))


UPPER_SKILLS = {"A": skill_a, "B": skill_b, "C": skill_c, "D": skill_d, "E": skill_e}


def categories(state: State, seat: int) -> dict[str, int]:
    """The score of ``seat`` by category (every category present, 0 when not scored)."""
    result = {
        "trees": score_trees(state, seat),
        "flowers": score_flowers(state, seat),
        "fountains": score_fountains(state, seat),
    }
    owned = state.skills[seat]
    for letter, rule in UPPER_SKILLS.items():
        result[f"skill_{letter}"] = rule(state, seat) if letter in owned else 0
    return result


def final_scores(state: State) -> dict[str, Any]:
    """Scores with a breakdown, the winners and the tie-break sentence (see docs/games/ishtar/contract.md)."""
    players = []
    geo = state.geo
    for seat in range(state.players):
        cats = categories(state, seat)
        players.append(
            {
                "seat": seat,
                "total": sum(cats.values()),
                "categories": cats,
                "fountains": [
                    {
                        "at": list(geo.hexes[geo.fountain_cells[k]]),
                        "colour": state.fountains[k],
                        "vp": FOUNTAIN_VP[state.fountains[k]],
                    }
                    for k in fountains_controlled(state, seat)
                ],
                "trees_planted": len(state.tree_cards[seat]),
                "gems_left": sum(state.gems[seat]),
            }
        )
    winners, tiebreak = _winners(players)
    return {"players": players, "winners": winners, "tiebreak": tiebreak}


def _winners(players: list[dict[str, Any]]) -> tuple[list[int], str | None]:
    best = max(p["total"] for p in players)
    tied = [p for p in players if p["total"] == best]
    if len(tied) == 1:
        return [tied[0]["seat"]], None
    for key, words in (("trees_planted", "trees planted"), ("gems_left", "gems left")):
        top = max(p[key] for p in tied)
        leaders = [p for p in tied if p[key] == top]
        if len(leaders) == 1:
            others = sorted((p[key] for p in tied if p is not leaders[0]), reverse=True)
            name = PLAYER_COLOURS[leaders[0]["seat"]].capitalize()
            return [leaders[0]["seat"]], (
                f"Tied on {best}: {name} wins on {words} ({top} to {others[0]})"
            )
        tied = leaders
    names = " and ".join(PLAYER_COLOURS[p["seat"]].capitalize() for p in tied)
    return [
        p["seat"] for p in tied
    ], f"Tied on {best}, trees planted and gems left: {names} share the win"
