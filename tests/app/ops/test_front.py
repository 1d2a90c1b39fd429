"""The front of `ishtar serve --workers N` (app/ops/front.py): each connection to one worker,
a room's websockets to the room's own, the bytes it read passed on with the socket.

The workers here are this test's ends of the channels: what a worker receives is read with
`socket.recv_fds`, as app/ops/handoff.py reads it.
"""

from __future__ import annotations

import errno
import selectors
import socket
import time
from collections.abc import Callable, Iterator

import pytest

from app.ops.cli import _listen
from app.ops.front import CONNECTION, READY, Front, home_of

Clock = list[float]


class Bench:
    """A front on a fresh port with `count` workers' channels, and a way to run it."""

    def __init__(self, count: int, per_address: int = 0, max_pending: int = 64) -> None:
        self.selector = selectors.DefaultSelector()
        self.listener = _listen("127.0.0.1", 0)
        self.port = self.listener.getsockname()[1]
        self.now: Clock = [0.0]
        self.front = Front(
            self.selector,
            self.listener,
            count,
            head_timeout_s=10.0,
            per_address=per_address,
            max_pending=max_pending,
            clock=lambda: self.now[0],
        )
        self.workers: list[socket.socket] = []
        for index in range(count):
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            self.front.attach(index, ours)
            theirs.settimeout(30)
            self.workers.append(theirs)
        self.clients: list[socket.socket] = []
        self.taken = 0  # connections the workers have received

    def ready(self, *indexes: int) -> None:
        for index in indexes:
            self.workers[index].send(READY)
        self.until(lambda: set(indexes) <= set(self.front.ready))

    def until(self, done: Callable[[], bool]) -> None:
        """Run the front's turns until `done` (a hang guard of 30 s)."""
        deadline = time.monotonic() + 30
        while not done():
            assert time.monotonic() < deadline, "the front never got there"
            for key, _events in self.selector.select(0.05):
                key.data()

    def connect(self, request: bytes) -> socket.socket:
        client = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        self.clients.append(client)
        if request:
            client.sendall(request)
        return client

    def handed(self, count: int) -> list[tuple[int, bytes, socket.socket]]:
        """The next `count` connections the workers received: (worker, bytes, socket)."""
        got: list[tuple[int, bytes, socket.socket]] = []
        target = self.taken + count
        self.until(lambda: self.front.handed >= target)
        for index, worker in enumerate(self.workers):
            worker.setblocking(False)
            while True:
                try:
                    data, fds, _flags, _address = socket.recv_fds(worker, 65536, 4)
                except BlockingIOError:
                    break
                if not data and not fds:  # the front detached this worker
                    break
                assert data.startswith(CONNECTION) and len(fds) == 1
                got.append(
                    (index, data[len(CONNECTION) :], socket.socket(fileno=fds[0]))
                )
            worker.setblocking(True)
        assert len(got) == count
        self.taken += count
        return got

    def close(self) -> None:
        self.front.close()
        for index in range(len(self.workers)):
            self.front.detach(index)
        for sock in self.workers + self.clients:
            sock.close()
        self.selector.close()


@pytest.fixture
def bench() -> Iterator[Callable[..., Bench]]:
    made: list[Bench] = []

    def make(count: int, **options: int) -> Bench:
        made.append(Bench(count, **options))
        return made[-1]

    yield make
    for each in made:
        each.close()


def request(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()


def test_a_rooms_sockets_all_go_to_the_rooms_worker_and_rooms_spread(
    bench: Callable[..., Bench],
) -> None:
    front = bench(2)
    front.ready(0, 1)
    rooms = [f"r{n}" for n in range(16)]
    assert {home_of(room.encode(), 2) for room in rooms} == {0, 1}
    for room in rooms:
        for since in range(4):
            front.connect(request(f"/ws/rooms/{room}?since={since}"))
    got = front.handed(len(rooms) * 4)
    by_room: dict[str, set[int]] = {}
    for worker, head, sock in got:
        room = head.split(b" ")[1].split(b"/")[3].split(b"?")[0].decode()
        by_room.setdefault(room, set()).add(worker)
        sock.close()
    assert by_room == {room: {home_of(room.encode(), 2)} for room in rooms}


def test_other_requests_go_to_the_workers_in_turn(bench: Callable[..., Bench]) -> None:
    front = bench(2)
    front.ready(0, 1)
    seen = []
    for path in ("/", "/rooms/abc", "/static/app.js", "/readyz"):
        front.connect(request(path))
        ((worker, _head, sock),) = front.handed(1)
        seen.append(worker)
        sock.close()
    assert seen in ([0, 1, 0, 1], [1, 0, 1, 0])


def test_the_worker_gets_the_clients_socket_and_the_bytes_read(
    bench: Callable[..., Bench],
) -> None:
    front = bench(1)
    front.ready(0)
    client = front.connect(b"GET /ws/rooms/abc HTTP/1.1\r\nHo")
    ((_worker, head, sock),) = front.handed(1)
    assert head.startswith(b"GET /ws/rooms/abc HTTP/1.1\r\n")
    client.sendall(b"st: x\r\n\r\n")
    rest = b""
    sock.settimeout(30)
    while not (head + rest).endswith(b"\r\n\r\n"):
        rest += sock.recv(100)
    assert head + rest == b"GET /ws/rooms/abc HTTP/1.1\r\nHost: x\r\n\r\n"
    sock.sendall(b"hello")
    assert client.recv(5) == b"hello"
    sock.close()


def test_a_request_line_in_pieces_is_read_to_its_end(
    bench: Callable[..., Bench],
) -> None:
    front = bench(2)
    front.ready(0, 1)
    client = front.connect(b"GET /ws/ro")
    front.until(lambda: any(p.head for p in front.front.pending.values()))
    client.sendall(b"oms/r7 HTTP/1.1\r\n")
    ((worker, head, sock),) = front.handed(1)
    assert worker == home_of(b"r7", 2)
    assert head == b"GET /ws/rooms/r7 HTTP/1.1\r\n"
    sock.close()


def test_nothing_is_accepted_before_a_worker_is_ready(
    bench: Callable[..., Bench],
) -> None:
    front = bench(2)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", front.port), timeout=30)
    front.ready(1)
    front.connect(request("/ws/rooms/any"))
    ((worker, _head, sock),) = front.handed(1)
    assert worker == 1  # the one ready, whatever the room's own
    sock.close()


def test_a_room_whose_worker_has_gone_is_served_by_another(
    bench: Callable[..., Bench],
) -> None:
    front = bench(2)
    front.ready(0, 1)
    room = next(f"r{n}" for n in range(100) if home_of(f"r{n}".encode(), 2) == 0)
    front.front.detach(0)
    front.connect(request(f"/ws/rooms/{room}"))
    ((worker, _head, sock),) = front.handed(1)
    assert worker == 1
    sock.close()


def test_a_connection_with_no_request_line_in_time_is_closed(
    bench: Callable[..., Bench],
) -> None:
    front = bench(1)
    front.ready(0)
    client = front.connect(b"GET /")
    front.until(lambda: any(p.head for p in front.front.pending.values()))
    assert front.front.expire() == pytest.approx(10.0)
    front.now[0] = 10.0
    assert front.front.expire() is None
    assert client.recv(10) == b""  # closed, nothing answered
    assert front.front.pending == {} and front.front.by_address == {}
    assert front.front.handed == 0


def test_past_the_bounds_connections_are_handed_unread(
    bench: Callable[..., Bench],
) -> None:
    """A client address holds at most `per_address` waiting connections: more go unread to
    a worker, whose guard counts them."""
    front = bench(1, per_address=2)
    front.ready(0)
    first = [front.connect(b"") for _ in range(2)]
    front.until(lambda: len(front.front.pending) == 2)
    front.connect(b"")
    ((_worker, head, sock),) = front.handed(1)
    assert head == b""
    assert len(front.front.pending) == 2
    sock.close()
    first[0].sendall(request("/"))
    front.handed(1)  # a waiting one is handed once its line comes
    assert len(front.front.pending) == 1


def test_a_client_gone_before_its_request_line_is_forgotten(
    bench: Callable[..., Bench],
) -> None:
    front = bench(1)
    front.ready(0)
    client = front.connect(b"")
    front.until(lambda: len(front.front.pending) == 1)
    client.close()
    front.until(lambda: not front.front.pending)
    assert front.front.by_address == {} and front.front.handed == 0


class OutOfDescriptors:
    """A listening socket whose accept fails as at the process's descriptor limit."""

    def __init__(self, real: socket.socket) -> None:
        self.real = real
        self.calls = 0

    def fileno(self) -> int:
        return self.real.fileno()

    def accept(self) -> tuple[socket.socket, object]:
        self.calls += 1
        raise OSError(errno.EMFILE, "Too many open files")

    def listen(self, backlog: int) -> None:
        self.real.listen(backlog)

    def setblocking(self, flag: bool) -> None:
        self.real.setblocking(flag)

    def close(self) -> None:
        self.real.close()


def test_out_of_descriptors_accepting_pauses_then_resumes(
    bench: Callable[..., Bench],
) -> None:
    """A listener that fails to accept stays readable: the front stops accepting for a
    while instead of failing again at every turn, and the kernel's queue holds the rest."""
    front = bench(1)
    front.ready(0)
    failing = OutOfDescriptors(front.listener)
    front.front.listener = failing  # type: ignore[assignment]
    front.connect(request("/"))
    front.until(lambda: front.front.paused_until is not None)
    assert failing.calls == 1 and not front.front.accepting
    assert front.front.expire() == pytest.approx(1.0)
    front.front.listener = front.listener
    front.now[0] = 1.0
    assert front.front.expire() is None and front.front.accepting
    ((_worker, head, sock),) = front.handed(1)  # the one the queue held
    assert head == request("/")
    sock.close()
