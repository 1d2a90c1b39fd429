"""Where a game record comes from: this server's signature, and the room of this server it
names (docs/records.md, "Provenance").

A record that replays (app/records/gamerecord.py) is a consistent game, not necessarily one played
here: anyone can build one from a seed of their own, with invented players, and give it the
id of a real room. So, on import and when asked (`POST /api/records/provenance`):

- the signature is checked with this server's key (app/records/signing.py): valid, unsigned,
  or another server's; one that this key made but that no longer matches is refused;
- a record naming a room of this server must be that room's game: the same seed
  commitment, set-up, players (a name each seat has had) and moves; otherwise it is refused.

The key is `ISHTAR_RECORD_SIGNING_KEY`, or else one generated once and kept in the database
(shared by every instance on it, kept across restarts). It never leaves the server.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from pydantic import SecretStr

from app.games import Registry
from app.play.protocol import ServiceError, msg
from app.records import signing as record_signing
from app.records.gamerecord import RecordError, record_setup, seed_commitment
from app.records.signing import Signature
from app.store.records import RecordStore


class Provenance:
    """Signs exported records and checks where an offered one comes from."""

    def __init__(
        self, store: RecordStore, configured: SecretStr | None, registry: Registry
    ) -> None:
        self.store = store
        self.registry = registry
        self._configured = configured
        self._key: bytes | None = None

    async def key(self) -> bytes:
        """This server's signing key (read once)."""
        if self._key is None:
            if self._configured is not None:
                self._key = self._configured.get_secret_value().encode("utf-8")
            else:
                offer = secrets.token_bytes(record_signing.MIN_KEY_BYTES)
                self._key = await self.store.signing_key(offer)
        return self._key

    async def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        return record_signing.sign(record, await self.key())

    async def check(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """What is known of where `record` comes from; bad_record if it is a forgery.

        `record` is a JSON object (the caller has checked that much)."""
        signature = record_signing.check(dict(record), await self.key())
        if signature is Signature.INVALID:
            raise ServiceError(
                "bad_record",
                "The record carries a signature of this server that does not match it: "
                "it was changed after it was exported.",
                message=msg("error.bad_record.signature"),
            )
        room = await self._room(record)
        return {
            "signature": signature.value,
            "key_id": _named_key(record),
            "room": room,
        }

    async def _room(self, record: Mapping[str, Any]) -> str:
        """ "matches" when the record is the game of a room here, "not_here" when it names
        none; bad_record when it names one whose game it is not."""
        room_id = record.get("room_id")
        if not isinstance(room_id, str):
            return "not_here"
        facts = await self.store.game(room_id)
        if facts is None:
            if await self.store.room_exists(room_id):
                raise _not_the_room(room_id, "its game has not started")
            return "not_here"
        if record.get("seed_sha256") != seed_commitment(facts.seed):
            raise _not_the_room(room_id, "its seed commitment is another")
        mine = {
            "game": facts.game,
            "players": facts.setup["players"],
            "options": facts.setup["options"],
        }
        try:
            theirs = record_setup(self.registry, record)
        except RecordError as error:  # a set-up no game accepts is no room's
            raise ServiceError(
                "bad_record", error.reason, message=error.message
            ) from None
        if theirs != mine:
            raise _not_the_room(room_id, "its set-up is another")
        names = await self.store.seat_names(room_id)
        players = record.get("players")
        if not isinstance(players, list) or len(players) != len(names):
            raise _not_the_room(room_id, "it has another number of players")
        for number, player in enumerate(players):
            if not isinstance(player, dict) or player.get("name") not in names.get(
                number, set()
            ):
                raise _not_the_room(room_id, f"nobody of that name held seat {number}")
        moves = record.get("moves")
        if not isinstance(moves, list) or len(moves) != facts.version:
            raise _not_the_room(
                room_id, f"it has {facts.version} moves, the record another number"
            )
        logged = await self.store.moves(facts.game_id, 0, facts.version)
        for event, move in zip(logged, moves, strict=True):
            if not isinstance(move, dict) or any(
                move.get(key) != value
                for key, value in (
                    ("seq", event.seq),
                    ("seat", event.seat),
                    ("action", event.action),
                    ("text", event.text),
                )
            ):
                raise _not_the_room(room_id, f"its move {event.seq} is another")
        return "matches"


def _named_key(record: Mapping[str, Any]) -> str | None:
    signature = record.get("signature")
    named = signature.get("key_id") if isinstance(signature, dict) else None
    return named if isinstance(named, str) else None


def _not_the_room(room_id: str, why: str) -> ServiceError:
    return ServiceError(
        "bad_record",
        f"The record names room {room_id} of this server, but it is not that room's game: "
        f"{why}.",
        message=msg("error.bad_record.not_that_room", room=room_id),
    )
