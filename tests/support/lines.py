"""A log line as an English page shows it (static/js/log.js): the move's message, with each
seat named by its player (the server's `text` names colours, for the API and the records).

Lists are compared without the serial comma: the browser joins with `Intl.ListFormat`
("a, b, and c"), the server's English without it ("a, b and c").
"""

from __future__ import annotations

from typing import Any

import httpx

from engine.messages import render


def seat_names(base: str, room: str) -> dict[int, str]:
    """The players' names by seat, as the room says."""
    status = httpx.get(f"{base}/api/rooms/{room}", timeout=20).json()
    return {s["seat"]: s["name"] for s in status["seats"]}


def shown_lines(base: str, room: str, lang: str = "en") -> list[str]:
    """Every logged move of `room` as its page in `lang` shows it, in order."""
    names = seat_names(base, room)
    catalogue = httpx.get(f"{base}/i18n/{lang}.json", timeout=20).json()
    moves = httpx.get(f"{base}/api/rooms/{room}/moves", timeout=20).json()["moves"]
    return [line(m, catalogue, names, lang) for m in moves]


def line(
    move: dict[str, Any],
    catalogue: dict[str, str],
    names: dict[int, str],
    lang: str = "en",
) -> str:
    message = move.get("message")
    if not message:
        return str(move["text"])
    return render(
        catalogue, message, lang, seat=lambda n: names.get(n, f"Seat {n + 1}")
    )


def unserial(text: str) -> str:
    """`text` without the serial comma of an English list."""
    return text.replace(", and ", " and ")
