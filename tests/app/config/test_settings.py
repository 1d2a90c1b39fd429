"""Settings: environment names, URL normalisation, origin lists."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app.config.settings import Settings, get_settings


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


# -- the edge: allowed hosts, trusted proxies, connection limits ------------------------------


def test_edge_defaults_trust_no_proxy_and_derive_the_hosts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in (
        "ISHTAR_ALLOWED_HOSTS",
        "ISHTAR_FORWARDED_ALLOW_IPS",
        "FORWARDED_ALLOW_IPS",
        "ISHTAR_CONNECTIONS_PER_ADDRESS",
    ):
        monkeypatch.delenv(name, raising=False)
    settings = _settings()
    assert settings.allowed_hosts == []  # derived: app/web/security.py host_allow_list
    assert settings.forwarded_allow_ips == []
    assert settings.header_timeout_s == 10.0
    assert settings.connections_per_address == 64


def test_an_idle_connection_outlives_the_clients_reuse_of_it() -> None:
    """The server closes an idle keep-alive connection after the clients stop reusing it:
    closed on both sides at once, a request sent on it in that instant finds it reset
    (seen as httpx.ReadError creating rooms in bench.scale). httpx reuses an idle
    connection for 5 s, as Node does; the head deadline, which also ends an idle
    connection, comes later still."""
    settings = _settings()
    assert settings.keep_alive_s > httpx.Limits().keepalive_expiry  # type: ignore[operator]
    assert settings.keep_alive_s < settings.header_timeout_s


def test_allowed_hosts_and_proxies_are_comma_separated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ISHTAR_ALLOWED_HOSTS", "Play.Example, *.ishtar.example")
    monkeypatch.setenv("ISHTAR_FORWARDED_ALLOW_IPS", "172.30.37.10, 10.0.0.0/8, ::1")
    settings = _settings()
    assert settings.allowed_hosts == ["play.example", "*.ishtar.example"]
    assert settings.forwarded_allow_ips == ["172.30.37.10", "10.0.0.0/8", "::1"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ISHTAR_ALLOWED_HOSTS", "ishtar.*"),
        ("ISHTAR_ALLOWED_HOSTS", "*ishtar.example"),
        ("ISHTAR_FORWARDED_ALLOW_IPS", "proxy.local"),
        ("ISHTAR_FORWARDED_ALLOW_IPS", "10.0.0.0/33"),
        ("ISHTAR_HEADER_TIMEOUT_S", "0"),
        ("ISHTAR_KEEP_ALIVE_S", "0"),
        ("ISHTAR_CONNECTIONS_PER_ADDRESS", "-1"),
        ("ISHTAR_GC_FULL_GROWTH", "1.0"),  # a full collection on every step
    ],
)
def test_bad_edge_settings_stop_the_start_with_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=name.removeprefix("ISHTAR_").lower()):
        _settings()


def test_the_default_front_end_folders_are_the_checkouts() -> None:
    """The defaults point at the checkout's static/ and templates/, wherever the settings
    module sits in app/ (a move of app/settings.py into app/config/ once pointed them at
    app/static, which does not exist: every page then lost its scripts)."""
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (settings.static_dir / "js" / "main.js").is_file()
    assert (settings.templates_dir / "base.html").is_file()
