"""Settings: environment names, URL normalisation, origin lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings import Settings, get_settings


def _settings() -> Settings:
    return Settings(_env_file=None)  # type: ignore[call-arg]


def test_database_url_is_read_from_DATABASE_URL(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db:5432/ishtar")
    assert _settings().database_url == "postgresql+asyncpg://u:p@db:5432/ishtar"


def test_no_database_url_means_embedded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ISHTAR_DATA_DIR", "/srv/ishtar")
    settings = _settings()
    assert settings.database_url is None
    assert settings.pg_data_dir == Path("/srv/ishtar/pg")


def test_other_fields_use_the_ISHTAR_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ISHTAR_PORT", "9001")
    monkeypatch.setenv("ISHTAR_MAX_MESSAGE_BYTES", "1024")
    settings = _settings()
    assert settings.port == 9001
    assert settings.max_message_bytes == 1024


@pytest.mark.parametrize(
    ("raw", "origins"),
    [
        ("", []),
        (
            "https://a.example, https://b.example",
            ["https://a.example", "https://b.example"],
        ),
        ('["https://a.example"]', ["https://a.example"]),
        ("*", ["*"]),
    ],
)
def test_allowed_origins_accept_commas_or_json(
    monkeypatch: pytest.MonkeyPatch, raw: str, origins: list[str]
) -> None:
    monkeypatch.setenv("ISHTAR_ALLOWED_ORIGINS", raw)
    assert _settings().allowed_origins == origins


def test_get_settings_is_cached() -> None:
    assert get_settings() is get_settings()
