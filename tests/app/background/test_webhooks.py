"""Turn webhooks (issue 8): a seat's holder sets a URL; when it becomes their turn it is
called, with retries and backoff, carrying nothing secret, once per turn across instances.
The receiver is a real HTTP server on this machine (allowed by webhook_allow_private).

The courier runs on manual time (app/config/timesource.py): a test runs it, or advances its clock,
and sees what it did; no test sleeps to show that nothing happened meanwhile."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.background.webhook_targets import Refused, allowed_address, check_url
from app.background.webhooks import MAX_BACKOFF_S, Call, WebhookCourier
from app.config.settings import Settings
from app.config.timesource import ManualTime
from app.play.protocol import ServiceError
from app.store.pool import asyncpg_dsn, create_pool
from app.store.webhooks import WebhookStore
from tests.app.clients import bearer
from tests.app.conftest import game_settings
from tests.support.databases import FEW_CONNECTIONS
from tests.support.live import uvicorn_serving

# On manual time these are long: a "not yet" holds unless the test itself took minutes.
POLL_S = 3600.0
BACKOFF_S = 600

LATER = 2 * MAX_BACKOFF_S  # beyond any retry


class Receiver:
    """A webhook receiver: records each call, answers with the scripted statuses."""

    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.calls: list[dict[str, Any]] = []
        self.url = ""
        self.arrived = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                kind = message["type"].rsplit(".", 1)[-1]
                await send({"type": f"lifespan.{kind}.complete"})
                if kind == "shutdown":
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.calls.append({"path": scope["path"], "headers": headers, "body": body})
        self.arrived.set()
        status = self.statuses.pop(0) if self.statuses else 200
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(call["body"]) for call in self.calls]

    async def wait_calls(self, count: int, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while len(self.calls) < count:
                self.arrived.clear()
                await self.arrived.wait()


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    hook = Receiver()
    async with uvicorn_serving(hook, log_level="warning") as server:
        hook.url = f"http://127.0.0.1:{server.config.port}/hooks/seat"
        yield hook


@pytest.fixture
def room_settings(database_url: str, tmp_path: Path, game_module: str) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        data_dir=tmp_path / "data",
        **FEW_CONNECTIONS,
        **game_settings(game_module),
        webhook_allow_private=True,
        webhook_poll_s=POLL_S,
        webhook_backoff_s=BACKOFF_S,
        webhook_timeout_s=2.0,
    )


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture
async def courier(
    room_app: FastAPI, http: httpx.AsyncClient, clock: ManualTime
) -> WebhookCourier:
    """The app's courier, on manual time and not started: it makes calls when a test runs it
    (or starts it, and then pokes it or advances the clock past its poll)."""
    play = room_app.state.async_play
    await play.courier.stop()
    settings: Settings = room_app.state.settings
    play.courier = WebhookCourier(
        play.service.store.webhooks,
        play.courier.instance,
        poll_s=settings.webhook_poll_s,
        timeout_s=settings.webhook_timeout_s,
        max_attempts=settings.webhook_max_attempts,
        backoff_s=settings.webhook_backoff_s,
        allow_private=settings.webhook_allow_private,
        time=clock,
    )
    return play.courier  # stopped with the app, as its own courier would be


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_async_engine(database_url)
    yield engine
    await engine.dispose()


async def nowhere() -> WebhookStore:
    """A store on a database that is never reached (its pool opens no connection)."""
    return WebhookStore(await create_pool("postgresql://u@h/d", 1))


async def outbox(db: AsyncEngine) -> list[Any]:
    async with db.connect() as conn:
        return list(
            (
                await conn.execute(
                    text(
                        "SELECT id, seat, version, status, attempts, last_error"
                        " FROM webhook_outbox ORDER BY id"
                    )
                )
            ).all()
        )


async def seated_room(
    http: httpx.AsyncClient, hook_url: str | None, first_player: int = 1
) -> tuple[str, str, list[str]]:
    """Ana (seat 0, host) and Björn (seat 1, with a webhook) in a fixed-order room."""
    created = (
        await http.post(
            "/api/rooms",
            json={
                "players": 2,
                "name": "Ana",
                "seat_order": "fixed",
                "first_player": first_player,
            },
        )
    ).json()
    room_id = created["room_id"]
    bjorn = (
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Björn"})
    ).json()
    if hook_url is not None:
        answer = await http.put(
            f"/api/rooms/{room_id}/webhook",
            json={"url": hook_url},
            headers=bearer(bjorn["token"]),
        )
        assert answer.status_code == 200, answer.text
    return room_id, created["host_token"], [created["token"], bjorn["token"]]


async def start(http: httpx.AsyncClient, room_id: str, host: str) -> None:
    answer = await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host))
    assert answer.status_code == 200, answer.text


async def move(http: httpx.AsyncClient, room_id: str, token: str) -> dict[str, Any]:
    view = (await http.get(f"/api/rooms/{room_id}/view", headers=bearer(token))).json()
    answer = await http.post(
        f"/api/rooms/{room_id}/moves",
        headers=bearer(token),
        json={
            "move": view["legal"][0]["action"],
            "expected_version": view["version"],
            "move_id": str(uuid.uuid4()),
        },
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


# --- URLs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://chat.example/hooks/T0/B1/xyz",
        "http://chat.example:8080/x?room=1",
        "https://93.184.216.34/hook",
        "https://[2606:2800:220:1:248:1893:25c8:1946]/hook",
    ],
)
def test_public_http_urls_are_accepted(url: str) -> None:
    assert check_url(url).split("?")[0].rstrip("/") in url


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://chat.example/x", "https://"),
        ("javascript:alert(1)", "https://"),
        ("file:///etc/passwd", "https://"),
        ("https:///nohost", "host"),
        ("https://user:pw@chat.example/x", "password"),
        ("https://chat.example:22/x", "port"),
        ("https://chat.example:99999/x", "port"),
        ("https://chat.example/a b", "spaces"),
        ("https://chat.example/" + "a" * 2100, "2048"),
        ("http://localhost:8000/x", "public"),
        ("http://127.0.0.1:8000/x", "public"),
        ("http://10.0.0.8/x", "public"),
        ("http://169.254.169.254/latest/meta-data", "public"),
        ("http://[::1]:8000/x", "public"),
        ("http://[::ffff:127.0.0.1]:8000/x", "public"),
        ("http://0.0.0.0:8000/x", "public"),
        ("http://printer.local/x", "public"),
    ],
)
def test_unsafe_urls_are_refused(url: str, why: str) -> None:
    with pytest.raises(ServiceError) as refused:
        check_url(url)
    assert refused.value.code == "bad_webhook"
    assert why in refused.value.reason


def test_private_addresses_only_with_the_setting() -> None:
    assert check_url("http://127.0.0.1:8000/x", allow_private=True)
    loopback = ipaddress.ip_address("127.0.0.1")
    assert not allowed_address(loopback, False) and allowed_address(loopback, True)
    assert not allowed_address(ipaddress.ip_address("224.0.0.1"), True)


# IPv6 forms that carry an IPv4 address reach that IPv4 host (through a NAT64 translator, a
# 6to4 or Teredo relay, or a dual stack); each carries a non-public one here. And two IPv6
# ranges that are never public themselves.
EMBEDDING = [
    "64:ff9b::a9fe:a9fe",  # NAT64 of the metadata address 169.254.169.254
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b:1::a9fe:a9fe",  # local-use NAT64
    "64:ff9b:1:ffff::808:808",  # local-use NAT64, even of a public address
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "2002:0a00:0001::1",  # 6to4 of 10.0.0.1
    "::169.254.169.254",  # IPv4-compatible
    "::127.0.0.1",  # IPv4-compatible loopback
    "::ffff:0:a9fe:a9fe",  # IPv4-translated
    "::ffff:0:7f00:1",  # IPv4-translated loopback
    "::ffff:169.254.169.254",  # IPv4-mapped
    "2001:0:a9fe:a9fe::1",  # Teredo whose server is 169.254.169.254
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo whose client is 127.0.0.1
    "fec0::1",  # site-local
    "fed0:1:2::3",  # site-local
]


@pytest.mark.parametrize("address", EMBEDDING)
def test_ipv6_forms_embedding_a_private_ipv4_are_refused_at_registration(
    address: str,
) -> None:
    with pytest.raises(ServiceError) as refused:
        check_url(f"https://[{address}]/hook")
    assert refused.value.code == "bad_webhook"
    assert "public" in refused.value.reason


def test_ipv6_forms_embedding_a_public_ipv4_are_allowed() -> None:
    for address in ("64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"):
        assert check_url(f"https://[{address}]/hook").startswith("https://[")


@pytest.mark.parametrize("address", EMBEDDING)
async def test_a_host_resolving_to_such_a_form_is_not_called(
    address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS can answer any of these for a public-looking name: the courier refuses the call
    without opening a connection."""

    async def answer(host: str, port: int, **_: Any) -> list[Any]:
        return [(10, 1, 6, "", (address, port, 0, 0))]

    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", answer)
    url = check_url("https://hooks.example/seat")
    courier = WebhookCourier(await nowhere(), "t")
    sent: list[httpx.Request] = []

    async def send(request: httpx.Request, **_: Any) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200)

    monkeypatch.setattr(courier._client, "send", send)
    call = Call(1, 1, "room", 0, 1, url, "https://ishtar.example", 1)
    try:
        with pytest.raises(Refused, match="non-public"):
            await courier._post(call, {})
    finally:
        await courier.stop()
    assert sent == []


async def test_a_host_resolving_to_a_public_nat64_address_is_called(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check lets through what is public (the call goes to the address checked)."""

    async def answer(host: str, port: int, **_: Any) -> list[Any]:
        return [(10, 1, 6, "", ("64:ff9b::808:808", port, 0, 0))]

    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", answer)
    courier = WebhookCourier(await nowhere(), "t")
    sent: list[httpx.Request] = []

    async def send(request: httpx.Request, **_: Any) -> httpx.Response:
        sent.append(request)
        return httpx.Response(204)

    monkeypatch.setattr(courier._client, "send", send)
    call = Call(1, 1, "room", 0, 1, "https://hooks.example/x", "https://i.example", 1)
    try:
        assert await courier._post(call, {}) == 204
    finally:
        await courier.stop()
    assert [str(r.url) for r in sent] == ["https://[64:ff9b::808:808]/x"]
    assert sent[0].headers["host"] == "hooks.example"


@pytest.mark.parametrize(
    "url", ["http://[::1/", "http://[::1", "https://[zz::1]/x", "http://a]b/"]
)
def test_unreadable_urls_are_refused_not_crashed_on(url: str) -> None:
    with pytest.raises(ServiceError) as refused:
        check_url(url)
    assert refused.value.code == "bad_webhook"


async def test_a_private_webhook_is_refused_by_default(
    database_url: str, tmp_path: Path
) -> None:
    from app.ops.main import create_app

    app = create_app(
        Settings(_env_file=None, database_url=database_url, data_dir=tmp_path / "d")  # type: ignore[call-arg]
    )
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            room_id, _host, tokens = await seated_room(http, None)
            for url in (
                "http://127.0.0.1:9/x",
                "http://[64:ff9b::a9fe:a9fe]/latest/meta-data",
                "http://[::1/",
            ):
                answer = await http.put(
                    f"/api/rooms/{room_id}/webhook",
                    json={"url": url},
                    headers=bearer(tokens[1]),
                )
                assert answer.status_code == 400, (url, answer.text)
                assert answer.json()["error"]["code"] == "bad_webhook"
            got = await http.get(
                f"/api/rooms/{room_id}/webhook", headers=bearer(tokens[1])
            )
            assert got.json() == {"seat": 1, "url": None}


async def test_only_the_seat_holder_sets_reads_or_removes_its_webhook(
    http: httpx.AsyncClient,
) -> None:
    room_id, _host, tokens = await seated_room(http, "http://127.0.0.1:9999/h")
    path = f"/api/rooms/{room_id}/webhook"
    assert (await http.get(path)).json()["error"]["code"] == "forbidden"
    spectator = await http.put(path, json={"url": "http://127.0.0.1:9999/x"})
    assert spectator.status_code == 403
    stranger = await http.get(path, headers=bearer("x" * 43))
    assert stranger.status_code == 401
    assert (await http.get(path, headers=bearer(tokens[1]))).json() == {
        "seat": 1,
        "url": "http://127.0.0.1:9999/h",
    }
    assert (await http.get(path, headers=bearer(tokens[0]))).json()["url"] is None
    bad = await http.put(path, json={"url": 42}, headers=bearer(tokens[1]))
    assert bad.status_code == 400
    assert (await http.delete(path, headers=bearer(tokens[1]))).json()["url"] is None
    assert (await http.get(path, headers=bearer(tokens[1]))).json()["url"] is None
    status = (await http.get(f"/api/rooms/{room_id}")).text
    assert "9999" not in status, "a webhook URL is its holder's secret"


# --- calls ----------------------------------------------------------------------------------


async def test_the_webhook_is_called_on_your_turn_and_retried_after_500(
    http: httpx.AsyncClient,
    receiver: Receiver,
    db: AsyncEngine,
    courier: WebhookCourier,
    clock: ManualTime,
) -> None:
    receiver.statuses = [500, 503]
    room_id, host, tokens = await seated_room(http, receiver.url, first_player=1)
    await start(http, room_id, host)  # Björn (seat 1) plays first: his turn now
    assert await courier.run_once() == 1  # 500
    clock.advance(BACKOFF_S - 60)
    assert await courier.run_once() == 0, "no retry before the backoff"
    clock.advance(60)
    assert await courier.run_once() == 1  # 503
    clock.advance(2 * BACKOFF_S - 60)
    assert await courier.run_once() == 0, "the second wait is twice as long"
    clock.advance(60)
    assert await courier.run_once() == 1  # 200
    clock.advance(LATER)
    assert await courier.run_once() == 0
    assert len(receiver.calls) == 3, "delivered once it answered 200, then no more"
    deliveries = {call["headers"]["x-ishtar-delivery"] for call in receiver.calls}
    assert len(deliveries) == 1, "the same delivery id on every attempt"
    body = receiver.bodies()[-1]
    assert body == {
        "event": "your_turn",
        "delivery": int(deliveries.pop()),
        "room_id": room_id,
        "room_url": f"http://testserver/r/{room_id}",
        "seat": 1,
        "name": "Björn",
        "turn": {"seat": 1, "name": "Björn"},
        "version": 0,
        "text": f"It is Björn's turn on Ishtar Online: http://testserver/r/{room_id}",
    }
    assert receiver.calls[0]["path"] == "/hooks/seat"
    assert receiver.calls[0]["headers"]["content-type"] == "application/json"
    raw = b"".join(call["body"] for call in receiver.calls).decode()
    raw += json.dumps([call["headers"] for call in receiver.calls])
    for secret in [*tokens, host, "#t=", "seed"]:
        assert secret not in raw, "nothing secret in a webhook call"
    [row] = await outbox(db)
    assert (row.status, row.attempts, row.last_error) == ("delivered", 3, None)


async def test_one_call_per_turn_of_the_seat(
    http: httpx.AsyncClient,
    receiver: Receiver,
    db: AsyncEngine,
    courier: WebhookCourier,
    clock: ManualTime,
) -> None:
    room_id, host, tokens = await seated_room(http, receiver.url, first_player=0)
    await start(http, room_id, host)  # Ana first: nothing for Björn yet
    assert await courier.run_once() == 0
    assert await outbox(db) == []
    for turn in range(1, 4):
        await move(http, room_id, tokens[0])  # a toy turn: draw, then play
        assert await courier.run_once() == 0, "Ana's first step: still her turn"
        passed = await move(http, room_id, tokens[0])
        assert await courier.run_once() == 1, "Björn's turn now"
        assert len(receiver.calls) == turn
        assert receiver.bodies()[-1]["version"] == passed["version"]
        await move(http, room_id, tokens[1])
        assert await courier.run_once() == 0, "no call for a step within his turn"
        await move(http, room_id, tokens[1])
        assert await courier.run_once() == 0, "no call for Ana's turn"
    clock.advance(LATER)
    assert await courier.run_once() == 0
    assert len(receiver.calls) == 3, "one call per turn, none per step"
    assert [r.status for r in await outbox(db)] == ["delivered"] * 3


async def test_a_call_whose_turn_passed_is_cancelled_not_sent_late(
    http: httpx.AsyncClient,
    receiver: Receiver,
    db: AsyncEngine,
    courier: WebhookCourier,
    clock: ManualTime,
) -> None:
    receiver.statuses = [500] * 100
    room_id, host, tokens = await seated_room(http, receiver.url, first_player=1)
    await start(http, room_id, host)
    assert await courier.run_once() == 1  # 500: to be retried
    await move(http, room_id, tokens[1])
    await move(http, room_id, tokens[1])  # Björn played his turn anyway
    clock.advance(BACKOFF_S)
    assert await courier.run_once() == 1, "the retry is due"
    [row] = await outbox(db)
    assert row.status == "cancelled"
    assert row.last_error == "the turn has passed"
    assert len(receiver.calls) == 1, "cancelled, not sent"
    clock.advance(LATER)
    assert await courier.run_once() == 0
    assert len(receiver.calls) == 1


async def test_a_client_error_is_not_retried(
    http: httpx.AsyncClient,
    receiver: Receiver,
    db: AsyncEngine,
    courier: WebhookCourier,
    clock: ManualTime,
) -> None:
    receiver.statuses = [404]
    room_id, host, _tokens = await seated_room(http, receiver.url, first_player=1)
    await start(http, room_id, host)
    assert await courier.run_once() == 1
    clock.advance(LATER)
    assert await courier.run_once() == 0, "nothing left to retry"
    assert len(receiver.calls) == 1
    [row] = await outbox(db)
    assert (row.status, row.attempts, row.last_error) == ("failed", 1, "HTTP 404")


async def test_a_seat_handed_on_loses_its_webhook_and_pending_calls(
    http: httpx.AsyncClient, db: AsyncEngine, courier: WebhookCourier
) -> None:
    room_id, host, _tokens = await seated_room(http, "http://127.0.0.1:1999/never")
    await start(http, room_id, host)  # the call waits: the courier stands still
    [row] = await outbox(db)
    assert row.status == "pending"
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/person",
        headers=bearer(host),
        json={"name": "Cleo"},
    )
    assert handed.status_code == 201
    [row] = await outbox(db)
    assert row.status == "cancelled"
    new = handed.json()["token"]
    got = await http.get(f"/api/rooms/{room_id}/webhook", headers=bearer(new))
    assert got.json()["url"] is None


@pytest.fixture
async def couriers(
    courier: WebhookCourier, clock: ManualTime, database_url: str
) -> AsyncIterator[list[WebhookCourier]]:
    """Two other instances' couriers, on the same manual time; the app's own stands still."""
    pools = [await create_pool(asyncpg_dsn(database_url), 2) for _ in range(2)]
    made = [
        WebhookCourier(WebhookStore(pool), name, allow_private=True, time=clock)
        for pool, name in zip(pools, ("first", "second"))
    ]
    yield made
    for courier, pool in zip(made, pools):
        await courier.stop()
        await pool.close()


async def test_two_couriers_racing_deliver_each_call_once(
    couriers: list[WebhookCourier],
    http: httpx.AsyncClient,
    receiver: Receiver,
    db: AsyncEngine,
) -> None:
    """Two instances' couriers over 41 due calls: each is made exactly once."""
    room_id, host, _tokens = await seated_room(http, receiver.url, first_player=1)
    await start(http, room_id, host)
    async with db.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO webhook_outbox (seat_id, room_id, seat, version, url, base_url)"
                " SELECT seat_id, room_id, seat, v, url, base_url FROM webhook_outbox,"
                " generate_series(1000, 1039) AS v"
            )
        )
    claimed = await asyncio.gather(*(c.run_once() for c in couriers))
    while sum(claimed):
        claimed = await asyncio.gather(*(c.run_once() for c in couriers))
    ids = [call["headers"]["x-ishtar-delivery"] for call in receiver.calls]
    assert len(ids) == len(set(ids)) == 41
    async with db.connect() as conn:
        split = dict(
            (
                await conn.execute(
                    text(
                        "SELECT claimed_by, count(*) FROM webhook_outbox"
                        " GROUP BY claimed_by"
                    )
                )
            ).all()
        )
    assert set(split) == {"first", "second"}
    assert all(row.status == "delivered" for row in await outbox(db))


async def test_a_call_claimed_by_a_dead_instance_is_made_after_its_lease(
    couriers: list[WebhookCourier],
    http: httpx.AsyncClient,
    receiver: Receiver,
    db: AsyncEngine,
    clock: ManualTime,
) -> None:
    room_id, host, _tokens = await seated_room(http, receiver.url, first_player=1)
    await start(http, room_id, host)
    dead, alive = couriers
    async with db.begin() as conn:  # an instance claims the call (its lease), then dies
        await conn.execute(
            text(
                "UPDATE webhook_outbox SET attempts = 1, claimed_by = 'dead',"
                " next_attempt_at = now() + make_interval(secs => :lease)"
            ),
            {"lease": dead.lease_s},
        )
    assert await alive.run_once() == 0, "leased to the dead instance for now"
    clock.advance(dead.lease_s / 2)
    assert await alive.run_once() == 0, "still leased"
    clock.advance(dead.lease_s / 2)
    assert await alive.run_once() == 1
    assert len(receiver.calls) == 1
    [row] = await outbox(db)
    assert (row.status, row.attempts) == ("delivered", 2)


async def test_a_move_giving_the_turn_to_a_seat_with_a_webhook_calls_at_once(
    http: httpx.AsyncClient,
    receiver: Receiver,
    courier: WebhookCourier,
    clock: ManualTime,
) -> None:
    """The commit says the seat to act has a webhook, and the courier looks at once: the
    call does not wait for the courier's poll (which manual time never ends here)."""
    room_id, host, tokens = await seated_room(http, receiver.url, first_player=0)
    await start(http, room_id, host)
    courier.start()
    await clock.sleeping()  # it looked (nothing for Björn) and waits for its next poll
    await move(http, room_id, tokens[0])
    passed = await move(http, room_id, tokens[0])  # Björn's turn now
    await receiver.wait_calls(1)
    assert receiver.bodies()[-1]["version"] == passed["version"]


async def test_a_call_queued_without_a_poke_is_made_at_the_next_poll(
    http: httpx.AsyncClient,
    receiver: Receiver,
    courier: WebhookCourier,
    clock: ManualTime,
) -> None:
    """A start (like a move on another instance) does not poke this courier: its poll finds
    the call."""
    courier.start()
    await clock.sleeping()  # it looked (an empty outbox) and waits for its next poll
    room_id, host, _tokens = await seated_room(http, receiver.url, first_player=1)
    await start(http, room_id, host)  # Björn's turn: a call queued, no poke
    clock.advance(courier.poll_s)
    await receiver.wait_calls(1)
    assert receiver.bodies()[-1]["room_id"] == room_id
