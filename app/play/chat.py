"""Table chat, the service's part (`service.chat`): who may write where, what text is
accepted, how fast, and who may read what (docs/protocol.md, "Table chat").

Two channels. `table` is written by the seated players and read by everyone in the room;
`spectators` is written by spectators and read by them, and by the players only once the
game is over (nobody advises a player during the game). The host may close the
spectators' channel. A message's text is cleaned (`clean_text`, app/play/text.py), then checked against the
limits: 5 messages per 10 s per connection (`SendWindow`, kept by the websocket session),
per seat token (counted in PostgreSQL by the store, so every instance shares it) and, for
spectators, who hold no token, 15 per 10 s per client address (in this process). Every
refusal is a `ServiceError` with a documented code, and changes nothing.

Chat is never part of a game record (app/records/ reads nothing of it).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from dataclasses import replace
from typing import Any

from app.play import tokens
from app.play.protocol import ServiceError, msg
from app.play.rooms import Rooms
from app.play.seat_checks import is_host
from app.play.text import clean_person_name, clean_text
from app.store.chat import SPECTATORS, TABLE, ChatLine, ChatStore, Page, Refused
from app.store.rows import RoomRow, SeatRow

SPECTATOR_NAME = "Spectator"
KEEP = 5_000
"""Messages kept per room; each new one beyond prunes the oldest."""
RECENT = 100
"""Messages a client gets on (re)connecting, and at most per page over HTTP."""
PER_WINDOW = 5
WINDOW_S = 10.0
SPECTATOR_ADDRESS_FACTOR = 3
"""A client address's spectators together may send this many times a connection's rate."""
ADDRESS_KEYS = 4_096
"""Client addresses whose windows are kept (each about 1.3 KiB, 5.1 MiB in all: measured
with tracemalloc), the least recently used forgotten."""


def clean_name(raw: str | None) -> str:
    """A spectator's name: cleaned as a text of at most 24 characters; none: "Spectator"."""
    if raw is None:
        return SPECTATOR_NAME
    return clean_person_name(raw)


def visible_channels(spectator: bool, finished: bool) -> tuple[str, ...]:
    """The channels a reader sees: spectators both, players the table's until the end."""
    return (TABLE, SPECTATORS) if spectator or finished else (TABLE,)


# Whose window a chat refusal counts in, for its message ("{per, select, …}").
PER_KEYS = {
    "per connection": "connection",
    "from your address": "address",
    "per seat": "seat",
}


def retry_error(wait_s: float, per: str) -> ServiceError:
    """`rate_limited` with when to retry (in the reason and as `retry_after_s`)."""
    retry = math.ceil(max(wait_s, 0.1) * 10) / 10
    return ServiceError(
        "rate_limited",
        f"At most {PER_WINDOW} chat messages in {WINDOW_S:g} s {per}; "
        f"retry in {retry:g} s.",
        extra={"retry_after_s": retry},
        message=msg(
            "error.rate_limited.chat",
            count=PER_WINDOW,
            window=WINDOW_S,
            per=PER_KEYS.get(per, "other"),
            retry=retry,
        ),
    )


class SendWindow:
    """The times of the last `count` messages accepted: another is allowed once the oldest
    of them is `seconds` old (a sliding window: never more than `count` in any `seconds`)."""

    __slots__ = ("count", "seconds", "times")

    def __init__(self, count: int = PER_WINDOW, seconds: float = WINDOW_S) -> None:
        self.count, self.seconds = count, seconds
        # Made at the first message: every websocket has a window, few of them chat (an
        # empty deque is 760 bytes).
        self.times: deque[float] | None = None

    def wait(self, now: float | None = None) -> float:
        """Seconds until a message is allowed (0: now)."""
        if self.times is None or len(self.times) < self.count:
            return 0.0
        now = time.monotonic() if now is None else now
        return max(0.0, self.times[0] + self.seconds - now)

    def record(self, now: float | None = None) -> None:
        if self.times is None:
            self.times = deque(maxlen=self.count)
        self.times.append(time.monotonic() if now is None else now)


class Windows:
    """A `SendWindow` per key (a client address), the least recently used forgotten."""

    def __init__(self, count: int, seconds: float, keys: int = ADDRESS_KEYS) -> None:
        self.count, self.seconds, self.keys = count, seconds, keys
        self._windows: OrderedDict[str, SendWindow] = OrderedDict()

    def of(self, key: str) -> SendWindow:
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = SendWindow(self.count, self.seconds)
            if len(self._windows) > self.keys:
                self._windows.popitem(last=False)
        else:
            self._windows.move_to_end(key)
        return window

    def __len__(self) -> int:
        return len(self._windows)


class Chat:
    """Sending, reading and the host's switch of table chat (`service.chat`)."""

    def __init__(
        self,
        store: ChatStore,
        rooms: Rooms,
        *,
        keep: int = KEEP,
        per_window: int = PER_WINDOW,
        window_s: float = WINDOW_S,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.keep = keep
        self.per_window, self.window_s = per_window, window_s
        self.addresses = Windows(per_window * SPECTATOR_ADDRESS_FACTOR, window_s)

    def connection_window(self) -> SendWindow:
        """The window of one websocket connection (kept by its session)."""
        return SendWindow(self.per_window, self.window_s)

    async def send(
        self,
        room_id: str,
        seat: SeatRow | None,
        *,
        channel: str | None,
        text: str,
        name: str | None = None,
        address: str | None = None,
        window: SendWindow | None = None,
    ) -> ChatLine:
        """Store a message of `seat` (None: a spectator) and hand it back, or refuse it.

        Checked in this order: the channel for the author's role (`forbidden`), the text
        and the name (`malformed`), the connection's and the address's windows
        (`rate_limited`), then in the store's transaction the spectators' switch
        (`spectator_chat_off`) and the seat token's window (`rate_limited`)."""
        spectator = seat is None
        own = SPECTATORS if spectator else TABLE
        if channel is not None and channel != own:
            raise ServiceError(
                "forbidden",
                "Spectators write in the spectators' channel."
                if spectator
                else "Players write in the table's channel; the spectators' is theirs.",
                message=msg(
                    "error.forbidden.chat_spectators"
                    if spectator
                    else "error.forbidden.chat_players"
                ),
            )
        clean = clean_text(text)
        if seat is not None:
            if name is not None:
                raise ServiceError(
                    "malformed",
                    "A player's chat name is their seat's: send no name.",
                    message=msg("error.malformed.chat_name"),
                )
            author = seat.name
        else:
            author = clean_name(name)
        if window is not None and (wait := window.wait()) > 0:
            raise retry_error(wait, "per connection")
        by_address = self.addresses.of(address) if spectator and address else None
        if by_address is not None and (wait := by_address.wait()) > 0:
            raise retry_error(wait, "from your address")
        appended = await self.store.append(
            room_id,
            channel=own,
            seat=None if seat is None else seat.seat,
            seat_id=None if seat is None else seat.id,
            name=author,
            text=clean,
            keep=self.keep,
            window=(self.per_window, self.window_s),
        )
        if isinstance(appended, Refused):
            if appended.why == "closed":
                raise ServiceError(
                    "spectator_chat_off",
                    "The host has turned spectator chat off in this room.",
                    message=msg("error.spectator_chat_off.room"),
                )
            raise retry_error(appended.retry_after_s, "per seat")
        for counted in (window, by_address):
            if counted is not None:
                counted.record()
        return appended

    async def recent(self, room_id: str, channels: tuple[str, ...]) -> Page:
        """The latest messages of `channels`, as a client gets them on connecting; a
        reader kept from the spectators' channel is told how many it holds (players know
        that spectators are chatting, and that it opens at the end, never what they say)."""
        page = await self.store.page(room_id, channels, RECENT)
        if SPECTATORS in channels:
            return page
        return replace(page, hidden=await self.store.count(room_id, SPECTATORS))

    async def page(
        self, room_id: str, token: str | None, before: int | None, limit: int = RECENT
    ) -> dict[str, Any]:
        """`GET /api/rooms/{id}/chat`: the messages the token's role may see, oldest first,
        before number `before` (None: the latest)."""
        room, seat = await self.rooms.identify(room_id, token)
        channels = visible_channels(seat is None, room.status == "finished")
        page = await self.store.page(room.id, channels, min(limit, RECENT), before)
        return {
            "messages": [line.as_dict() for line in page.lines],
            "earlier": page.earlier,
            "channels": list(channels),
        }

    async def set_spectators(
        self,
        room_id: str,
        open_: bool,
        *,
        bearer: str | None = None,
        seat: SeatRow | None = None,
    ) -> dict[str, Any]:
        """The host opens or closes the spectators' channel (`forbidden` for anyone else):
        by the host token or the host seat's over HTTP (`bearer`), or from the host seat's
        connection (`seat`)."""
        room = await self.rooms.room(room_id)
        if not self._host(room, bearer, seat):
            raise ServiceError(
                "forbidden",
                "Only the host can turn spectator chat on or off.",
                message=msg("error.forbidden.host_chat"),
            )
        await self.store.set_spectators(room.id, open_)
        return {"spectators": open_}

    @staticmethod
    def _host(room: RoomRow, bearer: str | None, seat: SeatRow | None) -> bool:
        if bearer is not None:
            return is_host(room, bearer)
        if seat is None:
            return False
        return any(
            s.id == seat.id
            and s.is_host
            and tokens.same_hash(s.token_hash, seat.token_hash)
            for s in room.seats
        )

    async def facts(self, room: RoomRow) -> dict[str, Any]:
        """The chat's part of the room status: `{"chat": {"spectators": true}}`."""
        return {"chat": {"spectators": await self.store.spectators_open(room.id)}}
