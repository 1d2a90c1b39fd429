"""Scoring (spec §6, RB "Scoring", R-12, R-13, R-14): fill, colour and line points, the
winner and the tie-break, team totals.

`score_board` is a pure function of a side and its winks, so the engine, the previews, the
views and the bots all count the same way.

The tie-break is said twice from one decision (`_settle`): ``final_scores()["tiebreak"]``,
the English sentence game records store and compare (unchanged), and `tiebreak_message`,
the same sentence as a message (docs/i18n.md) for each reader's language and names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.babylon.components import PLAYER_COLOURS, SLOTS
from engine.babylon.scoreboards import LINES, borders
from engine.babylon.state import State
from engine.messages import Message, beside, listed, message
from engine.messages import seat as seat_param

FILL_POINTS = 1
COLOUR_POINTS = 5
LINE_POINTS = 5
FULL_LINE_POINTS = 10
"""R-12: 5 per wink of a run of two or more; 10 per wink when the run fills its line."""


def line_runs(colours: Sequence[str | None]) -> list[tuple[str, list[int]]]:
    """The maximal runs of two or more equal colours along a line, as (colour, indices)."""
    runs: list[tuple[str, list[int]]] = []
    i = 0
    while i < len(colours):
        colour = colours[i]
        j = i
        while j + 1 < len(colours) and colour is not None and colours[j + 1] == colour:
            j += 1
        if colour is not None and j > i:
            runs.append((colour, list(range(i, j + 1))))
        i = j + 1
    return runs


def line_points(colours: Sequence[str | None]) -> list[tuple[str, list[int], int]]:
    """R-12: the scoring runs of one line's slots (None: empty), end to end, as (colour,
    indices, points): 5 per wink of a run of two or more, 10 when the run fills the line."""
    out = []
    for colour, indices in line_runs(colours):
        each = FULL_LINE_POINTS if len(indices) == len(colours) else LINE_POINTS
        out.append((colour, indices, each * len(indices)))
    return out


@lru_cache(maxsize=4096)
def _score(side: str | None, winks: tuple[str, ...]) -> dict[str, Any]:
    fill = FILL_POINTS * min(len(winks), SLOTS)
    colour_slots = (
        [
            slot
            for slot, c in borders(side).items()
            if slot <= len(winks) and winks[slot - 1] == c
        ]
        if side
        else []
    )
    colour = COLOUR_POINTS * len(colour_slots)
    details = []
    lines = 0
    for name, slots in LINES:
        colours = [winks[s - 1] if s <= len(winks) else None for s in slots]
        scored = line_points(colours)
        runs = [
            {
                "colour": run_colour,
                "slots": [slots[i] for i in indices],
                "points": points,
            }
            for run_colour, indices, points in scored
        ]
        line_total = sum(points for _, _, points in scored)
        details.append(
            {"line": name, "slots": list(slots), "points": line_total, "runs": runs}
        )
        lines += line_total
    return {
        "total": fill + colour + lines,
        "fill": fill,
        "colour": colour,
        "lines": lines,
        "colour_slots": colour_slots,
        "lines_detail": details,
    }


def score_board(side: str | None, winks: Sequence[str]) -> dict[str, Any]:
    """The points of a scoreboard side holding `winks` in slot order, by category, with the
    matched bordered slots and each line's runs (a fresh copy: callers may keep it)."""
    result = _score(side, tuple(winks))
    return {
        **result,
        "colour_slots": list(result["colour_slots"]),
        "lines_detail": [
            {**d, "slots": list(d["slots"]), "runs": [dict(r) for r in d["runs"]]}
            for d in result["lines_detail"]
        ],
    }


def total(side: str | None, winks: Sequence[str]) -> int:
    """The total points of a scoreboard: what bots compare."""
    return int(_score(side, tuple(winks))["total"])


def seat_name(seat: int) -> str:
    """A seat in the engine's sentences: its colour ("Blue"); the server shows names."""
    return PLAYER_COLOURS[seat].capitalize()


def final_scores(state: State) -> dict[str, Any]:
    """The scores of every player (at the end, or as they stand), the winners and the
    sentence saying which rule broke a tie."""
    players = []
    for seat in range(state.players):
        score = score_board(state.sides[seat], state.winks[seat])
        players.append(
            {
                "seat": seat,
                "total": score["total"],
                "winks": len(state.winks[seat]),
                "categories": {k: score[k] for k in ("fill", "colour", "lines")},
                "score": score,
            }
        )
    teams = state.teams
    if teams is None:
        winners, tiebreak = _decide(
            {(p["seat"],): (p["total"], p["winks"]) for p in players}
        )
        team_json = None
    else:
        per_team = {
            team: (
                sum(players[s]["total"] for s in team),
                sum(players[s]["winks"] for s in team),
            )
            for team in teams
        }
        winners, tiebreak = _decide(
            {tuple(team): value for team, value in per_team.items()}
        )
        team_json = [
            {
                "seats": list(team),
                "total": per_team[team][0],
                "winks": per_team[team][1],
            }
            for team in teams
        ]
    return {
        "players": players,
        "winners": winners,
        "tiebreak": tiebreak,
        "teams": team_json,
    }


Sides = dict[tuple[int, ...], tuple[int, int]]
"""(points, winks) of each side of the game: a seat alone, or a team (R-14), in seat or
team order."""


@dataclass(frozen=True, slots=True)
class Tie:
    """How a draw on the most points was settled: the side ``ahead`` on winks, or, ``ahead``
    None, a win shared by ``sharing``; ``winks`` are the tied sides' winks, most first."""

    points: int
    winks: tuple[int, ...]
    ahead: tuple[int, ...] | None
    sharing: tuple[tuple[int, ...], ...] = ()


def _settle(points: Sides) -> tuple[list[int], Tie | None]:
    """Most points wins; RB: on a draw the most winks; R-13: still tied, a shared win.
    The winning seats, and the tie settled on the way (None when one side has most)."""
    best = max(p for p, _ in points.values())
    tied = [side for side, (p, _) in points.items() if p == best]
    if len(tied) == 1:
        return sorted(tied[0]), None
    most = max(points[side][1] for side in tied)
    ahead = [side for side in tied if points[side][1] == most]
    winks = tuple(points[side][1] for side in sorted(tied, key=lambda s: -points[s][1]))
    if len(ahead) == 1:
        return sorted(ahead[0]), Tie(best, winks, ahead[0])
    seats = sorted(seat for side in ahead for seat in side)
    return seats, Tie(best, winks, None, tuple(ahead))


def _decide(points: Sides) -> tuple[list[int], str | None]:
    """The winners and the English sentence of the tie-break, as records have it."""

    def name(side: tuple[int, ...]) -> str:
        return " and ".join(seat_name(s) for s in side)

    winners, tie = _settle(points)
    if tie is None:
        return winners, None
    if tie.ahead is not None:
        verb = "win" if len(tie.ahead) > 1 else "wins"
        counts = " to ".join(str(n) for n in tie.winks)
        return winners, (
            f"Tied on {tie.points}: {name(tie.ahead)} {verb} on winks ({counts})."
        )
    sharing = tie.sharing
    if len(sharing[0]) > 1:  # teams (there are two)
        names = "both teams"
    else:
        names = ", ".join(name(side) for side in sharing[:-1])
        names += f" and {name(sharing[-1])}"
    return winners, (
        f"Tied on {tie.points} points and {tie.winks[0]} winks: {names} share the win."
    )


def _sides(scores: Mapping[str, Any]) -> Sides:
    """The sides of final scores, as `final_scores` decided them."""
    if scores.get("teams") is None:
        return {(p["seat"],): (p["total"], p["winks"]) for p in scores["players"]}
    return {tuple(t["seats"]): (t["total"], t["winks"]) for t in scores["teams"]}


def _against(counts: tuple[int, ...]) -> Message | int:
    """Counts compared, most first: "8 to 3 to 3" (``babylon.score.against`` nested)."""
    if len(counts) == 1:
        return counts[0]
    return message("babylon.score.against", first=counts[0], rest=_against(counts[1:]))


def tiebreak_message(scores: Mapping[str, Any]) -> Message | None:
    """The tie-break of ``scores`` (what `final_scores` returns, or a record's ``result``)
    as a message (docs/i18n.md), None when one side has the most points:
    ``babylon.score.tiebreak.winks`` (the side ahead as a list of seats, ``players`` its
    size, the winks compared), ``babylon.score.tiebreak.shared`` (the seats sharing the win)
    or ``babylon.score.tiebreak.teams_shared`` (R-14). Its English is the ``tiebreak``
    sentence, seats named by colour."""
    _, tie = _settle(_sides(scores))
    if tie is None:
        return None
    if tie.ahead is not None:
        return message(
            "babylon.score.tiebreak.winks",
            points=tie.points,
            winner=listed(*(seat_param(s) for s in tie.ahead)),
            players=len(tie.ahead),
            winks=_against(tie.winks),
        )
    if len(tie.sharing[0]) > 1:
        return message(
            "babylon.score.tiebreak.teams_shared",
            points=tie.points,
            winks=tie.winks[0],
        )
    return message(
        "babylon.score.tiebreak.shared",
        points=tie.points,
        winks=tie.winks[0],
        winners=listed(*(seat_param(side[0]) for side in tie.sharing)),
    )


def with_tiebreak_message(scores: Mapping[str, Any]) -> dict[str, Any]:
    """``scores`` with ``tiebreak_message`` next to ``tiebreak``: the final scores a view
    shows (`engine.messages.beside`)."""
    return beside(scores, "tiebreak", "tiebreak_message", tiebreak_message(scores))
