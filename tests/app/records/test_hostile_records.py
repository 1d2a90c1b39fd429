"""Imported records that reached a 500 (issue 33, fault 4): JSON nested 5,000 or 100,000
deep (RecursionError), an Ishtar set-up whose layout is 5, true or 1.5 (TypeError), a board,
rotation or position of 1e999 (OverflowError). Each is now `422 bad_record` with a reason on
both record routes, and `ishtar verify` says why on one line and exits 1, no traceback."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.ops import cli
from app.records.reading import MAX_DEPTH
from tests.app.clients import open_room

ISHTAR = "engine.ishtar"

FIXTURES = Path(__file__).parents[2] / "fixtures"
ROUTES = ["/api/records", "/api/records/provenance"]
BIG = "__1e999__"
"""Stands for the number 1e999 in a record until it is written out (json.dumps cannot)."""


def v3() -> dict[str, Any]:
    """A record of Ishtar with the set-up's options (format 3), signed elsewhere."""
    text = (FIXTURES / "record-v3-signed-engine-1.2.0.json").read_text("utf-8")
    record: dict[str, Any] = json.loads(text)
    return record


def written(record: Any) -> bytes:
    """The record as JSON, `BIG` written as the number 1e999."""
    return json.dumps(record).replace(f'"{BIG}"', "1e999").encode()


def nested(depth: int) -> bytes:
    """JSON arrays `depth` deep, in an object: valid JSON, no record."""
    return b'{"format": ' + b"[" * depth + b"]" * depth + b"}"


def custom_layout(field: str, value: Any) -> dict[str, Any]:
    """The fixture with its preset layout written out, one board's `field` set to `value`."""
    record = v3()
    boards = copy.deepcopy(record["public_setup"]["layout"])
    boards[0][field] = value
    record["setup"]["options"]["layout"] = boards
    return record


def with_public(field: str, value: Any) -> dict[str, Any]:
    record = v3()
    record["public_setup"]["layout"][0][field] = value
    return record


def with_move(field: str, value: Any) -> dict[str, Any]:
    record = v3()
    record["moves"][1]["action"][field] = value  # move 2 is a placement
    return record


def with_layout(value: Any) -> dict[str, Any]:
    record = v3()
    record["setup"]["options"]["layout"] = value
    return record


TOO_DEEP = f"nested at most {MAX_DEPTH} levels deep"
OUT_OF_RANGE = "holds the number 1e999, too large to be read"
# What reached a 500, and the words of its refusal.
READ_CASES = {
    "nested 5,000 deep": (nested(5_000), TOO_DEEP),
    "nested 100,000 deep": (nested(100_000), TOO_DEEP),
    "objects nested 5,000 deep": (b'{"a": ' * 5_000 + b"1" + b"}" * 5_000, TOO_DEEP),
    "1e999 as a board": (written(custom_layout("board", BIG)), OUT_OF_RANGE),
    "1e999 as a rotation": (written(custom_layout("rotation", BIG)), OUT_OF_RANGE),
    "1e999 as a position": (written(custom_layout("at", [BIG, 0])), OUT_OF_RANGE),
    "1e999 in the public set-up": (written(with_public("at", [0, BIG])), OUT_OF_RANGE),
    "1e999 in a move": (written(with_move("rotation", BIG)), OUT_OF_RANGE),
}
LAYOUTS = {"5": 5, "true": True, "1.5": 1.5}


def refusal(answer: httpx.Response) -> str:
    assert answer.status_code == 422, answer.text[:300]
    error = answer.json()["error"]
    assert error["code"] == "bad_record", error
    reason: str = error["reason"]
    return reason


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("case", list(READ_CASES))
async def test_records_no_reader_can_hold_are_bad_records(
    http: httpx.AsyncClient, route: str, case: str
) -> None:
    body, words = READ_CASES[case]
    answer = await http.post(
        route, content=body, headers={"Content-Type": "application/json"}
    )
    assert words in refusal(answer)
    assert "message" in answer.json()["error"]  # translatable


@pytest.mark.parametrize("layout", list(LAYOUTS))
async def test_an_import_whose_layout_is_not_a_layout_is_a_bad_record(
    http: httpx.AsyncClient, layout: str
) -> None:
    answer = await http.post("/api/records", json=with_layout(LAYOUTS[layout]))
    assert f"unknown layout {LAYOUTS[layout]}" in refusal(answer)
    legacy = json.loads((FIXTURES / "record-v1-unsigned.json").read_text("utf-8"))
    legacy["setup"]["layout"] = LAYOUTS[layout]  # formats 1 and 2 keep it there
    answer = await http.post("/api/records", json=legacy)
    assert f"unknown layout {LAYOUTS[layout]}" in refusal(answer)


async def test_an_import_with_a_fractional_board_is_refused_not_rounded(
    http: httpx.AsyncClient,
) -> None:
    """A board of 1.5 was read as board 1, and the record replayed."""
    answer = await http.post("/api/records", json=custom_layout("board", 1.5))
    assert "board must be a whole number, not 1.5" in refusal(answer)
    exact = await http.post("/api/records", json=custom_layout("board", 1))
    assert exact.status_code == 201, exact.text  # the layout written out replays


@pytest.mark.parametrize("game_module", [ISHTAR])
@pytest.mark.parametrize("layout", list(LAYOUTS))
async def test_provenance_of_a_room_here_with_a_layout_that_is_not_one(
    http: httpx.AsyncClient, layout: str
) -> None:
    """The provenance check reads the set-up of a record naming a room here: it raised
    TypeError for these."""
    room_id, _host, _tokens = await open_room(http, 2)
    record = (await http.get(f"/api/rooms/{room_id}/record")).json()
    record.pop("signature")
    assert (await http.post("/api/records/provenance", json=record)).json()[
        "room"
    ] == "matches"
    record["setup"]["options"]["layout"] = LAYOUTS[layout]
    answer = await http.post("/api/records/provenance", json=record)
    assert f"unknown layout {LAYOUTS[layout]}" in refusal(answer)


# --- ishtar verify ------------------------------------------------------------------------


async def verify(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    code = await asyncio.to_thread(cli.main, ["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", list(READ_CASES))
async def test_ishtar_verify_says_in_one_line_why_a_file_is_no_record(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body, words = READ_CASES[case]
    path = tmp_path / "record.json"
    path.write_bytes(body)
    code, out, err = await verify(path, capsys)
    assert code == 1, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"ishtar verify: {path} is not a game record: ")
    assert words in err
    assert out == "FAILED\n"


@pytest.mark.parametrize("layout", list(LAYOUTS))
async def test_ishtar_verify_fails_a_record_whose_layout_is_not_one(
    layout: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(with_layout(LAYOUTS[layout])))
    code, out, err = await verify(path, capsys)
    assert code == 1, (out, err)
    assert err == ""
    why, verdict = out.splitlines()[-2:]
    assert verdict == "FAILED"
    assert f"unknown layout {LAYOUTS[layout]}" in why


async def test_ishtar_verify_keeps_exit_2_for_what_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, body in (("not-json", b"{nope"), ("nan", b'{"seed": NaN}')):
        path = tmp_path / f"{name}.json"
        path.write_bytes(body)
        code, out, err = await verify(path, capsys)
        assert code == 2, (name, out, err)
        assert err.startswith(f"ishtar verify: cannot read {path}: not JSON")
        assert err.count("\n") == 1 and out == ""
