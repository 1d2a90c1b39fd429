"""People's text as the server keeps it: chat messages, and every name a person gives
(a player's, a spectator's). One treatment for all (docs/security.md, "Table chat" and
"Player names"): bidi controls removed, white space trimmed; control characters, line
breaks and lone surrogates refused; a text that shows nothing refused; a length limit.
"""

from __future__ import annotations

import unicodedata

from app.play.protocol import ServiceError, msg

MAX_TEXT = 500
"""Characters (Unicode code points) of a chat message after cleaning."""
MAX_NAME = 24
"""Characters of a name after cleaning (a player's or a spectator's)."""

# Bidirectional embeddings, overrides and isolates: inside one line of chat or one name they
# only serve to make text read other than it is written (or to spill over what follows it:
# "Ana\u202e" turns the rest of a sentence naming her around), so they are removed. The client also shows every name and text in its own isolated span.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Refused outright: control characters (C0, DEL, C1: NUL, line breaks, escapes), lone
# surrogates (PostgreSQL cannot store them) and the Unicode line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
# What does not show: a text of only these is empty.
INVISIBLE_CATEGORIES = frozenset({"Zs", "Cf", "Mn", "Me"})


# What a cleaned text is, for the refusals' messages ("{what, select, name {A name} …}").
SUBJECTS = {"A chat message": "chat_message", "A name": "name"}


def clean_text(raw: str, what: str = "A chat message", limit: int = MAX_TEXT) -> str:
    """The text as stored: bidi controls removed, trimmed; refused (`malformed`) when it
    holds control characters, shows nothing, or is longer than `limit` characters.

    >>> clean_text("  well played \u202e ")
    'well played'
    >>> clean_text("a\\nb")
    Traceback (most recent call last):
    ...
    app.play.protocol.ServiceError: A chat message may not contain control characters or line breaks.
    """
    subject = SUBJECTS.get(what, "text")
    for ch in raw:
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            raise ServiceError(
                "malformed",
                f"{what} may not contain control characters or line breaks.",
                message=msg("error.malformed.control_characters", what=subject),
            )
    text = "".join(ch for ch in raw if ch not in BIDI_CONTROLS).strip()
    if all(unicodedata.category(ch) in INVISIBLE_CATEGORIES for ch in text):
        raise ServiceError(
            "malformed",
            f"{what} is empty.",
            message=msg("error.malformed.empty", what=subject),
        )
    if len(text) > limit:
        raise ServiceError(
            "malformed",
            f"{what} has at most {limit} characters (this one has {len(text)}).",
            message=msg(
                "error.malformed.too_long", what=subject, limit=limit, length=len(text)
            ),
        )
    return text


def clean_person_name(raw: str) -> str:
    """A name a person gives (a seat's, a spectator's): cleaned as a text of at most
    `MAX_NAME` characters.

    >>> clean_person_name(" Ana\u202e ")
    'Ana'
    """
    return clean_text(raw, "A name", MAX_NAME)
