"""Ishtar games begun before editions keep the numbers they were played with: edition "1".

Engine 1.3.0 records in every game the edition of the component data it is played with (the
set-up option ``edition``, docs/games/ishtar/rules.md "Editions"), and gives a new game the
latest. The games already here were played with the only numbers there were, edition "1":
it is added to the set-up's options of every Ishtar game that names none (rooms of other
games are left alone). Rooms not yet started get the latest edition when they start. The
engine reads snapshots that name no edition as edition "1" too.

Downgrade takes the option out again. Games of another edition than "1" cannot be played
by an engine before 1.3.0, and are refused.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "UPDATE games SET setup = jsonb_set(setup, '{options,edition}', '\"1\"')"
        " FROM rooms WHERE rooms.id = games.room_id AND rooms.game = 'ishtar'"
        " AND jsonb_typeof(games.setup->'options') = 'object'"
        " AND NOT (games.setup->'options') ? 'edition'"
    )


def downgrade() -> None:
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM games JOIN rooms ON rooms.id = games.room_id"
        " WHERE rooms.game = 'ishtar' AND setup->'options'->>'edition' <> '1') THEN"
        " RAISE EXCEPTION 'Ishtar games of an edition other than 1 (engine 1.3.0)"
        " cannot be downgraded';"
        " END IF; END $$"
    )
    op.execute(
        "UPDATE games SET setup = setup #- '{options,edition}'"
        " FROM rooms WHERE rooms.id = games.room_id AND rooms.game = 'ishtar'"
        " AND (games.setup->'options') ? 'edition'"
    )
