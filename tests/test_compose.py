"""docker-compose.yml and the Dockerfile, checked by reading them (no Docker engine runs here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

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


def test_app_is_built_here_and_published_on_8000(compose: dict[str, Any]) -> None:
    app = compose["services"]["app"]
    build = app["build"]
    assert (build if isinstance(build, str) else build.get("context", ".")) == "."
    assert any(str(port).split(":")[-1] == "8000" for port in app["ports"])


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
