"""Reaching players with the site closed, in real Chromium against one real server for the
module (issue 37): Web Push from the seat menu to the notification the service worker
shows, the installable app opening "your games" offline, the e-mail digest's address
confirmed through a real SMTP exchange, "away" as the table sees it, and the iPhone hint.

Headless Chromium has no push service of its own, so the browser's PushManager hands the
page a subscription whose endpoint is a push service in this test process, with keys the
test holds. The server's real encrypted request reaches it; the test decrypts it with those
keys and hands the payload to the real service worker with the DevTools protocol's
``ServiceWorker.deliverPushMessage``, as a push service would, and reads the notification
the worker showed (``registration.getNotifications()``). The SMTP server is aiosmtpd's, on
an event loop in a thread of this process."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import http_ece  # type: ignore[import-untyped]
import httpx
import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from playwright.sync_api import Page, expect

from tests.e2e.gardener import wait_until
from tests.e2e.shots import shoot
from tests.e2e.test_async import bearer, play_turn, table
from tests.support.databases import TestDatabases
from tests.support.live import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"wide": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}
PHONE = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
IPHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A push service on a thread of this process: keeps every request it is sent."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(size)
                with owner.arrived:
                    owner.requests.append(
                        {"path": self.path, "headers": dict(self.headers), "body": body}
                    )
                    owner.arrived.notify_all()
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, count: int, timeout: float = 30.0) -> None:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.requests) >= count, timeout)


class Inbox:
    """aiosmtpd on an event loop of its own thread: every mail received."""

    def __init__(self) -> None:
        self.mails: list[Any] = []
        self.arrived = threading.Condition()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        inbox = self

        class Handler:
            async def handle_DATA(
                self, server: SMTP, session: Session, envelope: Envelope
            ) -> str:
                with inbox.arrived:
                    inbox.mails.append(
                        message_from_bytes(envelope.content, policy=policy.default)
                    )
                    inbox.arrived.notify_all()
                return "250 OK"

        async def serve() -> Any:
            return await asyncio.get_running_loop().create_server(
                lambda: SMTP(Handler()), host="127.0.0.1", port=0
            )

        self.server = asyncio.run_coroutine_threadsafe(serve(), self.loop).result(10)
        self.port = self.server.sockets[0].getsockname()[1]

    def wait(self, count: int, timeout: float = 30.0) -> None:
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.mails) >= count, timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.server.shutdown()


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    found = Inbox()
    yield found
    found.close()


@pytest.fixture(scope="module")
def live_server(
    test_databases: TestDatabases,
    tmp_path_factory: pytest.TempPathFactory,
    inbox: Inbox,
) -> Iterator[str]:
    """One server for the module, with SMTP (the local aiosmtpd) and local push endpoints
    allowed (the push service of this process is on 127.0.0.1)."""
    url = test_databases.create(migrated=True)
    server = LiveServer(
        tmp_path_factory.mktemp("e2e-reach") / "server.log",
        database_url=url,
        env={
            "ISHTAR_ROOMS_PER_MINUTE": "100000",
            "ISHTAR_WEBHOOK_ALLOW_PRIVATE": "true",
            "ISHTAR_SMTP_HOST": "127.0.0.1",
            "ISHTAR_SMTP_PORT": str(inbox.port),
            "ISHTAR_SMTP_SECURITY": "none",
            "ISHTAR_MAIL_FROM": "turns@ishtar.test",
        },
    )
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
        test_databases.drop(url)


class Keys:
    """The keys of the subscription the page's PushManager hands out."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = b64(point)

    def read(self, body: bytes) -> bytes:
        plain: bytes = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return plain


# The browser's PushManager, but the endpoint and keys are the test's (no push service in
# headless Chromium); the application server key the page passes is kept to be checked.
FAKE_PUSH_MANAGER = """
([endpoint, p256dh, auth]) => {
  let made = null;
  const sub = () => ({ endpoint, toJSON: () => ({ endpoint, keys: { p256dh, auth } }),
                       unsubscribe: async () => { made = null; return true; } });
  PushManager.prototype.subscribe = async function (options) {
    window.__serverKey = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
    made = sub();
    return made;
  };
  PushManager.prototype.getSubscription = async function () { return made; };
}
"""


def page_in(
    new_page: Callable[..., Page], lang: str, size: str, **options: Any
) -> Page:
    extra = PHONE if size == "phone" else {}
    # the site's service worker: its pushes, notifications and offline pages are tested here
    options.setdefault("service_workers", "allow")
    page = new_page(**SIZES[size], locale=lang, **extra, **options)
    return page


def hold(page: Page, base: str, room: str, lang: str, **keys: str) -> None:
    page.goto(f"{base}/?lang={lang}")
    page.evaluate(
        "([room, keys]) => { for (const [k, v] of Object.entries(keys))"
        " localStorage.setItem(`ishtar.${k}.${room}`, v); }",
        [room, keys],
    )


def open_menu(page: Page, base: str, room: str, lang: str) -> None:
    page.goto(f"{base}/r/{room}?lang={lang}")
    wait_until(page, "() => window.__ishtar && window.__ishtar.version !== null")
    page.locator("#seat-menu summary").click()
    expect(page.locator("#away-form")).to_be_visible()


def notifications(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await (await navigator.serviceWorker.ready).getNotifications())"
        ".map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }))"
    )
    return found


def test_push_from_the_seat_menu_to_the_workers_notification(
    live_server: str,
    new_page: Callable[..., Page],
    push_service: PushService,
    artifacts: Path,
) -> None:
    seats = table(live_server, first_player=0)
    keys = Keys()
    endpoint = push_service.url + "bjorn"
    page = page_in(new_page, "en", "wide")
    page.context.grant_permissions(["notifications"], origin=live_server)
    page.add_init_script(
        f"({FAKE_PUSH_MANAGER})({json.dumps([endpoint, keys.p256dh, b64(keys.auth)])})"
    )
    hold(page, live_server, seats["room"], "en", seat=seats["bjorn"])
    open_menu(page, live_server, seats["room"], "en")
    push = page.locator("#push-btn")
    expect(push).to_have_text("Turn on")
    push.click()
    expect(page.locator("#push-row")).to_contain_text("even with the site closed")
    server_key = httpx.get(f"{live_server}/api/reach").json()["push"]["public_key"]
    given = base64.b64decode(page.evaluate("window.__serverKey"))
    assert b64(given) == server_key  # the page subscribed with the server's VAPID key
    shoot(page, artifacts / "reach-push-on.png")

    # the home page offers it for every seat this browser holds: one more seat here
    other = table(live_server, first_player=1)
    page.goto(f"{live_server}/?lang=en")
    page.evaluate(
        "([room, token]) => localStorage.setItem(`ishtar.seat.${room}`, token)",
        [other["room"], other["bjorn"]],
    )
    page.reload()
    expect(page.locator("#reach-all")).to_contain_text("any of these games")
    page.locator("#push-all-btn").click()
    expect(page.locator("#reach-all")).to_contain_text("Done for your seats in 2 games")
    shoot(page, artifacts / "reach-push-all.png", full_page=True)

    # the tab is closed: Ana plays, and the server's push reaches the push service
    page.goto(f"{live_server}/?lang=en")  # no room tab open
    play_turn(live_server, seats["room"], seats["ana"])
    push_service.wait(1)
    sent = push_service.requests[0]
    assert sent["path"] == "/push/bjorn"
    assert sent["headers"]["Content-Encoding"] == "aes128gcm"
    assert sent["headers"]["Authorization"].startswith("vapid t=")
    payload = keys.read(sent["body"])
    said = json.loads(payload)
    assert (
        said["title"].startswith("Your turn") and said["url"] == f"/r/{seats['room']}"
    )

    # as the push service would: hand the payload to the browser's service worker
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    wait_until(page, "() => navigator.serviceWorker.ready.then(() => true)")
    deadline = datetime.now(UTC) + timedelta(seconds=30)
    while not registrations and datetime.now(UTC) < deadline:
        page.wait_for_timeout(
            50
        )  # the protocol's event, polled: nothing to wait on in the page
    mine = [r for r in registrations if r["scopeURL"].startswith(live_server)]
    assert mine, registrations
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server,
            "registrationId": mine[0]["registrationId"],
            "data": payload.decode(),
        },
    )
    wait_until(
        page,
        "async () => (await (await navigator.serviceWorker.ready).getNotifications()).length > 0",
    )
    shown = notifications(page)
    assert shown == [
        {
            "title": said["title"],
            "body": said["body"],
            "tag": f"ishtar-{seats['room']}",
            "url": f"/r/{seats['room']}",
        }
    ]
    assert seats["bjorn"] not in json.dumps(shown)


def test_your_games_open_offline_as_last_seen(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    seats = table(live_server, first_player=1)  # Björn's turn
    for lang, size in (("en", "wide"), ("fr", "phone"), ("nl", "wide")):
        page = page_in(new_page, lang, size)
        hold(page, live_server, seats["room"], lang, seat=seats["bjorn"])
        page.goto(f"{live_server}/?lang={lang}")
        expect(page.locator("#your-games .my-game")).to_have_count(1)
        expect(page.locator("#push-all-btn")).to_be_visible()
        shoot(page, artifacts / f"reach-home-{lang}-{size}.png", full_page=True)
        wait_until(page, "() => navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now under the worker's control
        wait_until(page, "() => !!navigator.serviceWorker.controller")
        expect(page.locator("#your-games .my-game")).to_have_count(1)
        page.context.set_offline(True)
        page.reload()
        expect(page.locator("#games-offline")).to_be_visible()
        expect(page.locator("#your-games .my-game.your-turn")).to_have_count(1)
        expect(
            page.locator("#create-btn")
        ).to_be_visible()  # the shell, styled, from the cache
        shoot(page, artifacts / f"reach-offline-{lang}-{size}.png", full_page=True)
        page.context.set_offline(False)
    manifest = httpx.get(f"{live_server}/manifest.webmanifest?lang=nl").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        assert (
            httpx.get(live_server + icon["src"]).headers["content-type"] == "image/png"
        )


def test_email_and_away_from_the_seat_menu_in_three_languages(
    live_server: str, new_page: Callable[..., Page], inbox: Inbox, artifacts: Path
) -> None:
    expected = {
        "en": ("Björn is away until", "We sent a link to", "name@example.org"),
        "fr": (
            "Björn est absent jusqu’au",
            "Nous avons envoyé un lien à",
            "nom@exemple.fr",
        ),
        "nl": (
            "Björn is afwezig tot",
            "We stuurden een link naar",
            "naam@voorbeeld.nl",
        ),
    }
    for lang, (away_text, sent_text, refused) in expected.items():
        for size in ("wide", "phone"):
            seats = table(live_server, first_player=0)
            page = page_in(new_page, lang, size)
            hold(page, live_server, seats["room"], lang, seat=seats["bjorn"])
            open_menu(page, live_server, seats["room"], lang)
            address = page.locator("#email-address")
            address.fill("bjorn@localhost")  # the browser takes it; the server does not
            page.locator("#email-form button[type=submit]").click()
            expect(page.locator(".menu-note")).to_contain_text(refused)
            before = len(inbox.mails)
            address = page.locator("#email-address")
            address.fill(f"bjorn.{lang}.{size}@example.org")
            page.locator("#email-form button[type=submit]").click()
            expect(page.locator(".menu-note")).to_contain_text(sent_text)
            inbox.wait(before + 1)
            mail = inbox.mails[-1]
            assert mail["To"] == f"bjorn.{lang}.{size}@example.org"
            link = next(w for w in mail.get_content().split() if "/mail/confirm?" in w)
            until = (datetime.now() + timedelta(days=3)).strftime("%Y-%m-%d")
            page.locator("#away-until").fill(until)
            page.locator("#away-form button[type=submit]").click()
            expect(page.locator("#away-back")).to_be_visible()
            shoot(page, artifacts / f"reach-menu-{lang}-{size}.png")
            # Ana's table says Björn is away
            ana = page_in(new_page, lang, size)
            hold(ana, live_server, seats["room"], lang, seat=seats["ana"])
            ana.goto(f"{live_server}/r/{seats['room']}?lang={lang}")
            expect(ana.locator("#away-chip")).to_contain_text(away_text)
            shoot(ana, artifacts / f"reach-away-{lang}-{size}.png")
            parts = urlsplit(link)
            confirmed = page.context.new_page()
            confirmed.goto(f"{live_server}{parts.path}?{parts.query}")
            expect(confirmed.locator("#mail-result")).to_be_visible()
            shoot(confirmed, artifacts / f"reach-confirmed-{lang}-{size}.png")
            state = httpx.get(
                f"{live_server}/api/rooms/{seats['room']}/email",
                headers=bearer(seats["bjorn"]),
            ).json()
            assert state["confirmed"] is True
            page.locator("#away-back").click()
            expect(page.locator("#away-until")).to_be_visible()


def test_on_an_iphone_the_page_says_to_add_the_site_to_the_home_screen(
    live_server: str, new_page: Callable[..., Page], artifacts: Path
) -> None:
    seats = table(live_server, first_player=0)
    for lang, words in (
        ("en", "Home Screen"),
        ("fr", "écran d’accueil"),
        ("nl", "beginscherm"),
    ):
        page = page_in(new_page, lang, "phone", user_agent=IPHONE_UA)
        hold(page, live_server, seats["room"], lang, seat=seats["bjorn"])
        open_menu(page, live_server, seats["room"], lang)
        expect(page.locator(".home-screen-hint")).to_contain_text(words)
        expect(page.locator("#push-btn")).to_have_count(0)
        shoot(page, artifacts / f"reach-iphone-{lang}.png")
