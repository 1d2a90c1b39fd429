"""A room's time control and its clock, as shown in the room status.

The time control (`per_move_s`, `policy`, `bot`) is set once, when the room is created.
The clock (which seat must act on which version, by when, and whether it is overdue) is
one row of ``turn_deadlines``, written by the trigger ``games_turn_changed`` in the
transaction of each move; `app.background.deadlines` handles the deadlines that pass. Both
are kept by the store (app/store/time_controls.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.play.protocol import ServiceError, TimeControl, msg
from app.store.rows import iso
from app.store.time_controls import TimeControlStore

if TYPE_CHECKING:  # types only: the registry and presence are handed in, not imported
    from app.games import AnyGame


def check(game: AnyGame, control: TimeControl) -> TimeControl:
    """The time control with its bot level filled in (the game's weakest if none), or
    a refusal if the room's game cannot honour it (a bot policy without bots)."""
    if control.policy == "bot" and not game.bots:
        raise ServiceError(
            "no_bots",
            f"{game.title} has no bots yet: choose policy 'wait'.",
            message=msg("error.no_bots.policy", game=game.title),
        )
    if control.policy == "bot" and control.bot not in (None, *game.bots):
        raise ServiceError(
            "malformed",
            f"A bot level is one of {', '.join(game.bots)}.",
            message=msg("error.malformed.bot_level", levels={"list": list(game.bots)}),
        )
    if control.policy == "bot" and control.bot is None:
        return control.model_copy(update={"bot": game.bots[0]})
    return control


async def save(store: TimeControlStore, room_id: str, control: TimeControl) -> None:
    bot = control.bot if control.policy == "bot" else None
    await store.save(room_id, control.per_move_s, control.policy, bot)


async def decorate(
    store: TimeControlStore, room_id: str, status: dict[str, Any]
) -> None:
    """Add the room's time control and clock to its status (docs/async-play.md)."""
    row = await store.clock(room_id)
    overdue_seat = None
    if row is None:
        status["time_control"] = status["clock"] = None
    else:
        status["time_control"] = {
            "per_move_s": row.per_move_s,
            "policy": row.policy,
            "bot": row.bot_level,
        }
        status["clock"] = (
            None
            if row.seat is None or row.due_at is None
            else {
                "seat": row.seat,
                "version": row.version,
                "due_at": iso(row.due_at),
                "overdue": row.overdue,
            }
        )
        overdue_seat = row.seat if row.overdue else None
    for seat in status.get("seats", []):
        seat["overdue"] = seat["seat"] == overdue_seat
