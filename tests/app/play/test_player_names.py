"""Player names get the chat's treatment (issue 33): the bidi embeddings, overrides and
isolates are removed, and what chat refuses in a name is refused in a seat's name, on every
path a person names a seat (creating a room, joining, a seat handed to a person).

Before, "Ana\u202e" was kept as written: the right-to-left override turned around whatever
followed her name (the log's "Ana\u202e placed a tile" read backwards), while chat stripped
it from a spectator's name."""

from __future__ import annotations

import httpx
import pytest

from app.config.settings import Settings
from tests.app.clients import bearer


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    return room_settings.model_copy(update={"rooms_per_minute": 1000})


# What a person sends -> the seat's name as kept and shown.
CLEANED = {
    "Ana\u202e": "Ana",
    "\u202eBo\u202c": "Bo",
    "\u2066Cy\u2069 \u2067Dee\u2068": "Cy Dee",
    "\u202aEd\u202b\u202d": "Ed",
}
# Names chat refuses, refused for a seat too (400 malformed), and the words of the refusal.
REFUSED = {
    "\u202e": "A name is empty.",
    "\u200b\u200b": "A name is empty.",
    "a\u2028b": "may not contain control characters or line breaks",
}


async def names(http: httpx.AsyncClient, room_id: str) -> list[str | None]:
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    return [seat["name"] for seat in status["seats"]]


@pytest.mark.parametrize("given", list(CLEANED))
async def test_a_seats_name_is_kept_without_bidi_controls(
    http: httpx.AsyncClient, given: str
) -> None:
    kept = CLEANED[given]
    created = await http.post(
        "/api/rooms", json={"players": 2, "name": given, "seat_order": "fixed"}
    )
    assert created.status_code == 201, created.text
    room_id, host = created.json()["room_id"], created.json()["host_token"]
    joined = await http.post(f"/api/rooms/{room_id}/seats", json={"name": given})
    assert joined.status_code == 201, joined.text
    assert await names(http, room_id) == [kept, kept]
    started = await http.post(f"/api/rooms/{room_id}/start", headers=bearer(host))
    assert started.status_code == 200, started.text
    handed = await http.post(
        f"/api/rooms/{room_id}/seats/1/person",
        json={"name": f"Zoe{given}"},
        headers=bearer(host),
    )
    assert handed.status_code == 201, handed.text
    assert await names(http, room_id) == [kept, f"Zoe{kept}"]
    history = (await http.get(f"/api/rooms/{room_id}/seat-history")).json()
    assert "\u202e" not in str(history) and "\u2066" not in str(history)


@pytest.mark.parametrize("given", list(REFUSED))
async def test_a_name_chat_refuses_is_refused_for_a_seat(
    http: httpx.AsyncClient, given: str
) -> None:
    words = REFUSED[given]
    created = await http.post("/api/rooms", json={"players": 2, "name": given})
    assert created.status_code == 400, created.text
    assert created.json()["error"]["code"] == "malformed"
    assert words in created.json()["error"]["reason"]
    room = (await http.post("/api/rooms", json={"players": 2, "name": "Ana"})).json()
    joined = await http.post(
        f"/api/rooms/{room['room_id']}/seats", json={"name": given}
    )
    assert joined.status_code == 400, joined.text
    assert words in joined.json()["error"]["reason"]
    assert await names(http, room["room_id"]) == ["Ana", None]  # nothing changed
