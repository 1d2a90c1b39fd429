"""Signatures of the game records this server exports: a copy can be told from a forgery.

A record replays and matches its seed commitment whoever made it (app/records/gamerecord.py), so the
checks alone say "a consistent game", not "a game played here". The server therefore signs
what it exports: HMAC-SHA256, under a key only the server holds, of the record's canonical
JSON (sorted keys, no spaces, ASCII: other characters escaped) without its ``signature``
field. The field says which key signed (``key_id``, derived from the key by HMAC, so it
tells keys apart and reveals nothing of them):

    "signature": {"algorithm": "HMAC-SHA256", "key_id": "9c1e…(16 hex)", "value": "…(64 hex)"}

Only the key's holder can check a signature; anyone can ask the server that exported a
record (`POST /api/records/provenance`), and `ishtar verify` does. Pure: no database.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from enum import StrEnum
from typing import Any

ALGORITHM = "HMAC-SHA256"
_DOMAIN = (
    b"ishtar-online/record signature\n"  # a signature of nothing else has this form
)
_KEY_ID_DOMAIN = b"ishtar-online/record key id"
MIN_KEY_BYTES = 32


class Signature(StrEnum):
    """What the signature of a record says, checked with this server's key."""

    VALID = "valid"
    """Exported by this server (or a server sharing its key), not changed since."""
    UNSIGNED = "unsigned"
    """No signature: exported before records were signed, or stripped."""
    OTHER_SERVER = "other_server"
    """Signed with another key: another server's record, which this one cannot check."""
    INVALID = "invalid"
    """Signed with this server's key, but the record was changed after it was signed (or
    the signature field is not one this server writes)."""


def canonical(record: dict[str, Any]) -> bytes:
    """The bytes that are signed: the record without `signature`, in canonical JSON.

    >>> canonical({"b": 1, "a": "é", "signature": {"value": "x"}})
    b'{"a":"\\\\u00e9","b":1}'
    """
    unsigned = {key: value for key, value in record.items() if key != "signature"}
    # ASCII: any string JSON can carry (a lone surrogate too) has one canonical form.
    text = json.dumps(unsigned, sort_keys=True, separators=(",", ":"))
    return text.encode("ascii")


def key_id(key: bytes) -> str:
    """A public name of a key: 16 hex digits, the same for the same key.

    >>> key_id(b"k" * 32) == key_id(b"k" * 32) != key_id(b"j" * 32)
    True
    >>> len(key_id(b"k" * 32))
    16
    """
    return hmac.new(key, _KEY_ID_DOMAIN, hashlib.sha256).hexdigest()[:16]


def _mac(record: dict[str, Any], key: bytes) -> str:
    return hmac.new(key, _DOMAIN + canonical(record), hashlib.sha256).hexdigest()


def sign(record: dict[str, Any], key: bytes) -> dict[str, Any]:
    """A copy of `record` carrying its signature under `key`.

    >>> signed = sign({"format": "x"}, b"k" * 32)
    >>> check(signed, b"k" * 32), check(signed, b"j" * 32), check({"format": "x"}, b"k" * 32)
    (<Signature.VALID: 'valid'>, <Signature.OTHER_SERVER: 'other_server'>, <Signature.UNSIGNED: 'unsigned'>)
    >>> check({**signed, "format": "y"}, b"k" * 32)
    <Signature.INVALID: 'invalid'>
    """
    signature = {
        "algorithm": ALGORITHM,
        "key_id": key_id(key),
        "value": _mac(record, key),
    }
    return {**record, "signature": signature}


def check(record: dict[str, Any], key: bytes) -> Signature:
    """What `record`'s signature says under this server's `key`."""
    if "signature" not in record or record["signature"] is None:
        return Signature.UNSIGNED
    signature = record["signature"]
    if not isinstance(signature, dict) or signature.get("algorithm") != ALGORITHM:
        return Signature.INVALID
    value, named = signature.get("value"), signature.get("key_id")
    if not isinstance(value, str) or not _hex(value, 64) or not _hex(named, 16):
        return Signature.INVALID
    if named != key_id(key):  # public names, no secret to time
        return Signature.OTHER_SERVER
    if hmac.compare_digest(value, _mac(record, key)):
        return Signature.VALID
    return Signature.INVALID


def _hex(value: object, digits: int) -> bool:
    return (
        isinstance(value, str)
        and re.fullmatch(f"[0-9a-f]{{{digits}}}", value) is not None
    )
