"""The engines' English is what it was before it was rendered from messages: the digests of
their transcripts (tests/engine/wording.py) were taken from the engines before the change."""

from __future__ import annotations

import json

from tests.engine.wording import GOLDEN, transcripts


def test_every_log_line_preview_and_reason_reads_as_before() -> None:
    recorded = json.loads(GOLDEN.read_text())
    found = transcripts()
    assert found.keys() == recorded.keys()
    changed = sorted(name for name in found if found[name] != recorded[name])
    assert not changed, f"the English changed in: {changed}"
    assert sum(entry["lines"] for entry in found.values()) > 100_000
