"""The server's Web Push (VAPID, RFC 8292) key: one P-256 key pair for every instance.

Browsers subscribe with the public key (the page reads it from ``GET /api/reach``), and push
services accept a push only when its ``Authorization: vapid`` header is signed by the private
key of that subscription's public key; so every instance must sign with the same one. Like
the bots' seed key (app/background/bot_seeds.py), the key is taken from a setting
(``ISHTAR_VAPID_PRIVATE_KEY``: 32 raw bytes in base64url) or else generated once by the first
instance and kept in ``server_secrets`` under ``vapid`` (migration 0016); the others and every
restart read the same. The key never leaves the server; only its public half is shown. The
signatures are py_vapid's (``Vapid02``), the key pair cryptography's: no hand-made crypto.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02  # type: ignore[import-untyped]

VAPID_KEY = "vapid"
"""The name of the key in ``server_secrets``."""
SIGNATURE_S = 12 * 3600
"""How long a signature is valid (push services take up to 24 h)."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """Base64url with or without padding; ValueError if it is not that."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as error:
        raise ValueError("not base64url") from error


def new_key() -> bytes:
    """A fresh private key (32 raw bytes), offered to the database by the first instance."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_numbers().private_value.to_bytes(32, "big")


KeySource = Callable[[], Awaitable[bytes]]


class VapidKey:
    """The VAPID key pair of this server: given, or read from `source` when first needed."""

    def __init__(
        self, raw: bytes | None = None, *, source: KeySource | None = None
    ) -> None:
        if raw is None and source is None:
            raise ValueError("the VAPID key needs a key or where to read it")
        self._vapid: Vapid02 | None = None if raw is None else _load(raw)
        self._source = source

    def __repr__(self) -> str:
        return "VapidKey(<secret>)"

    async def load(self) -> None:
        if self._vapid is None:
            assert self._source is not None
            self._vapid = _load(await self._source())

    async def public_key(self) -> str:
        """The application server key browsers subscribe with (uncompressed point,
        base64url)."""
        await self.load()
        assert self._vapid is not None
        point = self._vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    async def authorization(self, endpoint: str, subject: str) -> str:
        """The ``Authorization`` header of a push to `endpoint` (audience: its origin)."""
        await self.load()
        assert self._vapid is not None
        parts = urlsplit(endpoint)
        claims = {
            "aud": f"{parts.scheme}://{parts.netloc}",
            "sub": subject,
            "exp": int(time.time()) + SIGNATURE_S,
        }
        header: str = self._vapid.sign(claims)["Authorization"]
        return header


def _load(raw: bytes) -> Vapid02:
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes")
    return Vapid02.from_raw(b64url(raw).encode())
