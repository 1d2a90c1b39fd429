"""E-mail addresses a player gives for the digest: what the server accepts.

A plain ``local@domain`` of at most 254 characters (64 before the ``@``), with no spaces,
quotes, angle brackets, commas or control characters (nothing that could reach another
header or a second recipient), and a domain of dot-separated labels with a dot in it. The
domain is lowercased; the local part is kept as given.
"""

from __future__ import annotations

import re

from app.play.protocol import ServiceError, msg

MAX_ADDRESS = 254
_LOCAL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$")
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def check_address(text: str) -> str:
    """The address as stored, or `bad_email`.

    >>> check_address("Ana.B+ishtar@Example.ORG")
    'Ana.B+ishtar@example.org'
    >>> check_address("ana@localhost")
    Traceback (most recent call last):
    ...
    app.play.protocol.ServiceError: ...
    """
    local, at, domain = text.strip().rpartition("@")
    labels = domain.lower().rstrip(".").split(".")
    if (
        not at
        or len(text.strip()) > MAX_ADDRESS
        or not _LOCAL.match(local)
        or local.startswith(".")
        or local.endswith(".")
        or ".." in local
        or len(labels) < 2
        or not all(_LABEL.match(label) for label in labels)
        or labels[-1].isdigit()
    ):
        raise ServiceError(
            "bad_email",
            "That is not an e-mail address we can write to (name@example.org).",
            message=msg("error.bad_email.form"),
        )
    return f"{local}@{'.'.join(labels)}"
