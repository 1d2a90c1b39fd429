"""Records made before editions (engine 1.2.0, no ``edition`` option) replay with the numbers
they were played with, edition "1" (docs/games/ishtar/rules.md, "Editions"); a record of
engine 1.3.0 names its edition and replays with it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from app.games import registry
from app.records import signing
from app.records.gamerecord import RecordError, check_record, record_setup

FIXTURE = Path(__file__).parents[2] / "fixtures" / "record-v3-signed-engine-1.2.0.json"
KEY = b"editions-fixture-signing-key-0123456789"
"""The test key the fixture was signed with (by the server of engine 1.2.0, commit 7675db6)."""


def signed_1_2_0() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return record


def test_a_signed_record_of_engine_1_2_still_verifies_as_edition_1() -> None:
    record = signed_1_2_0()
    assert record["engine_version"] == "1.2.0"
    assert "edition" not in record["setup"]["options"]
    assert signing.check(record, KEY) is signing.Signature.VALID
    replayed = check_record(registry(), record)
    # the same log lines, moves and final scores; only the engine's version is told
    assert replayed.warnings == [
        "The game was played with engine '1.2.0'; it is replayed with engine '1.5.0'."
    ]
    assert {state.edition for state in replayed.states} == {"1"}
    assert record_setup(registry(), record)["options"]["edition"] == "1"


def test_a_record_naming_its_edition_replays_with_it() -> None:
    record = signed_1_2_0()
    named = copy.deepcopy(record)
    named["setup"]["options"]["edition"] = "1"
    assert record_setup(registry(), named)["options"]["edition"] == "1"
    assert {state.edition for state in check_record(registry(), named).states} == {"1"}


def test_a_record_that_names_another_edition_than_it_was_played_with_is_refused() -> (
    None
):
    """Edition 2's tiles and scores are not edition 1's: the same moves replayed with them
    do not end with the record's scores (or are not legal at all), and the check says so."""
    named = copy.deepcopy(signed_1_2_0())
    named["setup"]["options"]["edition"] = "2"
    assert record_setup(registry(), named)["options"]["edition"] == "2"
    with pytest.raises(RecordError):
        check_record(registry(), named)
