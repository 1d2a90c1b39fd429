"""What a room id looks like, checked before a room id from outside reaches the database.

Room ids are 12 URL-safe base64 characters (`app/play/tokens.py`); the column holds 16. Anything
else names no room: the lookups of a room by id (`RoomStore.load_room`, `seat_by_token`,
`RecordStore.game`), through which every HTTP route and the websocket's `hello` go, answer
"no such room" for it without a query. That keeps what PostgreSQL cannot take (a NUL, a
lone surrogate) or need not see (a megabyte of text) away from it: `unknown_room`, never a
500.
"""

from __future__ import annotations

import re

MAX_ROOM_ID = 16
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def is_room_id(text: object) -> bool:
    """Whether `text` could be the id of a room.

    >>> [is_room_id(t) for t in ("kR3v_x9QmB2a", "nope", "a\\x00b", "", "x" * 17, "~warm")]
    [True, True, False, False, False, False]
    """
    return isinstance(text, str) and ROOM_ID.fullmatch(text) is not None
