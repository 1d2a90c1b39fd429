"""What a position is worth to a seat: who wins if the game ends now, the seat's lead, and
the medium bot's value of a path (its score gain, the end of the game, what it leaves the
next player).

The sides of the game are the seats, or the two teams in team mode (R-14): a seat's lead is
its side's points less the best other side's, and a win is decided as the engine decides it
(most points, then most winks, then shared, RB and R-13).
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.babylon.paths import Plan
from bots.babylon.position import Position
from bots.babylon.scores import board_total as total

END = 1000.0
"""What winning (+) or losing (-) the game is worth beside points: more than any score."""

READY_WEIGHT = 3.0
"""Points a multi-flower tile left one gem from full is worth to the next player (a wink,
often a bordered slot or a line's run)."""


def sides_of(position: Position) -> list[tuple[int, ...]]:
    """The competing sides: each seat alone, or the two teams."""
    if position.teams:
        return [tuple(team) for team in position.teams]
    return [(seat,) for seat in range(position.players)]


def _side_of(position: Position, seat: int) -> tuple[int, ...]:
    return next(side for side in sides_of(position) if seat in side)


def standings(
    position: Position, winks: Sequence[Sequence[str]]
) -> dict[tuple[int, ...], tuple[int, int]]:
    """Each side's (points, winks) with these winks on the scoreboards."""
    out = {}
    for side in sides_of(position):
        points = sum(total(position.sides[s], tuple(winks[s])) for s in side)
        out[side] = (points, sum(len(winks[s]) for s in side))
    return out


def win_share(position: Position, seat: int, winks: Sequence[Sequence[str]]) -> float:
    """The seat's share of the win if the game ended with these winks (1, 0 or 1/k)."""
    table = standings(position, winks)
    best = max(table.values())
    winners = [side for side, value in table.items() if value == best]
    return 1 / len(winners) if _side_of(position, seat) in winners else 0.0


def lead(position: Position, seat: int, winks: Sequence[Sequence[str]]) -> float:
    """The seat's side's points less the best other side's."""
    table = standings(position, winks)
    mine = _side_of(position, seat)
    others = [points for side, (points, _) in table.items() if side != mine]
    return table[mine][0] - max(others)


def with_winks(
    position: Position, seat: int, winks: tuple[str, ...]
) -> list[tuple[str, ...]]:
    """Every seat's winks, the seat's replaced by `winks`."""
    out = list(position.winks)
    out[seat] = winks
    return out


def medium_value(position: Position, plan: Plan) -> float:
    """The medium bot's value of a path: its score gain, less what it leaves one gem from
    full for the next player; a path that ends the game is a win or a loss first."""
    if plan.ends:
        share = win_share(
            position, position.seat, with_winks(position, position.seat, plan.winks)
        )
        return END * (2 * share - 1) + plan.gain
    return plan.gain - READY_WEIGHT * plan.ready_left
