"""Replays and game records (issue 8): the replay equals the live game at every move, an
exported record imports back identical, the seed is committed at the start and revealed at
the end, and a record that was tampered with does not verify."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import random
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

import engine.ishtar as ishtar_engine
from app.config.settings import Settings
from app.ops import cli
from app.records.gamerecord import MAX_MOVES, RECORD_FORMAT, seed_commitment
from engine.ishtar.scoring import tiebreak_message
from tests.app.clients import bearer, open_room
from tests.app.conftest import GAMES

ISHTAR = "engine.ishtar"
BABYLON = "engine.babylon"


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    """Whole games as fast as the test can go: no rate limit in the way."""
    return room_settings.model_copy(
        update={
            "http_moves_per_s": 10_000.0,
            "rooms_per_minute": 10_000,
            "replay_requests_per_s": 10_000.0,
            "replay_burst": 10_000.0,
        }
    )


async def play(
    http: httpx.AsyncClient,
    room_id: str,
    tokens: list[str],
    seed: int,
    until: int | None = None,
) -> list[dict[str, Any]]:
    """Play by random legal actions (undo included) up to the end, or to `until` moves;
    the public view seen live after every move (index = version)."""
    rng = random.Random(seed)
    seen = [(await http.get(f"/api/rooms/{room_id}/view")).json()["view"]]
    while seen[-1]["phase"] != "over" and (until is None or len(seen) <= until):
        seat = seen[-1]["current"]
        mine = (
            await http.get(f"/api/rooms/{room_id}/view", headers=bearer(tokens[seat]))
        ).json()
        answer = await http.post(
            f"/api/rooms/{room_id}/moves",
            json={
                "move": rng.choice(mine["legal"])["action"],
                "expected_version": mine["version"],
                "move_id": uuid.uuid4().hex,
            },
            headers=bearer(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text
        seen.append((await http.get(f"/api/rooms/{room_id}/view")).json()["view"])
    return seen


async def finished_room(
    http: httpx.AsyncClient, players: int = 2, seed: int = 1
) -> tuple[str, list[str], list[dict[str, Any]], str]:
    """A room played to the end: (room, tokens, live public views, commitment at start)."""
    room_id, _host, tokens = await open_room(http, players)
    commitment = (await http.get(f"/api/rooms/{room_id}")).json()["seed_sha256"]
    seen = await play(http, room_id, tokens, seed)
    return room_id, tokens, seen, commitment


async def stored_seed(database_url: str, room_id: str) -> int:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            seed: int = (
                await conn.execute(
                    text("SELECT seed FROM games WHERE room_id = :r"), {"r": room_id}
                )
            ).scalar_one()
    finally:
        await engine.dispose()
    return seed


@pytest.mark.parametrize("game_module", GAMES)
async def test_replay_equals_the_live_game_at_every_move(
    http: httpx.AsyncClient, game_module: str
) -> None:
    room_id, _tokens, seen, _ = await finished_room(http, players=3, seed=7)
    for move, live in enumerate(seen):
        answer = (await http.get(f"/api/rooms/{room_id}/replay?move={move}")).json()
        assert answer["move"] == move
        assert answer["version"] == len(seen) - 1
        assert answer["view"] == live, f"replay differs from the live game at {move}"
        assert (answer["event"] is None) == (move == 0)
    latest = (await http.get(f"/api/rooms/{room_id}/replay")).json()
    assert latest["move"] == len(seen) - 1 and latest["status"] == "finished"
    log = (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    replayed = [
        (await http.get(f"/api/rooms/{room_id}/replay?move={m['seq']}")).json()["event"]
        for m in log[:5]
    ]
    assert replayed == log[:5]


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_a_game_in_progress_replays_up_to_now_and_keeps_its_seed(
    http: httpx.AsyncClient, database_url: str
) -> None:
    room_id, _host, tokens = await open_room(http, 2)
    seen = await play(http, room_id, tokens, seed=3, until=12)
    version = len(seen) - 1
    seed = await stored_seed(database_url, room_id)
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert status["seed_sha256"] == seed_commitment(seed)
    assert status["seed"] is None and status["rematch"] is None
    future = await http.get(f"/api/rooms/{room_id}/replay?move={version + 1}")
    assert future.status_code == 404
    assert future.json()["error"]["code"] == "no_such_move"
    now = (await http.get(f"/api/rooms/{room_id}/replay")).json()
    assert now["move"] == version and now["status"] == "playing"
    assert now["view"] == seen[-1]
    response = await http.get(f"/api/rooms/{room_id}/record")
    record = response.json()
    assert record["status"] == "playing" and record["seed"] is None
    assert record["result"] is None and record["version"] == version
    assert str(seed) not in response.text, "the seed leaked before the end"
    for move in range(version + 1):
        text = (await http.get(f"/api/rooms/{room_id}/replay?move={move}")).text
        assert str(seed) not in text
    refused = await http.post("/api/records", json=record)
    assert refused.status_code == 422
    assert "no seed" in refused.json()["error"]["reason"]


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_the_seed_committed_at_the_start_is_revealed_at_the_end(
    http: httpx.AsyncClient, database_url: str
) -> None:
    room_id, _tokens, seen, commitment = await finished_room(http)
    seed = await stored_seed(database_url, room_id)
    assert commitment == hashlib.sha256(str(seed).encode("ascii")).hexdigest()
    status = (await http.get(f"/api/rooms/{room_id}")).json()
    assert (status["seed"], status["seed_sha256"]) == (str(seed), commitment)
    record = (await http.get(f"/api/rooms/{room_id}/record")).json()
    assert record["format"] == RECORD_FORMAT and record["format_version"] == 3
    assert record["seed"] == str(seed) and record["seed_sha256"] == commitment
    assert record["status"] == "finished" and record["version"] == len(seen) - 1
    # The view's scores carry the tie-break's message too (for the reader's language);
    # the record keeps final_scores() as it was.
    shown = dict(seen[-1]["scores"])
    assert shown.pop("tiebreak_message", None) == tiebreak_message(shown)
    assert record["result"] == shown
    assert [p["name"] for p in record["players"]] == ["P0", "P1"] or sorted(
        p["name"] for p in record["players"]
    ) == ["P0", "P1"]
    assert [p["colour"] for p in record["players"]] == ["blue", "yellow"]
    assert record["game"] == "ishtar"
    assert record["setup"]["options"] == {
        "layout": "preset",
        "first_player": None,
        "turn_end": "explicit",
        "edition": "4",
    }
    assert record["public_setup"]["layout"] == seen[0]["layout"]
    assert record["public_setup"]["first_player"] == seen[0]["first_player"]
    assert record["engine_version"] == "1.5.0"


@pytest.mark.parametrize("game_module", GAMES)
async def test_export_then_import_is_identical(
    http: httpx.AsyncClient, game_module: str
) -> None:
    room_id, _tokens, seen, _ = await finished_room(http, players=2, seed=5)
    exported = await http.get(f"/api/rooms/{room_id}/record?download=1")
    assert "attachment" in exported.headers["content-disposition"]
    record = exported.json()
    body = json.dumps(record).encode()
    assert len(body) > 16 * 1024 or game_module != ISHTAR  # over the usual body limit
    imported = await http.post(
        "/api/records", content=body, headers={"Content-Type": "application/json"}
    )
    assert imported.status_code == 201, imported.text
    answer = imported.json()
    rid = answer["record_id"]
    assert answer["url"] == f"/records/{rid}" and answer["version"] == len(seen) - 1
    assert (await http.get(f"/api/records/{rid}")).json() == record
    again = await http.post("/api/records", json=record)
    assert again.json()["record_id"] == rid
    for move, live in enumerate(seen):
        view = (await http.get(f"/api/records/{rid}/replay?move={move}")).json()
        assert view["view"] == live
    assert (await http.get("/api/records/0123456789abcdef")).status_code == 404


def tampered(record: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """(what, record, words of the reason) for ways of tampering with a finished record."""
    cases = []

    def case(what: str, reason: str, change: Any) -> None:
        copied = copy.deepcopy(record)
        change(copied)
        cases.append((what, copied, reason))

    case("seed", "commitment", lambda r: r.update(seed=str(int(r["seed"]) + 1)))
    case("seed type", "decimal digits", lambda r: r.update(seed=int(r["seed"])))
    case("commitment", "commitment", lambda r: r.update(seed_sha256="0" * 64))
    case("format", "format version", lambda r: r.update(format_version=99))
    case("game", "record of", lambda r: r.update(game="chess"))
    case("count", "version", lambda r: r["moves"].pop())
    case("text", "the log says", lambda r: r["moves"][3].update(text="Blue won"))
    case("seat", "turn", lambda r: r["moves"][0].update(seat=1 - r["moves"][0]["seat"]))
    case("action", "Move 1", lambda r: r["moves"][0].update(action={"type": "dance"}))
    case(
        "scores", "final scores", lambda r: r["result"]["players"][0].update(total=999)
    )
    babylon = record["game"] == "babylon-gardens"
    if babylon:  # the floor the seed dealt, and a floor the game does not have

        def swap_tiles(r: dict[str, Any]) -> None:
            tiles = r["public_setup"]["tiles"]
            tiles[0]["tile"], tiles[1]["tile"] = tiles[1]["tile"], tiles[0]["tile"]

        case("floor tiles", "public set-up", swap_tiles)
        bad_option = {"floor": "attic"}
    else:
        case(
            "layout",
            "layout",
            lambda r: r["public_setup"]["layout"][0].update(rotation=5),
        )
        bad_option = {"layout": "spiral"}
    case(
        "first",
        # fixing the first seat skips the draw, which Babylon's public set-up shows
        "draws" if babylon else "first_player",
        lambda r: r["setup"]["options"].update(
            first_player=1 - r["public_setup"]["first_player"]
        ),
    )
    case(
        "public first",
        "first_player",
        lambda r: r["public_setup"].update(
            first_player=1 - r["public_setup"]["first_player"]
        ),
    )
    case(
        "options",
        "options are refused",
        lambda r: r["setup"]["options"].update(bad_option),
    )
    case("players", "players", lambda r: r["players"].pop())
    case("long", "more than", lambda r: r["moves"].extend(r["moves"][:1] * MAX_MOVES))
    return cases


@pytest.mark.parametrize("game_module", [ISHTAR, BABYLON])
async def test_tampered_records_are_refused_with_a_reason(
    http: httpx.AsyncClient,
) -> None:
    room_id, _tokens, _seen, _ = await finished_room(http)
    record = (await http.get(f"/api/rooms/{room_id}/record")).json()
    for what, bad, words in tampered(record):
        answer = await http.post("/api/records", json=bad)
        assert answer.status_code == 422, (what, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "bad_record"
        assert words.lower() in error["reason"].lower(), (what, error["reason"])
    older = copy.deepcopy(
        record
    )  # not this room's game any more: no room here, unsigned
    older["room_id"], older["signature"] = "elsewhere000", None
    older["engine_version"] = "0.9.0"
    older["moves"][3]["text"] = "Blue did what the old engine said"
    answer = await http.post("/api/records", json=older)
    assert answer.status_code == 201, (
        "another engine's words are a warning, not a fault"
    )
    assert [w[:8] for w in answer.json()["warnings"]] == ["The game", "Log line"]
    not_json = await http.post(
        "/api/records", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert not_json.status_code == 400
    for junk in ([1, 2], {"format": "x"}, "text"):
        answer = await http.post("/api/records", json=junk)
        assert answer.status_code == 422, answer.text


@pytest.mark.parametrize("game_module", [ISHTAR, BABYLON])
async def test_ishtar_verify_checks_a_file_and_a_room_link(
    web: tuple[str, httpx.AsyncClient],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    base, http = web
    room_id, _tokens, _seen, commitment = await finished_room(http)
    record = (await http.get(f"/api/rooms/{room_id}/record")).json()
    good = tmp_path / "record.json"
    good.write_text(json.dumps(record))
    assert await asyncio.to_thread(cli.main, ["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "VERIFIED" in out and commitment in out and record["seed"] in out
    for what, bad, _words in tampered(record):
        path = tmp_path / f"bad-{what}.json"
        path.write_text(json.dumps(bad))
        assert await asyncio.to_thread(cli.main, ["verify", str(path)]) == 1, what
        assert "FAILED" in capsys.readouterr().out
    url = f"{base}/r/{room_id}"
    assert await asyncio.to_thread(cli.main, ["verify", url]) == 0
    assert "VERIFIED" in capsys.readouterr().out
    by_id = ["verify", room_id, "--server", base]
    assert await asyncio.to_thread(cli.main, by_id) == 0
    assert await asyncio.to_thread(cli.main, ["verify", str(tmp_path / "no.json")]) == 2


# --- provenance: signatures and the room a record names (issue 13, point 10) ---------------

FIXTURE = Path(__file__).parents[2] / "fixtures" / "record-v1-unsigned.json"


def unsigned_v1() -> dict[str, Any]:
    """A record exported by the server before records were signed (format 1)."""
    record: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return record


def resigned(record: dict[str, Any], key: bytes) -> dict[str, Any]:
    from app.records import signing as record_signing

    return record_signing.sign(record, key)


async def refused(http: httpx.AsyncClient, record: Any, words: str) -> None:
    answer = await http.post("/api/records", json=record)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_record"
    assert words.lower() in error["reason"].lower(), error["reason"]


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_a_forgery_naming_a_room_of_this_server_is_refused(
    http: httpx.AsyncClient,
) -> None:
    """The attack: a game of another seed, invented players, a real room's id."""
    room_id, _tokens, _seen, _ = await finished_room(http, seed=1)
    genuine = (await http.get(f"/api/rooms/{room_id}/record")).json()
    other_id, _t, _s, _c = await finished_room(http, seed=2)
    other = (await http.get(f"/api/rooms/{other_id}/record")).json()
    other.pop("signature")
    forged = {**other, "room_id": room_id}
    forged["players"] = [{**p, "name": f"Mallory{p['seat']}"} for p in other["players"]]
    await refused(http, forged, f"names room {room_id} of this server")
    await refused(http, {**other, "room_id": room_id}, "seed commitment is another")
    renamed = copy.deepcopy(genuine)
    renamed.pop("signature")
    renamed["players"][1]["name"] = "Mallory"
    await refused(http, renamed, "nobody of that name held seat 1")
    unstarted = (await http.post("/api/rooms", json={"players": 2})).json()["room_id"]
    moved = {**other, "room_id": unstarted}
    await refused(http, moved, "has not started")
    # The forged game itself is consistent: under a room id of no room here it imports,
    # unsigned and matched to nothing, which is all it claims.
    elsewhere = {**other, "room_id": "NotARoomHere"}
    answer = await http.post("/api/records", json=elsewhere)
    assert answer.status_code == 201, answer.text
    assert answer.json()["provenance"] == {
        "signature": "unsigned",
        "key_id": None,
        "room": "not_here",
    }


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_exported_records_are_signed_and_a_changed_copy_is_told_apart(
    http: httpx.AsyncClient, database_url: str
) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.records import signing as record_signing

    room_id, _tokens, _seen, _ = await finished_room(http)
    record = (await http.get(f"/api/rooms/{room_id}/record")).json()
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as conn:
            key = bytes(
                (
                    await conn.execute(text("SELECT key FROM record_signing_key"))
                ).scalar_one()
            )
    finally:
        await engine.dispose()
    assert len(key) >= 32
    assert record["signature"]["algorithm"] == "HMAC-SHA256"
    assert record["signature"]["key_id"] == record_signing.key_id(key)
    assert record_signing.check(record, key) is record_signing.Signature.VALID
    for exported in (
        json.dumps(record),
        (await http.get(f"/api/rooms/{room_id}")).text,
    ):
        assert key.hex() not in exported and str(list(key)) not in exported
    answer = await http.post("/api/records", json=record)
    assert answer.status_code == 201, answer.text
    assert answer.json()["provenance"] == {
        "signature": "valid",
        "key_id": record_signing.key_id(key),
        "room": "matches",
    }
    stripped = {k: v for k, v in record.items() if k != "signature"}
    asked = await http.post("/api/records/provenance", json=stripped)
    assert asked.status_code == 200
    assert asked.json() == {"signature": "unsigned", "key_id": None, "room": "matches"}
    foreign = resigned(stripped, b"another server's key, 32 bytes.!")
    asked = await http.post("/api/records/provenance", json=foreign)
    assert asked.json()["signature"] == "other_server"
    recoloured = copy.deepcopy(
        record
    )  # the replay does not look at colours: the MAC does
    recoloured["players"][0]["colour"] = "red"
    await refused(http, recoloured, "changed after it was exported")
    asked = await http.post("/api/records/provenance", json=recoloured)
    assert asked.status_code == 422
    for junk in ({"signature": "x"}, {"signature": {"algorithm": "HMAC-SHA256"}}):
        asked = await http.post("/api/records/provenance", json={**record, **junk})
        assert asked.status_code == 422, junk


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_the_signing_key_survives_a_restart_and_the_setting_overrides_it(
    room_settings: Settings,
) -> None:
    from app.ops.main import create_app
    from app.records import signing as record_signing

    async def export(settings: Settings) -> tuple[str, dict[str, Any]]:
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                room_id, _tokens, _seen, _ = await finished_room(c)
                record = (await c.get(f"/api/rooms/{room_id}/record")).json()
                again = (await c.get(f"/api/rooms/{room_id}/record")).json()
                assert again == record
                return room_id, record

    _room, first = await export(room_settings)
    _room, second = await export(room_settings)  # a restart: the same database
    assert first["signature"]["key_id"] == second["signature"]["key_id"]
    configured = "a configured signing key, 32+ chars"
    _room, third = await export(
        room_settings.model_copy(update={"record_signing_key": SecretStr(configured)})
    )
    assert third["signature"]["key_id"] == record_signing.key_id(configured.encode())
    assert third["signature"]["key_id"] != first["signature"]["key_id"]


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_a_record_exported_before_signing_still_imports_as_unsigned(
    http: httpx.AsyncClient,
) -> None:
    record = unsigned_v1()
    assert record["format_version"] == 1 and "signature" not in record
    answer = await http.post("/api/records", json=record)
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["provenance"]["signature"] == "unsigned"
    assert body["version"] == record["version"]
    # Played with engine 1.1.0, whose turns ended by themselves: it replays under the
    # rule it was played with (turn_end "auto"), the newer engine's log words aside.
    assert record["engine_version"] == "1.1.0"
    assert body["warnings"][0] == (
        "The game was played with engine '1.1.0'; it is replayed with engine "
        f"{ishtar_engine.ENGINE_VERSION!r}."
    )
    assert all(w.startswith("Log lines differ") for w in body["warnings"][1:])
    rid = body["record_id"]
    assert (await http.get(f"/api/records/{rid}")).json() == record


@pytest.mark.parametrize("game_module", [ISHTAR])
@pytest.mark.parametrize(
    "seed", ["0{seed}", "00", "+{seed}", " {seed}", "9223372036854775808", "1" * 25]
)
async def test_only_the_canonical_spelling_of_a_seed_is_accepted(
    http: httpx.AsyncClient, seed: str
) -> None:
    record = unsigned_v1()
    spelled = seed.format(seed=record["seed"])
    # Committed to as spelled, so that only the spelling can be the reason.
    record.update(seed=spelled, seed_sha256=seed_commitment(spelled))
    await refused(http, record, "without leading zeros")


@pytest.mark.parametrize("game_module", [ISHTAR])
async def test_ishtar_verify_says_what_it_checked_of_the_provenance(
    web: tuple[str, httpx.AsyncClient],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    base, http = web

    async def verify(*args: str) -> tuple[int, str]:
        code = await asyncio.to_thread(cli.main, ["verify", *args])
        return code, capsys.readouterr().out

    room_id, _tokens, _seen, _ = await finished_room(http)
    record = (await http.get(f"/api/rooms/{room_id}/record")).json()
    key_id = record["signature"]["key_id"]
    code, out = await verify(f"{base}/r/{room_id}")
    assert code == 0 and "VERIFIED" in out, out
    assert f"signature        valid: exported by {base} (key {key_id})" in out
    assert f"room             the game of room {room_id} on {base}" in out
    assert "seed commitment" in out and "replayed" in out
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code, out = await verify(str(path))
    assert code == 0 and f"signed (key {key_id}), not checked: give --server" in out
    old = tmp_path / "old.json"
    old.write_text(FIXTURE.read_text(encoding="utf-8"))
    code, out = await verify(str(old), "--server", base)
    assert code == 0 and "signature        unsigned" in out, out
    assert "names no room of" in out
    other_id, _t, _s, _c = await finished_room(http, seed=9)
    forged = (await http.get(f"/api/rooms/{other_id}/record")).json()
    forged.pop("signature")
    forged["room_id"] = room_id
    path.write_text(json.dumps(forged))
    code, out = await verify(str(path))
    assert code == 0, "alone, a forgery is a consistent game: only the server can tell"
    code, out = await verify(str(path), "--server", base)
    assert code == 1 and "FAILED" in out and "not that room's game" in out, out
    changed = copy.deepcopy(record)
    changed["players"][0]["colour"] = "red"
    path.write_text(json.dumps(changed))
    code, out = await verify(str(path), "--server", base)
    assert code == 1 and "changed after it was exported" in out, out


@pytest.mark.parametrize("game_module", GAMES)
async def test_the_replays_move_list_has_each_moves_message(
    http: httpx.AsyncClient, game_module: str
) -> None:
    """A record keeps English only; the replay's move list reads the moves' messages: the
    room's from its log, an imported record's replayed by the engine, the same ones."""
    room_id, _tokens, seen, _ = await finished_room(http, players=2, seed=7)
    live = [
        m["message"]
        for m in (await http.get(f"/api/rooms/{room_id}/moves")).json()["moves"]
    ]
    assert len(live) == len(seen) - 1 and all(m and m["key"] for m in live)
    room_log = (await http.get(f"/api/rooms/{room_id}/replay/log")).json()
    assert room_log == {"version": len(live), "messages": live}
    record = (await http.get(f"/api/rooms/{room_id}/record")).json()
    assert all("message" not in move for move in record["moves"])
    rid = (await http.post("/api/records", json=record)).json()["record_id"]
    for _ in range(2):  # the second from the cache
        replayed = (await http.get(f"/api/records/{rid}/replay/log")).json()
        assert replayed == {"version": len(live), "messages": live}


async def test_a_replay_log_of_nothing_is_refused(http: httpx.AsyncClient) -> None:
    room = await http.get("/api/rooms/nosuchroom/replay/log")
    assert room.status_code == 404 and room.json()["error"]["code"] == "unknown_room"
    record = await http.get("/api/records/nosuchrecord/replay/log")
    assert record.status_code == 404
    assert record.json()["error"]["code"] == "unknown_record"
    created = (await http.post("/api/rooms", json={"players": 2, "name": "A"})).json()
    early = await http.get(f"/api/rooms/{created['room_id']}/replay/log")
    assert early.status_code == 409
    assert early.json()["error"]["code"] == "game_not_started"
