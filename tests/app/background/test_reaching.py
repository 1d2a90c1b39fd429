"""Reaching players with the tab closed (issue 37): Web Push, the e-mail digest, and away.

The push service is a real HTTP server in this process: it receives the real encrypted
request, and the test decrypts it with the subscription's own keys (http_ece) and checks the
VAPID signature against the server's public key. The SMTP server is aiosmtpd's, in this
process's event loop; smtplib talks to it from the digest's thread. The couriers run on
manual time (app/config/timesource.py), so "not before a period" is shown by advancing to
just before it."""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import http_ece  # type: ignore[import-untyped]
import httpx
import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.background.mail_digest import DigestCourier
from app.background.web_push import MAX_PAYLOAD, PushCourier
from app.config.settings import Settings
from app.config.timesource import ManualTime
from tests.app.background.test_webhooks import Receiver, move, seated_room, start
from tests.app.clients import bearer
from tests.app.conftest import game_settings
from tests.support.databases import FEW_CONNECTIONS
from tests.support.live import uvicorn_serving

PERIOD_S = 86400.0
WAIT_S = 3600.0
DAY = timedelta(days=1)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text_: str) -> bytes:
    return base64.urlsafe_b64decode(text_ + "=" * (-len(text_) % 4))


class Browser:
    """A browser's side of a subscription: its P-256 key and auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict[str, str]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64(point), "auth": b64(self.auth)}

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


class Inbox:
    """aiosmtpd's handler: every mail received."""

    def __init__(self) -> None:
        self.mails: list[Any] = []
        self.arrived = asyncio.Event()

    async def handle_DATA(
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        self.mails.append(message_from_bytes(envelope.content, policy=policy.default))
        self.arrived.set()
        return "250 OK"

    async def wait(self, count: int) -> None:
        async with asyncio.timeout(10):
            while len(self.mails) < count:
                self.arrived.clear()
                await self.arrived.wait()


@pytest.fixture
async def inbox() -> AsyncIterator[tuple[Inbox, int]]:
    handler = Inbox()
    server = await asyncio.get_running_loop().create_server(
        lambda: SMTP(handler), host="127.0.0.1", port=0
    )
    port = server.sockets[0].getsockname()[1]
    try:
        yield handler, port
    finally:
        server.close()
        await server.wait_closed()


@pytest.fixture
def room_settings(
    database_url: str, tmp_path: Path, game_module: str, inbox: tuple[Inbox, int]
) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        data_dir=tmp_path / "data",
        **FEW_CONNECTIONS,
        **game_settings(game_module),
        webhook_allow_private=True,
        webhook_poll_s=3600.0,
        webhook_backoff_s=600.0,
        webhook_timeout_s=2.0,
        smtp_host="127.0.0.1",
        smtp_port=inbox[1],
        smtp_security="none",
        mail_from="turns@ishtar.test",
        mail_digest_period_s=PERIOD_S,
        mail_digest_wait_s=WAIT_S,
        mail_poll_s=3600.0,
    )


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture
async def pusher(
    room_app: FastAPI, http: httpx.AsyncClient, clock: ManualTime
) -> PushCourier:
    """The app's push courier, on manual time and not started."""
    play = room_app.state.async_play
    old: PushCourier = play.push
    await old.stop()
    play.push = PushCourier(
        old.store,
        old.instance,
        key=old.key,
        subject="mailto:ops@ishtar.test",
        games=old.games,
        texts=old.texts,
        timeout_s=2.0,
        backoff_s=600.0,
        allow_private=True,
        time=clock,
    )
    return play.push


@pytest.fixture
async def digest(
    room_app: FastAPI, http: httpx.AsyncClient, clock: ManualTime
) -> DigestCourier:
    play = room_app.state.async_play
    old: DigestCourier = play.digest
    await old.stop()
    play.digest = DigestCourier(
        old.store,
        old.mailer,
        old.key,
        games=old.games,
        texts=old.texts,
        period_s=PERIOD_S,
        wait_s=WAIT_S,
        poll_s=3600.0,
        time=clock,
    )
    return play.digest


@pytest.fixture
async def service() -> AsyncIterator[Receiver]:
    """A push service: records each request, answers with the scripted statuses."""
    push = Receiver()
    async with uvicorn_serving(push, log_level="warning") as server:
        push.url = f"http://127.0.0.1:{server.config.port}/push/"
        yield push


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_async_engine(database_url)
    yield engine
    await engine.dispose()


async def rows(db: AsyncEngine, sql: str) -> list[Any]:
    async with db.connect() as conn:
        return list((await conn.execute(text(sql))).all())


async def subscribe(
    http: httpx.AsyncClient,
    room_id: str,
    token: str,
    endpoint: str,
    browser: Browser,
    lang: str = "en",
) -> httpx.Response:
    return await http.put(
        f"/api/rooms/{room_id}/push",
        json={"endpoint": endpoint, "keys": browser.keys(), "lang": lang},
        headers=bearer(token),
    )


def verify_vapid(header: str, public_key: str, endpoint: str) -> dict[str, Any]:
    """The claims of a VAPID header, after checking its ES256 signature."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.split("=", 1) for part in rest.split(","))
    assert fields["k"] == public_key
    head, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(
        ec.SECP256R1(), unb64(public_key)
    )
    der = encode_dss_signature(
        int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    )
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    decoded = json.loads(unb64(claims))
    parts = urlsplit(endpoint)
    assert decoded["aud"] == f"{parts.scheme}://{parts.netloc}"
    return dict(decoded)


# --- Web Push -------------------------------------------------------------------------------


async def test_a_turn_reaches_the_push_service_encrypted_for_the_subscriber(
    http: httpx.AsyncClient, pusher: PushCourier, service: Receiver, db: AsyncEngine
) -> None:
    room_id, host, (ana, bjorn) = await seated_room(http, None, first_player=0)
    browser = Browser()
    endpoint = service.url + "bjorn"
    answer = await subscribe(http, room_id, bjorn, endpoint, browser, lang="fr")
    assert answer.status_code == 201, answer.text
    again = await subscribe(http, room_id, bjorn, endpoint, browser, lang="fr")
    assert again.status_code == 200  # the same browser again: kept once
    await start(http, room_id, host)
    await move(http, room_id, ana)  # Ana draws: still her turn, nothing queued
    assert await pusher.run_once() == 0
    await move(http, room_id, ana)  # Ana plays: Björn's turn
    assert await pusher.run_once() == 1
    await service.wait_calls(1)
    call = service.calls[0]
    headers = call["headers"]
    assert call["path"] == "/push/bjorn"
    assert headers["content-encoding"] == "aes128gcm"
    assert int(headers["ttl"]) > 0 and headers["urgency"] == "high"
    assert headers["topic"] == room_id
    public = (await http.get("/api/reach")).json()["push"]["public_key"]
    claims = verify_vapid(headers["authorization"], public, endpoint)
    assert claims["sub"] == "mailto:ops@ishtar.test"
    said = browser.read(call["body"])
    assert said == {
        "kind": "turn",
        "room": room_id,
        "title": "À vous de jouer\u202f: Toy cards",
        "body": "Ana, Björn — la partie attend votre coup.",
        "url": f"/r/{room_id}",
        "tag": f"ishtar-{room_id}",
    }
    for secret in (ana, bjorn, host):
        assert secret.encode() not in call["body"] and secret not in str(headers)
    with pytest.raises(
        http_ece.ECEException, match="Decryption"
    ):  # any other key fails
        Browser().read(call["body"])
    done = await rows(db, "SELECT event, status, attempts FROM push_outbox")
    assert done == [("turn", "delivered", 1)]


async def test_the_end_of_the_game_is_pushed_and_each_push_once(
    http: httpx.AsyncClient, pusher: PushCourier, service: Receiver, db: AsyncEngine
) -> None:
    room_id, host, tokens = await seated_room(http, None, first_player=0)
    browser = Browser()
    for token in tokens:
        assert (
            await subscribe(http, room_id, token, service.url + token[:6], browser)
        ).status_code == 201
    await start(http, room_id, host)
    while (await http.get(f"/api/rooms/{room_id}")).json()["status"] != "finished":
        for token in tokens:
            view = (
                await http.get(f"/api/rooms/{room_id}/view", headers=bearer(token))
            ).json()
            if view["legal"]:
                await move(http, room_id, token)
                await pusher.run_once()  # as the poked courier would, between moves
                break
    kinds = await rows(db, "SELECT event, seat, status FROM push_outbox ORDER BY id")
    turns = [k for k in kinds if k[0] == "turn"]
    ends = [k for k in kinds if k[0] == "end"]
    assert sorted(seat for _, seat, _ in ends) == [0, 1]
    assert all(status == "delivered" for _, _, status in kinds)
    assert len(turns) == 6  # six turns of two moves each, the first pushed by the start
    assert len(service.calls) == len(kinds)
    assert browser.read(service.calls[-1]["body"])["kind"] == "end"


async def test_a_gone_subscription_is_dropped_and_a_server_error_retried(
    http: httpx.AsyncClient,
    pusher: PushCourier,
    service: Receiver,
    db: AsyncEngine,
    clock: ManualTime,
) -> None:
    room_id, host, (ana, bjorn) = await seated_room(http, None, first_player=0)
    await subscribe(http, room_id, bjorn, service.url + "gone", Browser())
    service.statuses = [410]
    await start(http, room_id, host)
    await move(http, room_id, ana)
    await move(http, room_id, ana)  # Björn's turn: the service says 410
    assert await pusher.run_once() == 1
    assert (
        await rows(
            db, "SELECT seat_id FROM push_subscriptions WHERE endpoint LIKE '%gone'"
        )
        == []
    )
    await subscribe(http, room_id, ana, service.url + "flaky", Browser())
    service.statuses = [503]
    await move(http, room_id, bjorn)
    await move(http, room_id, bjorn)  # Ana's turn: 503, then retried after the backoff
    assert await pusher.run_once() == 1
    clock.advance(599)
    assert await pusher.run_once() == 0
    clock.advance(2)
    assert await pusher.run_once() == 1
    assert [c["path"] for c in service.calls] == [
        "/push/gone",
        "/push/flaky",
        "/push/flaky",
    ]
    last = await rows(
        db, "SELECT status, attempts FROM push_outbox ORDER BY id DESC LIMIT 1"
    )
    assert last == [("delivered", 2)]


async def test_no_push_while_away_and_none_after_the_seat_changes_hands(
    http: httpx.AsyncClient, pusher: PushCourier, service: Receiver, db: AsyncEngine
) -> None:
    room_id, host, (ana, bjorn) = await seated_room(http, None, first_player=0)
    await subscribe(http, room_id, bjorn, service.url + "b", Browser())
    await start(http, room_id, host)
    until = (datetime.now(UTC) + 3 * DAY).isoformat()
    away = await http.put(
        f"/api/rooms/{room_id}/away", json={"until": until}, headers=bearer(bjorn)
    )
    assert away.status_code == 200, away.text
    await move(http, room_id, ana)
    await move(http, room_id, ana)  # Björn's turn, but he is away
    assert await rows(db, "SELECT 1 FROM push_outbox") == []
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/person",
        json={"name": "Cleo"},
        headers=bearer(host),
    )
    assert handed.status_code == 201, handed.text
    assert await rows(db, "SELECT 1 FROM push_subscriptions") == []
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert status["seats"][1]["away_until"] is None  # Cleo is not away
    assert await pusher.run_once() == 0 and service.calls == []


HOSTILE = [
    ("http://push.example/x", "https://"),
    ("https://169.254.169.254/latest", "public"),
    ("https://127.0.0.1:8443/push", "public"),
    ("https://[::ffff:10.0.0.1]/push", "public"),
    ("https://localhost/push", "public"),
    ("https://user:pw@push.example/x", "password"),
    ("https://push.example:22/x", "port"),
    ("ftp://push.example/x", "https://"),
    ("https://push.example/a b", "spaces"),
]


async def test_hostile_push_endpoints_are_refused_and_nothing_stored(
    client: httpx.AsyncClient, database_url: str
) -> None:
    """The `client` app has no `webhook_allow_private`: the guard of webhooks applies."""
    created = (
        await client.post("/api/rooms", json={"players": 2, "name": "Ana"})
    ).json()
    for endpoint, why in HOSTILE:
        answer = await client.put(
            f"/api/rooms/{created['room_id']}/push",
            json={"endpoint": endpoint, "keys": Browser().keys()},
            headers=bearer(created["token"]),
        )
        assert answer.status_code == 400, (endpoint, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "bad_push_endpoint" and why in error["reason"], endpoint
        assert error["message"]["key"].startswith("error.bad_push_endpoint.")
    too_long = await client.put(
        f"/api/rooms/{created['room_id']}/push",
        json={
            "endpoint": "https://push.example/" + "a" * 2100,
            "keys": Browser().keys(),
        },
        headers=bearer(created["token"]),
    )
    assert (
        too_long.status_code == 400 and too_long.json()["error"]["code"] == "malformed"
    )
    engine = create_async_engine(database_url)
    try:
        assert await rows(engine, "SELECT 1 FROM push_subscriptions") == []
    finally:
        await engine.dispose()


async def test_bad_keys_and_floods_of_subscriptions_are_refused(
    http: httpx.AsyncClient, service: Receiver, db: AsyncEngine
) -> None:
    room_id, _, (ana, _) = await seated_room(http, None, first_player=0)
    browser = Browser()
    for keys in (
        {"p256dh": b64(b"\x04" + bytes(64)), "auth": browser.keys()["auth"]},
        {"p256dh": browser.keys()["p256dh"], "auth": b64(bytes(8))},
        {"p256dh": "not base64!", "auth": "x"},
    ):
        answer = await http.put(
            f"/api/rooms/{room_id}/push",
            json={"endpoint": service.url + "k", "keys": keys},
            headers=bearer(ana),
        )
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "bad_push_keys"
    for n in range(10):
        assert (
            await subscribe(http, room_id, ana, f"{service.url}{n}", browser)
        ).status_code == 201
    flood = await subscribe(http, room_id, ana, service.url + "eleventh", browser)
    assert flood.status_code == 429
    error = flood.json()["error"]
    assert error["code"] == "too_many_subscriptions"
    assert error["message"] == {
        "key": "error.too_many_subscriptions",
        "params": {"n": 10},
    }
    assert len(await rows(db, "SELECT 1 FROM push_subscriptions")) == 10
    nobody = await subscribe(http, room_id, "not-a-token", service.url + "x", browser)
    assert nobody.status_code == 401


def test_a_push_stays_small_whatever_the_names() -> None:
    from app.background.web_push import message
    from app.store.push import Push, PushFacts

    push = Push(1, 1, "room", 0, 3, "turn", 1, "https://p", b"", b"", "en", "https://i")
    facts = PushFacts("toy", "playing", 0, tuple("N" * 24 for _ in range(8)), False)
    said = message(
        push, facts, "T" * 300, lambda lang, key, params: key + str(params) * 20
    )
    assert len(json.dumps(said).encode()) <= MAX_PAYLOAD


# --- the e-mail digest ----------------------------------------------------------------------


async def test_an_address_is_confirmed_then_gets_one_digest_a_period(
    http: httpx.AsyncClient,
    digest: DigestCourier,
    inbox: tuple[Inbox, int],
    clock: ManualTime,
    db: AsyncEngine,
) -> None:
    mails, _ = inbox
    room_id, host, (ana, bjorn) = await seated_room(http, None, first_player=0)
    other, other_host, (cleo, dan) = await seated_room(http, None, first_player=0)
    for room, token in ((room_id, bjorn), (other, dan)):
        answer = await http.put(
            f"/api/rooms/{room}/email",
            json={"address": "Bjorn@Example.ORG", "lang": "nl"},
            headers=bearer(token),
        )
        assert answer.status_code == 200, answer.text
        assert answer.json() == {
            "seat": 1,
            "address": "Bjorn@example.org",
            "confirmed": False,
        }
    await mails.wait(2)
    confirm = mails.mails[0]
    assert confirm["To"] == "Bjorn@example.org"
    assert confirm["Subject"] == "Bevestig je adres voor Ishtar Online"
    link = next(w for w in confirm.get_content().split() if "/mail/confirm?" in w)
    for room, host_token, tokens in (
        (room_id, host, (ana, bjorn)),
        (other, other_host, (cleo, dan)),
    ):
        await start(http, room, host_token)
        await move(http, room, tokens[0])
        await move(http, room, tokens[0])  # the turn is Björn's in both
    clock.advance(WAIT_S + 1)
    assert await digest.run_once() == 0  # nothing confirmed yet
    page = await http.get(urlsplit(link).path + "?" + urlsplit(link).query)
    assert page.status_code == 200 and "bevestigd" in page.text
    assert (
        await http.get(urlsplit(link).path + "?" + urlsplit(link).query)
    ).status_code == 400
    assert await digest.run_once() == 1  # one address: one mail, its first room only
    await mails.wait(3)
    mail = mails.mails[2]
    body = mail.get_content()
    assert mail["Subject"] == "Ishtar Online: spellen die op je wachten (1)"
    assert (
        f"/r/{room_id}" in body and f"/r/{other}" not in body
    )  # unconfirmed: not listed
    assert ana not in body and bjorn not in body and "token" not in body
    clock.advance(PERIOD_S - 10)
    assert await digest.run_once() == 0  # at most one a period
    clock.advance(20)
    assert await digest.run_once() == 1
    await mails.wait(4)
    unsubscribe = mails.mails[3]["List-Unsubscribe"].strip("<>")
    assert mails.mails[3]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    parts = urlsplit(unsubscribe)
    query = parse_qs(parts.query)
    forged = await http.post(f"{parts.path}?a={query['a'][0]}&t={'0' * 32}")
    assert forged.status_code == 400 and forged.json()["error"]["code"] == "bad_link"
    done = await http.post(f"{parts.path}?{parts.query}")
    assert done.status_code == 200
    assert await rows(db, "SELECT 1 FROM seat_emails") == []
    clock.advance(PERIOD_S * 2)
    assert await digest.run_once() == 0


async def test_no_digest_for_an_away_seat_nor_after_the_seat_changes_hands(
    http: httpx.AsyncClient,
    digest: DigestCourier,
    inbox: tuple[Inbox, int],
    clock: ManualTime,
    db: AsyncEngine,
) -> None:
    mails, _ = inbox
    room_id, host, (ana, bjorn) = await seated_room(http, None, first_player=0)
    await http.put(
        f"/api/rooms/{room_id}/email",
        json={"address": "b@example.org"},
        headers=bearer(bjorn),
    )
    await mails.wait(1)
    link = next(
        w for w in mails.mails[0].get_content().split() if "/mail/confirm?" in w
    )
    await http.get(urlsplit(link).path + "?" + urlsplit(link).query)
    await start(http, room_id, host)
    await move(http, room_id, ana)
    await move(http, room_id, ana)
    until = (datetime.now(UTC) + 2 * DAY).isoformat()
    assert (
        await http.put(
            f"/api/rooms/{room_id}/away", json={"until": until}, headers=bearer(bjorn)
        )
    ).status_code == 200
    clock.advance(WAIT_S + 1)
    assert await digest.run_once() == 0
    assert (
        await http.delete(f"/api/rooms/{room_id}/away", headers=bearer(bjorn))
    ).status_code == 200
    await http.post(
        f"/api/rooms/{room_id}/seats/1/person",
        json={"name": "Cleo"},
        headers=bearer(host),
    )
    assert await rows(db, "SELECT 1 FROM seat_emails") == []
    assert await digest.run_once() == 0
    assert len(mails.mails) == 1


BAD_ADDRESSES = [
    "no-at-sign",
    "a@b",
    "a@@b.org",
    "a b@c.org",
    "a@c.org\r\nBcc: x@y.org",
    "<a@b.org>",
    "a,b@c.org",
    "a@-b.org",
    ".a@b.org",
    "a@" + "b" * 240 + ".org",
    "a@localhost",
    "a@1.2.3.4",
    "",
]


async def test_bad_addresses_are_refused_and_nothing_sent(
    http: httpx.AsyncClient, inbox: tuple[Inbox, int], db: AsyncEngine
) -> None:
    room_id, _, (ana, _) = await seated_room(http, None, first_player=0)
    for address in BAD_ADDRESSES:
        answer = await http.put(
            f"/api/rooms/{room_id}/email",
            json={"address": address},
            headers=bearer(ana),
        )
        assert answer.status_code == 400, (address, answer.text)
        assert answer.json()["error"]["code"] in ("bad_email", "malformed"), address
    assert await rows(db, "SELECT 1 FROM seat_emails") == []
    assert inbox[0].mails == []


async def test_without_smtp_mail_is_off_and_not_offered(
    client: httpx.AsyncClient,
) -> None:
    assert (await client.get("/api/reach")).json()["mail"] is False
    created = (
        await client.post("/api/rooms", json={"players": 2, "name": "Ana"})
    ).json()
    answer = await client.put(
        f"/api/rooms/{created['room_id']}/email",
        json={"address": "a@example.org"},
        headers=bearer(created["token"]),
    )
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "mail_off"


# --- away -----------------------------------------------------------------------------------


async def deadline(db: AsyncEngine) -> datetime:
    found = await rows(db, "SELECT due_at FROM turn_deadlines")
    return found[0][0]  # type: ignore[no-any-return]


async def timed_room(http: httpx.AsyncClient) -> tuple[str, str, str, str]:
    created = (
        await http.post(
            "/api/rooms",
            json={
                "players": 2,
                "name": "Ana",
                "seat_order": "fixed",
                "first_player": 1,
                "time_control": {"per_move_s": 86400, "policy": "wait"},
            },
        )
    ).json()
    room_id = created["room_id"]
    bjorn = (
        await http.post(f"/api/rooms/{room_id}/seats", json={"name": "Björn"})
    ).json()
    await start(http, room_id, created["host_token"])
    return room_id, created["host_token"], created["token"], bjorn["token"]


async def test_away_stops_the_clock_and_the_table_sees_it(
    http: httpx.AsyncClient, db: AsyncEngine
) -> None:
    room_id, _, ana, bjorn = await timed_room(http)  # Björn's turn, due in a day
    before = await deadline(db)
    until = datetime.now(UTC) + 5 * DAY
    answer = await http.put(
        f"/api/rooms/{room_id}/away",
        json={"until": until.isoformat()},
        headers=bearer(bjorn),
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["seat"] == 1 and body["left_days"] == pytest.approx(30.0, abs=0.1)
    moved = await deadline(db)
    assert timedelta(days=4, hours=23) < moved - before < timedelta(days=5, minutes=1)
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert status["seats"][1]["away_until"] is not None
    assert status["seats"][0]["away_until"] is None
    games = await http.post(
        "/api/my-games", json={"rooms": [{"room_id": room_id, "token": ana}]}
    )
    seen = games.json()["games"][0]["seats"]
    assert seen[1]["away_until"] is not None and seen[0]["away_until"] is None
    back = await http.delete(f"/api/rooms/{room_id}/away", headers=bearer(bjorn))
    assert back.status_code == 200 and back.json()["away_until"] is None
    again = await deadline(db)
    assert abs(again - before) < timedelta(
        minutes=1
    )  # the day he had, minus the moments away
    assert (await http.get(f"/api/rooms/{room_id}")).json()["seats"][1][
        "away_until"
    ] is None


async def test_a_turn_that_starts_while_away_is_due_after_the_return(
    http: httpx.AsyncClient, db: AsyncEngine
) -> None:
    room_id, host, ana, bjorn = await timed_room(http)
    until = datetime.now(UTC) + 3 * DAY
    await http.put(
        f"/api/rooms/{room_id}/away",
        json={"until": until.isoformat()},
        headers=bearer(ana),
    )
    await move(http, room_id, bjorn)
    await move(http, room_id, bjorn)  # Ana's turn, while she is away
    due = await deadline(db)
    assert abs(due - (until + DAY)) < timedelta(minutes=1)
    # the host may still hand the away seat on: the clock gives back the time it stood still
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/0/bot",
        json={"level": "easy"},
        headers=bearer(host),
    )
    assert handed.status_code in (200, 201, 400), handed.text
    if handed.status_code != 400:  # the toy game may have no bots
        assert abs(await deadline(db) - (datetime.now(UTC) + DAY)) < timedelta(
            minutes=1
        )


async def test_an_away_date_in_the_past_or_too_far_is_refused(
    http: httpx.AsyncClient, db: AsyncEngine
) -> None:
    room_id, _, _, bjorn = await timed_room(http)
    before = await deadline(db)
    for days, reason in (
        (-1, "passed"),
        (0, "passed"),
        (15, "14 days"),
        (14.01, "14 days"),
    ):
        until = datetime.now(UTC) + timedelta(days=days)
        answer = await http.put(
            f"/api/rooms/{room_id}/away",
            json={"until": until.isoformat()},
            headers=bearer(bjorn),
        )
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error["code"] == "bad_away" and reason in error["reason"], days
    assert await deadline(db) == before
    assert await rows(db, "SELECT 1 FROM away_periods") == []
    assert (await http.get(f"/api/rooms/{room_id}")).json()["seats"][1][
        "away_until"
    ] is None


async def test_the_allowance_is_30_days_a_year(
    http: httpx.AsyncClient, db: AsyncEngine
) -> None:
    room_id, _, _, bjorn = await timed_room(http)
    # 20 days already used this year (two periods that ended), as the table would hold them
    async with db.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO away_periods (seat_id, away_from, away_until)"
                " SELECT id, now() - interval '100 days', now() - interval '90 days'"
                " FROM seats WHERE seat = 1 UNION ALL"
                " SELECT id, now() - interval '60 days', now() - interval '50 days'"
                " FROM seats WHERE seat = 1 UNION ALL"
                " SELECT id, now() - interval '400 days', now() - interval '390 days'"
                " FROM seats WHERE seat = 1"
            )
        )
    info = (await http.get(f"/api/rooms/{room_id}/reach", headers=bearer(bjorn))).json()
    assert info["left_days"] == pytest.approx(10.0, abs=0.1)
    too_much = await http.put(
        f"/api/rooms/{room_id}/away",
        json={"until": (datetime.now(UTC) + timedelta(days=11)).isoformat()},
        headers=bearer(bjorn),
    )
    assert too_much.status_code == 400
    error = too_much.json()["error"]
    assert error["code"] == "bad_away" and "30 days a year" in error["reason"]
    assert error["message"]["key"] == "error.bad_away.allowance"
    assert len(await rows(db, "SELECT 1 FROM away_periods")) == 3
    fits = await http.put(
        f"/api/rooms/{room_id}/away",
        json={"until": (datetime.now(UTC) + timedelta(days=9)).isoformat()},
        headers=bearer(bjorn),
    )
    assert fits.status_code == 200, fits.text


async def test_away_needs_the_seat_token_and_an_offset(http: httpx.AsyncClient) -> None:
    room_id, _, _, bjorn = await timed_room(http)
    until = (datetime.now(UTC) + DAY).isoformat()
    nobody = await http.put(f"/api/rooms/{room_id}/away", json={"until": until})
    assert nobody.status_code == 403
    naive = await http.put(
        f"/api/rooms/{room_id}/away",
        json={"until": (datetime.now() + DAY).replace(tzinfo=None).isoformat()},
        headers=bearer(bjorn),
    )
    assert naive.status_code == 400 and naive.json()["error"]["code"] == "bad_away"
    junk = await http.put(
        f"/api/rooms/{room_id}/away", json={"until": "soon"}, headers=bearer(bjorn)
    )
    assert junk.status_code == 400 and junk.json()["error"]["code"] == "malformed"


# --- several instances ----------------------------------------------------------------------


async def test_two_push_couriers_racing_send_each_push_once(
    http: httpx.AsyncClient, pusher: PushCourier, service: Receiver, db: AsyncEngine
) -> None:
    """Like two instances: each claims with FOR UPDATE SKIP LOCKED, so every push of 12
    turns leaves once, whichever courier took it."""
    other = PushCourier(
        pusher.store,
        "other-instance",
        key=pusher.key,
        subject=pusher.subject,
        games=pusher.games,
        texts=pusher.texts,
        timeout_s=2.0,
        allow_private=True,
        time=pusher.time,
    )
    try:
        for n in range(12):
            room_id, host, (ana, _) = await seated_room(http, None, first_player=0)
            assert (
                await subscribe(http, room_id, ana, f"{service.url}{n}", Browser())
            ).status_code == 201
            await start(http, room_id, host)  # Ana's turn: one push each
        claimed = await asyncio.gather(
            pusher.run_once(), other.run_once(), pusher.run_once(), other.run_once()
        )
        assert sum(claimed) == 12
        assert sorted(c["path"] for c in service.calls) == sorted(
            f"/push/{n}" for n in range(12)
        )
        done = await rows(db, "SELECT status, attempts, claimed_by FROM push_outbox")
        assert all(
            status == "delivered" and attempts == 1 for status, attempts, _ in done
        )
    finally:
        await other.stop()


async def test_two_digest_couriers_racing_send_one_mail(
    http: httpx.AsyncClient,
    digest: DigestCourier,
    inbox: tuple[Inbox, int],
    clock: ManualTime,
) -> None:
    mails, _ = inbox
    room_id, host, (_, bjorn) = await seated_room(http, None, first_player=1)
    await http.put(
        f"/api/rooms/{room_id}/email",
        json={"address": "b@example.org"},
        headers=bearer(bjorn),
    )
    await mails.wait(1)
    link = next(
        w for w in mails.mails[0].get_content().split() if "/mail/confirm?" in w
    )
    await http.get(urlsplit(link).path + "?" + urlsplit(link).query)
    await start(http, room_id, host)  # Björn's turn
    other = DigestCourier(
        digest.store,
        digest.mailer,
        digest.key,
        games=digest.games,
        texts=digest.texts,
        period_s=PERIOD_S,
        wait_s=WAIT_S,
        time=clock,
    )
    clock.advance(WAIT_S + 1)
    sent = await asyncio.gather(digest.run_once(), other.run_once(), digest.run_once())
    assert sum(sent) == 1
    await mails.wait(2)
    assert len(mails.mails) == 2  # the confirmation and one digest


async def test_an_away_seat_whose_time_runs_out_follows_the_rooms_policy(
    room_app: FastAPI, http: httpx.AsyncClient, clock: ManualTime, db: AsyncEngine
) -> None:
    """The clock stands still while away, then runs: the deadline passes a day after the
    return, not before, and the `wait` policy marks the seat late as usual."""
    from tests.app.background.test_deadlines import manual_watch

    watch = await manual_watch(room_app, clock)
    room_id, _, _, bjorn = await timed_room(http)  # Björn's turn, a day to move
    until = datetime.now(UTC) + 2 * DAY
    await http.put(
        f"/api/rooms/{room_id}/away",
        json={"until": until.isoformat()},
        headers=bearer(bjorn),
    )
    clock.advance((2 * DAY + DAY).total_seconds() - 600)  # ten minutes short of it
    assert await watch.run_once() == 0
    clock.advance(1200)
    assert await watch.run_once() == 1
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert status["clock"]["overdue"] is True and status["seats"][1]["overdue"] is True
