"""Async play: time control and turn deadlines, turn webhooks (an outbox), seat history.

- time_controls: a room's optional per-move deadline (seconds) and what happens when it
  passes (`wait`: the seat is marked overdue; `bot`: a bot plays that turn).
- turn_deadlines: one row per game with time control: the seat to act, the version it must
  act on and when that is due. Claimed with FOR UPDATE SKIP LOCKED by any instance.
- deadline_log: every handling of a passed deadline (which instance, which policy), so
  "exactly once" can be checked, not only claimed.
- seat_webhooks: the URL a seat's holder asked to be called on their turn.
- webhook_outbox: one row per "it is your turn" call to make, retried with backoff.
- seat_history: who held a seat before its current holder, and until when.

The rows of turn_deadlines and webhook_outbox are written by a trigger on `games`, in the
transaction of the move (or of the start) itself: nothing is lost between a commit and a
process that crashes, and no write path (people, bots, undo) can forget them. Likewise a
trigger on `seats` records the previous holder whenever the holder changes (a person
leaves, the host hands the seat to someone new or to a bot), drops that seat's webhook and
cancels its pending calls.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NOW = sa.text("now()")


def _room_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["room_id"],
        ["rooms.id"],
        name=op.f(f"fk_{table}_room_id_rooms"),
        ondelete="CASCADE",
    )


def _seat_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["seat_id"],
        ["seats.id"],
        name=op.f(f"fk_{table}_seat_id_seats"),
        ondelete="CASCADE",
    )


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"],
        ["games.id"],
        name=op.f(f"fk_{table}_game_id_games"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "time_controls",
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("per_move_s", sa.Integer(), nullable=False),
        sa.Column("policy", sa.String(8), nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.CheckConstraint(
            "per_move_s BETWEEN 1 AND 2592000", name=op.f("ck_time_controls_per_move_s")
        ),
        sa.CheckConstraint(
            "policy IN ('wait', 'bot')", name=op.f("ck_time_controls_policy")
        ),
        _room_fk("time_controls"),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_time_controls")),
    )
    op.create_table(
        "turn_deadlines",
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("overdue", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        _game_fk("turn_deadlines"),
        _room_fk("turn_deadlines"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_turn_deadlines")),
    )
    op.create_index(
        "ix_turn_deadlines_due_at",
        "turn_deadlines",
        ["due_at"],
        postgresql_where=sa.text("NOT overdue"),
    )
    op.create_index("ix_turn_deadlines_room_id", "turn_deadlines", ["room_id"])
    op.create_table(
        "deadline_log",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("policy", sa.String(8), nullable=False),
        sa.Column("instance", sa.String(32), nullable=False),
        sa.Column(
            "handled_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        _game_fk("deadline_log"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deadline_log")),
    )
    op.create_index(
        "ix_deadline_log_game_id_version", "deadline_log", ["game_id", "version"]
    )
    op.create_table(
        "seat_webhooks",
        sa.Column("seat_id", sa.BigInteger(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("base_url", sa.Text(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.CheckConstraint(
            "char_length(url) <= 2048", name=op.f("ck_seat_webhooks_url")
        ),
        _seat_fk("seat_webhooks"),
        sa.PrimaryKeyConstraint("seat_id", name=op.f("pk_seat_webhooks")),
    )
    op.create_table(
        "webhook_outbox",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("seat_id", sa.BigInteger(), nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("base_url", sa.Text(), nullable=False),
        sa.Column("status", sa.String(12), server_default="pending", nullable=False),
        sa.Column("attempts", sa.SmallInteger(), server_default="0", nullable=False),
        sa.Column(
            "next_attempt_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'delivered', 'failed', 'cancelled')",
            name=op.f("ck_webhook_outbox_status"),
        ),
        _seat_fk("webhook_outbox"),
        _room_fk("webhook_outbox"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_outbox")),
        sa.UniqueConstraint(
            "seat_id", "version", name="uq_webhook_outbox_seat_id_version"
        ),
    )
    op.create_index(
        "ix_webhook_outbox_next_attempt_at",
        "webhook_outbox",
        ["next_attempt_at"],
        postgresql_where=sa.text("status = 'pending'"),
    )
    op.create_table(
        "seat_history",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("seat_id", sa.BigInteger(), nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("held_from", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "held_until",
            sa.DateTime(timezone=True),
            server_default=_NOW,
            nullable=False,
        ),
        sa.Column("until_version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("ended", sa.String(12), nullable=False),
        sa.CheckConstraint(
            "ended IN ('left', 'new_person', 'bot')", name=op.f("ck_seat_history_ended")
        ),
        _seat_fk("seat_history"),
        _room_fk("seat_history"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_history")),
    )
    op.create_index("ix_seat_history_room_id", "seat_history", ["room_id"])

    # A new turn (a move that changed the seat to act, or the start): the deadline of the
    # seat to act, and the webhook call of its holder, in the same transaction as the move.
    op.execute(
        """
        CREATE FUNCTION games_turn_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            limit_s integer;
        BEGIN
            IF TG_OP = 'UPDATE' AND NEW.version = OLD.version
               AND NEW.status = OLD.status
               AND NEW.current_seat IS NOT DISTINCT FROM OLD.current_seat THEN
                RETURN NULL;
            END IF;
            SELECT per_move_s INTO limit_s FROM time_controls WHERE room_id = NEW.room_id;
            IF FOUND THEN
                IF NEW.status = 'playing' AND NEW.current_seat IS NOT NULL THEN
                    INSERT INTO turn_deadlines (game_id, room_id, seat, version, due_at)
                    VALUES (NEW.id, NEW.room_id, NEW.current_seat, NEW.version,
                            now() + make_interval(secs => limit_s))
                    ON CONFLICT (game_id) DO UPDATE SET
                        seat = EXCLUDED.seat, version = EXCLUDED.version,
                        due_at = EXCLUDED.due_at, overdue = false,
                        claimed_until = NULL, claimed_by = NULL;
                ELSE
                    DELETE FROM turn_deadlines WHERE game_id = NEW.id;
                END IF;
            END IF;
            IF NEW.status = 'playing' AND NEW.current_seat IS NOT NULL
               AND (TG_OP = 'INSERT'
                    OR NEW.current_seat IS DISTINCT FROM OLD.current_seat) THEN
                INSERT INTO webhook_outbox (seat_id, room_id, seat, version, url, base_url)
                SELECT s.id, NEW.room_id, s.seat, NEW.version, w.url, w.base_url
                FROM seats s JOIN seat_webhooks w ON w.seat_id = s.id
                WHERE s.room_id = NEW.room_id AND s.seat = NEW.current_seat
                ON CONFLICT ON CONSTRAINT uq_webhook_outbox_seat_id_version DO NOTHING;
            END IF;
            RETURN NULL;
        END $$
        """
    )
    op.execute(
        "CREATE TRIGGER games_turn_changed AFTER INSERT OR UPDATE ON games"
        " FOR EACH ROW EXECUTE FUNCTION games_turn_changed()"
    )
    # A new holder of a seat (token replaced or revoked, bot in or out): remember the old
    # holder, forget their webhook and cancel the calls still owed to them.
    op.execute(
        """
        CREATE FUNCTION seats_holder_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF OLD.token_hash IS NOT NULL OR OLD.bot_level IS NOT NULL THEN
                INSERT INTO seat_history (seat_id, room_id, seat, name, bot_level,
                                          held_from, until_version, ended)
                VALUES (OLD.id, OLD.room_id, OLD.seat, OLD.name, OLD.bot_level,
                        OLD.joined_at,
                        COALESCE((SELECT version FROM games WHERE room_id = OLD.room_id), 0),
                        CASE WHEN NEW.bot_level IS NOT NULL THEN 'bot'
                             WHEN NEW.token_hash IS NOT NULL THEN 'new_person'
                             ELSE 'left' END);
            END IF;
            NEW.joined_at := now();
            DELETE FROM seat_webhooks WHERE seat_id = OLD.id;
            UPDATE webhook_outbox SET status = 'cancelled', finished_at = now(),
                   last_error = 'the seat changed hands'
            WHERE seat_id = OLD.id AND status = 'pending';
            RETURN NEW;
        END $$
        """
    )
    op.execute(
        "CREATE TRIGGER seats_holder_changed BEFORE UPDATE OF token_hash, bot_level"
        " ON seats FOR EACH ROW"
        " WHEN (OLD.token_hash IS DISTINCT FROM NEW.token_hash"
        " OR OLD.bot_level IS DISTINCT FROM NEW.bot_level)"
        " EXECUTE FUNCTION seats_holder_changed()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER seats_holder_changed ON seats")
    op.execute("DROP FUNCTION seats_holder_changed()")
    op.execute("DROP TRIGGER games_turn_changed ON games")
    op.execute("DROP FUNCTION games_turn_changed()")
    op.drop_index("ix_seat_history_room_id", table_name="seat_history")
    op.drop_table("seat_history")
    op.drop_index("ix_webhook_outbox_next_attempt_at", table_name="webhook_outbox")
    op.drop_table("webhook_outbox")
    op.drop_table("seat_webhooks")
    op.drop_index("ix_deadline_log_game_id_version", table_name="deadline_log")
    op.drop_table("deadline_log")
    op.drop_index("ix_turn_deadlines_room_id", table_name="turn_deadlines")
    op.drop_index("ix_turn_deadlines_due_at", table_name="turn_deadlines")
    op.drop_table("turn_deadlines")
    op.drop_table("time_controls")
