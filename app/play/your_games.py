""" "Your games": the status of every room a browser holds a token for.

A part of the room service (app/play/service.py), `service.your_games`. Read in two
queries whatever the number of rooms (app/store/seats.py, `held_rooms`); no token is ever
echoed back, and a token that holds nothing in its room any more says so in its entry.
"""

from __future__ import annotations

from typing import Any

from app.play import tokens
from app.play.protocol import ServiceError, msg
from app.play.reading import Reading
from app.store.rows import iso
from app.store.store import Store

MAX_ROOMS = 100


class YourGames:
    """The rooms a browser holds tokens for (`service.your_games`)."""

    def __init__(self, store: Store, reading: Reading) -> None:
        self.store = store
        self.reading = reading

    async def status(self, held: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """The status of each (room id, token) pair, in the order given."""
        if len(held) > MAX_ROOMS:
            raise ServiceError(
                "malformed",
                f"Ask about at most {MAX_ROOMS} rooms at once.",
                message=msg("error.malformed.too_many_rooms", max=MAX_ROOMS),
            )
        # Only ids that could be ours reach the query: a NUL or a lone surrogate in a JSON
        # string cannot be sent to PostgreSQL at all (found by tests/fuzz/test_openapi.py).
        ids = sorted(
            {r for r, _ in held if len(r) <= 16 and r.isascii() and r.isprintable()}
        )
        rooms, seats = await self.store.held_rooms(ids)
        entries = [
            _entry(rooms.get(room_id), seats.get(room_id, []), room_id, token)
            for room_id, token in held
        ]
        for entry in entries:
            if entry.get("status") == "finished":
                room = rooms[entry["room_id"]]
                entry["winners"] = await self._winners(room["game_id"], entry["seats"])
        return entries

    async def _winners(
        self, game_id: int | None, seats: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Who won a finished game, as its final view says (the names its seats have now:
        a bot that finished a game for someone is the one named)."""
        if game_id is None:
            return []
        view = (await self.reading.position(game_id)).view(None)
        names = {s["seat"]: s["name"] for s in seats}
        won = (view.get("scores") or {}).get("winners") or []
        return [{"seat": seat, "name": names.get(seat)} for seat in won]


def _entry(room: Any, seats: list[Any], room_id: str, token: str) -> dict[str, Any]:
    if room is None:
        return _refusal(
            room_id,
            "unknown_room",
            "There is no such room.",
            msg("error.unknown_room.no_such"),
        )
    digest = tokens.hash_token(token) if tokens.looks_like_token(token) else None
    mine = next((s for s in seats if tokens.same_hash(digest, s["token_hash"])), None)
    if mine is None and not tokens.same_hash(digest, room["host_token_hash"]):
        return _refusal(
            room_id,
            "bad_token",
            "This token holds no seat here any more (you left, or the seat was handed on).",
            msg("error.bad_token.no_seat_any_more"),
        )
    names = {s["seat"]: s["name"] for s in seats}
    status = room["status"]
    current = room["current_seat"] if status == "playing" else None
    return {
        "room_id": room["id"],
        "url": tokens.room_url(room["id"]),
        "status": status,
        "players": room["players"],
        "role": "player" if mine else "host",
        "seat": mine["seat"] if mine else None,
        "name": mine["name"] if mine else None,
        "seats": [
            {
                "seat": s["seat"],
                "name": s["name"],
                "bot": s["bot_level"],
                "left": status != "open"
                and s["token_hash"] is None
                and s["bot_level"] is None,
                "away_until": iso(s["away_until"]) if s["away_until"] else None,
            }
            for s in seats
        ],
        "version": room["version"] or 0,
        "turn": None
        if current is None
        else {"seat": current, "name": names.get(current)},
        "your_turn": mine is not None and current == mine["seat"],
        "last_move_at": iso(room["last_move_at"]) if room["last_move_at"] else None,
        "created_at": iso(room["created_at"]),
        "clock": None
        if room["due_at"] is None or current is None
        else {
            "seat": current,
            "due_at": iso(room["due_at"]),
            "overdue": room["overdue"],
        },
    }


def _refusal(
    room_id: str, code: str, reason: str, message: dict[str, Any]
) -> dict[str, Any]:
    error = {"code": code, "reason": reason, "message": message}
    return {"room_id": room_id[:16], "error": error}
