"""Which webhook URLs the server may call: the guard against server-side request forgery.

A webhook URL is chosen by a player, so the server must not become their way into its own
network. Only http and https, on the default ports or 1024-65535, with no credentials in the
URL; the host is resolved at every call and refused if any of its addresses is not a public
unicast address (loopback, private, link-local, shared, multicast, reserved), unless
``webhook_allow_private`` is set (tests, closed networks). An IPv6 address that carries an
IPv4 address (IPv4-mapped, -translated and -compatible, NAT64 64:ff9b::/96, 6to4, Teredo)
reaches that IPv4 host through a translator or tunnel, so the IPv4 address is checked too;
local-use NAT64 (64:ff9b:1::/48) and the deprecated site-local fec0::/10 are refused. The
courier (app/background/webhooks.py) connects to the address that was checked (no second lookup to
rebind), follows no redirect, and reads nothing of the answer but its status.

The couriers' clients (`courier_client`) share one TLS context a process: building one loads
the whole CA bundle, 25-50 ms of CPU, and every app start built two (a test run starts
hundreds of apps in a process; docs/journal/benchmarks-history.md, "Seventh pass").
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import socket
import ssl
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

import httpx

from app.play.protocol import ServiceError, msg

MAX_URL = 2048

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class Refused(Exception):
    """The URL (or what its host resolves to) may not be called."""


def allowed_address(address: Address, allow_private: bool) -> bool:
    """Whether a call may go to this address.

    >>> allowed_address(ipaddress.ip_address("93.184.216.34"), False)
    True
    >>> [allowed_address(ipaddress.ip_address(a), False)
    ...  for a in ("127.0.0.1", "10.1.2.3", "169.254.169.254", "::1", "::ffff:127.0.0.1")]
    [False, False, False, False, False]
    >>> [allowed_address(ipaddress.ip_address(a), False)
    ...  for a in ("64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::1", "::169.254.169.254")]
    [False, False, False]
    >>> allowed_address(ipaddress.ip_address("64:ff9b::808:808"), False)
    True
    >>> allowed_address(ipaddress.ip_address("127.0.0.1"), True)
    True
    """
    if address.is_multicast or address.is_unspecified:
        return False
    if allow_private:
        return True
    if isinstance(address, ipaddress.IPv4Address):
        return address.is_global
    if any(address in network for network in _NEVER_PUBLIC):
        return False
    embedded = embedded_ipv4(address)
    if embedded:
        # The IPv4 host is the one reached (through a translator or a tunnel); the IPv6
        # prefixes carrying it are flagged reserved or not by Python's version, not by use.
        return all(allowed_address(inner, False) for inner in embedded)
    return address.is_global


_NEVER_PUBLIC = (
    ipaddress.IPv6Network("64:ff9b:1::/48"),  # local-use NAT64 (RFC 8215)
    ipaddress.IPv6Network("fec0::/10"),  # site-local (deprecated by RFC 3879)
)
_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")  # IPv4-translated (RFC 2765)
_COMPATIBLE = ipaddress.IPv6Network("::/96")  # IPv4-compatible (RFC 4291, deprecated)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # well-known NAT64 prefix (RFC 6052)


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (none for an ordinary one).

    >>> [str(a) for a in embedded_ipv4(ipaddress.IPv6Address("64:ff9b::a9fe:a9fe"))]
    ['169.254.169.254']
    >>> [str(a) for a in embedded_ipv4(ipaddress.IPv6Address("::ffff:0:7f00:1"))]
    ['127.0.0.1']
    >>> embedded_ipv4(ipaddress.IPv6Address("2606:2800:220:1:248:1893:25c8:1946"))
    []
    """
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address.sixtofour is not None:
        return [address.sixtofour]
    if address.teredo is not None:
        return list(address.teredo)  # the Teredo server and the (unmasked) client
    low = ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
    if any(address in network for network in (_TRANSLATED, _COMPATIBLE, _NAT64)):
        return [low]
    return []


def check_url(url: str, allow_private: bool = False) -> str:
    """The URL as it will be called, or a ServiceError `bad_webhook` saying why not.

    >>> check_url("https://chat.example/hooks/abc?x=1#frag")
    'https://chat.example/hooks/abc?x=1'
    >>> try:
    ...     check_url("ftp://chat.example/")
    ... except ServiceError as error:
    ...     print(error.code)
    bad_webhook
    """
    if len(url) > MAX_URL or any(ch <= " " or ch == "\x7f" for ch in url):
        raise _bad("A webhook URL is at most 2048 characters, without spaces.")
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError:  # e.g. an unclosed IPv6 bracket: "http://[::1/"
        raise _bad("The webhook URL cannot be read: check its host.") from None
    if parts.scheme not in ("http", "https"):
        raise _bad("A webhook URL starts with https:// (or http://).")
    if not hostname:
        raise _bad("A webhook URL needs a host.")
    if parts.username is not None or parts.password is not None:
        raise _bad("Put no user or password in a webhook URL; use a secret path.")
    try:
        port = parts.port
    except ValueError:
        raise _bad(
            "The port of the webhook URL is not a number from 1 to 65535."
        ) from None
    if port is not None and port not in (80, 443) and not 1024 <= port <= 65535:
        raise _bad("A webhook URL uses port 80, 443, or one from 1024 to 65535.")
    host = hostname.rstrip(".").lower()
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    local_name = host == "localhost" or host.endswith(
        (".localhost", ".local", ".internal")
    )
    if not allow_private and (
        local_name or (literal is not None and not allowed_address(literal, False))
    ):
        raise _bad("A webhook URL must point to a public address.")
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", parts.query, ""))


# Each refusal of a webhook URL, and its message's key (static/i18n/*.json).
BAD_KEYS = {
    "A webhook URL is at most 2048 characters, without spaces.": "too_long",
    "The webhook URL cannot be read: check its host.": "unreadable",
    "A webhook URL starts with https:// (or http://).": "scheme",
    "A webhook URL needs a host.": "no_host",
    "Put no user or password in a webhook URL; use a secret path.": "credentials",
    "The port of the webhook URL is not a number from 1 to 65535.": "port_number",
    "A webhook URL uses port 80, 443, or one from 1024 to 65535.": "port",
    "A webhook URL must point to a public address.": "private",
}


def _bad(reason: str) -> ServiceError:
    key = BAD_KEYS.get(reason)
    words = msg(f"error.bad_webhook.{key}") if key else None
    return ServiceError("bad_webhook", reason, message=words)


async def resolve(host: str, port: int, allow_private: bool) -> Address:
    """The address to call for `host`; Refused if any of its addresses is not allowed."""
    try:
        literal: Address = ipaddress.ip_address(host)
        addresses = [literal]
    except ValueError:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM
            )
        except OSError as error:
            raise Refused(f"cannot resolve {host}: {error}") from None
        addresses = [ipaddress.ip_address(info[4][0]) for info in infos]
    if not addresses:
        raise Refused(f"{host} has no address")
    for address in addresses:
        if not allowed_address(address, allow_private):
            raise Refused(f"{host} resolves to a non-public address")
    return addresses[0]


@functools.cache
def _tls() -> ssl.SSLContext:
    """The CA bundle httpx verifies with by default (not the environment's: the couriers'
    clients ignore it), loaded once; a context is safe to share between clients."""
    return httpx.create_ssl_context(trust_env=False)


def courier_client(timeout_s: float) -> httpx.AsyncClient:
    """A client for `post_pinned`: no redirect followed, no proxy or CA bundle taken from the
    environment (the call goes to the address that was checked)."""
    return httpx.AsyncClient(
        timeout=timeout_s, follow_redirects=False, trust_env=False, verify=_tls()
    )


async def post_pinned(
    client: httpx.AsyncClient,
    url: str,
    content: bytes,
    headers: Mapping[str, str],
    allow_private: bool,
) -> int:
    """POST `content` to `url` at the very address that was checked (the URL's host replaced
    by it, the ``Host`` header and TLS SNI set to the name), follow no redirect, read nothing
    of the answer but its status. Refused if the URL cannot be read or its host is not
    public; httpx's errors if the call fails. Used by the webhook and the push couriers."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:  # stored before URLs were parsed this strictly
        raise Refused(f"{url[:100]!r} cannot be read") from None
    port = port or (443 if parts.scheme == "https" else 80)
    address = await resolve(host, port, allow_private)
    pinned = f"[{address}]" if address.version == 6 else str(address)
    netloc = pinned if parts.port is None else f"{pinned}:{parts.port}"
    target = urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    request = client.build_request(
        "POST",
        target,
        content=content,
        headers={"Host": parts.netloc.rpartition("@")[2], **headers},
        extensions={"sni_hostname": host} if parts.scheme == "https" else {},
    )
    response = await client.send(request, stream=True)
    await response.aclose()  # the answer's body is never read
    return response.status_code
