"""Which content codings a client takes (`Accept-Encoding`, RFC 9110, 12.5.3)."""

from __future__ import annotations

HEADER_LIMIT = 512
"""The characters of `Accept-Encoding` read: a header is not a workload (browsers send
some 25)."""


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an `Accept-Encoding` header accepts gzip (RFC 9110, 12.5.3): named, or `*`,
    with a weight above zero.

    >>> takes_gzip("gzip, deflate, br, zstd")
    True
    >>> takes_gzip("br;q=1.0, gzip;q=0")
    False
    """
    weights: dict[str, float] = {}
    for item in accept_encoding[:HEADER_LIMIT].split(","):
        name, _, params = item.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value.strip())
                except ValueError:
                    weight = 0.0
        if name.strip():
            weights[name.strip().lower()] = weight
    if "gzip" in weights:
        return weights["gzip"] > 0
    return weights.get("*", 0.0) > 0
