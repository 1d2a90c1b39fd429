"""The checks of every seat operation, each fault with one code (docs/protocol.md, "Seat
operations").

Every operation on a room's seats (app/play/seats.py: join, start, seat a bot, leave, hand
a seat to a person or to a bot) judges the same faults with these functions, in the same
order: who asks (`require_host`), what they send (`check_name`, which also gives the name as kept, `check_bot_level`,
`seat_number`), the room's state (`require_open`, `require_not_over`), then the seat's
(`require_free`, `require_taken`, `require_full`). Each raises a `ServiceError` and changes
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.play import tokens
from app.play.protocol import ServiceError, msg
from app.play.text import clean_person_name
from app.store.rows import RoomRow, SeatRow

if TYPE_CHECKING:  # types only: the descriptor is handed in with the registry
    from app.games import AnyGame

STARTED = "Seats of a started game cannot be taken."

# The English phrases the checks below are given, as the values their messages select on
# (docs/i18n.md): "{doing, select, start {…} …}".
DOING = {
    "seat a bot": "seat_bot",
    "start the game": "start",
    "hand a seat to someone else": "hand_over",
}
INSTEAD = {"send the room link to take it": "link", "seat a bot in it instead": "bot"}
REFUSALS = {STARTED: "error.game_started.seats", "The game has already started.": None}


def is_host(room: RoomRow, bearer: str | None) -> bool:
    """Whether `bearer` is the room's host token or the token of its host's seat."""
    if not tokens.looks_like_token(bearer):
        return False
    assert bearer is not None
    digest = tokens.hash_token(bearer)
    if tokens.same_hash(digest, room.host_token_hash):
        return True
    return any(s.is_host and tokens.same_hash(digest, s.token_hash) for s in room.seats)


def require_host(room: RoomRow, bearer: str | None, doing: str) -> None:
    """`forbidden` (403) unless `bearer` is the host's: only the host may be `doing`."""
    if not is_host(room, bearer):
        raise ServiceError(
            "forbidden",
            f"Only the host can {doing}.",
            message=msg("error.forbidden.host", doing=DOING.get(doing, "other")),
        )


def check_name(name: str) -> str:
    """The name as it is kept: cleaned as chat cleans a name (app/play/text.py: bidi
    controls removed, trimmed, at most 24 characters); `malformed` (400) for control
    characters, line breaks or a lone surrogate, or a name that shows nothing."""
    return clean_person_name(name)


def has_bots(game: AnyGame) -> bool:
    """Whether a game has bots to seat (a game without them never seats one)."""
    return bool(game.bots) and game.think is not None


def middle_bot(levels: tuple[str, ...]) -> str:
    """The level a seat gets when nobody chose one: the middle of the game's levels (the
    lower middle of an even count), as the page's default (static/js/games.js).

    >>> middle_bot(("easy", "medium", "hard")), middle_bot(("easy", "hard"))
    ('medium', 'easy')
    """
    return levels[(len(levels) - 1) // 2]


def check_bot_level(game: AnyGame, level: str) -> None:
    """`no_bots` (400) in a game without bots; `malformed` (400) for a level it lacks."""
    if not has_bots(game):
        raise no_bots(game)
    if level not in game.bots:
        raise bad_level(game.bots)


def bad_level(levels: tuple[str, ...]) -> ServiceError:
    """`malformed` (400): a bot level the game does not have."""
    return ServiceError(
        "malformed",
        f"A bot level is one of {', '.join(levels)}.",
        message=msg("error.malformed.bot_level", levels={"list": list(levels)}),
    )


def no_bots(game: AnyGame) -> ServiceError:
    """The refusal of a bot, or of the `bot` time policy, in a game without bots."""
    return ServiceError(
        "no_bots",
        f"{game.title} has no bots yet.",
        message=msg("error.no_bots.game", game=game.title),
    )


def seat_number(room: RoomRow, number: int) -> int:
    """`malformed` (400) for a seat number the room does not have."""
    if not 0 <= number < room.players:
        raise ServiceError(
            "malformed",
            f"This room has seats 0 to {room.players - 1}.",
            message=msg("error.malformed.seat_number", last=room.players - 1),
        )
    return number


def require_open(room: RoomRow, refusal: str = STARTED) -> None:
    """`game_started` (409) once the game has started (or ended)."""
    if room.status != "open":
        key = REFUSALS.get(refusal)
        raise ServiceError(
            "game_started", refusal, message=None if key is None else msg(key)
        )


def require_not_over(room: RoomRow) -> None:
    """`game_over` (409) once the game has ended."""
    if room.status == "finished":
        raise ServiceError("game_over", "The game is over.")


def require_free(room: RoomRow, number: int | None) -> None:
    """`seat_taken` (409) when seat `number` (None: any seat) is taken."""
    if number is None:
        if len(room.seats) >= room.players:
            raise every_seat_taken()
    elif room.seat(number) is not None:
        raise that_seat_taken()


def every_seat_taken() -> ServiceError:
    return ServiceError(
        "seat_taken",
        "Every seat is already taken.",
        message=msg("error.seat_taken.every"),
    )


def that_seat_taken() -> ServiceError:
    return ServiceError(
        "seat_taken",
        "That seat is already taken.",
        message=msg("error.seat_taken.that"),
    )


def require_taken(room: RoomRow, number: int, instead: str) -> SeatRow:
    """`seat_free` (409) when nobody holds seat `number` (`instead`: what to do then)."""
    seat = room.seat(number)
    if seat is None:
        raise ServiceError(
            "seat_free",
            f"Seat {number} is free: {instead}.",
            message=msg(
                "error.seat_free.instead",
                seat=number,
                instead=INSTEAD.get(instead, "other"),
            ),
        )
    return seat


def require_full(room: RoomRow) -> None:
    """`seats_open` (409) while a seat is still free."""
    if len(room.seats) < room.players:
        free = room.players - len(room.seats)
        raise ServiceError(
            "seats_open",
            f"{free} seat(s) still free: fill them first.",
            message=msg("error.seats_open.free", free=free),
        )
