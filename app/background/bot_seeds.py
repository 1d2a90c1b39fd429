"""The seeds the server's bots play with: keyed by a secret, so no choice gives a game away.

A bot's choice is a function of its seed, and an easy bot's choices show it plainly: a few
of them and a guess of the seed's parts tell which parts they were (issue 33: the seed was
a hash of the game's sequential id, so a player recovered the id, then the bot's next move
id). Here the seed of a server-made move is an HMAC-SHA256, keyed by a random secret of 32
bytes, of what the move is for (``bot`` for a bot seat, ``deadline`` for a late seat's
turn), the game's id and the version it acts on: without the key, the seeds, and so the
choices, are as good as random and tell nothing of the id.

The key (``bot_seed`` in the table ``server_secrets``, migration 0016,
app/store/server_secrets.py) is written by the first instance that starts on a database and
read by the others and by every restart. The runtime (app/ops/runtime.py) reads it once, at
start; a database not ready then (down, or not migrated yet: the server still starts and
/readyz explains) has it read on the first seed asked for instead. So every instance on one
database gives a move the same seed, hence the same action: racing instances submit the same
move under the same id and only one lands. The key never leaves the server: no route,
record or log carries it, and `BotSeeds` does not show it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable

BOT_SEED_KEY = "bot_seed"
"""The name of the key in ``server_secrets``."""
KEY_BYTES = 32


def new_key() -> bytes:
    """A fresh key, offered to the database by an instance that finds none."""
    return secrets.token_bytes(KEY_BYTES)


KeySource = Callable[[], Awaitable[bytes]]
"""Where a `BotSeeds` reads its key when it has none yet (the store's ``bot_seed`` row)."""


def _checked(key: bytes) -> bytes:
    if len(key) < KEY_BYTES:
        raise ValueError(f"the bots' seed key has {KEY_BYTES} bytes or more")
    return bytes(key)


class BotSeeds:
    """The seeds of server-made moves under one key (one database's): given, or read from
    `source` when first needed and kept from then on."""

    __slots__ = ("_key", "_source")

    def __init__(
        self, key: bytes | None = None, *, source: KeySource | None = None
    ) -> None:
        if key is None and source is None:
            raise ValueError("the bots' seeds need a key or where to read it")
        self._key = None if key is None else _checked(key)
        self._source = source

    def __repr__(self) -> str:
        return "BotSeeds(<secret>)"

    @property
    def loaded(self) -> bool:
        return self._key is not None

    async def load(self) -> None:
        """Read the key, unless it is known already."""
        if self._key is None:
            assert self._source is not None
            self._key = _checked(await self._source())

    async def seed(self, purpose: str, game_id: int, version: int) -> int:
        """The 63-bit seed of the move made for `purpose` on `version` of a game: the same
        on every instance that holds the key, unguessable without it."""
        await self.load()
        assert self._key is not None
        message = f"{purpose}/{game_id}/{version}".encode()
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") >> 1
