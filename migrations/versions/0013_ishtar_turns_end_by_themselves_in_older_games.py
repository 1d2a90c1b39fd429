"""Ishtar games begun before engine 1.2.0 keep their rule: a turn that has nothing left to do
ends by itself.

Engine 1.2.0 ends a turn only with the player's `end` (docs/games/ishtar/rules.md, "A turn
ends with end"). The move logs of games begun before have no `end` where their turns ended by
themselves, so they replay under the rule they were played with: the option
``turn_end: "auto"``, added here to the set-up's options of every Ishtar game (rooms of other
games had no such games). Rooms not yet started get the new rule when they start. The engine
reads snapshots written before 1.2.0 (state formats 1 and 2) with the same rule.

Downgrade takes the option out again. Games begun under 1.2.0 (``"explicit"``) cannot be
played by an engine before it, and are refused.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "UPDATE games SET setup = jsonb_set(setup, '{options,turn_end}', '\"auto\"')"
        " FROM rooms WHERE rooms.id = games.room_id AND rooms.game = 'ishtar'"
        " AND jsonb_typeof(games.setup->'options') = 'object'"
        " AND NOT (games.setup->'options') ? 'turn_end'"
    )


def downgrade() -> None:
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM games"
        " WHERE setup->'options'->>'turn_end' = 'explicit') THEN"
        " RAISE EXCEPTION 'Ishtar games begun under engine 1.2.0 (turns that end with"
        " end) cannot be downgraded';"
        " END IF; END $$"
    )
    op.execute(
        "UPDATE games SET setup = setup #- '{options,turn_end}'"
        " WHERE (setup->'options') ? 'turn_end'"
    )
