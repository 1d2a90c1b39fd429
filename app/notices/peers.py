"""The other server instances on this database, as heard through LISTEN/NOTIFY.

A notice of a move is only worth its statement when another instance listens: a single
instance (the default, embedded set-up) sends none. Instances tell each other about
themselves on the same channel as the room notices (app/notices/listener.py), with the instance id in
the room field:

- ``<instance> h 0`` — hello: sent each time an instance's listener (re)connects. Every
  other instance notes it and answers with
- ``<instance> i 0`` — here: also sent by each instance every heartbeat (app/ops/runtime.py);
- ``<instance> b 0`` — bye: sent on a clean shutdown.

An instance not heard from for `expire_s` is forgotten (killed, or cut off). Notices are a
shortcut, never the only way: each instance also reads the versions of its rooms from the
database every heartbeat, so a notice skipped in the moment an instance appears or vanishes
costs at most a heartbeat of delay, never a lost move.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from app.store.channel import PEER_KINDS, NoticeKind

log = logging.getLogger("ishtar.peers")

HELLO, HERE, BYE = NoticeKind.HELLO, NoticeKind.HERE, NoticeKind.BYE
KINDS = PEER_KINDS

Say = Callable[[str], None]  # queue a notice for sending (the announcer)


def peer_notice(instance: str, kind: NoticeKind) -> str:
    """The payload of a notice about an instance (the room notices' format).

    >>> peer_notice("4f2a9c0d1e2b3a4c", NoticeKind.HELLO)
    '4f2a9c0d1e2b3a4c h 0'
    """
    return f"{instance} {kind.value} 0"


class Peers:
    """Which other instances listen, by the time each was last heard."""

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
        self._heard: dict[str, float] = {}

    def any(self) -> bool:
        """Whether another instance may be listening (the expired are forgotten here)."""
        if not self._heard:
            return False
        now = self.clock()
        for instance, at in list(self._heard.items()):
            if now - at > self.expire_s:
                del self._heard[instance]
                log.info("instance %s not heard from; forgotten", instance)
        return bool(self._heard)

    def heard(self, instance: str, kind: NoticeKind) -> None:
        """A notice about an instance arrived (our own come back too: ignored)."""
        if instance == self.instance:
            return
        if kind == BYE:
            self._heard.pop(instance, None)
            return
        if instance not in self._heard:
            log.info("instance %s is listening too", instance)
        self._heard[instance] = self.clock()
        if kind == HELLO:
            self.say(peer_notice(self.instance, HERE))

    def hello(self) -> None:
        """Our listener is (again) listening: ask the others to say who they are."""
        self.say(peer_notice(self.instance, HELLO))

    def here(self) -> None:
        self.say(peer_notice(self.instance, HERE))

    def bye(self) -> None:
        self.say(peer_notice(self.instance, BYE))
