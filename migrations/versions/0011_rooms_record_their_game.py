"""Rooms record their game: `rooms.game`, `rooms.options`; Ishtar's columns become options.

Until now a server played one game, and a room's set-up was Ishtar's: a `layout` column
with a CHECK of Ishtar's two layouts, and a fixed `first_player`. A room now names its
game (the registry's id, app/games.py) and keeps the options its game checked:

- rooms.game: the game's id; existing rooms are Ishtar's.
- rooms.options: the checked options (JSON); existing rooms get
  ``{"layout": <layout>, "first_player": <first_player>}``.
- rooms.layout and rooms.first_player are dropped, with the layout CHECK; the player count
  and seat numbers are bounded by the widest game a server may register (1 to 8 players),
  each game checking its own range when a room is created.
- game_records.game: the game of an imported record (all Ishtar's until now), so that its
  replay asks the right engine without reading the record's text.
- games.setup gains ``options`` beside the keys it had (layout, first_player), so that a
  started game reads its options from one place, whatever its age.

Downgrade restores the columns from the options (a room of another game cannot be
represented before this revision, and is refused).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "rooms",
        sa.Column(
            "game", sa.String(32), server_default=sa.text("'ishtar'"), nullable=False
        ),
    )
    op.add_column(
        "rooms",
        sa.Column(
            "options",
            postgresql.JSONB(),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
    )
    op.execute(
        "UPDATE rooms SET options = jsonb_build_object("
        "'layout', layout, 'first_player', first_player)"
    )
    op.alter_column("rooms", "game", server_default=None)
    op.alter_column("rooms", "options", server_default=None)
    op.create_check_constraint(
        op.f("ck_rooms_game"), "rooms", "game ~ '^[a-z][a-z0-9-]{0,31}$'"
    )
    op.drop_constraint(op.f("ck_rooms_layout"), "rooms", type_="check")
    op.drop_column("rooms", "layout")
    op.drop_column("rooms", "first_player")
    op.drop_constraint(op.f("ck_rooms_players"), "rooms", type_="check")
    op.create_check_constraint(
        op.f("ck_rooms_players"), "rooms", "players BETWEEN 1 AND 8"
    )
    op.drop_constraint(op.f("ck_seats_seat"), "seats", type_="check")
    op.create_check_constraint(op.f("ck_seats_seat"), "seats", "seat BETWEEN 0 AND 7")
    op.add_column(
        "game_records",
        sa.Column(
            "game", sa.String(32), server_default=sa.text("'ishtar'"), nullable=False
        ),
    )
    op.alter_column("game_records", "game", server_default=None)
    op.execute(
        "UPDATE games SET setup = setup || jsonb_build_object('options', "
        "jsonb_build_object('layout', coalesce(setup->>'layout', 'preset'),"
        " 'first_player', setup->'first_player'))"
        " WHERE NOT setup ? 'options'"
    )


def downgrade() -> None:
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM rooms WHERE game <> 'ishtar') THEN"
        " RAISE EXCEPTION 'rooms of games other than ishtar cannot be downgraded';"
        " END IF; END $$"
    )
    op.execute("DELETE FROM game_records WHERE game <> 'ishtar'")
    op.drop_column("game_records", "game")
    op.drop_constraint(op.f("ck_seats_seat"), "seats", type_="check")
    op.create_check_constraint(op.f("ck_seats_seat"), "seats", "seat BETWEEN 0 AND 3")
    op.drop_constraint(op.f("ck_rooms_players"), "rooms", type_="check")
    op.create_check_constraint(
        op.f("ck_rooms_players"), "rooms", "players BETWEEN 2 AND 4"
    )
    op.add_column("rooms", sa.Column("layout", sa.String(16), nullable=True))
    op.add_column("rooms", sa.Column("first_player", sa.SmallInteger(), nullable=True))
    op.execute(
        "UPDATE rooms SET layout = coalesce(options->>'layout', 'preset'),"
        " first_player = (options->>'first_player')::smallint"
    )
    op.alter_column("rooms", "layout", nullable=False)
    op.create_check_constraint(
        op.f("ck_rooms_layout"), "rooms", "layout IN ('preset', 'random')"
    )
    op.drop_constraint(op.f("ck_rooms_game"), "rooms", type_="check")
    op.drop_column("rooms", "options")
    op.drop_column("rooms", "game")
    # Games started after the upgrade have only `options`; before, their keys were in setup.
    op.execute(
        "UPDATE games SET setup = (setup - 'options') || jsonb_build_object("
        "'layout', setup->'options'->'layout',"
        " 'first_player', setup->'options'->'first_player')"
        " WHERE NOT setup ? 'layout'"
    )
    op.execute("UPDATE games SET setup = setup - 'options'")
