"""`ishtar verify <record.json | room link | room id>`: check a game record, shuffle included.

Reads a record from a file, or fetches it from a server (`/api/rooms/<id>/record`), then
checks what docs/records.md promises: the revealed seed hashes to the SHA-256 commitment
published at the start, the set-up re-run from that seed draws the recorded public set-up, every
move replays legally with the same log line, and the final scores are the recorded ones.
Then where it comes from: its signature (valid, unsigned, or another server's) and whether
it is the game of the room it names, as the server it came from (or `--server`) says
(`POST /api/records/provenance`: only the server holds its signing key), or with the key
itself when `ISHTAR_RECORD_SIGNING_KEY` is set here. Prints each check and VERIFIED, or
FAILED with the first discrepancy.

Exit codes: 0 verified, 1 failed, 2 no record could be read, 3 the game is still in
progress (its seed is not revealed yet: the commitment is printed to keep).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import httpx

from app.config.settings import Settings, get_settings
from app.games import registry
from app.records import signing as record_signing
from app.records.gamerecord import (
    RecordError,
    check_record,
    record_setup,
    seed_commitment,
)
from app.records.reading import NotJson, read_record

Subparsers = Any

ROOM_LINK = re.compile(r"^(?P<base>https?://[^/]+)/r/(?P<room>[A-Za-z0-9_-]{4,64})")
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{4,64}$")


def register_verify(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="verify a game record: seed commitment, set-up and every move",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument(
        "source",
        help="a record file (.json), a room link (https://…/r/<id>) or a room id (one "
        "made before 2026-12-06 may begin with '-': write `-- ID`)",
    )
    parser.add_argument(
        "--server",
        help=(
            "base URL of the server for a bare room id (default: "
            "http://ISHTAR_HOST:ISHTAR_PORT), or to ask about a record file's signature and room"
        ),
    )
    parser.set_defaults(handler=verify)


class Unreadable(Exception):
    """No record could be obtained from the source."""


class NotARecord(Exception):
    """The source is JSON that no record can be (nested too deep, a number out of range):
    what the server refuses as `bad_record`."""


def load(source: str, server: str | None) -> tuple[dict[str, Any], str | None]:
    """The record named by `source` (a file, a room link, or a room id on `server`), and the
    server to ask about it (where it was fetched from, else `server`).

    Unreadable when there is none to read; NotARecord when it is JSON no record can be."""
    link = ROOM_LINK.match(source)
    path = Path(source)
    if link is None and (path.suffix == ".json" or path.exists()):
        try:
            data = path.read_bytes()
        except OSError as error:
            raise Unreadable(f"cannot read {source}: {error}") from None
        return _read(source, data), server.rstrip("/") if server else None
    if link is not None:
        base, room = link["base"], link["room"]
    elif ROOM_ID.match(source):
        settings = get_settings()
        base, room = server or f"http://{settings.host}:{settings.port}", source
    else:
        raise Unreadable(
            f"{source!r} is neither a record file, a room link nor a room id"
        )
    base = base.rstrip("/")
    url = f"{base}/api/rooms/{room}/record"
    try:
        response = httpx.get(url, timeout=30)
    except httpx.HTTPError as error:
        raise Unreadable(f"cannot fetch {url}: {error}") from None
    if response.status_code != 200:
        raise Unreadable(
            f"{url} answered {response.status_code}: {response.text[:200]}"
        )
    return _read(url, response.content), base


def _read(source: str, data: bytes) -> Any:
    """The JSON of a record read from `source`."""
    try:
        return read_record(data)
    except NotJson as error:
        raise Unreadable(f"cannot read {source}: not JSON ({error})") from None
    except RecordError as error:
        raise NotARecord(f"{source} is not a game record: {error.reason}") from None


def verify(args: argparse.Namespace) -> int:
    try:
        record, server = load(args.source, args.server)
    except Unreadable as error:
        print(f"ishtar verify: {error}", file=sys.stderr)
        return 2
    except NotARecord as error:
        print(f"ishtar verify: {error}", file=sys.stderr)
        print("FAILED")
        return 1
    settings = get_settings()
    games = registry(settings.extra_games)
    print(describe(record))
    if isinstance(record, dict) and record.get("seed") is None:
        print(
            "  The game is still in progress: its seed is revealed when it ends.\n"
            f"  Seed commitment (keep it to compare): {record.get('seed_sha256')}\n"
            "NOT YET VERIFIABLE"
        )
        return 3
    try:
        checked = check_record(games, record)
    except RecordError as error:
        print(f"  {error.reason}\nFAILED")
        return 1
    try:
        for line in provenance(record, server, settings):
            print(line)
    except Forged as error:
        print(f"  {error}\nFAILED")
        return 1
    seed = record["seed"]
    states = checked.states
    print(f'  seed commitment  sha256("{seed}") = {seed_commitment(seed)}  matches')
    options = record_setup(games, record)["options"]
    chosen = ", ".join(
        f"{key} {'(drawn)' if value is None else value}"
        for key, value in options.items()
    )
    print(
        f"  set-up           re-run from the seed: {checked.game.title}, "
        f"{chosen or 'no options'}"
    )
    print(
        f"  moves            {len(states) - 1} replayed: every one legal, "
        "every log line identical"
    )
    result = record.get("result")
    if result:
        names = {p["seat"]: p["name"] for p in record["players"]}
        totals = ", ".join(
            f"{names.get(p['seat'], p['seat'])} {p.get('total')}"
            for p in result.get("players", [])
        )
        print(f"  final scores     {totals}: identical to the record")
    for warning in checked.warnings:
        print(f"  note: {warning}")
    print("VERIFIED")
    return 0


class Forged(Exception):
    """The record's signature or its room says it is not what it claims to be."""


def provenance(
    record: dict[str, Any], server: str | None, settings: Settings
) -> list[str]:
    """The lines saying where the record comes from; Forged if it is not what it says."""
    answer: dict[str, Any] | None = None
    asked = ""
    if server is not None:
        answer, asked = ask(server, record)
    signature = answer.get("signature") if answer else None
    if settings.record_signing_key is not None:  # this machine holds the key itself
        key = settings.record_signing_key.get_secret_value().encode("utf-8")
        signature = record_signing.check(record, key).value
        if signature == record_signing.Signature.INVALID:
            raise Forged(
                "The record carries a signature of ISHTAR_RECORD_SIGNING_KEY that does "
                "not match it: it was changed after it was exported."
            )
    named = record.get("signature")
    key_id = named.get("key_id") if isinstance(named, dict) else None
    if signature == "valid":
        by = server or "the server of ISHTAR_RECORD_SIGNING_KEY"
        said = f"valid: exported by {by} (key {key_id}), unchanged since"
    elif signature == "other_server":
        said = f"signed by another server (key {key_id}): not checked here"
    elif "signature" not in record or named is None:
        said = "unsigned: exported before records were signed, or the signature removed"
    else:
        said = f"signed (key {key_id}), not checked: {asked or 'give --server'}"
    room = answer.get("room") if answer else None
    if room == "matches":
        where = (
            f"the game of room {record.get('room_id')} on {server}: same commitment, "
        )
        where += "set-up, players and moves"
    elif room == "not_here":
        where = f"names no room of {server}"
    else:
        where = f"not compared with its room: {asked or 'give --server'}"
    return [f"  signature        {said}", f"  room             {where}"]


def ask(server: str, record: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The server's word on the record's provenance (None, and why, if it gave none);
    Forged when it refuses the record as a forgery."""
    url = f"{server}/api/records/provenance"
    try:
        response = httpx.post(url, json=record, timeout=30)
    except httpx.HTTPError as error:
        return None, f"cannot ask {url}: {error}"
    if response.status_code == 422:
        raise Forged(_reason(response))
    if response.status_code != 200:
        return None, f"{url} answered {response.status_code}"
    answer: dict[str, Any] = response.json()
    return answer, ""


def _reason(response: httpx.Response) -> str:
    """The reason of a refusal in the documented shape, or the start of the body."""
    try:
        reason = response.json()["error"]["reason"]
    except (ValueError, RecursionError, TypeError, KeyError):
        reason = None
    if isinstance(reason, str):
        return reason[:500]
    return f"{response.url} answered {response.status_code}: {response.text[:200]}"


def describe(record: Any) -> str:
    """One line naming the record: room, game, engine, players."""
    if not isinstance(record, dict):
        return "Record: not a JSON object"
    players = ", ".join(
        f"{p.get('name')} ({p.get('colour') or 'seat ' + str(p.get('seat'))})"
        for p in record.get("players") or []
        if isinstance(p, dict)
    )
    return (
        f"Record of room {record.get('room_id')}: {record.get('game')}, engine "
        f"{record.get('engine_version')}, {record.get('status')}; {players}"
    )
