"""Fixtures of the background tests: each module makes its own `bot_app` (its settings)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI


@pytest.fixture
async def api(bot_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client of the module's `bot_app`, its lifespan (and bot runner) running."""
    async with bot_app.router.lifespan_context(bot_app):
        transport = httpx.ASGITransport(app=bot_app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", timeout=60
        ) as client:
            yield client
