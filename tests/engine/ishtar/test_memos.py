"""A layout's memos are bounded in bytes, counted honestly, and not kept alive by states.

What the views and previews derive from a layout alone (engine.ishtar.memos) used to hang from
the layout's `Geometry`, which every state reaches: a cache of states kept every memo of every
random layout it held alive, about 1.8 MiB a 4-player game, uncounted (issue 33). Each figure
here is measured with tracemalloc against the engine's own estimate.
"""

from __future__ import annotations

import functools
import gc
import random
import tracemalloc
from collections.abc import Callable, Iterator

import pytest

from engine import ishtar
from engine.ishtar.editions import EDITIONS, LATEST
from engine.ishtar.geometry import Geometry, geometry_for
from engine.ishtar.layout import preset_layout, random_layout
from engine.ishtar.memos import MEMOS
from engine.ishtar.previews import compact_json
from engine.ishtar.state import State

SLACK = 1.25
"""How far an estimate may be above what it estimates (never below)."""


def played(players: int, seed: int, options: dict[str, str]) -> Iterator[State]:
    """Every state of a seeded random game, its legal list and public view made as the
    server makes them (which fills the layout's memo)."""
    rng = random.Random(seed)
    state = ishtar.new_game(players, seed, options)
    while not ishtar.is_over(state):
        ishtar.legal_json(state)
        ishtar.view_for(state, None)
        yield state
        state = ishtar.apply(state, rng.choice(ishtar.legal_actions(state)))


def traced(work: Callable[[], object]) -> int:
    """The bytes allocated by calling `work` and still alive after it."""
    gc.collect()
    tracemalloc.start()
    try:
        kept = work()
        gc.collect()
        size, _peak = tracemalloc.get_traced_memory()
        del kept
    finally:
        tracemalloc.stop()
    return size


@functools.cache
def fill_module_caches() -> None:
    """Fill the engine's module-level caches with one game played through, once a process.
    They only grow (tiles' JSON, gem sets): once filled, playing the game again adds nothing
    to them, so one game a process does what one before each test did. The memos and the
    geometries, which do shrink, are emptied before each test (`fresh_memos`)."""
    for _state in played(4, 1, {"layout": "random"}):
        pass


@pytest.fixture(autouse=True)
def fresh_memos() -> Iterator[None]:
    """Each test starts and ends with no memo and the module-level caches filled."""
    fill_module_caches()
    MEMOS.clear()
    geometry_for.cache_clear()
    yield
    MEMOS.clear()


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("layout", ["preset", "random"])
def test_a_geometry_weighs_what_it_estimates(
    layout: str, players: int, edition: str
) -> None:
    board = (
        preset_layout(players)
        if layout == "preset"
        else random_layout(players, random.Random(players))
    )
    geo: list[Geometry] = []
    real = traced(lambda: geo.append(Geometry(board, EDITIONS[edition])))
    estimate = geo[0].bytes
    assert real <= estimate <= SLACK * real, (real, estimate)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("layout", ["preset", "random"])
def test_a_layouts_memo_weighs_what_it_counts(
    layout: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(MEMOS, "budget", 1 << 40)

    def play_through() -> None:
        for _state in played(players, players, {"layout": layout}):
            pass
        geometry_for.cache_clear()  # only the memo stays: no state, no geometry

    real = traced(play_through)
    assert len(MEMOS) == 1
    assert real <= MEMOS.bytes <= SLACK * real, (real, MEMOS.bytes)
    assert MEMOS.bytes > 1 << 20, "a game played through memoised over 1 MiB"


def test_the_memos_of_all_layouts_stay_within_their_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budget = 1 << 20
    monkeypatch.setattr(MEMOS, "budget", budget)

    def play_games(seeds: range) -> None:
        for seed in seeds:  # random layouts: about 2 MiB each played through
            for _state in played(4, seed, {"layout": "random"}):
                pass
        geometry_for.cache_clear()

    # Four layouts, the first two played untraced (tracemalloc makes a game five times
    # dearer): the memos kept at the end are the last two's, which is checked, so all
    # they hold was allocated under tracing.
    play_games(range(2))
    untraced = set(MEMOS._memos)
    held = traced(lambda: play_games(range(2, 4)))
    assert MEMOS.bytes <= budget
    assert held <= SLACK * budget, f"the memos hold {held} bytes, budget {budget}"
    assert held >= budget // 4, "the latest layouts' memos are kept"
    assert not untraced & set(MEMOS._memos), "a layout played untraced is still kept"


def test_states_do_not_keep_their_layouts_memo_alive(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Forgetting the memos frees them while every state of the game is still held (each
    but the latest having forgotten its own legal list, as the server's older versions do:
    the entries of a list are the memo's)."""
    monkeypatch.setattr(MEMOS, "budget", 1 << 40)
    gc.collect()
    tracemalloc.start()
    try:
        states = list(played(4, 3, {"layout": "random"}))
        for state in states[:-1]:
            ishtar.forget_legal(state)
        counted = MEMOS.bytes
        gc.collect()
        before, _peak = tracemalloc.get_traced_memory()
        MEMOS.clear()
        gc.collect()
        after, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(states) > 100 and counted > 1 << 20
    assert before - after >= counted / SLACK, (
        f"{before - after} bytes freed of a memo counted {counted}: the states that "
        "used it keep the rest alive"
    )


@pytest.mark.parametrize("layout", ["preset", "random"])
def test_a_dropped_memo_is_rebuilt_the_same(
    layout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a budget of nothing, every memo is dropped as soon as it is made: the legal
    lists and views are still those of the plain way, text for text."""
    monkeypatch.setattr(MEMOS, "budget", 0)
    rng = random.Random(5)
    state = ishtar.new_game(4, 5, {"layout": layout, "edition": LATEST})
    steps = 0
    while not ishtar.is_over(state) and steps < 120:
        slow = [
            {"action": ishtar.encode_action(a), "preview": ishtar.preview(state, a)}
            for a in ishtar.legal_actions(state)
        ]
        assert ishtar.legal_json(state) == compact_json(slow)
        assert (
            ishtar.view_for(state, None)["layout"]
            == ishtar.public_setup(state)["layout"]
        )
        assert MEMOS.bytes == 0 and len(MEMOS) == 0
        state = ishtar.apply(state, rng.choice(ishtar.legal_actions(state)))
        steps += 1
