"""Table chat, its service and HTTP API (docs/protocol.md, "Table chat"): what a message may
hold, who writes and reads which channel, the host's switch, the limits and the bound on a
room's messages, paging, hostile text, and that a game record never holds chat."""

from __future__ import annotations

import json
import tracemalloc
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.play.chat import (
    PER_WINDOW,
    SendWindow,
    Windows,
    clean_name,
    clean_text,
)
from app.play.protocol import ServiceError
from app.play.text import MAX_TEXT
from tests.app.clients import bearer, open_room
from tests.support.allocations import trace_alone
from tests.support.databases import TestDatabases

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('x')</script>",
    '"><svg onload=alert(1)>',
    "&lt;b&gt; &amp; &#60;",
    "مرحبا بالعالم abc",  # right-to-left script, as it is
    "zero\u200bwidth\u200djoiner",
    "👩\u200d👩\u200d👧 family",
]


# --- the text ---------------------------------------------------------------------------


def test_text_is_trimmed_and_kept_as_written() -> None:
    assert clean_text("  well played  ") == "well played"
    for text in HOSTILE:
        assert clean_text(text) == text


def test_bidi_overrides_and_isolates_are_stripped() -> None:
    # An override would make the rest of the line read backwards ("Trojan Source").
    assert clean_text("ab\u202ecd\u202c ef") == "abcd ef"
    assert clean_text("\u2066x\u2069 \u2067y\u2068") == "x y"


@pytest.mark.parametrize(
    "text",
    [
        "a\x00b",
        "line\nbreak",
        "tab\there",
        "esc\x1b[31m",
        "del\x7f",
        "c1\x85",
        "ls\u2028x",
    ],
)
def test_control_characters_and_line_breaks_are_refused(text: str) -> None:
    with pytest.raises(ServiceError) as refused:
        clean_text(text)
    assert refused.value.code == "malformed"
    assert "control characters" in refused.value.reason


def test_a_lone_surrogate_is_refused() -> None:
    with pytest.raises(ServiceError) as refused:
        clean_text("a\ud800b")
    assert refused.value.code == "malformed"


@pytest.mark.parametrize(
    "text", ["", "   ", "\u200b\u200b", " \u202e ", "\ufeff", "\u0301"]
)
def test_a_text_that_shows_nothing_is_refused(text: str) -> None:
    with pytest.raises(ServiceError) as refused:
        clean_text(text)
    assert refused.value.code == "malformed"
    assert refused.value.reason == "A chat message is empty."


def test_length_is_counted_in_characters_after_trimming() -> None:
    assert len(clean_text("x" * MAX_TEXT)) == MAX_TEXT
    assert clean_text("  " + "é" * MAX_TEXT + "  ") == "é" * MAX_TEXT
    assert len(clean_text("🌼" * MAX_TEXT)) == MAX_TEXT  # 4 bytes each, one character
    with pytest.raises(ServiceError) as refused:
        clean_text("x" * (MAX_TEXT + 1))
    assert "at most 500 characters (this one has 501)" in refused.value.reason


def test_a_spectator_name_is_cleaned_or_defaults() -> None:
    assert clean_name(None) == "Spectator"
    assert clean_name("  Zed ") == "Zed"
    with pytest.raises(ServiceError):
        clean_name("x" * 25)
    with pytest.raises(ServiceError):
        clean_name("a\nb")


# --- the windows ------------------------------------------------------------------------


def test_a_window_allows_five_in_any_ten_seconds() -> None:
    window = SendWindow(5, 10.0)
    for second in range(5):
        assert window.wait(now=100.0 + second) == 0
        window.record(now=100.0 + second)
    assert window.wait(now=104.5) == pytest.approx(5.5)  # the first leaves at 110
    assert window.wait(now=110.0) == 0
    window.record(now=110.0)
    assert window.wait(now=110.5) == pytest.approx(0.5)  # the second leaves at 111


def test_windows_keep_a_bounded_number_of_addresses() -> None:
    windows = Windows(5, 10.0, keys=3)
    for n in range(10):
        windows.of(f"192.0.2.{n}").record(now=0.0)
    assert len(windows) == 3
    first = windows.of("192.0.2.0")  # forgotten: a fresh window
    assert first.wait(now=0.0) == 0 and not first.times


# --- over HTTP --------------------------------------------------------------------------


async def post(
    http: httpx.AsyncClient, room: str, token: str | None = None, **body: Any
) -> httpx.Response:
    return await http.post(f"/api/rooms/{room}/chat", json=body, headers=bearer(token))


async def texts(
    http: httpx.AsyncClient, room: str, token: str | None = None
) -> list[str]:
    answer = await http.get(f"/api/rooms/{room}/chat", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return [m["text"] for m in answer.json()["messages"]]


async def test_players_write_the_table_and_spectators_their_own_channel(
    http: httpx.AsyncClient,
) -> None:
    room, _host, tokens = await open_room(http, 2)
    said = await post(http, room, tokens[1], text="hello table")
    assert said.status_code == 201, said.text
    message = said.json()["message"]
    assert message["seq"] == 1 and message["channel"] == "table"
    assert (
        message["seat"] == 1 and message["role"] == "player" and message["name"] == "P1"
    )
    watcher = await post(http, room, text="go blue", name="Zed")
    assert watcher.json()["message"] == {
        **watcher.json()["message"],
        "seq": 2,
        "channel": "spectators",
        "seat": None,
        "role": "spectator",
        "name": "Zed",
    }
    anonymous = await post(http, room, text="me too")
    assert anonymous.json()["message"]["name"] == "Spectator"
    # A player reads the table's channel only; a spectator both.
    assert await texts(http, room, tokens[0]) == ["hello table"]
    assert await texts(http, room) == ["hello table", "go blue", "me too"]
    page = (await http.get(f"/api/rooms/{room}/chat", headers=bearer(tokens[0]))).json()
    assert page["channels"] == ["table"] and page["earlier"] is False


async def test_lobby_lines_follow_their_authors_to_the_seats_drawn_at_the_start(
    http: httpx.AsyncClient,
) -> None:
    # 4 seats drawn at random: rooms until the draw moves someone (1 in 24 keeps all)
    for _attempt in range(10):
        created = (
            await http.post(
                "/api/rooms", json={"players": 4, "name": "P0", "seat_order": "random"}
            )
        ).json()
        room = created["room_id"]
        tokens = {"P0": created["token"]}
        for n in range(1, 4):
            joined = await http.post(f"/api/rooms/{room}/seats", json={"name": f"P{n}"})
            tokens[f"P{n}"] = joined.json()["token"]
        for name, token in tokens.items():
            said = await post(http, room, token, text=f"I am {name}")
            assert said.status_code == 201, said.text
            assert said.json()["message"]["seat"] == int(name[1:])  # the lobby's seat
        started = await http.post(
            f"/api/rooms/{room}/start", headers=bearer(created["host_token"])
        )
        assert started.status_code == 200, started.text
        seats = {s["name"]: s["seat"] for s in started.json()["seats"]}
        if all(seats[name] == int(name[1:]) for name in tokens):
            continue
        answer = await http.get(f"/api/rooms/{room}/chat", headers=bearer(tokens["P0"]))
        lines = answer.json()["messages"]
        assert {m["name"]: m["seat"] for m in lines} == seats
        return
    raise AssertionError("no draw moved a seat in 10 rooms")


async def test_each_role_writes_only_its_channel(http: httpx.AsyncClient) -> None:
    room, _host, tokens = await open_room(http, 2)
    as_player = await post(http, room, tokens[0], channel="spectators", text="psst")
    assert as_player.status_code == 403
    assert as_player.json()["error"]["code"] == "forbidden"
    as_spectator = await post(http, room, channel="table", text="psst")
    assert as_spectator.status_code == 403
    assert as_spectator.json()["error"]["code"] == "forbidden"
    named = await post(http, room, tokens[0], text="hi", name="Not me")
    assert named.status_code == 400 and named.json()["error"]["code"] == "malformed"
    assert await texts(http, room) == []


async def test_the_spectators_channel_opens_to_the_players_at_the_end(
    http: httpx.AsyncClient,
) -> None:
    room, _host, tokens = await open_room(http, 1)
    await post(http, room, text="they should play the 3")
    await post(http, room, tokens[0], text="thinking")
    assert await texts(http, room, tokens[0]) == ["thinking"]
    await finish(http, room, tokens)
    assert await texts(http, room, tokens[0]) == ["they should play the 3", "thinking"]


async def finish(http: httpx.AsyncClient, room: str, tokens: list[str]) -> None:
    """Play the room's game to its end over HTTP (any legal action)."""
    while True:
        for token in tokens:
            state = (
                await http.get(f"/api/rooms/{room}/view", headers=bearer(token))
            ).json()
            if state["status"] == "finished":
                return
            if state["legal"]:
                answer = await http.post(
                    f"/api/rooms/{room}/moves",
                    headers=bearer(token),
                    json={
                        "move": state["legal"][0]["action"],
                        "expected_version": state["version"],
                        "move_id": uuid.uuid4().hex,
                    },
                )
                assert answer.status_code == 200, answer.text


async def test_the_host_turns_spectator_chat_off_and_on(
    http: httpx.AsyncClient,
) -> None:
    room, host, tokens = await open_room(http, 2)
    url = f"/api/rooms/{room}/chat/settings"
    status = (await http.get(f"/api/rooms/{room}")).json()
    assert status["chat"] == {"spectators": True}
    for intruder in (None, tokens[1]):
        refused = await http.put(
            url, json={"spectators": False}, headers=bearer(intruder)
        )
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["code"] == "forbidden"
        assert "Only the host" in refused.json()["error"]["reason"]
    assert (await http.get(f"/api/rooms/{room}")).json()["chat"] == {"spectators": True}
    revision = status["revision"]
    off = await http.put(url, json={"spectators": False}, headers=bearer(host))
    assert off.status_code == 200 and off.json() == {"spectators": False}
    status = (await http.get(f"/api/rooms/{room}")).json()
    assert (
        status["chat"] == {"spectators": False} and status["revision"] == revision + 1
    )
    refused = await post(http, room, text="can I?")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "spectator_chat_off"
    assert (
        await post(http, room, tokens[0], text="players still can")
    ).status_code == 201
    # The host seat's token is the host's too.
    on = await http.put(url, json={"spectators": True}, headers=bearer(tokens[0]))
    assert on.status_code == 200
    assert (await post(http, room, text="now I can")).status_code == 201
    assert await texts(http, room) == ["players still can", "now I can"]
    malformed = await http.put(url, json={"spectators": "no"}, headers=bearer(host))
    assert malformed.status_code == 400


async def test_a_seat_token_sends_at_most_five_in_ten_seconds(
    http: httpx.AsyncClient,
) -> None:
    room, _host, tokens = await open_room(http, 2)
    for n in range(PER_WINDOW):
        assert (await post(http, room, tokens[0], text=f"m{n}")).status_code == 201
    flood = await post(http, room, tokens[0], text="one too many")
    assert flood.status_code == 429
    error = flood.json()["error"]
    assert error["code"] == "rate_limited"
    assert 0 < error["retry_after_s"] <= 10
    assert f"retry in {error['retry_after_s']:g} s" in error["reason"]
    assert "one too many" not in await texts(http, room)
    # Another seat is not held back by it.
    assert (await post(http, room, tokens[1], text="mine")).status_code == 201


async def test_a_client_address_of_spectators_is_limited_together(
    http: httpx.AsyncClient,
) -> None:
    room, _host, _tokens = await open_room(http, 2)
    sent = [(await post(http, room, text=f"s{n}")).status_code for n in range(16)]
    assert sent == [201] * 15 + [429]


async def test_a_room_keeps_its_latest_messages_only(room_app: FastAPI, http) -> None:
    room, _host, _tokens = await open_room(http, 2)
    store = room_app.state.rooms.store.chat
    for n in range(7):
        line = await store.append(
            room, channel="table", seat=0, seat_id=None, name="P0", text=f"t{n}", keep=3
        )
        assert not hasattr(line, "why") and line.seq == n + 1  # numbers go on
    page = await store.page(room, ("table", "spectators"), 100)
    assert [line.text for line in page.lines] == ["t4", "t5", "t6"]
    assert page.last_seq == 7 and page.earlier is False


async def test_earlier_messages_come_by_pages(room_app: FastAPI, http) -> None:
    room, _host, tokens = await open_room(http, 2)
    store = room_app.state.rooms.store.chat
    for n in range(130):
        channel, seat = ("spectators", None) if n % 10 == 9 else ("table", 0)
        await store.append(
            room,
            channel=channel,
            seat=seat,
            seat_id=None,
            name="X",
            text=f"{n}",
            keep=5000,
        )
    url = f"/api/rooms/{room}/chat"
    latest = (await http.get(url)).json()
    assert [m["seq"] for m in latest["messages"]] == list(range(31, 131))
    assert latest["earlier"] is True
    before = latest["messages"][0]["seq"]
    rest = (await http.get(url, params={"before": before})).json()
    assert [m["seq"] for m in rest["messages"]] == list(range(1, 31))
    assert rest["earlier"] is False
    # A player's pages hold no spectators' message, and say so in their counts.
    mine = (await http.get(url, headers=bearer(tokens[0]), params={"limit": 20})).json()
    assert [m["seq"] for m in mine["messages"]] == [
        s for s in range(108, 131) if s % 10 != 0
    ][-20:]
    assert all(m["channel"] == "table" for m in mine["messages"])


async def test_hostile_text_comes_back_as_json_text_exactly(
    http: httpx.AsyncClient,
) -> None:
    room, _host, tokens = await open_room(http, 2)
    for text in HOSTILE:
        assert (await post(http, room, text=text, name="<b>Zed</b>")).status_code in (
            201,
            429,
        )
    answer = await http.get(f"/api/rooms/{room}/chat")
    assert answer.headers["content-type"].startswith("application/json")
    messages = answer.json()["messages"]
    assert [m["text"] for m in messages] == HOSTILE[: len(messages)]
    assert {m["name"] for m in messages} == {"<b>Zed</b>"}
    await post(http, room, tokens[0], text="\u202eevil\u202c spoof")
    assert (await texts(http, room, tokens[0])) == ["evil spoof"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"text": 5}, 400, "malformed"),
        ({"text": ["a"]}, 400, "malformed"),
        ({}, 400, "malformed"),
        ({"text": "hi", "colour": "red"}, 400, "malformed"),
        ({"text": "hi", "channel": "players"}, 400, "malformed"),
        ({"text": "x" * 501}, 400, "malformed"),
        ({"text": "x" * 5000}, 400, "malformed"),
        ({"text": "nul\u0000"}, 400, "malformed"),
        ({"text": "   "}, 400, "malformed"),
        ({"text": "hi", "name": "x" * 30}, 400, "malformed"),
        ({"text": "hi", "name": "a\u0007"}, 400, "malformed"),
    ],
)
async def test_bad_messages_are_refused_with_a_code_and_change_nothing(
    http: httpx.AsyncClient, body: dict[str, Any], status: int, code: str
) -> None:
    room, _host, _tokens = await open_room(http, 2)
    answer = await post(http, room, **body)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code
    assert await texts(http, room) == []


async def test_a_lone_surrogate_in_the_json_is_refused(http: httpx.AsyncClient) -> None:
    room, _host, _tokens = await open_room(http, 2)
    for raw in ('{"text": "a\\ud800b"}', '{"text": "hi", "name": "\\udfff"}'):
        answer = await http.post(
            f"/api/rooms/{room}/chat",
            content=raw,
            headers={"content-type": "application/json"},
        )
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"]["code"] == "malformed"
    assert await texts(http, room) == []


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("before=0", "malformed"),
        ("before=abc", "malformed"),
        ("limit=101", "malformed"),
    ],
)
async def test_bad_pages_are_refused(
    http: httpx.AsyncClient, query: str, code: str
) -> None:
    room, _host, _tokens = await open_room(http, 2)
    answer = await http.get(f"/api/rooms/{room}/chat?{query}")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == code


async def test_unknown_rooms_and_tokens_are_refused(http: httpx.AsyncClient) -> None:
    room, _host, _tokens = await open_room(http, 2)
    for method, path, body in [
        ("GET", "/api/rooms/nope/chat", None),
        ("POST", "/api/rooms/nope/chat", {"text": "hi"}),
        ("PUT", "/api/rooms/nope/chat/settings", {"spectators": False}),
        ("GET", "/api/rooms/a%00b/chat", None),
    ]:
        answer = await http.request(method, path, json=body)
        assert answer.status_code == 404, (path, answer.text)
        assert answer.json()["error"]["code"] == "unknown_room"
    stranger = "x" * 43
    for method, body in [("GET", None), ("POST", {"text": "hi"})]:
        answer = await http.request(
            method, f"/api/rooms/{room}/chat", json=body, headers=bearer(stranger)
        )
        assert (
            answer.status_code == 401 and answer.json()["error"]["code"] == "bad_token"
        )
    assert await texts(http, room) == []


async def test_a_game_record_never_holds_the_chat(http: httpx.AsyncClient) -> None:
    room, _host, tokens = await open_room(http, 1)
    await post(http, room, tokens[0], text="secret table talk")
    await post(http, room, text="secret spectator talk")
    await finish(http, room, tokens)
    record = await http.get(f"/api/rooms/{room}/record")
    assert record.status_code == 200, record.text
    text = json.dumps(record.json())
    assert "secret" not in text and "chat" not in text


def test_the_address_windows_hold_a_bounded_number_of_bytes(
    test_databases: TestDatabases,
) -> None:
    windows = Windows(15, 10.0, keys=256)
    trace_alone(test_databases)  # this test's allocations alone
    try:
        before = tracemalloc.take_snapshot()
        for n in range(2_000):  # a flood of addresses, each filling its window
            window = windows.of(f"2001:db8::{n:x}")
            for second in range(15):
                window.record(now=float(second))
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    held = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert len(windows) == 256
    assert held <= 256 * 1.6 * 1024, held  # about 1.3 KiB an address
