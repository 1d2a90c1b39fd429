"""Server messages: what the server sends over a room's websocket, built as JSON text.

The shapes are documented in docs/protocol.md; this module is their single definition on the
server (what clients send is parsed in app/play/protocol.py). Messages are built as text
directly: views are serialised once per version and audience, then spliced into each message,
so a thousand spectators share the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from app.play.protocol import ServiceError, dumps


class Stamped(NamedTuple):
    """A server message other than welcome, update and sync: its `version` is the game
    version its connection knows of, so a connection that was already told of a later one
    (its own move's ack, a fresher welcome) sends it with that later version instead:
    versions on a connection never go down (docs/protocol.md). The text is built once and
    shared; only such a connection re-stamps its copy (`at`)."""

    version: int | None
    text: str
    start: int  # the version's digits are text[start:end]
    end: int
    kind: str = (
        ""  # its `type` ("chat", "error"…), for an outbox that replaces one kind
    )

    def at(self, version: int | None) -> str:
        """The text with `version` in place of its own."""
        if version == self.version:
            return self.text
        return f"{self.text[: self.start]}{dumps(version)}{self.text[self.end :]}"


def stamped(fields: dict[str, Any], version: int | None) -> Stamped:
    """`fields` (a message without its version) as a `Stamped` message at `version`."""
    body = dumps(fields)
    head = f'{body[:-1]},"version":'
    number = dumps(version)
    text = f"{head}{number}}}"
    return Stamped(version, text, len(head), len(head) + len(number), fields["type"])


def later(a: int | None, b: int | None) -> int | None:
    """The later of two versions, None (no version yet) being the earliest."""
    if a is None:
        return b
    return a if b is None or a >= b else b


def error_message(
    error: ServiceError, move_id: str | None = None, version: int | None = None
) -> Stamped:
    """An `error` at `version` (the connection's; the error's own when not given)."""
    message: dict[str, Any] = {
        "type": "error",
        "code": error.code,
        "reason": error.reason,
    }
    if error.message is not None:
        message["message"] = error.message
    if move_id is not None:
        message["move_id"] = move_id
    return stamped(message, error.version if version is None else version)


def ack_message(move_id: str, version: int, seq: int, duplicate: bool) -> str:
    """A lone `ack`: `seq` is the version the move produced, `version` the connection's."""
    return dumps(
        {
            "type": "ack",
            "move_id": move_id,
            "version": version,
            "seq": seq,
            "duplicate": duplicate,
        }
    )


def with_ack(update_text: str, move_id: str) -> str:
    """An update (from `update_message`) that is also the ack of the mover's move."""
    ack = dumps({"move_id": move_id, "duplicate": False})
    return f'{update_text[:-1]},"ack":{ack}}}'


def pong_message(version: int | None) -> Stamped:
    return stamped({"type": "pong"}, version)


def presence_message(version: int, presence: dict[str, Any]) -> Stamped:
    return stamped({"type": "presence", "presence": presence}, version)


def update_message(
    version: int, event_json: str, changes_json: str, legal_json: str
) -> str:
    """An update from pre-serialised parts (shared by every connection of one audience).

    `changes` holds the top-level entries of the view that differ from the previous
    version's: the client merges them into the view it holds (docs/protocol.md)."""
    return (
        f'{{"type":"update","version":{version},"event":{event_json},'
        f'"changes":{changes_json},"legal":{legal_json}}}'
    )


def sync_message(
    version: int, you: dict[str, Any], events_json: str, view_json: str, legal_json: str
) -> str:
    return (
        f'{{"type":"sync","version":{version},"you":{dumps(you)},"events":{events_json},'
        f'"view":{view_json},"legal":{legal_json}}}'
    )


def room_message(
    version: int | None, room: dict[str, Any], you: dict[str, Any]
) -> Stamped:
    return stamped({"type": "room", "room": room, "you": you}, version)


def welcome_message(
    *,
    version: int,
    you: dict[str, Any],
    room: dict[str, Any],
    view_json: str,
    legal_json: str,
    events_json: str,
    presence: dict[str, Any],
) -> str:
    return (
        f'{{"type":"welcome","version":{version},"you":{dumps(you)},"room":{dumps(room)},'
        f'"view":{view_json},"legal":{legal_json},"events":{events_json},'
        f'"presence":{dumps(presence)}}}'
    )


def chat_message(
    lines: Sequence[Mapping[str, Any]],
    version: int | None,
    *,
    recent: bool = False,
    earlier: bool = False,
    hidden: int = 0,
) -> Stamped:
    """A `chat` message: new messages, or (`recent`) the latest a connection may see, which
    replace what it holds; `earlier`: older ones exist (GET /api/rooms/{id}/chat);
    `hidden`: messages of the spectators' channel kept from this player until the end
    (with `recent`, how many the room holds; else, how many more came)."""
    fields: dict[str, Any] = {"type": "chat", "messages": list(lines)}
    if recent:
        fields |= {"recent": True, "earlier": earlier}
    if hidden:
        fields["spectators_hidden"] = hidden
    return stamped(fields, version)


def chat_error_message(error: ServiceError, version: int | None) -> Stamped:
    """An `error` answering a `chat` or `chat_settings` frame: marked `"about": "chat"`,
    with what helps to recover (`retry_after_s` for `rate_limited`)."""
    fields: dict[str, Any] = {
        "type": "error",
        "code": error.code,
        "reason": error.reason,
        "about": "chat",
        **error.extra,
    }
    if error.message is not None:
        fields["message"] = error.message
    return stamped(fields, version)


def stale_sync(refusal: ServiceError, you: dict[str, Any]) -> str:
    """The websocket `sync` that follows a stale_version error."""
    extra = refusal.extra
    return sync_message(
        refusal.version or 0,
        you,
        dumps(extra.get("missed", [])),
        dumps(extra.get("view")),
        dumps(extra.get("legal", [])),
    )
