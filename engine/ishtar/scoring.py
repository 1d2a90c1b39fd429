"""Final scoring (RB "Final Scoring"), one function per rule, and the tie-breaks.

Categories per player: ``trees`` (tree cards planted; an unplanted reserved card is
discarded), ``flowers`` (1 VP per flower in flowerbeds your assistants control),
``fountains`` (4 / 6 / 8 VP for each purple / red / white fountain you control), and
``skill_A`` … ``skill_E`` for the upper skills unlocked (their numbers but D's are the
game's edition's, ``state.ed``: engine.ishtar.editions). Ties are broken by most trees
planted, then most gems left in the supply; still tied players share the win.

The tie-break is said twice from one decision (`_settle`): ``final_scores()["tiebreak"]``,
the English sentence game records store and compare (unchanged, colour names built by
hand), and `tiebreak_message`, the same sentence as a message (docs/i18n.md) that each
reader's client renders in their language with the players' names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ishtar.components import D_VP_PER_TREE, FOUNTAIN_VP, PLAYER_COLOURS
from engine.ishtar.rules.gardens import (
    controlled_beds,
    fountain_controllers,
    gardens,
    holding,
)
from engine.ishtar.state import State
from engine.messages import Message, beside, listed, message
from engine.messages import seat as seat_param


def score_trees(state: State, seat: int) -> int:
    cards = state.ed.tree_cards
    return sum(cards[card].vp for card in state.tree_cards[seat])


def score_flowers(state: State, seat: int) -> int:
    return holding(state, seat).flowers


def fountains_controlled(state: State, seat: int) -> list[int]:
    """Indices of the fountains ``seat`` controls."""
    return [k for k, seats in enumerate(fountain_controllers(state)) if seat in seats]


def score_fountains(state: State, seat: int) -> int:
    return sum(
        FOUNTAIN_VP[state.fountains[k]] for k in fountains_controlled(state, seat)
    )


def skill_a(state: State, seat: int) -> int:
    """1 / 2 / 3 VP (``skill_a_vp``) per purple / red / white gem left in the supply (gems on
    skills excluded)."""
    return sum(n * vp for n, vp in zip(state.gems[seat], state.ed.skill_a_vp))


def skill_b(state: State, seat: int) -> int:
    """2 VP (``skill_b_vp``) per sacred tablet next to a flower space of a flowerbed you
    control; each once; at most ``skill_b_max``."""
    g = gardens(state)
    neighbours = state.geo.neighbours
    controlled = {c for bed in controlled_beds(state, seat) for c in g.bed_cells[bed]}
    vp = state.ed.skill_b_vp * sum(
        1 for t in state.geo.tablets if any(n in controlled for n in neighbours[t])
    )
    most = state.ed.skill_b_max
    return vp if most is None else min(vp, most)


def skill_c(state: State, seat: int) -> int:
    """+3 VP (``skill_c_vp``) per fountain you control."""
    return state.ed.skill_c_vp * len(fountains_controlled(state, seat))


def skill_d(state: State, seat: int) -> int:
    """+2 VP per tree card planted (published, the same in every edition)."""
    return D_VP_PER_TREE * len(state.tree_cards[seat])


def skill_e(state: State, seat: int) -> int:
    """``skill_e_vp`` VP per flower space (per whole group of ``skill_e_spaces_per_vp`` of
    them) in flowerbeds you control, at most ``skill_e_max``."""
    spaces = holding(state, seat).spaces
    ed = state.ed
    vp = spaces // ed.skill_e_spaces_per_vp * ed.skill_e_vp
    return vp if ed.skill_e_max is None else min(vp, ed.skill_e_max)


UPPER_SKILLS = {"A": skill_a, "B": skill_b, "C": skill_c, "D": skill_d, "E": skill_e}


def categories(state: State, seat: int) -> dict[str, int]:
    """The score of ``seat`` by category (every category present, 0 when not scored)."""
    result = {
        "trees": score_trees(state, seat),
        "flowers": score_flowers(state, seat),
        "fountains": score_fountains(state, seat),
    }
    owned = state.skills[seat]
    for letter, key, rule in _SKILL_CATEGORIES:
        result[key] = rule(state, seat) if letter in owned else 0
    return result


_SKILL_CATEGORIES = tuple(
    (letter, f"skill_{letter}", rule) for letter, rule in UPPER_SKILLS.items()
)
"""Each upper skill's letter, its category and its rule."""


def final_scores(state: State) -> dict[str, Any]:
    """Scores with a breakdown, the winners and the tie-break sentence (see docs/games/ishtar/contract.md)."""
    players = []
    geo = state.geo
    controllers = fountain_controllers(state)
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
                    for k, seats in enumerate(controllers)
                    if seat in seats
                ],
                "trees_planted": len(state.tree_cards[seat]),
                "gems_left": sum(state.gems[seat]),
            }
        )
    winners, tiebreak = _winners(players)
    return {"players": players, "winners": winners, "tiebreak": tiebreak}


TIEBREAK_RULES: tuple[tuple[str, str], ...] = (
    ("trees_planted", "trees planted"),
    ("gems_left", "gems left"),
)
"""The counts that break a tie on points, in order (a field of each player's scores), and
their words in the English sentence."""


@dataclass(frozen=True, slots=True)
class Tie:
    """How a tie on the best total was settled: by ``rule`` (a field of `TIEBREAK_RULES`)
    with ``top`` against the best of the others' ``second``, or, ``rule`` None, shared."""

    points: int
    winners: tuple[int, ...]
    rule: str | None = None
    top: int = 0
    second: int = 0


def _settle(players: Sequence[Mapping[str, Any]]) -> tuple[list[int], Tie | None]:
    """The winners of ``players`` (the ``players`` of `final_scores`), and the tie settled
    on the way (None when one total is best)."""
    best = max(p["total"] for p in players)
    tied = [p for p in players if p["total"] == best]
    if len(tied) == 1:
        return [tied[0]["seat"]], None
    for key, _ in TIEBREAK_RULES:
        top = max(p[key] for p in tied)
        leaders = [p for p in tied if p[key] == top]
        if len(leaders) == 1:
            winner = leaders[0]["seat"]
            others = max(p[key] for p in tied if p is not leaders[0])
            return [winner], Tie(best, (winner,), key, top, others)
        tied = leaders
    seats = [p["seat"] for p in tied]
    return seats, Tie(best, tuple(seats))


def _winners(players: list[dict[str, Any]]) -> tuple[list[int], str | None]:
    """The winners and the English sentence of the tie-break, as records have it."""
    winners, tie = _settle(players)
    if tie is None:
        return winners, None
    if tie.rule is not None:
        words = dict(TIEBREAK_RULES)[tie.rule]
        name = PLAYER_COLOURS[tie.winners[0]].capitalize()
        return winners, (
            f"Tied on {tie.points}: {name} wins on {words} ({tie.top} to {tie.second})"
        )
    names = " and ".join(PLAYER_COLOURS[s].capitalize() for s in tie.winners)
    return (
        winners,
        f"Tied on {tie.points}, trees planted and gems left: {names} share the win",
    )


def tiebreak_message(scores: Mapping[str, Any]) -> Message | None:
    """The tie-break of ``scores`` (what `final_scores` returns, or a record's ``result``)
    as a message (docs/i18n.md), None when one total is best: ``ishtar.score.tiebreak.<rule>``
    with the winner as a seat, or ``ishtar.score.tiebreak.shared`` with the list of seats.

    Its English is the ``tiebreak`` sentence, seats named by colour, except that three or
    four players sharing the win are listed "Blue, Yellow and Green" where the sentence
    records have always said "Blue and Yellow and Green"."""
    _, tie = _settle(scores["players"])
    if tie is None:
        return None
    if tie.rule is not None:
        return message(
            f"ishtar.score.tiebreak.{tie.rule}",
            points=tie.points,
            winner=seat_param(tie.winners[0]),
            top=tie.top,
            second=tie.second,
        )
    return message(
        "ishtar.score.tiebreak.shared",
        points=tie.points,
        winners=listed(*(seat_param(s) for s in tie.winners)),
    )


def with_tiebreak_message(scores: Mapping[str, Any]) -> dict[str, Any]:
    """``scores`` with ``tiebreak_message`` next to ``tiebreak``: the final scores a view
    shows (`engine.messages.beside`)."""
    return beside(scores, "tiebreak", "tiebreak_message", tiebreak_message(scores))
