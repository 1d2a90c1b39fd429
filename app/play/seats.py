"""Seats over time: leaving, handing a seat to someone new, a seat's history, "your games".

- A player leaves (`leave`): before the start their seat is freed; once the game has
  started the seat stays in the game (its moves keep their seat) but its token stops
  working, and the seat shows as left until the host hands it on.
- The host hands a seat to a new person (`hand_to_person`): a fresh token (returned once,
  as a rejoin link for the host to pass on) replaces the old one, which stops working at
  once, websockets included (the hub closes them with 4401). Handing a seat to a bot is the
  bots' `hand_to_bot` (app/background/bot_runner.py).
- The host of a rematch is a seat, not a host token (nobody holds the rematch room's host
  token): when that seat's holder leaves, or the seat is handed to someone new or to a bot,
  the host role passes on to the next person's seat (`hand_on_host`), so the rematch can
  still be started. In a room made by `POST /api/rooms` the host token stays the host.
- Whoever held a seat before is kept in ``seat_history`` by the trigger
  ``seats_holder_changed`` (migration 0003), whatever the path that changed the holder.
- "Your games" (`my_games`): the status of every room a browser holds a token for, in a
  few queries, whatever the number of rooms; no token is ever echoed back.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import tokens
from app.play.protocol import ServiceError, valid_name
from app.play.service import RoomService
from app.store.channel import CHANNEL, notice
from app.store.rows import iso

MAX_ROOMS = 100


async def _bump(conn: AsyncConnection, room_id: str) -> tuple[int, str]:
    """Lock the room, bump its revision and NOTIFY; its new revision and status."""
    row = (
        await conn.execute(
            text(
                "UPDATE rooms SET revision = revision + 1 WHERE id = :id"
                " RETURNING revision, status"
            ),
            {"id": room_id},
        )
    ).one()
    await conn.execute(
        text("SELECT pg_notify(:channel, :payload)"),
        {"channel": CHANNEL, "payload": notice(room_id, "r", row.revision)},
    )
    return row.revision, row.status


# The next seat in turn order after the leaving one held by a person (a seat whose holder has
# not claimed it yet comes after every claimed one), in a rematch room only.
_HAND_ON_HOST = text(
    "WITH gone AS (UPDATE seats SET is_host = false WHERE id = :seat AND is_host"
    " AND EXISTS (SELECT 1 FROM rematches m WHERE m.rematch_id = seats.room_id)"
    " RETURNING room_id, seat), heir AS (SELECT s.id FROM gone"
    " JOIN rooms r ON r.id = gone.room_id JOIN seats s ON s.room_id = gone.room_id"
    " WHERE s.id <> :seat AND s.bot_level IS NULL"
    " ORDER BY s.token_hash IS NULL, (s.seat - gone.seat + r.players) % r.players"
    " LIMIT 1) UPDATE seats SET is_host = true WHERE id IN (SELECT id FROM heir)"
    " RETURNING seat"
)


async def hand_on_host(conn: AsyncConnection, seat_id: int) -> int | None:
    """If seat `seat_id` hosts a rematch, make the next person's seat its host instead
    (in the caller's transaction, before the seat changes hands); that seat's number."""
    heir = await conn.execute(_HAND_ON_HOST, {"seat": seat_id})
    return heir.scalar_one_or_none()


async def leave(
    service: RoomService, room_id: str, token: str | None
) -> dict[str, Any]:
    """The holder of `token` leaves their seat; their token stops working."""
    seat = await service.seat_of(room_id, token)
    assert token is not None
    async with service.store.engine.begin() as conn:
        _, status = await _bump(conn, room_id)
        await hand_on_host(conn, seat.id)
        verb = (
            "DELETE FROM seats"
            if status == "open"
            else "UPDATE seats SET token_hash = NULL"
        )
        gone = await conn.execute(
            text(f"{verb} WHERE id = :id AND token_hash = :hash"),
            {"id": seat.id, "hash": tokens.hash_token(token)},
        )
        if (
            not gone.rowcount
        ):  # left (or was replaced) a moment ago through another call
            raise ServiceError("bad_token", "This token holds no seat in this room.")
    return {
        "left": True,
        "seat": seat.seat,
        "room": await service.status(await service.room(room_id)),
    }


async def hand_to_person(
    service: RoomService, room_id: str, number: int, name: str, bearer: str | None
) -> dict[str, Any]:
    """The host gives a taken seat to a new person: a fresh token, the old one revoked."""
    room = await service.room(room_id)
    if not service._is_host(room, bearer):
        raise ServiceError(
            "forbidden", "Only the host can hand a seat to someone else."
        )
    if not valid_name(name):
        raise ServiceError("malformed", "A name may not contain control characters.")
    if not 0 <= number < room.players:
        raise ServiceError("malformed", f"This room has seats 0 to {room.players - 1}.")
    seat = room.seat(number)
    if seat is None:
        raise ServiceError(
            "seat_free", f"Seat {number} is free: send the room link to take it."
        )
    if room.status == "finished":
        raise ServiceError("game_over", "The game is over.")
    token = tokens.new_token()
    async with service.store.engine.begin() as conn:
        await _bump(conn, room_id)
        # The seat's host power stays with the room's host token, not with the new person
        # (in a rematch, whose host token nobody holds, it passes to the next person).
        await hand_on_host(conn, seat.id)
        await conn.execute(
            text(
                "UPDATE seats SET token_hash = :hash, name = :name, bot_level = NULL,"
                " is_host = false WHERE id = :id"
            ),
            {"hash": tokens.hash_token(token), "name": name, "id": seat.id},
        )
    # The cached names of this game (used in refusals) are stale here; other instances
    # keep the old name in "not your turn" sentences until they drop the game's context.
    service._games.pop(room_id, None)
    return {
        "seat": number,
        "token": token,
        "rejoin_url": tokens.rejoin_url(room_id, token),
        "room": await service.status(await service.room(room_id)),
    }


async def history(service: RoomService, room_id: str) -> dict[str, Any]:
    """Who held each seat, oldest first, the current holders last (public: names only)."""
    room = await service.room(room_id)
    async with service.store.engine.connect() as conn:
        rows = (
            await conn.execute(
                text(
                    "SELECT seat_id, name, bot_level, held_from, held_until,"
                    " until_version, ended FROM seat_history WHERE room_id = :room"
                    " ORDER BY held_until, id"
                ),
                {"room": room_id},
            )
        ).all()
        since: dict[int, Any] = dict(
            (
                await conn.execute(
                    text("SELECT id, joined_at FROM seats WHERE room_id = :room"),
                    {"room": room_id},
                )
            ).all()
        )
    numbers = {seat.id: seat.seat for seat in room.seats}
    holders = [
        {
            "seat": numbers.get(row.seat_id),
            "name": row.name,
            "bot": row.bot_level,
            "from": iso(row.held_from),
            "until": iso(row.held_until),
            "until_version": row.until_version,
            "ended": row.ended,
        }
        for row in rows
    ]
    for seat in room.seats:
        vacant = seat.token_hash is None and seat.bot_level is None
        holders.append(
            {
                "seat": seat.seat,
                "name": None if vacant else seat.name,
                "bot": seat.bot_level,
                "from": iso(since[seat.id]),
                "until": None,
                "until_version": None,
                "ended": None,
            }
        )
    version = room.started.version if room.started else 0
    return {"room_id": room_id, "version": version, "holders": holders}


_MY_ROOMS = text(
    "SELECT r.id, r.status, r.players, r.host_token_hash, r.created_at, g.version,"
    " g.current_seat, last.created_at AS last_move_at, d.due_at, d.overdue"
    " FROM rooms r LEFT JOIN games g ON g.room_id = r.id"
    " LEFT JOIN LATERAL (SELECT created_at FROM moves m WHERE m.game_id = g.id"
    " ORDER BY m.seq DESC LIMIT 1) last ON true"
    " LEFT JOIN turn_deadlines d ON d.game_id = g.id"
    " WHERE r.id = ANY(:ids)"
)
_MY_SEATS = text(
    "SELECT room_id, seat, name, bot_level, token_hash FROM seats"
    " WHERE room_id = ANY(:ids) ORDER BY room_id, seat"
)


async def my_games(
    service: RoomService, held: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    """The status of each (room id, token) pair, in the order given."""
    if len(held) > MAX_ROOMS:
        raise ServiceError("malformed", f"Ask about at most {MAX_ROOMS} rooms at once.")
    # Only ids that could be ours reach the query: a NUL or a lone surrogate in a JSON
    # string cannot be sent to PostgreSQL at all (found by tests/fuzz/test_openapi.py).
    ids = sorted(
        {r for r, _ in held if len(r) <= 16 and r.isascii() and r.isprintable()}
    )
    async with service.store.engine.connect() as conn:
        rooms = {
            row.id: row for row in (await conn.execute(_MY_ROOMS, {"ids": ids})).all()
        }
        seats: dict[str, list[Any]] = {}
        for row in (await conn.execute(_MY_SEATS, {"ids": ids})).all():
            seats.setdefault(row.room_id, []).append(row)
    return [
        _my_game(rooms.get(room_id), seats.get(room_id, []), room_id, token)
        for room_id, token in held
    ]


def _my_game(room: Any, seats: list[Any], room_id: str, token: str) -> dict[str, Any]:
    if room is None:
        return _refusal(room_id, "unknown_room", "There is no such room.")
    digest = tokens.hash_token(token) if tokens.looks_like_token(token) else None
    mine = next((s for s in seats if tokens.same_hash(digest, s.token_hash)), None)
    if mine is None and not tokens.same_hash(digest, room.host_token_hash):
        return _refusal(
            room_id,
            "bad_token",
            "This token holds no seat here any more (you left, or the seat was handed on).",
        )
    names = {s.seat: s.name for s in seats}
    current = room.current_seat if room.status == "playing" else None
    return {
        "room_id": room.id,
        "url": tokens.room_url(room.id),
        "status": room.status,
        "players": room.players,
        "role": "player" if mine else "host",
        "seat": mine.seat if mine else None,
        "name": mine.name if mine else None,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot_level,
                "left": room.status != "open"
                and s.token_hash is None
                and s.bot_level is None,
            }
            for s in seats
        ],
        "version": room.version or 0,
        "turn": None
        if current is None
        else {"seat": current, "name": names.get(current)},
        "your_turn": mine is not None and current == mine.seat,
        "last_move_at": iso(room.last_move_at) if room.last_move_at else None,
        "created_at": iso(room.created_at),
        "clock": None
        if room.due_at is None or current is None
        else {"seat": current, "due_at": iso(room.due_at), "overdue": room.overdue},
    }


def _refusal(room_id: str, code: str, reason: str) -> dict[str, Any]:
    return {"room_id": room_id[:16], "error": {"code": code, "reason": reason}}
