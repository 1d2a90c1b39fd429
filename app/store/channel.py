"""The notice channel: the NOTIFY by which every instance hears that a room changed.

Every write that others must hear about sends `NOTIFY` in the same transaction, so the
notice is delivered only once the change is committed (app/notices/listener.py listens); a
room's change through `bump_revision` (app/store/revision.py).
"""

from __future__ import annotations

CHANNEL = "ishtar_rooms"

NOTIFY = "SELECT pg_notify($1, $2)"
NOTIFY_MANY = "SELECT pg_notify($1, n) FROM unnest($2::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i"


def notice(room_id: str, kind: str, number: int) -> str:
    """The NOTIFY payload: the room, what changed (m/r/p) and the new version or revision."""
    return f"{room_id} {kind} {number}"
