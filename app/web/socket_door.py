"""The room websocket's short way in: from the application straight to its handler.

Every HTTP request goes through the application's middleware stack: the Host check, the
security headers, the body limit, FastAPI's and Starlette's error handling, the router.
A room's websocket lives for hours, and each of those layers keeps its coroutine frame
(some a closure around `send` too) alive for as long as the socket does, and sees every
message a connection's writer sends. None of them acts on a room socket the Host check let
in: the headers and the body limit are for HTTP, the error layers only re-raise for
websockets (uvicorn closes the socket and logs the error either way), and the handler
takes no dependencies. So `Site` hands such a socket to `room_socket` itself; at 10 rooms
that was 12-14 KiB a socket less (docs/journal/benchmarks-history.md, "The serving core,
third pass").

The one layer that matters, the Host check, the door makes first, conservatively: a socket
whose Host it does not find on the allow list takes the long way, where `AllowedHosts`
decides and refuses in the documented shape. Every other websocket path and every HTTP
request take the long way too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from app.web.ws import ROOM_SOCKET_PATH, room_socket

_ROOM_SOCKET = re.compile(
    re.escape(ROOM_SOCKET_PATH).replace(re.escape("{room_id}"), "(?P<room_id>[^/]+)")
)
_PORT = re.compile(r":[0-9]*\Z")


class SocketDoor:
    """Which websocket handshakes may skip the stack: a room socket on an allowed Host."""

    def __init__(self, allowed_hosts: Iterable[str]) -> None:
        hosts = [host.lower() for host in allowed_hosts]
        self.any_host = "*" in hosts
        self.hosts = frozenset(h for h in hosts if not h.startswith("*"))
        self.suffixes = tuple(h[1:] for h in hosts if h.startswith("*."))

    def opens(self, scope: Scope) -> dict[str, str] | None:
        """The path parameters of a room socket this door lets in, else None."""
        path = scope["path"]
        root = scope.get("root_path", "")
        if root and path.startswith(root):
            path = path[len(root) :]
        match = _ROOM_SOCKET.fullmatch(path)
        if match is None or not self._host_allowed(scope):
            return None
        return {"room_id": match["room_id"]}

    def _host_allowed(self, scope: Scope) -> bool:
        if self.any_host:
            return True
        hosts = [value for name, value in scope["headers"] if name == b"host"]
        if len(hosts) != 1:
            return False  # none or several: the long way says what is wrong
        try:
            host = _PORT.sub("", hosts[0].decode("ascii")).lower()
        except UnicodeDecodeError:
            return False
        return host in self.hosts or (bool(host) and host.endswith(self.suffixes))


class Site(FastAPI):
    """The application: FastAPI, with room sockets let in by `door` when it is set."""

    door: SocketDoor | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        door = self.door
        if door is not None and scope["type"] == "websocket":
            params = door.opens(scope)
            if params is not None:
                scope["app"] = self
                scope["path_params"] = params
                await room_socket(WebSocket(scope, receive=receive, send=send))
                return
        await super().__call__(scope, receive, send)
