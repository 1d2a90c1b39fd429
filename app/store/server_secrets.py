"""The server's own secrets in the store: one random key per name, the same for every instance.

``server_secrets`` (migration 0016) keeps each key; the first instance to ask for a name
offers a fresh one, which becomes it, and every other instance (and every restart) reads the
same. The first name is ``bot_seed`` (app/background/bot_seeds.py). Knows SQL and no use of
the keys; a key never leaves the server.
"""

from __future__ import annotations

from app.store.pool import Pools

MIN_KEY_BYTES = 32
"""The shortest key the table takes (its check constraint)."""


class ServerSecretStore(Pools):
    """The server's secrets (a part of `Store`: ``store.secrets``)."""

    async def secret(self, name: str, offer: bytes) -> bytes:
        """The key named `name`: `offer` becomes it if there is none yet (the first instance
        to offer wins, every other reads the same)."""
        if len(offer) < MIN_KEY_BYTES:
            raise ValueError(f"a server secret has {MIN_KEY_BYTES} bytes or more")
        async with self._conn() as conn:
            await conn.execute(
                "INSERT INTO server_secrets (name, key) VALUES ($1, $2)"
                " ON CONFLICT (name) DO NOTHING",
                name,
                offer,
            )
            # A new statement (so a new snapshot): sees the key of whoever offered first.
            key = await conn.fetchval(
                "SELECT key FROM server_secrets WHERE name = $1", name
            )
        return bytes(key)
