"""`Flag` behaves as `asyncio.Event` does, and holds nothing while nobody waits."""

from __future__ import annotations

import asyncio
import sys

from app.config.flags import Flag


async def test_a_flag_wakes_every_waiter_once_set_and_waits_again_once_cleared() -> (
    None
):
    flag = Flag()
    assert not flag.is_set()
    woken: list[int] = []

    async def waiter(n: int) -> None:
        assert await flag.wait() is True
        woken.append(n)

    tasks = [asyncio.create_task(waiter(n)) for n in range(3)]
    await asyncio.sleep(0)  # each is waiting now
    assert woken == []
    flag.set()
    await asyncio.gather(*tasks)
    assert sorted(woken) == [0, 1, 2]
    assert flag.is_set()
    assert await flag.wait() is True  # set: at once
    flag.clear()
    late = asyncio.create_task(flag.wait())
    await asyncio.sleep(0)
    assert not late.done()
    flag.set()
    assert await late is True


async def test_a_cancelled_waiter_leaves_nothing_behind_and_others_still_wake() -> None:
    flag = Flag()
    gone = asyncio.create_task(flag.wait())
    kept = asyncio.create_task(flag.wait())
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.gather(gone, return_exceptions=True)
    assert flag._waiters is not None and len(flag._waiters) == 1
    flag.set()
    assert await kept is True
    assert flag._waiters is None


def test_a_flag_nobody_waits_on_is_smaller_than_an_event() -> None:
    """The point of it: an Event's deque of waiters exists from birth."""
    event = asyncio.Event()
    flag = Flag()
    event_bytes = sys.getsizeof(event) + sys.getsizeof(event.__dict__)
    event_bytes += sys.getsizeof(event._waiters)  # type: ignore[attr-defined]
    assert sys.getsizeof(flag) * 4 < event_bytes
