"""Reaching players between sessions: Web Push, an e-mail digest, and "away".

- seats.away_until: the seat's holder is away until then (the clock of their turns stops,
  no push or mail is sent for the seat); away_periods: each away period, for the allowance
  (14 days at a time, 30 a year: app/play/away.py).
- push_subscriptions: a browser's Web Push subscription for a seat (endpoint and keys).
- push_outbox: one row per push to send, written by the trigger ``games_turn_changed`` in
  the transaction of the move (the turn becomes the seat's, or the game ends), claimed like
  ``webhook_outbox`` (app/background/web_push.py).
- seat_emails: an address a seat's holder left for the digest, confirmed by a link first.
- mail_digests: when each address last got a digest (at most one per period).

The trigger on `games` now also pushes the end of a game (its WHEN clause fires on a change
of status too), moves the deadline of an away seat's turn past its return, and sends no push
to an away seat. The trigger on `seats` forgets all of the above when the seat changes hands
(and gives an away seat's clock back the time it stood still).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NOW = sa.text("now()")


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column],
        [f"{target}.id"],
        name=op.f(f"fk_{table}_{column}_{target}"),
        ondelete="CASCADE",
    )


def _when(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        name, sa.DateTime(timezone=True), server_default=_NOW, nullable=False
    )


TURN_CHANGED = """
CREATE OR REPLACE FUNCTION games_turn_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    limit_s integer;
    back_at timestamptz;
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.version = OLD.version
       AND NEW.status = OLD.status
       AND NEW.current_seat IS NOT DISTINCT FROM OLD.current_seat THEN
        RETURN NULL;
    END IF;
    SELECT per_move_s INTO limit_s FROM time_controls WHERE room_id = NEW.room_id;
    IF FOUND THEN
        IF NEW.status = 'playing' AND NEW.current_seat IS NOT NULL THEN
            -- an away seat's clock stands still until it is back
            SELECT away_until INTO back_at FROM seats
            WHERE room_id = NEW.room_id AND seat = NEW.current_seat AND away_until > now();
            INSERT INTO turn_deadlines (game_id, room_id, seat, version, due_at)
            VALUES (NEW.id, NEW.room_id, NEW.current_seat, NEW.version,
                    GREATEST(now(), COALESCE(back_at, now()))
                    + make_interval(secs => limit_s))
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
        INSERT INTO push_outbox (subscription_id, seat_id, room_id, seat, version, event)
        SELECT p.id, s.id, NEW.room_id, s.seat, NEW.version, 'turn'
        FROM seats s JOIN push_subscriptions p ON p.seat_id = s.id
        WHERE s.room_id = NEW.room_id AND s.seat = NEW.current_seat
          AND (s.away_until IS NULL OR s.away_until <= now())
        ON CONFLICT ON CONSTRAINT uq_push_outbox_subscription_id_version DO NOTHING;
    END IF;
    IF NEW.status = 'finished' AND TG_OP = 'UPDATE' AND OLD.status <> 'finished' THEN
        INSERT INTO push_outbox (subscription_id, seat_id, room_id, seat, version, event)
        SELECT p.id, s.id, NEW.room_id, s.seat, NEW.version, 'end'
        FROM seats s JOIN push_subscriptions p ON p.seat_id = s.id
        WHERE s.room_id = NEW.room_id
          AND (s.away_until IS NULL OR s.away_until <= now())
        ON CONFLICT ON CONSTRAINT uq_push_outbox_subscription_id_version DO NOTHING;
    END IF;
    RETURN NULL;
END $$
"""

HOLDER_CHANGED = """
CREATE OR REPLACE FUNCTION seats_holder_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- the new holder is reached nowhere the old one was, and is not away
    DELETE FROM push_subscriptions WHERE seat_id = OLD.id;
    DELETE FROM seat_emails WHERE seat_id = OLD.id;
    IF OLD.away_until > now() THEN
        UPDATE turn_deadlines SET due_at = due_at - (OLD.away_until - now())
        WHERE room_id = OLD.room_id AND seat = OLD.seat AND due_at > OLD.away_until;
        UPDATE away_periods SET away_until = now()
        WHERE seat_id = OLD.id AND away_until > now();
    END IF;
    NEW.away_until := NULL;
    RETURN NEW;
END $$
"""

# The functions as migration 0003 made them (for the downgrade).
OLD_TURN_CHANGED = """
CREATE OR REPLACE FUNCTION games_turn_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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

OLD_HOLDER_CHANGED = """
CREATE OR REPLACE FUNCTION seats_holder_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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


def upgrade() -> None:
    op.add_column(
        "seats", sa.Column("away_until", sa.DateTime(timezone=True), nullable=True)
    )
    op.create_table(
        "away_periods",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("seat_id", sa.BigInteger(), nullable=False),
        sa.Column("away_from", sa.DateTime(timezone=True), nullable=False),
        sa.Column("away_until", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "away_until >= away_from", name=op.f("ck_away_periods_span")
        ),
        _fk("away_periods", "seat_id", "seats"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_away_periods")),
    )
    op.create_index("ix_away_periods_seat_id", "away_periods", ["seat_id"])
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("seat_id", sa.BigInteger(), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.LargeBinary(), nullable=False),
        sa.Column("auth", sa.LargeBinary(), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("base_url", sa.Text(), nullable=False),
        _when("created_at"),
        sa.CheckConstraint(
            "char_length(endpoint) <= 2048", name=op.f("ck_push_subscriptions_endpoint")
        ),
        sa.CheckConstraint(
            "octet_length(p256dh) = 65 AND octet_length(auth) = 16",
            name=op.f("ck_push_subscriptions_keys"),
        ),
        _fk("push_subscriptions", "seat_id", "seats"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint(
            "seat_id", "endpoint", name="uq_push_subscriptions_seat_id_endpoint"
        ),
    )
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("subscription_id", sa.BigInteger(), nullable=False),
        sa.Column("seat_id", sa.BigInteger(), nullable=False),
        sa.Column("room_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(8), nullable=False),
        sa.Column("status", sa.String(12), server_default="pending", nullable=False),
        sa.Column("attempts", sa.SmallInteger(), server_default="0", nullable=False),
        _when("next_attempt_at"),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        _when("created_at"),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'delivered', 'failed', 'cancelled')",
            name=op.f("ck_push_outbox_status"),
        ),
        sa.CheckConstraint(
            "event IN ('turn', 'end')", name=op.f("ck_push_outbox_event")
        ),
        _fk("push_outbox", "subscription_id", "push_subscriptions"),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_push_outbox_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_outbox")),
        sa.UniqueConstraint(
            "subscription_id", "version", name="uq_push_outbox_subscription_id_version"
        ),
    )
    op.create_index(
        "ix_push_outbox_next_attempt_at",
        "push_outbox",
        ["next_attempt_at"],
        postgresql_where=sa.text("status = 'pending'"),
    )
    op.create_table(
        "seat_emails",
        sa.Column("seat_id", sa.BigInteger(), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("base_url", sa.Text(), nullable=False),
        sa.Column("confirm_hash", sa.LargeBinary(), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        _when("created_at"),
        _fk("seat_emails", "seat_id", "seats"),
        sa.PrimaryKeyConstraint("seat_id", name=op.f("pk_seat_emails")),
    )
    op.create_index("ix_seat_emails_address", "seat_emails", ["address"])
    op.create_index(
        "ix_seat_emails_confirm_hash", "seat_emails", ["confirm_hash"], unique=True
    )
    op.create_table(
        "mail_digests",
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("last_sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("address", name=op.f("pk_mail_digests")),
    )
    op.execute(TURN_CHANGED)
    op.execute(HOLDER_CHANGED)
    op.execute("DROP TRIGGER games_turn_changed ON games")
    op.execute(
        "CREATE TRIGGER games_turn_changed AFTER UPDATE ON games FOR EACH ROW"
        " WHEN (NEW.timed OR NEW.current_seat IS DISTINCT FROM OLD.current_seat"
        " OR NEW.status IS DISTINCT FROM OLD.status)"
        " EXECUTE FUNCTION games_turn_changed()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER games_turn_changed ON games")
    op.execute(
        "CREATE TRIGGER games_turn_changed AFTER UPDATE ON games FOR EACH ROW"
        " WHEN (NEW.timed OR NEW.current_seat IS DISTINCT FROM OLD.current_seat)"
        " EXECUTE FUNCTION games_turn_changed()"
    )
    op.execute(OLD_HOLDER_CHANGED)
    op.execute(OLD_TURN_CHANGED)
    op.drop_table("mail_digests")
    op.drop_index("ix_seat_emails_confirm_hash", table_name="seat_emails")
    op.drop_index("ix_seat_emails_address", table_name="seat_emails")
    op.drop_table("seat_emails")
    op.drop_index("ix_push_outbox_next_attempt_at", table_name="push_outbox")
    op.drop_table("push_outbox")
    op.drop_table("push_subscriptions")
    op.drop_index("ix_away_periods_seat_id", table_name="away_periods")
    op.drop_table("away_periods")
    op.drop_column("seats", "away_until")
