"""The other server instances on this database, and the rooms each serves, as heard through
LISTEN/NOTIFY.

A notice of a move is only worth its statement when another instance serves the room (holds
a websocket of it): a single instance (the default, embedded set-up) sends none, and with
`--workers N`, where each room's sockets meet on one worker, nearly none are sent either.
Instances tell each other about themselves on the same channel as the room notices
(app/notices/listener.py):

- ``<instance> h 0`` — hello: sent each time an instance's listener (re)connects, followed
  by the rooms it serves and a here. Every other instance forgets what it knew of the
  newcomer's rooms and answers with the same: the rooms it serves, then a here;
- ``<room> s 1 <instance>`` — the instance serves the room from now on (its first
  websocket there); ``<room> s 0 <instance>``: no longer (its last one closed);
- ``<instance> i <n>`` — here, with `n` = 1 + the number of rooms the instance serves:
  after its list, and every heartbeat (app/ops/runtime.py). An instance that says 0 (a
  version before targeted notices) is sent every move;
- ``<instance> b 0`` — bye: sent on a clean shutdown.

One instance's notices arrive in the order it sent them (one announcer, one statement in
flight), so the count in a here checks the rooms heard since its hello: while they differ
(the newcomer's list still on its way, or a notice missed), that instance is sent every
move, and a here that disagrees asks for the lists again (a hello, at most once per
`expire_s`).

An instance not heard from for `expire_s` is forgotten with its rooms (killed, or cut off).
Notices are a shortcut, never the only way: each instance also reads the versions of its
rooms from the database every heartbeat, and of a room it starts to serve a second after
(app/live/hub.py), so a notice skipped in the moment an instance appears, vanishes or takes
up a room costs a moment of delay, never a lost move.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Collection

from app.store.channel import PEER_KINDS, NoticeKind, notice

log = logging.getLogger("ishtar.peers")

HELLO, HERE, BYE, SERVE = (
    NoticeKind.HELLO,
    NoticeKind.HERE,
    NoticeKind.BYE,
    NoticeKind.SERVE,
)
KINDS = PEER_KINDS

Say = Callable[[str], None]  # queue a notice for sending (the announcer)


def peer_notice(instance: str, kind: NoticeKind, number: int = 0) -> str:
    """The payload of a notice about an instance (the room notices' format).

    >>> peer_notice("4f2a9c0d1e2b3a4c", NoticeKind.HELLO)
    '4f2a9c0d1e2b3a4c h 0'
    >>> peer_notice("4f2a9c0d1e2b3a4c", NoticeKind.HERE, 3)
    '4f2a9c0d1e2b3a4c i 3'
    """
    return f"{instance} {kind.value} {number}"


def serve_notice(instance: str, room_id: str, serving: bool) -> str:
    """The payload of a notice that an instance took up (or left) a room.

    >>> serve_notice("4f2a9c0d1e2b3a4c", "kR3v_x9QmB2a", True)
    'kR3v_x9QmB2a s 1 4f2a9c0d1e2b3a4c'
    """
    return notice(room_id, SERVE, 1 if serving else 0, instance)


class Peers:
    """Which other instances listen, by the time each was last heard, and which rooms each
    serves."""

    def __init__(
        self,
        instance: str,
        say: Say,
        *,
        expire_s: float = 35.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.instance = instance
        self.say = say
        self.expire_s = expire_s
        self.clock = clock
        self.rooms: Callable[[], Collection[str]] = tuple
        """The rooms this instance serves (the hub's, set once it exists)."""
        self._heard: dict[str, float] = {}
        self._rooms_of: dict[str, set[str]] = {}
        self._serving: dict[str, set[str]] = {}
        """Room → the other instances that serve it."""
        self._unsure: set[str] = set()
        """Instances whose rooms are not known (yet): every move is theirs."""
        self._asked_at: float | None = None
        self._gone = False  # said bye: nothing more to tell

    def any(self) -> bool:
        """Whether another instance may be listening (the expired are forgotten here)."""
        if not self._heard:
            return False
        now = self.clock()
        for instance, at in list(self._heard.items()):
            if now - at > self.expire_s:
                self._forget(instance)
                log.info("instance %s not heard from; forgotten", instance)
        return bool(self._heard)

    def wants(self, room_id: str) -> bool:
        """Whether a move in `room_id` is worth a notice: another instance serves the room,
        or one may (its rooms not known)."""
        if not self.any():
            return False
        return bool(self._unsure) or room_id in self._serving

    def heard(
        self,
        instance: str,
        kind: NoticeKind,
        number: int = 0,
        room_id: str | None = None,
    ) -> None:
        """A notice about an instance arrived (our own come back too: ignored). For a
        `SERVE` notice, `room_id` is the room and `instance` the one that serves it."""
        if instance == self.instance:
            return
        if kind == BYE:
            self._forget(instance)
            return
        if instance not in self._heard:
            log.info("instance %s is listening too", instance)
            self._unsure.add(instance)
            self._rooms_of[instance] = set()
        self._heard[instance] = self.clock()
        if kind == HELLO:
            self._drop_rooms(instance)
            self._unsure.add(instance)
            self._tell()
        elif kind == SERVE and room_id is not None:
            self._served(instance, room_id, number == 1)
        elif kind == HERE:
            self._count(instance, number)

    def hello(self) -> None:
        """Our listener is (again) listening: ask the others to say who they are and what
        they serve (what we knew of them may be stale: until they have said it, every move
        is theirs), and tell ours."""
        self._asked_at = self.clock()
        for instance in self._heard:
            self._drop_rooms(instance)
            self._unsure.add(instance)
        self.say(peer_notice(self.instance, HELLO))
        self._tell()

    def here(self) -> None:
        self.say(peer_notice(self.instance, HERE, 1 + len(self.rooms())))

    def bye(self) -> None:
        self._gone = True
        self.say(peer_notice(self.instance, BYE))

    def serving(self, room_id: str, serving: bool) -> None:
        """This instance took up a room, or left it (the hub): told to the others, if any
        listens (one who comes later hears our list after its hello); nothing once we
        said bye (the rooms a stopping instance closes)."""
        if self._heard and not self._gone:
            self.say(serve_notice(self.instance, room_id, serving))

    # --- what we know ------------------------------------------------------------------------

    def _tell(self) -> None:
        """Our rooms, then a here that counts them."""
        rooms = self.rooms()
        for room_id in rooms:
            self.say(serve_notice(self.instance, room_id, True))
        self.say(peer_notice(self.instance, HERE, 1 + len(rooms)))

    def _served(self, instance: str, room_id: str, serving: bool) -> None:
        rooms = self._rooms_of.setdefault(instance, set())
        if serving:
            rooms.add(room_id)
            self._serving.setdefault(room_id, set()).add(instance)
            return
        rooms.discard(room_id)
        self._unserve(instance, room_id)

    def _count(self, instance: str, number: int) -> None:
        """A here: the instance serves `number` - 1 rooms (0: it does not say)."""
        if number >= 1 and len(self._rooms_of.get(instance, ())) == number - 1:
            self._unsure.discard(instance)
            return
        self._unsure.add(instance)
        if number == 0:
            return  # a version that does not tell its rooms: sent every move
        now = self.clock()
        if self._asked_at is None or now - self._asked_at > self.expire_s:
            # Its count and what we heard differ: have every instance say its rooms again.
            log.info("rooms of instance %s not as counted; asking again", instance)
            self.hello()

    def _drop_rooms(self, instance: str) -> None:
        for room_id in self._rooms_of.get(instance, set()):
            self._unserve(instance, room_id)
        self._rooms_of[instance] = set()

    def _unserve(self, instance: str, room_id: str) -> None:
        """`instance` no longer among the room's other servers."""
        others = self._serving.get(room_id)
        if others is not None:
            others.discard(instance)
            if not others:
                del self._serving[room_id]

    def _forget(self, instance: str) -> None:
        self._drop_rooms(instance)
        self._rooms_of.pop(instance, None)
        self._heard.pop(instance, None)
        self._unsure.discard(instance)
