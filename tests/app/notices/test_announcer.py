"""The announcer: notices sent in order, batched while a send is in flight, failures dropped."""

from __future__ import annotations

import asyncio

from app.notices.announcer import Announcer


async def test_notices_gathered_during_a_send_go_out_together_in_order() -> None:
    sent: list[list[str]] = []
    gate = asyncio.Event()

    async def send(batch: list[str]) -> None:
        sent.append(batch)
        await gate.wait()

    announcer = Announcer(send)
    announcer.announce("a:m:1")
    await asyncio.sleep(0)  # the first send is now in flight
    for number in (2, 3, 4):
        announcer.announce(f"a:m:{number}")
    gate.set()
    await announcer.flush()
    assert sent == [["a:m:1"], ["a:m:2", "a:m:3", "a:m:4"]]


async def test_a_failed_send_is_dropped_and_later_notices_still_go_out() -> None:
    sent: list[list[str]] = []

    async def send(batch: list[str]) -> None:
        if batch == ["lost"]:
            raise ConnectionError("database down")
        sent.append(batch)

    announcer = Announcer(send)
    announcer.announce("lost")
    await announcer.flush()
    announcer.announce("kept")
    await announcer.flush()
    assert sent == [["kept"]]
