"""Which webhook URLs the server may call: the guard against server-side request forgery.

A webhook URL is chosen by a player, so the server must not become their way into its own
network. Only http and https, on the default ports or 1024-65535, with no credentials in the
URL; the host is resolved at every call and refused if any of its addresses is not a public
unicast address (loopback, private, link-local, shared, multicast, reserved, IPv4-mapped
variants of them), unless ``webhook_allow_private`` is set (tests, closed networks). The
courier (app/webhooks.py) connects to the address that was checked (no second lookup to
rebind), follows no redirect, and reads nothing of the answer but its status.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

from app.protocol import ServiceError

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
    >>> allowed_address(ipaddress.ip_address("127.0.0.1"), True)
    True
    """
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    if address.is_multicast or address.is_unspecified:
        return False
    return allow_private or address.is_global


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
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise _bad("A webhook URL starts with https:// (or http://).")
    if not parts.hostname:
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
    host = parts.hostname.rstrip(".").lower()
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


def _bad(reason: str) -> ServiceError:
    return ServiceError("bad_webhook", reason)


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
