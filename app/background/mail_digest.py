"""The e-mail digest: at most one mail per period to an address, listing the games waiting on it.

A seat's holder may leave an address (``PUT /api/rooms/{id}/email``); a mail with a link
confirms it first (`confirm_mail`), and nothing else is sent to it before. Every instance runs
a `DigestCourier` that looks every ``ISHTAR_MAIL_POLL_S`` for confirmed addresses with games
waiting on them (their turn for ``ISHTAR_MAIL_DIGEST_WAIT_S`` or more, held, not away) and no
digest within ``ISHTAR_MAIL_DIGEST_PERIOD_S``; it takes the address's period in one
statement (app/store/mail.py, `claim`: only one instance can) and then sends one mail listing
every such game with its link. A mail that cannot be sent gives the period back to be tried
again later; one that was sent is never sent twice in a period, whatever crashes (at most
once). Each mail has a one-click unsubscribe link (and ``List-Unsubscribe`` with
``List-Unsubscribe-Post``, RFC 8058) signed with the server's ``mail_links`` key, which
forgets the address on every seat.

SMTP comes from the environment (``ISHTAR_SMTP_*``, ``ISHTAR_MAIL_FROM``); with none, e-mail
is off and the page does not offer it. smtplib runs in a thread, bounded by a timeout.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import smtplib
import ssl
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import quote

from app.background.web_push import Texts
from app.config.settings import Settings
from app.config.tasks import cancel_and_wait
from app.config.timesource import SYSTEM_TIME, TimeSource
from app.games import Registry
from app.store.mail import MailStore, Waiting

log = logging.getLogger("ishtar.mail")

LINK_KEY = "mail_links"
"""The name in ``server_secrets`` of the key that signs unsubscribe links."""
BATCH = 20
RETRY_S = 600.0


class Mailer:
    """Sends one message through the SMTP server of the settings."""

    def __init__(self, settings: Settings) -> None:
        self.host = settings.smtp_host or ""
        self.port = settings.smtp_port
        self.user = settings.smtp_user
        self.password = (
            settings.smtp_password.get_secret_value()
            if settings.smtp_password
            else None
        )
        self.security = settings.smtp_security
        self.timeout_s = settings.smtp_timeout_s
        self.sender = settings.mail_from or ""

    def _send(self, mail: EmailMessage) -> None:
        smtp: smtplib.SMTP
        if self.security == "tls":
            smtp = smtplib.SMTP_SSL(
                self.host,
                self.port,
                timeout=self.timeout_s,
                context=ssl.create_default_context(),
            )
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout_s)
        with smtp:
            if self.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if self.user and self.password:
                smtp.login(self.user, self.password)
            smtp.send_message(mail)

    async def send(self, to: str, subject: str, text: str, **headers: str) -> None:
        """Send a plain-text mail; smtplib's or the socket's error if it fails."""
        mail = EmailMessage()
        mail["From"] = self.sender
        mail["To"] = to
        mail["Subject"] = subject
        mail["Date"] = formatdate(localtime=False)
        mail["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        mail["Auto-Submitted"] = "auto-generated"
        for name, value in headers.items():
            mail[name.replace("_", "-")] = value
        mail.set_content(text)
        await asyncio.wait_for(asyncio.to_thread(self._send, mail), self.timeout_s * 3)


KeySource = Callable[[], Awaitable[bytes]]


class LinkKey:
    """Signs and checks unsubscribe links; the key is read from `source` once."""

    def __init__(self, source: KeySource) -> None:
        self._source = source
        self._key: bytes | None = None

    def __repr__(self) -> str:
        return "LinkKey(<secret>)"

    async def sign(self, address: str) -> str:
        if self._key is None:
            self._key = await self._source()
        digest = hmac.new(self._key, f"unsubscribe/{address}".encode(), hashlib.sha256)
        return digest.hexdigest()[:32]

    async def check(self, address: str, signature: str) -> bool:
        return hmac.compare_digest(await self.sign(address), signature)


async def unsubscribe_url(key: LinkKey, base_url: str, address: str, lang: str) -> str:
    signature = await key.sign(address)
    return (
        f"{base_url.rstrip('/')}/mail/unsubscribe?a={quote(address, safe='')}"
        f"&t={signature}&lang={lang}"
    )


async def confirm_mail(
    mailer: Mailer, texts: Texts, lang: str, address: str, url: str, names: str
) -> None:
    """The mail that confirms an address: its link, and what it is for."""
    await mailer.send(
        address,
        texts(lang, "mail.confirm.subject", {}),
        texts(lang, "mail.confirm.body", {"url": url, "names": names}) + "\n",
    )


def _ago(texts: Texts, lang: str, seconds: float) -> str:
    if seconds >= 86400:
        return texts(lang, "time.days", {"n": round(seconds / 86400)})
    if seconds >= 3600:
        return texts(lang, "time.hours", {"n": round(seconds / 3600)})
    return texts(lang, "time.minutes", {"n": max(1, round(seconds / 60))})


def digest_text(
    texts: Texts,
    lang: str,
    games: list[Waiting],
    titles: Registry,
    now: datetime,
    unsubscribe: str,
) -> tuple[str, str]:
    """The subject and the text of one digest."""
    subject = texts(lang, "mail.digest.subject", {"n": len(games)})
    lines = [texts(lang, "mail.digest.intro", {"n": len(games)}), ""]
    for game in games:
        title = titles.get(game.game).title if game.game in titles else game.game
        waited = _ago(texts, lang, (now - game.since).total_seconds())
        names = ", ".join(name for name in game.names if name)
        lines.append(
            "- " + texts(lang, "mail.digest.game", {"game": title, "names": names})
        )
        lines.append("  " + texts(lang, "mail.digest.since", {"span": waited}))
        lines.append(f"  {game.base_url.rstrip('/')}/r/{game.room_id}")
        lines.append("")
    lines.append(texts(lang, "mail.digest.why", {}))
    lines.append(texts(lang, "mail.digest.unsubscribe", {"url": unsubscribe}))
    return subject, "\n".join(lines) + "\n"


class DigestCourier:
    """This instance's share of the digests: find the due ones, take each, send it."""

    def __init__(
        self,
        store: MailStore,
        mailer: Mailer,
        key: LinkKey,
        *,
        games: Registry,
        texts: Texts,
        period_s: float,
        wait_s: float,
        poll_s: float = 60.0,
        time: TimeSource = SYSTEM_TIME,
    ) -> None:
        self.store = store
        self.mailer = mailer
        self.key = key
        self.games = games
        self.texts = texts
        self.period_s = period_s
        self.wait_s = wait_s
        self.poll_s = poll_s
        self.time = time
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as error:
                log.warning("mail digest failed: %s", error)
            await self.time.sleep(self.poll_s, self._wake)
            self._wake.clear()

    async def run_once(self) -> int:
        """Send the digests due now; how many were sent."""
        ahead = self.time.ahead_s()
        sent = 0
        for address in await self.store.due(self.period_s, self.wait_s, ahead, BATCH):
            if not await self.store.claim(address, self.period_s, ahead):
                continue  # another instance took it
            games = await self.store.waiting(address, self.wait_s, ahead)
            if not games:
                continue
            try:
                await self.send(address, games)
            except (OSError, smtplib.SMTPException, TimeoutError) as error:
                log.warning("digest to an address failed: %s", error)
                await self.store.release(address, self.period_s, RETRY_S, ahead)
                continue
            sent += 1
        return sent

    async def send(self, address: str, games: list[Waiting]) -> None:
        lang, base_url = games[0].lang, games[0].base_url
        unsubscribe = await unsubscribe_url(self.key, base_url, address, lang)
        now = datetime.now(UTC) + timedelta(seconds=self.time.ahead_s())
        subject, text = digest_text(
            self.texts, lang, games, self.games, now, unsubscribe
        )
        await self.mailer.send(
            address,
            subject,
            text,
            List_Unsubscribe=f"<{unsubscribe}>",
            List_Unsubscribe_Post="List-Unsubscribe=One-Click",
        )
