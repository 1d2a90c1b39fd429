"""Scoring (spec §6, RB "Scoring", R-12, R-13, R-14): fill, colour and line points, the
winner and the tie-break, team totals.

`score_board` is a pure function of a side and its winks, so the engine, the previews, the
views and the bots all count the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.babylon.components import PLAYER_COLOURS, SLOTS
from engine.babylon.scoreboards import LINES, borders
from engine.babylon.state import State

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


def _decide(
    points: dict[tuple[int, ...], tuple[int, int]],
) -> tuple[list[int], str | None]:
    """Most points wins; RB: on a draw the most winks; R-13: still tied, a shared win.
    `points` holds (points, winks) of each side: a seat alone, or a team (R-14)."""

    def name(side: tuple[int, ...]) -> str:
        return " and ".join(seat_name(s) for s in side)

    best = max(p for p, _ in points.values())
    tied = [side for side, (p, _) in points.items() if p == best]
    if len(tied) == 1:
        return sorted(tied[0]), None
    most = max(points[side][1] for side in tied)
    ahead = [side for side in tied if points[side][1] == most]
    counts = " to ".join(
        str(points[side][1]) for side in sorted(tied, key=lambda s: -points[s][1])
    )
    if len(ahead) == 1:
        verb = "win" if len(ahead[0]) > 1 else "wins"
        return sorted(
            ahead[0]
        ), f"Tied on {best}: {name(ahead[0])} {verb} on winks ({counts})."
    seats = sorted(seat for side in ahead for seat in side)
    if len(ahead[0]) > 1:  # teams (there are two)
        names = "both teams"
    else:
        names = ", ".join(name(side) for side in ahead[:-1]) + f" and {name(ahead[-1])}"
    return seats, f"Tied on {best} points and {most} winks: {names} share the win."
