"""Room ids, seat tokens and host tokens: unguessable secrets, stored only as hashes.

A room id is public (it is the link) but must not be guessable: 72 random bits. A token is a
bearer secret of 256 random bits; the database keeps only its SHA-256, so a leaked database
dump does not let anyone act for a seat. SHA-256 without salt is enough here because the
secrets are long and random: there is nothing to brute-force from a dictionary.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ROOM_ID_BYTES = 9  # 72 bits -> 12 URL-safe characters
TOKEN_BYTES = 32  # 256 bits -> 43 URL-safe characters
MAX_TOKEN_LENGTH = 128


def new_room_id() -> str:
    """A fresh, URL-safe room id of 12 characters, never beginning with "-": a command line
    (`ishtar verify ID`) would take it for an option. One id in 64 is drawn again, so the
    ids keep 71.9 of their 72 random bits; ids made before may begin with "-" and still
    work everywhere (`ishtar verify -- ID` on a command line)."""
    while True:
        room_id = secrets.token_urlsafe(ROOM_ID_BYTES)
        if not room_id.startswith("-"):
            return room_id


def new_token() -> str:
    """A fresh, URL-safe bearer token of 43 characters."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> bytes:
    """The SHA-256 digest the database stores in place of `token`."""
    return hashlib.sha256(token.encode("utf-8")).digest()


def same_hash(a: bytes | None, b: bytes | None) -> bool:
    """Constant-time comparison of two stored hashes (None never matches)."""
    return a is not None and b is not None and hmac.compare_digest(a, b)


def looks_like_token(token: object) -> bool:
    """Cheap shape check before hashing: a short ASCII string."""
    return (
        isinstance(token, str)
        and 0 < len(token) <= MAX_TOKEN_LENGTH
        and token.isascii()
    )


def room_url(room_id: str) -> str:
    return f"/r/{room_id}"


def rejoin_url(room_id: str, token: str) -> str:
    """The personal link to a seat; the token rides in the fragment, never sent to a server."""
    return f"/r/{room_id}#t={token}"
