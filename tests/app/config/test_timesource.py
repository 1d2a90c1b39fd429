"""The time sources of the background loops (app/config/timesource.py): the real one changes
nothing in the database's present, and manual time ends a wait only when advanced past it
or woken."""

from __future__ import annotations

import asyncio

import pytest

from app.config.timesource import SYSTEM_TIME, ManualTime


async def test_real_time_is_the_databases_present_and_a_wake_ends_its_wait() -> None:
    assert SYSTEM_TIME.ahead_s() == 0.0
    wake = asyncio.Event()
    wake.set()
    async with asyncio.timeout(10):  # a guard against a hang: the wait is an hour long
        await SYSTEM_TIME.sleep(3600, wake)


async def test_manual_time_ends_a_wait_only_once_advanced_past_it() -> None:
    clock = ManualTime()
    short = asyncio.ensure_future(clock.sleep(10))
    long = asyncio.ensure_future(clock.sleep(60))
    await clock.sleeping(2)
    clock.advance(9)
    assert clock.ahead_s() == 9
    assert clock.waiting() == 2, "neither ended"
    clock.advance(1)
    assert clock.waiting() == 1, "the first ended at once, the second waits on"
    await short
    assert not long.done()
    clock.advance(50)
    await long
    await clock.sleep(0)  # no wait at all


async def test_a_wake_ends_a_manual_wait_and_a_cancelled_wait_is_forgotten() -> None:
    clock = ManualTime()
    wake = asyncio.Event()
    woken = asyncio.ensure_future(clock.sleep(60, wake))
    await clock.sleeping()
    wake.set()
    await woken
    cancelled = asyncio.ensure_future(clock.sleep(60))
    await clock.sleeping()
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert clock.waiting() == 0
    with pytest.raises(TimeoutError):  # nobody waits: the guard against a hang
        await clock.sleeping(timeout_s=0)


def test_manual_time_does_not_go_back() -> None:
    with pytest.raises(ValueError, match="back"):
        ManualTime().advance(-1)
