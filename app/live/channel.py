"""A room's audience on this instance: its connections and what is left to publish to them.

The hub (app/live/hub.py) keeps one `Channel` per room served here.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from typing import Any

from app.live.chat import RoomChat
from app.live.connection import Connection
from app.play.protocol import dumps, msg
from app.store.rows import Event, SeatRow


def room_key(status: dict[str, Any]) -> str:
    """What tells two room statuses apart for a client: all of it but the game's version
    (which every update, sync and message carries anyway)."""
    return dumps({**status, "version": None})


def seen_key(key: str, you: dict[str, Any]) -> bytes:
    """What a connection keeps of the room status it was last sent: a 16-byte digest of
    `room_key` and its own part, not the text (about 900 bytes a connection)."""
    return hashlib.blake2b(f"{key}{dumps(you)}".encode(), digest_size=16).digest()


@dataclass
class Channel:
    """The connections of one room on this instance and what is left to publish to them."""

    room_id: str
    conns: set[Connection] = field(default_factory=set)
    game_id: int | None = None
    status: str = "open"
    revision: int = -1  # the room's revision last read here (rooms.revision)
    published: int = -1  # last version published here; -1 until known
    target: int = -1  # highest version announced
    room_dirty: bool = False
    presence_dirty: bool = False
    pending: dict[int, Event] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    busy: bool = False  # its task is publishing (and may be waiting on the database)
    last_presence: str = ""
    presences_sent: int = 0  # presences published (a welcome made meanwhile misses one)
    chat: RoomChat = field(default_factory=RoomChat)


def revoked_reason(now: SeatRow | None) -> str:
    """What a player whose link stopped working is told, in plain words.

    >>> revoked_reason(None)
    'Your seat is no longer yours: you left it (perhaps in another tab). You are watching as a spectator.'
    """
    watching = "You are watching as a spectator."
    if now is None or (now.token_hash is None and now.bot_level is None):
        return f"Your seat is no longer yours: you left it (perhaps in another tab). {watching}"
    if now.bot_level is not None:
        return (
            f"The host handed your seat to {article(now.bot_level)} {now.bot_level} bot, "
            "which plays it from now "
            f"on; your link no longer plays here. {watching}"
        )
    return (
        f"The host handed your seat to {now.name}, who plays it from now on; your link no "
        f"longer plays here. {watching}"
    )


def revoked_message(now: SeatRow | None) -> dict[str, Any]:
    """`revoked_reason` as a message, for the reader's language (static/i18n)."""
    if now is None or (now.token_hash is None and now.bot_level is None):
        return msg("error.bad_token.left")
    if now.bot_level is not None:
        return msg("error.bad_token.to_bot", level=now.bot_level)
    return msg("error.bad_token.to_person", name=now.name)


def article(word: str) -> str:
    """ "a" or "an" before `word` (a bot level: "an easy bot", "a hard bot")."""
    return "an" if word[:1].lower() in "aeiou" else "a"
