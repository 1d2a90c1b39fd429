"""The rows of the store: rooms, seats, games and the public move log, as frozen values.

What `app.store.store` reads is handed out as these dataclasses; `iso` is the time format of the
wire (docs/protocol.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any


@dataclass(frozen=True)
class SeatRow:
    id: int
    seat: int
    name: str
    bot_level: str | None
    is_host: bool
    token_hash: bytes | None = field(repr=False)
    away_until: datetime | None = None
    """The holder is away until then (None: not away now)."""


@dataclass(frozen=True)
class GameRow:
    id: int
    version: int
    status: str
    current_seat: int | None


@dataclass(frozen=True)
class RoomRow:
    id: str
    game: str
    """The registry's id of the room's game (app/games.py)."""
    options: dict[str, Any]
    """The options its game checked when the room was created."""
    players: int
    seat_order: str
    status: str
    host_token_hash: bytes = field(repr=False)
    revision: int
    created_at: datetime
    seats: tuple[SeatRow, ...]
    started: GameRow | None
    """The game played in the room, once it has started."""

    def seat(self, number: int) -> SeatRow | None:
        return next((s for s in self.seats if s.seat == number), None)


@dataclass(frozen=True)
class Event:
    """One entry of the public move log."""

    seq: int
    seat: int
    action: dict[str, Any]
    text: str
    at: datetime
    # A webhook call or a push may have been queued with this move (the couriers look at
    # once): not public.
    webhook: bool = field(default=False, compare=False, repr=False)
    message: dict[str, Any] | None = None
    """The log line as a message (docs/i18n.md); None for moves logged before messages."""

    def as_dict(self) -> dict[str, Any]:
        """The wire's log entry (docs/protocol.md): ``message`` only where there is one."""
        entry = {
            "seq": self.seq,
            "seat": self.seat,
            "action": self.action,
            "text": self.text,
            "at": iso(self.at),
        }
        if self.message is not None:
            entry["message"] = self.message
        return entry

    @classmethod
    def from_dict(cls, entry: Any) -> Event:
        """The event of a wire's log entry (`as_dict`), as another instance's notice
        carries it; ValueError if it is not one."""
        if not isinstance(entry, dict):
            raise ValueError("a log entry is an object")
        seq, seat, action = entry.get("seq"), entry.get("seat"), entry.get("action")
        text, at, message = entry.get("text"), entry.get("at"), entry.get("message")
        if not (
            type(seq) is int
            and type(seat) is int
            and isinstance(action, dict)
            and isinstance(text, str)
            and isinstance(at, str)
            and (message is None or isinstance(message, dict))
        ):
            raise ValueError("not a log entry")
        return cls(seq, seat, action, text, datetime.fromisoformat(at), message=message)


def iso(moment: datetime) -> str:
    """UTC time with milliseconds and a Z, as on the wire."""
    return (
        moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    )
