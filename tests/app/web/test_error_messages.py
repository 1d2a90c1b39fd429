"""Refusals carry a message next to their English reason (docs/protocol.md, "Errors in the
reader's language"): a catalogue key with params, which the browser renders in French or
Dutch. The reason stays as it was, and the English pattern of each message, rendered with
its params, reads as that reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.background.webhook_targets import check_url
from app.live.channel import revoked_message, revoked_reason
from app.play.chat import clean_name, clean_text, retry_error
from app.play.protocol import ServiceError, parse_client_message
from app.store.rows import SeatRow
from engine.messages import render
from tests.app.clients import bearer

EN: dict[str, str] = json.loads(
    (Path(__file__).resolve().parents[3] / "static/i18n/en.json").read_text("utf-8")
)


# Messages whose English says it better than the reason kept for the API ("1 seat(s)").
IMPROVED = {"error.seats_open.free": "1 seat still free: fill them first."}


def english(message: dict[str, Any]) -> str:
    return render(EN, message, "en")


def refusal(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The error of a refused request, whose message reads as its reason in English."""
    assert answer.status_code == status, answer.text
    error: dict[str, Any] = answer.json()["error"]
    assert error["code"] == code
    key = error["message"]["key"]
    assert key.startswith(f"error.{code}."), error
    assert english(error["message"]) == IMPROVED.get(key, error["reason"])
    return error


async def test_seat_and_start_refusals_carry_messages(http: httpx.AsyncClient) -> None:
    created = (await http.post("/api/rooms", json={"players": 2, "name": "A"})).json()
    room, host = created["room_id"], created["host_token"]
    seats = f"/api/rooms/{room}/seats"
    start = f"/api/rooms/{room}/start"
    taken = refusal(
        await http.post(seats, json={"name": "B", "seat": 0}), 409, "seat_taken"
    )
    assert taken == {
        "code": "seat_taken",
        "reason": "That seat is already taken.",
        "message": {"key": "error.seat_taken.that", "params": {}},
    }
    wrong = refusal(
        await http.post(seats, json={"name": "B", "seat": 2}), 400, "malformed"
    )
    assert wrong["message"]["params"] == {"last": 1}
    free = refusal(await http.post(start, headers=bearer(host)), 409, "seats_open")
    assert free["message"] == {"key": "error.seats_open.free", "params": {"free": 1}}
    refusal(await http.post(start), 403, "forbidden")
    refusal(
        await http.post(start, headers={"Authorization": "Basic abc"}), 401, "bad_token"
    )
    await http.post(seats, json={"name": "B"})
    every = refusal(await http.post(seats, json={"name": "C"}), 409, "seat_taken")
    assert every["message"]["key"] == "error.seat_taken.every"
    refusal(await http.get("/api/rooms/nope"), 404, "unknown_room")


async def test_record_and_language_refusals_carry_messages(
    http: httpx.AsyncClient,
) -> None:
    not_json = await http.post(
        "/api/records", content=b"{nope", headers={"content-type": "application/json"}
    )
    refusal(not_json, 400, "malformed")
    refusal(await http.post("/api/records", json=[1, 2]), 422, "bad_record")
    unknown = refusal(await http.get("/i18n/de.json"), 404, "unknown_language")
    assert unknown["message"]["params"] == {"languages": "en, fr, nl"}


@pytest.mark.parametrize(
    ("call", "key"),
    [
        (lambda: clean_text("a\nb"), "error.malformed.control_characters"),
        (lambda: clean_text("   "), "error.malformed.empty"),
        (lambda: clean_text("x" * 501), "error.malformed.too_long"),
        (lambda: clean_name("y" * 25), "error.malformed.too_long"),
        (lambda: check_url("ftp://chat.example/"), "error.bad_webhook.scheme"),
        (lambda: check_url("https://localhost/x"), "error.bad_webhook.private"),
        (lambda: parse_client_message('{"type": "dance"}'), "error.unknown_type.type"),
        (lambda: parse_client_message("[1]"), "error.malformed.not_object"),
    ],
)
def test_checks_of_what_a_client_sends_carry_messages(call: Any, key: str) -> None:
    with pytest.raises(ServiceError) as raised:
        call()
    assert raised.value.message is not None
    assert raised.value.message["key"] == key
    assert english(raised.value.message) == raised.value.reason


@pytest.mark.parametrize("per", ["per connection", "from your address", "per seat"])
def test_a_chat_rate_limit_says_whose_window_in_its_message(per: str) -> None:
    error = retry_error(1.25, per)
    assert error.message is not None
    assert english(error.message) == error.reason


@pytest.mark.parametrize(
    "now",
    [
        None,
        SeatRow(1, 0, "Nabu (medium)", "medium", False, None),
        SeatRow(1, 0, "Cleo", None, False, b"x" * 32),
    ],
)
def test_a_revoked_seat_is_told_in_a_message(now: SeatRow | None) -> None:
    assert english(revoked_message(now)) == revoked_reason(now)


async def test_why_carries_the_engines_message(
    http: httpx.AsyncClient, rules: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.app.clients import open_room

    room_id, _host, _tokens = await open_room(http, 2, first_player=0)
    why = f"/api/rooms/{room_id}/why"
    illegal = {"move": {"type": "play", "card": 1}}
    answer = (await http.post(why, json=illegal)).json()
    assert answer["legal"] is False and answer["reason"]
    assert answer["message"]["key"].startswith("toy.reason.")
    legal = (await http.post(why, json={"move": {"type": "draw"}})).json()
    assert legal["legal"] is True and "message" not in legal
    # An engine that cannot judge: the server's own words, as a message too.
    monkeypatch.setattr(rules, "why_illegal", lambda state, action: 1 / 0)
    broken = (await http.post(why, json=illegal)).json()
    assert broken["reason"] == "The engine could not judge this move."
    assert english(broken["message"]) == broken["reason"]


async def test_refused_options_carry_messages(http: httpx.AsyncClient) -> None:
    def create(**body: Any) -> Any:
        return http.post(
            "/api/rooms", json={"name": "A", "game": "babylon-gardens", **body}
        )

    players = refusal(await create(players=1), 400, "bad_options")
    assert players["message"]["params"] == {
        "game": "Babylon Gardens",
        "min": 2,
        "max": 4,
    }
    # Options that are not an object are refused by the body's model, naming the field.
    listed = (await create(players=2, options=[1])).json()["error"]
    assert listed["code"] == "malformed" and listed["reason"].startswith("options: ")
    assert listed["message"] == {
        "key": "error.malformed.field",
        "params": {"field": "options"},
    }
    unknown = refusal(await create(players=2, options={"nope": 1}), 400, "bad_options")
    assert unknown["message"]["params"]["option"] == "nope"
    # A refused value: the English reason keeps pydantic's detail, the message names the
    # option (its sentence is the same in every language).
    answer = await create(players=2, options={"floor": 99})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["message"] == {
        "key": "error.bad_options.value",
        "params": {"option": "floor"},
    }
    assert error["reason"].startswith("Option 'floor': ")


async def test_malformed_bodies_name_the_field_in_their_message(
    http: httpx.AsyncClient,
) -> None:
    missing = (await http.post("/api/rooms", json={"name": "A"})).json()["error"]
    assert missing["message"] == {
        "key": "error.malformed.missing",
        "params": {"field": "players"},
    }
    assert english(missing["message"]) == "The field 'players' is missing."
    broken = await http.post(
        "/api/rooms", content=b"{", headers={"Content-Type": "application/json"}
    )
    error = refusal(broken, 400, "malformed")
    assert error["message"]["key"] == "error.malformed.body_not_json"
