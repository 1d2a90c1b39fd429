"""docker-compose.yml and the Dockerfile, checked by reading them (no Docker engine runs here)."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.config.settings import Settings
from app.ops.ws_transport import PING_INTERVAL_S
from app.records.archive import MAX_RECORD_BYTES

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):  # the "KEY=value" list form
        return dict(item.split("=", 1) for item in env)
    return {str(key): str(value) for key, value in env.items()}


def test_db_runs_the_official_postgres_image(compose: dict[str, Any]) -> None:
    image = compose["services"]["db"]["image"]
    assert image.split(":")[0] in {"postgres", "docker.io/library/postgres"}
    assert image.split(":")[1].split(".")[0] == "16"


def test_db_has_a_pg_isready_healthcheck(compose: dict[str, Any]) -> None:
    healthcheck = compose["services"]["db"]["healthcheck"]
    test = healthcheck["test"]
    command = test if isinstance(test, str) else " ".join(test)
    assert "pg_isready" in command
    assert healthcheck.get("interval")
    assert healthcheck.get("retries")


def test_db_keeps_its_data_in_a_named_volume(compose: dict[str, Any]) -> None:
    volumes = compose["services"]["db"]["volumes"]
    mounts = {v.split(":")[0]: v.split(":")[1] for v in volumes if isinstance(v, str)}
    named = set(compose.get("volumes") or {})
    assert any(source in named for source in mounts)
    assert "/var/lib/postgresql/data" in mounts.values()


def test_app_waits_for_a_healthy_db(compose: dict[str, Any]) -> None:
    depends_on = compose["services"]["app"]["depends_on"]
    assert depends_on["db"]["condition"] == "service_healthy"


def test_app_database_url_points_at_the_db_service(compose: dict[str, Any]) -> None:
    db_env = _environment(compose["services"]["db"])
    url = _environment(compose["services"]["app"])["DATABASE_URL"]
    user, password, database = (
        db_env["POSTGRES_USER"],
        db_env["POSTGRES_PASSWORD"],
        db_env["POSTGRES_DB"],
    )
    assert url == f"postgresql+asyncpg://{user}:{password}@db:5432/{database}"


def test_app_is_built_here_and_reached_only_through_the_proxy(
    compose: dict[str, Any],
) -> None:
    app = compose["services"]["app"]
    build = app["build"]
    assert (build if isinstance(build, str) else build.get("context", ".")) == "."
    assert "ports" not in app  # not published: every client passes the proxy
    assert [str(port) for port in app["expose"]] == ["8000"]
    proxy = compose["services"]["proxy"]
    assert [str(port).split(":")[-1] for port in proxy["ports"]] == ["8080"]
    assert [str(port).split(":")[0] for port in proxy["ports"]] == ["8000"]
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"


def test_dockerfile_runs_migrations_then_serves_as_non_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    lines = [line.strip() for line in dockerfile.splitlines()]
    first = next(line for line in lines if line.startswith("FROM"))
    assert first.startswith("FROM python:3.11-slim")
    user_lines = [line for line in lines if line.startswith("USER ")]
    assert user_lines
    assert user_lines[-1] not in {"USER root", "USER 0"}
    cmd = [line for line in lines if line.startswith("CMD")][-1]  # the last one counts
    assert cmd.index("ishtar db upgrade") < cmd.index("ishtar serve --host 0.0.0.0")
    # Every directory the image copies exists.
    for line in lines:
        if line.startswith("COPY ") and "--from" not in line:
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source


# -- the reverse proxy (issue 13: slow clients stop at nginx) --------------------------------

# `ishtar serve` pings a websocket quiet for this long (app/ops/ws_transport.py)
WS_PING_INTERVAL_S = PING_INTERVAL_S


def _default(value: str) -> str:
    """A compose value with ``${VAR:-default}`` resolved to its default."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


@pytest.fixture(scope="module")
def nginx(compose: dict[str, Any]) -> dict[str, list[str]]:
    """The proxy's config as directive -> the values of each occurrence."""
    mounts = compose["services"]["proxy"]["volumes"]
    source, target, mode = next(m.split(":") for m in mounts if "nginx" in m)
    assert target == "/etc/nginx/conf.d/default.conf" and mode == "ro"
    text = (ROOT / source).read_text()
    directives: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip().rstrip(";")
        if line and not line.endswith(("{", "}")) and line != "}":
            name, _, value = line.partition(" ")
            directives.setdefault(name, []).append(value.strip())
    return directives


def _seconds(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()  # type: ignore[union-attr]
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[unit]


def test_the_proxy_is_the_official_nginx_image_pinned(compose: dict[str, Any]) -> None:
    name, tag = compose["services"]["proxy"]["image"].split(":")
    assert name in {"nginx", "docker.io/library/nginx"}
    assert re.fullmatch(r"\d+\.\d+(\.\d+)?(-alpine)?", tag)


def test_the_proxy_drops_slow_clients(nginx: dict[str, list[str]]) -> None:
    for timeout in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert 0 < _seconds(nginx[timeout][0]) <= 30, timeout
    assert nginx["reset_timedout_connection"] == ["on"]
    zone = nginx["limit_conn_zone"][0].split()
    assert zone[0] == "$binary_remote_addr"
    name, count = nginx["limit_conn"][0].split()
    assert zone[1] == f"zone={name}:10m" and 0 < int(count) <= 256
    body = nginx["client_max_body_size"][0]
    assert int(body.rstrip("m")) << 20 >= MAX_RECORD_BYTES


def test_the_proxy_passes_websockets_and_the_clients_address(
    nginx: dict[str, list[str]],
) -> None:
    assert nginx["proxy_pass"] == ["http://ishtar"]
    assert nginx["server"] == ["app:8000"]  # the upstream: the app service
    assert nginx["proxy_http_version"] == ["1.1"]
    headers = dict(value.split(None, 1) for value in nginx["proxy_set_header"])
    assert headers["Upgrade"] == "$http_upgrade"
    assert headers["Connection"] == "$connection_upgrade"
    # Written by nginx, replacing whatever the client sent (never appended to).
    assert headers["X-Forwarded-For"] == "$remote_addr"
    assert headers["Host"] in {"$host", "$http_host"}
    # A websocket quiet between moves is kept: the app pings it more often than this.
    assert _seconds(nginx["proxy_read_timeout"][0]) > 2 * WS_PING_INTERVAL_S


def test_the_proxy_reuses_an_app_connection_for_less_than_the_app_keeps_it(
    compose: dict[str, Any],
) -> None:
    """nginx's idle connections to the app expire before the app closes them: else a
    request (a POST move, which nginx does not retry) may go out on a connection the app is
    closing, and the player gets a 502."""
    mounts = compose["services"]["proxy"]["volumes"]
    source = next(m.split(":")[0] for m in mounts if "nginx" in m)
    upstream = re.search(
        r"upstream ishtar \{(.*?)\}", (ROOT / source).read_text(), re.S
    )
    assert upstream is not None
    lines = [
        line.split("#", 1)[0].strip().rstrip(";") for line in upstream[1].splitlines()
    ]
    reuse = [line.split()[1] for line in lines if line.startswith("keepalive_timeout")]
    assert len(reuse) == 1  # nginx's default, 60 s, would outlive the app's
    env = {k: _default(v) for k, v in _environment(compose["services"]["app"]).items()}
    kept = float(
        env.get("ISHTAR_KEEP_ALIVE_S", Settings.model_fields["keep_alive_s"].default)
    )
    assert 0 < _seconds(reuse[0]) < kept


def test_the_app_trusts_forwarded_headers_from_the_proxy_alone(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    trusted = _environment(services["app"])["ISHTAR_FORWARDED_ALLOW_IPS"]
    proxy_address = services["proxy"]["networks"]["edge"]["ipv4_address"]
    assert trusted == proxy_address
    subnet = compose["networks"]["edge"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy_address) in ipaddress.ip_network(subnet)
    # Only the proxy and the app share that network; the database sits on another.
    on_edge = {name for name, s in services.items() if "edge" in s.get("networks", [])}
    assert on_edge == {"proxy", "app"}
    assert "edge" not in services["db"]["networks"]


def test_the_apps_settings_are_valid_and_answer_the_published_host(
    compose: dict[str, Any],
) -> None:
    env = {k: _default(v) for k, v in _environment(compose["services"]["app"]).items()}
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        forwarded_allow_ips=env["ISHTAR_FORWARDED_ALLOW_IPS"],
        allowed_hosts=env["ISHTAR_ALLOWED_HOSTS"],
        public_url=env["ISHTAR_PUBLIC_URL"],
    )
    assert "localhost" in settings.allowed_hosts  # http://localhost:8000, the README's
    assert "127.0.0.1" in settings.allowed_hosts  # the image's own health check
