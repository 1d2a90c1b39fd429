"""The turn trigger on `games` runs only when it has something to do: `games.timed`.

`games_turn_changed` (0003) ran after every update of a game, in every move's transaction.
In a room without a time control it only ever acts when the seat to act changes (the turn
webhook of the new seat); yet it looked the time control up every time (EXPLAIN ANALYZE puts
the trigger at 43 of the statement's 134 µs). Skipping it cut PostgreSQL's CPU per commit by
6-9 % (0.154-0.169 -> 0.144-0.154 ms with synchronous commits, 2,000 commits alternating,
the seat changing every third move). `timed` says whether the
room has a time control (set when the game starts, by a BEFORE INSERT trigger: a room's time
control is fixed when the room is created), and the trigger after an update now fires only
for timed games or a change of seat. The function itself is unchanged; the trigger after the
start of a game is its own (`games_turn_started`).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("timed", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.execute(
        "UPDATE games SET timed = true"
        " WHERE room_id IN (SELECT room_id FROM time_controls)"
    )
    op.execute(
        """
        CREATE FUNCTION games_mark_timed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.timed := EXISTS (SELECT 1 FROM time_controls WHERE room_id = NEW.room_id);
            RETURN NEW;
        END $$
        """
    )
    op.execute(
        "CREATE TRIGGER games_mark_timed BEFORE INSERT ON games"
        " FOR EACH ROW EXECUTE FUNCTION games_mark_timed()"
    )
    op.execute("DROP TRIGGER games_turn_changed ON games")
    op.execute(
        "CREATE TRIGGER games_turn_started AFTER INSERT ON games"
        " FOR EACH ROW EXECUTE FUNCTION games_turn_changed()"
    )
    op.execute(
        "CREATE TRIGGER games_turn_changed AFTER UPDATE ON games FOR EACH ROW"
        " WHEN (NEW.timed OR NEW.current_seat IS DISTINCT FROM OLD.current_seat)"
        " EXECUTE FUNCTION games_turn_changed()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER games_turn_changed ON games")
    op.execute("DROP TRIGGER games_turn_started ON games")
    op.execute(
        "CREATE TRIGGER games_turn_changed AFTER INSERT OR UPDATE ON games"
        " FOR EACH ROW EXECUTE FUNCTION games_turn_changed()"
    )
    op.execute("DROP TRIGGER games_mark_timed ON games")
    op.execute("DROP FUNCTION games_mark_timed()")
    op.drop_column("games", "timed")
