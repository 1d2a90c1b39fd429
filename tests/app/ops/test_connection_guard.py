"""The connection budget of `ishtar serve` (app/ops/connection_guard.py), without a server.

The live behaviour (deadlines, refusals over TCP, descriptors) is in tests/security/test_edge.py.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import resource

import pytest

from app.ops import connection_guard
from app.ops.connection_guard import (
    BUSY,
    TOO_MANY,
    ConnectionBudget,
    open_descriptors,
    raise_descriptor_limit,
)
from app.play.protocol import HTTP_STATUS


class Transport(asyncio.BaseTransport):
    """A stand-in: the budget only keys on the transport's identity."""


def _budget(
    capacity: int, per_address: int, exempt: tuple[str, ...] = ()
) -> ConnectionBudget:
    budget = ConnectionBudget(
        limit=10_000,
        reserved=0,
        per_address=per_address,
        exempt=[ipaddress.ip_network(e) for e in exempt],
    )
    budget.capacity = capacity
    return budget


def test_an_address_gets_its_share_and_another_address_still_gets_in() -> None:
    budget = _budget(capacity=100, per_address=2)
    assert budget.admit(Transport(), "203.0.113.1") is None
    assert budget.admit(Transport(), "203.0.113.1") is None
    assert budget.admit(Transport(), "203.0.113.1") == TOO_MANY
    assert budget.admit(Transport(), "203.0.113.2") is None
    assert budget.refused == {"capacity": 0, "per_address": 1}
    assert budget.open == 3


def test_an_ipv6_client_is_counted_by_its_slash_64() -> None:
    budget = _budget(capacity=100, per_address=2)
    assert budget.admit(Transport(), "2001:db8:0:1::1") is None
    assert budget.admit(Transport(), "2001:db8:0:1::2") is None
    assert budget.admit(Transport(), "2001:db8:0:1:ffff::3") == TOO_MANY
    assert budget.admit(Transport(), "2001:db8:0:2::1") is None


def test_a_closed_connection_gives_its_slot_back_once() -> None:
    budget = _budget(capacity=2, per_address=0)
    first, second = Transport(), Transport()
    assert budget.admit(first, "203.0.113.1") is None
    assert budget.admit(second, "203.0.113.2") is None
    assert budget.admit(Transport(), "203.0.113.3") == BUSY
    budget.release(first)
    budget.release(first)  # the HTTP and the websocket protocol may both release
    assert budget.open == 1
    assert budget.held_by("203.0.113.1") == 0
    assert budget.admit(Transport(), "203.0.113.3") is None
    assert budget.admit(Transport(), "203.0.113.4") == BUSY


def test_trusted_proxies_are_not_capped_per_address() -> None:
    budget = _budget(capacity=100, per_address=1, exempt=("172.30.37.0/24",))
    for _ in range(5):
        assert budget.admit(Transport(), "172.30.37.10") is None
    assert budget.admit(Transport(), "172.30.38.1") is None
    assert budget.admit(Transport(), "172.30.38.1") == TOO_MANY


def test_the_capacity_is_measured_at_the_first_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connection_guard, "open_descriptors", lambda: 41)
    budget = ConnectionBudget(limit=256, reserved=110, per_address=0)
    assert budget.capacity is None
    budget.admit(Transport(), "203.0.113.1")
    assert budget.capacity == 256 - 40 - 110  # the first connection itself not counted


def test_the_soft_descriptor_limit_is_raised_to_the_hard_one() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        raised = raise_descriptor_limit()
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == raised
        if hard == resource.RLIM_INFINITY:
            assert raised > 256
        else:
            assert raised == hard
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert open_descriptors() > 2


@pytest.mark.parametrize(
    ("refusal", "status", "code"),
    [
        (BUSY, 503, "unavailable"),
        (TOO_MANY, 429, "rate_limited"),
        (connection_guard.HEAD_TOO_LARGE, 431, "head_too_large"),
        (connection_guard.UNPARSABLE, 400, "malformed"),
    ],
)
def test_each_refusal_is_an_error_in_the_documented_shape(
    refusal: bytes, status: int, code: str
) -> None:
    head, _, body = refusal.partition(b"\r\n\r\n")
    lines = head.decode("ascii").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} ")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    assert headers["connection"] == "close"
    assert headers["content-type"] == "application/json"
    assert int(headers["content-length"]) == len(body)
    assert json.loads(body)["error"]["code"] == code
    assert HTTP_STATUS[code] == status
