"""What `ishtar serve` does at the network's edge, on real servers over real TCP.

- forwarded headers (X-Forwarded-For) believed only from the proxies named in
  ISHTAR_FORWARDED_ALLOW_IPS, never from loopback by default;
- connections that never finish their request head closed after ISHTAR_HEADER_TIMEOUT_S;
- at most ISHTAR_CONNECTIONS_PER_ADDRESS connections per client address;
- descriptors kept free for the database when the descriptor limit is low.

Half-finished requests come from raw sockets. Nothing here measures time: each test waits
for the server to act (a generous bound only stops a broken server from hanging the suite).
The loopback range is all ours: other client addresses are 127.0.0.2, 127.0.0.3, ...
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import selectors
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest

from tests.support.live import LiveServer

pytestmark = pytest.mark.slow

HALF_A_HEAD = b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n"
BOUND_S = 60.0  # how long a broken server may keep the test waiting


def _half_open(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A connection from `source` that sent half a request head and will send no more."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(HALF_A_HEAD)
    return sock


def _answers(
    sockets: list[socket.socket], count: int, tick: Callable[[], None] | None = None
) -> dict[socket.socket, bytes]:
    """Wait until `count` of `sockets` were closed by the server; what each got before EOF.

    `tick` is called between looks (every 0.3 s at most), for a client that trickles.
    """
    got: dict[socket.socket, bytes] = dict.fromkeys(sockets, b"")
    closed: dict[socket.socket, bytes] = {}
    with selectors.DefaultSelector() as selector:
        for sock in sockets:
            selector.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + BOUND_S
        while len(closed) < count and time.monotonic() < deadline:
            if tick is not None:
                tick()
            for key, _ in selector.select(timeout=0.3):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    chunk = sock.recv(4096)
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    got[sock] += chunk
                else:
                    selector.unregister(sock)
                    closed[sock] = got[sock]
    return closed


def _still_open(sock: socket.socket) -> bool:
    """True if the server has neither answered nor closed `sock` (a non-blocking peek)."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    finally:
        sock.setblocking(True)
    return False


def _get(url: str, source: str = "127.0.0.1") -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as client:
        return client.get(url)


@contextmanager
def _closing(sockets: list[socket.socket]) -> Iterator[list[socket.socket]]:
    with ExitStack() as stack:
        for sock in sockets:
            stack.enter_context(sock)
        yield sockets


# -- forwarded headers ----------------------------------------------------------------------


def _create_rooms(url: str, forwarded_for: list[str]) -> list[int]:
    with httpx.Client(base_url=url, timeout=10) as client:
        return [
            client.post(
                "/api/rooms", json={"players": 2}, headers={"X-Forwarded-For": address}
            ).status_code
            for address in forwarded_for
        ]


def test_forwarded_for_from_loopback_is_not_believed_by_default(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    """Issue 13's attack: 40 creations from 127.0.0.1, each "forwarded for" another address."""
    server = live_server_factory(
        database_url=database_url, env={"ISHTAR_ROOMS_PER_MINUTE": "3"}
    )
    forged = [f"198.51.100.{n}" for n in range(1, 6)]
    assert _create_rooms(server.url, forged) == [201, 201, 201, 429, 429]


def test_forwarded_for_is_believed_from_a_named_proxy_which_is_not_capped(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(
        database_url=database_url,
        env={
            "ISHTAR_ROOMS_PER_MINUTE": "3",
            "ISHTAR_FORWARDED_ALLOW_IPS": "127.0.0.1",
            "ISHTAR_CONNECTIONS_PER_ADDRESS": "2",
            "ISHTAR_HEADER_TIMEOUT_S": "600",
        },
    )
    clients = [f"198.51.100.{n}" for n in range(1, 6)]
    assert _create_rooms(server.url, clients) == [201] * 5
    one = ["203.0.113.7"] * 4
    assert _create_rooms(server.url, one) == [201, 201, 201, 429]
    # A proxy carries many clients (and caps each itself): its connections are not capped;
    # another address is.
    with _closing([_half_open(server.port) for _ in range(5)]):
        assert _get(f"{server.url}/readyz").status_code == 200
        capped = [_half_open(server.port, source="127.0.0.2") for _ in range(3)]
        with _closing(capped):
            answers = _answers(capped, 1)
            assert next(iter(answers.values())).startswith(b"HTTP/1.1 429 ")


# -- slow clients ---------------------------------------------------------------------------


def test_connections_that_never_finish_their_head_are_closed(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(
        database_url=database_url, env={"ISHTAR_HEADER_TIMEOUT_S": "1"}
    )
    silent = socket.create_connection(
        ("127.0.0.1", server.port)
    )  # sends nothing at all
    halves = [_half_open(server.port) for _ in range(30)]
    # A keep-alive connection whose second request never ends, though bytes keep coming.
    reused = socket.create_connection(("127.0.0.1", server.port))
    reused.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    first = b""
    while b'{"status":"ok"}' not in first:
        first += reused.recv(4096)
    reused.sendall(b"GET /healthz HTTP/1.1\r\n")

    def trickle() -> None:  # a header line now and then, as a slowloris client does
        with contextlib.suppress(OSError):  # closed by the server: _answers sees EOF
            reused.sendall(b"X-Slow: 1\r\n")

    with _closing([silent, reused, *halves]) as sockets:
        closed = _answers(sockets, len(sockets), tick=trickle)
        assert set(closed) == set(sockets)  # every one closed by the server, no answer
        assert all(answer == b"" for answer in closed.values())
    assert _get(f"{server.url}/readyz").status_code == 200


def test_an_idle_keep_alive_connection_is_closed_after_the_clients_stop_reusing_it(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    """ISHTAR_KEEP_ALIVE_S reaches uvicorn: an idle connection is closed by the server, and
    not before the setting's seconds (6 here, longer than uvicorn's own 5 s), counted from
    before the request was sent (the server's count starts after its response)."""
    server = live_server_factory(
        database_url=database_url,
        env={"ISHTAR_KEEP_ALIVE_S": "6", "ISHTAR_HEADER_TIMEOUT_S": "600"},
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as idle:
        sent = time.monotonic()
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while b'{"status":"ok"}' not in answer:
            answer += idle.recv(4096)
        assert idle.recv(4096) == b""  # the server's close: EOF, nothing more
        assert time.monotonic() - sent >= 6


def test_one_address_holds_at_most_its_share_and_readyz_still_answers(
    database_url: str, live_server_factory: Callable[..., LiveServer]
) -> None:
    server = live_server_factory(
        database_url=database_url,
        env={"ISHTAR_CONNECTIONS_PER_ADDRESS": "8", "ISHTAR_HEADER_TIMEOUT_S": "600"},
    )
    held = [_half_open(server.port) for _ in range(8)]
    refused = [_half_open(server.port) for _ in range(32)]
    with _closing(held + refused):
        answers = _answers(refused, len(refused))
        assert len(answers) == len(refused)
        assert all(
            a.startswith(b"HTTP/1.1 429 Too Many Requests\r\n")
            for a in answers.values()
        )
        assert all(_still_open(sock) for sock in held)
        # Another address is served, and the health probe answers.
        ready = _get(f"{server.url}/readyz", source="127.0.0.2")
        assert ready.status_code == 200, ready.text
    # Once the eight are closed, the address is served again.
    deadline = time.monotonic() + BOUND_S
    while _status_or_refused(f"{server.url}/readyz") != 200:
        assert time.monotonic() < deadline, "the address never got its slots back"
        time.sleep(0.1)


def _status_or_refused(url: str) -> int:
    try:
        return _get(url).status_code
    except httpx.HTTPError:
        return 0


# -- descriptors ----------------------------------------------------------------------------

NOFILE = 256


def _limit_descriptors() -> None:
    """In the server's process before it runs: the hard limit a small host would set."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))


@pytest.fixture
def limited_server(database_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    """`ishtar serve` with a hard limit of `NOFILE` descriptors."""
    server = LiveServer(
        tmp_path / "limited.log",
        preexec_fn=_limit_descriptors,
        database_url=database_url,
        env={"ISHTAR_CONNECTIONS_PER_ADDRESS": "0", "ISHTAR_HEADER_TIMEOUT_S": "600"},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_client_connections_leave_the_reserved_descriptors_free(
    limited_server: LiveServer,
) -> None:
    assert limited_server.process is not None
    pid = limited_server.process.pid
    sockets = [_half_open(limited_server.port) for _ in range(NOFILE)]
    with _closing(sockets):
        # A connection after all of them is answered (here: refused, the server is full),
        # so the server still accepts, and has dealt with every one before it.
        probe = socket.create_connection(("127.0.0.1", limited_server.port))
        with probe:
            probe.sendall(b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answered = _answers([probe], 1)
        assert answered, "the server answered nothing once its descriptors ran out"
        assert next(iter(answered.values())).startswith(b"HTTP/1.1 503 ")
        match = re.search(r"up to (\d+) client connections", limited_server.log())
        assert match, limited_server.log()
        capacity = int(match.group(1))
        assert 0 < capacity < NOFILE - 100
        refused = _answers(sockets, NOFILE - capacity)
        assert len(refused) == NOFILE - capacity
        assert all(a.startswith(b"HTTP/1.1 503 ") for a in refused.values())
        held = [sock for sock in sockets if sock not in refused]
        assert all(_still_open(sock) for sock in held)
        # The server holds `capacity` of them, and 100 descriptors (ISHTAR_RESERVED_FDS)
        # stay free for its database connections.
        in_use = len(os.listdir(f"/proc/{pid}/fd"))
        print(
            f"capacity {capacity}, refused {len(refused)}, descriptors in use {in_use}"
        )
        assert in_use <= NOFILE - 100
    deadline = time.monotonic() + BOUND_S
    while _status_or_refused(f"{limited_server.url}/readyz") != 200:
        assert time.monotonic() < deadline, "the server never recovered"
        time.sleep(0.1)
