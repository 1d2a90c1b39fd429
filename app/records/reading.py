"""Reading a game record's JSON: the bytes of an import, a file or a fetched record.

Shared by the record routes (`POST /api/records`, `POST /api/records/provenance`) and
`ishtar verify`, so that both refuse the same documents for the same reasons
(docs/security.md, "Imported records: refused, never a 500"):

- bytes that are not a JSON document (not UTF-8, not JSON, or the non-JSON words ``NaN``
  and ``Infinity`` that Python's reader would accept): `NotJson`;
- JSON that is nested deeper than `MAX_DEPTH` (5,000 or 100,000 levels made Python's reader
  raise RecursionError, a 500 and a traceback), or that holds a number no float can carry
  (``1e999`` reads as infinity, which no record holds and JSON cannot write back; an
  integer of more than 4,300 digits, which Python refuses to convert):
  `RecordError`, answered as ``422 bad_record``. The JSON is valid; it cannot be a record.

Pure: no HTTP, no database.
"""

from __future__ import annotations

import json
import math
from typing import Any

from app.play.protocol import msg
from app.records.gamerecord import RecordError

MAX_DEPTH = 64
"""Levels of arrays and objects a record may have. The deepest record of the bundled games
has 10 (a Babylon Gardens result: record > result > players > … ); 64 leaves room for other
games, far below the depth at which Python's JSON reader gives up (about 1,000)."""

SHOWN = 40
"""At most this many characters of the offending number are echoed in a refusal."""


class NotJson(ValueError):
    """The bytes are not a JSON document; the message says why."""


def _no_constant(word: str) -> Any:
    raise NotJson(f"{word} is not a JSON value")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:  # more digits than Python converts (4,300)
        raise _OutOfRange(text) from None


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _OutOfRange(text)
    return value


class _OutOfRange(ValueError):
    """A number too large to read: no float holds it (read as infinity), or an integer of
    more digits than Python converts."""


def read_record(data: bytes | str) -> Any:
    """The JSON value of `data`: NotJson if it is not JSON, RecordError if it cannot be a
    record (nested deeper than `MAX_DEPTH`, a number out of range)."""
    try:
        value = json.loads(
            data, parse_constant=_no_constant, parse_float=_finite, parse_int=_whole
        )
    except _OutOfRange as error:
        raise out_of_range(str(error)) from None
    except RecursionError:
        raise too_deep() from None
    except NotJson:
        raise
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, int digits
        raise NotJson(str(error)) from None
    if depth_over(value, MAX_DEPTH):
        raise too_deep()
    return value


def depth_over(value: Any, most: int) -> bool:
    """Whether `value` nests arrays and objects more than `most` levels deep: level by
    level, without recursion, whatever the depth.

    >>> depth_over({"a": [[1]]}, 3), depth_over({"a": [[1]]}, 2), depth_over(5, 0)
    (False, True, False)
    """
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > most:
            return True
        level = [
            child
            for item in level
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, (dict, list))
        ]
    return False


def too_deep() -> RecordError:
    return RecordError(
        f"A game record is nested at most {MAX_DEPTH} levels deep; this JSON is nested "
        "deeper.",
        msg("error.bad_record.too_deep", depth=MAX_DEPTH),
    )


def out_of_range(number: str) -> RecordError:
    shown = number if len(number) <= SHOWN else number[:SHOWN] + "…"
    return RecordError(
        f"The record holds the number {shown}, too large to be read (no game record "
        "holds a number beyond the range of a 64-bit float).",
        msg("error.bad_record.number_out_of_range", number=shown),
    )
