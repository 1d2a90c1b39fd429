"""docs/protocol.md's table of error codes says what the code sends (issue 33: the table
lacked `unknown_language`, which `GET /i18n/xx.json` answers)."""

from __future__ import annotations

import re
from pathlib import Path

from app.play.protocol import HTTP_STATUS

PROTOCOL = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"
ROW = re.compile(r"^\| `(?P<code>[a-z_]+)` \| (?P<status>\d{3}|—) \|", re.MULTILINE)


def documented() -> dict[str, str]:
    text = PROTOCOL.read_text("utf-8")
    table = text[text.index("### Error codes") :]
    table = table[: table.index("\n### ", 1)]
    return {row["code"]: row["status"] for row in ROW.finditer(table)}


def test_every_error_code_is_in_the_table_with_its_status() -> None:
    rows = documented()
    missing = sorted(set(HTTP_STATUS) - set(rows))
    assert missing == []
    for code, status in rows.items():
        assert code in HTTP_STATUS, f"{code} is documented but never sent"
        if status != "—":  # websocket only: no HTTP answer carries it
            assert int(status) == HTTP_STATUS[code], code
