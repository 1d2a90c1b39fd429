"""Wire messages in: what clients may send (validated with pydantic), and the refusals.

The shapes are documented in docs/protocol.md; this module is the single definition on the
server of what clients send. Client input is parsed strictly (unknown fields refused, sizes
bounded) so a bad message becomes a `ServiceError` with a stable code, never an exception
deeper in. What the server sends is built by app/live/messages.py, on `dumps` below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    ValidationError,
)

from app.store.pool import unreachable

# --- errors ---------------------------------------------------------------------------------

HTTP_STATUS = {
    "malformed": 400,
    "unknown_type": 400,
    "hello_required": 400,
    "malformed_action": 400,
    "bad_token": 401,
    "forbidden": 403,
    "unknown_room": 404,
    "seat_taken": 409,
    "move_id_taken": 409,
    "game_started": 409,
    "seats_open": 409,
    "game_not_started": 409,
    "game_over": 409,
    "stale_version": 409,
    "not_your_turn": 409,
    "too_large": 413,
    "illegal_move": 422,
    "rate_limited": 429,
    "internal": 500,
    "unavailable": 503,
    "bad_webhook": 400,
    "seat_free": 409,
    "unknown_record": 404,
    "no_such_move": 404,
    "game_not_over": 409,
    "bad_record": 422,
    "bad_options": 400,
    "unknown_game": 404,
    "too_many_bot_rooms": 429,
    "no_bots": 400,
    "spectator_chat_off": 403,
    "unknown_language": 404,
    "bad_push_endpoint": 400,
    "bad_push_keys": 400,
    "too_many_subscriptions": 429,
    "bad_email": 400,
    "mail_off": 404,
    "mail_failed": 502,
    "bad_away": 400,
    "bad_link": 400,
    "too_many_analyses": 429,
    "no_analysis": 404,
    # Refused before any route runs (app/web/errors.py, app/web/security.py,
    # app/ops/connection_guard.py).
    "not_found": 404,
    "method_not_allowed": 405,
    "bad_host": 400,
    "head_too_large": 431,
}


@dataclass
class ServiceError(Exception):
    """A refused request: a stable `code`, a readable `reason`, and optional context.

    `extra` carries what helps the client recover (for `stale_version`: the version, the
    missed events, the fresh view and legal actions). `message` is the reason as a message
    for the client to render in the reader's language (docs/i18n.md): a key and params,
    sent next to the English `reason` when the refusal has one.
    """

    code: str
    reason: str
    version: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    message: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        super().__init__(self.reason)

    @property
    def status(self) -> int:
        return HTTP_STATUS.get(self.code, 400)

    def body(self) -> dict[str, Any]:
        """The HTTP error body: {"error": {code, reason, version?, ...}}."""
        error: dict[str, Any] = {"code": self.code, "reason": self.reason}
        if self.message is not None:
            error["message"] = self.message
        if self.version is not None:
            error["version"] = self.version
        error.update(self.extra)
        return {"error": error}


def msg(key: str, **params: Any) -> dict[str, Any]:
    """A refusal's `message` (docs/i18n.md): catalogue `key` with `params`, which the
    client renders in the reader's language (keys in static/i18n/*.json)."""
    return {"key": key, "params": params}


def describe_errors(errors: Sequence[Mapping[str, Any]]) -> str:
    """One readable sentence from pydantic's errors (the first problem only)."""
    if not errors:
        return "The request is malformed."
    first = errors[0]
    if first.get("type") == "json_invalid":
        return "The body is not valid JSON."
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = str(first.get("msg", "invalid"))
    return f"{where}: {message}" if where else message


def describe_validation(exc: ValidationError) -> str:
    return describe_errors(exc.errors())


def validation_message(errors: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """`describe_errors` as a message: what is wrong and in which field (pydantic's own
    detail stays in the English reason). None when there is nothing to name."""
    if not errors:
        return None
    first = errors[0]
    kind = first.get("type")
    if kind == "json_invalid":
        return msg("error.malformed.body_not_json")
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    if not where:
        return None
    if kind == "missing":
        return msg("error.malformed.missing", field=where[:64])
    return msg("error.malformed.field", field=where[:64])


def unavailable(exc: BaseException) -> bool:
    """Whether an exception means the database cannot be reached (retry later: 503).

    The store knows its driver's errors (app/store/pool.py, `unreachable`)."""
    return unreachable(exc)


# --- inputs ---------------------------------------------------------------------------------


def _printable(value: str) -> str:
    """A move_id is stored as text in PostgreSQL, which cannot hold NUL; no control
    character has a use in an id, so all are refused with a reason (never a 500)."""
    if any(ch < " " or "\x7f" <= ch < "\xa0" for ch in value):
        raise ValueError("control characters (such as NUL) are not allowed")
    return value


MoveId = Annotated[
    str, StringConstraints(min_length=1, max_length=64), AfterValidator(_printable)
]
Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=False)


class TimeControl(Strict):
    """A room's per-move deadline and what happens when it passes (docs/async-play.md)."""

    per_move_s: int = Field(ge=1, le=30 * 24 * 3600)
    policy: Literal["wait", "bot"] = "wait"
    bot: str | None = Field(default=None, min_length=1, max_length=16)
    """The level of the bot that moves for a late seat (None: the game's weakest)."""


GameId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{0,31}$")]
MAX_OPTION_FIELDS = 32
"""More options than any game has: a bound on what a body's options may hold."""


class CreateRoom(BaseModel):
    """Body of POST /api/rooms: a game (the default one if none) and its options.

    Fields this model does not name are options of the game given at the top level, as
    clients sent the options of the one game there was before rooms had games; the game's
    options model refuses the ones it does not know (`bad_options`).
    """

    model_config = ConfigDict(extra="allow", strict=False)

    game: GameId | None = None
    players: int = Field(ge=1, le=8)
    options: dict[str, Any] | None = None
    seat_order: Literal["random", "fixed"] = "random"
    name: Name | None = None
    time_control: TimeControl | None = None

    def all_options(self) -> dict[str, Any]:
        """The options, from `options` and from the top level (not both)."""
        loose = dict(self.model_extra or {})
        if loose and self.options is not None:
            raise ServiceError(
                "malformed",
                f"Unknown field {sorted(loose)[0]!r}: options go in 'options'.",
                message=msg("error.malformed.loose_option", field=sorted(loose)[0]),
            )
        options = self.options if self.options is not None else loose
        if len(options) > MAX_OPTION_FIELDS:
            raise ServiceError(
                "bad_options",
                "Too many options.",
                message=msg("error.bad_options.too_many"),
            )
        return options


class JoinSeat(Strict):
    """Body of POST /api/rooms/{id}/seats."""

    name: Name
    seat: int | None = Field(default=None, ge=0, le=3)


class MoveRequest(Strict):
    """Body of POST /api/rooms/{id}/moves (and the fields of a websocket `move`)."""

    move: dict[str, Any]
    expected_version: int = Field(ge=0)
    move_id: MoveId


class Hello(Strict):
    type: Literal["hello"]
    token: Token | None = None
    since: int | None = Field(default=None, ge=0)


class MoveMessage(MoveRequest):
    type: Literal["move"]


class Ping(Strict):
    type: Literal["ping"]


class ChatSay(Strict):
    """A chat message (docs/protocol.md, "Table chat"): the text is cleaned and limited by
    app/play/chat.py; the bound here only keeps a frame's text reasonable."""

    type: Literal["chat"]
    channel: Literal["table", "spectators"] | None = None
    text: Annotated[str, StringConstraints(max_length=4000)]
    name: Annotated[str, StringConstraints(max_length=200)] | None = None


class ChatSettings(Strict):
    """The host opens or closes the spectators' chat channel."""

    type: Literal["chat_settings"]
    spectators: StrictBool


ClientMessage = Hello | MoveMessage | Ping | ChatSay | ChatSettings
_CLIENT_TYPES: dict[str, type[ClientMessage]] = {
    "hello": Hello,
    "move": MoveMessage,
    "ping": Ping,
    "chat": ChatSay,
    "chat_settings": ChatSettings,
}


def parse_client_message(text: str) -> ClientMessage:
    """A websocket frame as one of the client messages, or a ServiceError saying why not."""
    try:
        data = orjson.loads(text)
    except ValueError:
        raise ServiceError(
            "malformed",
            "The message is not valid JSON.",
            message=msg("error.malformed.not_json"),
        ) from None
    if not isinstance(data, dict):
        raise ServiceError(
            "malformed",
            "A message must be a JSON object.",
            message=msg("error.malformed.not_object"),
        )
    kind = data.get("type")
    model = _CLIENT_TYPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ServiceError(
            "unknown_type",
            f"Unknown message type {kind!r}; expected hello, move, ping, chat"
            " or chat_settings.",
            message=msg("error.unknown_type.type", type=str(kind)),
        )
    try:
        message: ClientMessage = model.model_validate(data)
    except ValidationError as exc:
        raise ServiceError(
            "malformed",
            describe_validation(exc),
            message=validation_message(exc.errors()),
        ) from None
    return message


# --- JSON -----------------------------------------------------------------------------------


def dumps(value: Any) -> str:
    """Compact JSON, UTF-8 characters kept as they are (orjson: ten times the stdlib's speed
    on views, which are most of what the server sends). Keys that are not strings (a seat
    number) are written as strings; orjson's option for them halves its speed on every
    dict, so it is asked for only by a value that has such a key.

    >>> dumps({"seat": 1, 2: ["é"]})
    '{"seat":1,"2":["é"]}'
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
