"""Schema migrations: the whole history upgrades an empty database and downgrades it back."""

from __future__ import annotations

import pytest

from app import migrate, readiness
from app.models import NAMING_CONVENTION, Base


def test_history_has_a_single_head() -> None:
    assert len(migrate.heads()) == 1
    assert migrate.head() in migrate.known_revisions()


def test_first_revision_is_the_baseline() -> None:
    assert "0001" in migrate.known_revisions()


def test_empty_database_upgrades_to_head_and_back_to_base(
    empty_database_url: str,
) -> None:
    assert migrate.current(empty_database_url) is None
    migrate.upgrade(empty_database_url)
    assert migrate.current(empty_database_url) == migrate.head()
    migrate.downgrade(empty_database_url, "base")
    assert migrate.current(empty_database_url) is None
    migrate.upgrade(empty_database_url, "head")
    assert migrate.current(empty_database_url) == migrate.head()


def test_each_revision_downgrades_one_step(empty_database_url: str) -> None:
    """Every revision's downgrade works on top of its own upgrade, not only from head."""
    migrate.upgrade(empty_database_url)
    steps = len(migrate.known_revisions())
    for _ in range(steps):
        migrate.downgrade(empty_database_url, "-1")
    assert migrate.current(empty_database_url) is None


def test_fixture_database_is_at_head(database_url: str) -> None:
    assert migrate.current(database_url) == migrate.head()


def test_models_use_the_naming_convention() -> None:
    assert Base.metadata.naming_convention == NAMING_CONVENTION


@pytest.mark.parametrize(
    ("current", "state"),
    [((), "not migrated"), (("nope",), "unknown revision")],
)
def test_migration_state(current: tuple[str, ...], state: str) -> None:
    assert readiness.migration_state(current) == state


def test_migration_state_at_head() -> None:
    assert readiness.migration_state(migrate.heads()) == "head"


def test_next_revision_id_follows_the_highest() -> None:
    highest = max(
        int(rev[:4]) for rev in migrate.known_revisions() if rev[:4].isdigit()
    )
    assert migrate.next_revision_id() == f"{highest + 1:04d}"
