"""Away: a seat's holder may say they are away until a date, within an allowance.

Up to ``ISHTAR_AWAY_MOST_DAYS`` (14) days at a time and ``ISHTAR_AWAY_DAYS_PER_YEAR`` (30)
in any 365 days per seat, like correspondence sites' vacations. While away the seat's clock
stands still (app/store/away.py moves its deadline; a turn that starts meanwhile is due that
long after the return), the table sees "away until …" (``seats[].away_until`` in the room
status), and no push or digest is sent for it. The host may still hand the seat on, which
ends the away period; a time that runs out all the same follows the room's policy.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.play.protocol import ServiceError, msg
from app.store.away import AwayRefused, AwayStore
from app.store.rows import RoomRow, SeatRow, iso

DAY_S = 86400


def _days(seconds: float) -> float:
    return round(seconds / DAY_S, 1)


async def go_away(
    store: AwayStore,
    room: RoomRow,
    seat: SeatRow,
    until: datetime,
    most_days: int,
    days_per_year: int,
) -> dict[str, Any]:
    """Mark `seat` away until `until`, or refuse (`bad_away`) and change nothing."""
    if room.status == "finished":
        raise ServiceError(
            "game_over", "The game is over.", message=msg("error.game_over.away")
        )
    if until.tzinfo is None:
        raise ServiceError(
            "bad_away",
            "Give the time with its offset (e.g. 2027-01-10T18:00:00+01:00).",
            message=msg("error.bad_away.offset"),
        )
    try:
        stored = await store.go_away(
            room.id, seat.id, until, most_days * DAY_S, days_per_year * DAY_S
        )
    except AwayRefused as refused:
        left = max(0.0, days_per_year - _days(refused.used_s))
        if refused.reason == "past":
            raise ServiceError(
                "bad_away",
                "The date you are away until has passed: choose a later one.",
                message=msg("error.bad_away.past"),
            ) from None
        if refused.reason == "too_long":
            raise ServiceError(
                "bad_away",
                f"You may be away at most {most_days} days at a time.",
                message=msg("error.bad_away.too_long", days=most_days),
            ) from None
        raise ServiceError(
            "bad_away",
            f"That is more than the {days_per_year} days a year a seat may be away:"
            f" {left:g} left.",
            message=msg(
                "error.bad_away.allowance", days=days_per_year, left=f"{left:g}"
            ),
            extra={"left_days": left},
        ) from None
    return await state(store, seat.id, seat.seat, days_per_year, stored)


async def state(
    store: AwayStore,
    seat_id: int,
    seat: int,
    days_per_year: int,
    until: datetime | None,
) -> dict[str, Any]:
    """The seat's away state for its holder: until when, and what is left of the year."""
    used = _days(await store.used_s(seat_id))
    return {
        "seat": seat,
        "away_until": iso(until) if until else None,
        "used_days": used,
        "left_days": max(0.0, round(days_per_year - used, 1)),
    }
