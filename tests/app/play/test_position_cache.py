"""The position cache is bounded in bytes (issue 13, "Under attack" 5): what it holds,
measured with tracemalloc, stays within its bound, its own count never under-states it, and
a watched game weighs a fraction of what it did (fewer versions keep their whole views).

What it holds is what it alone keeps alive: the engines' own memos are emptied before each
measure, so that what they share with the cache's states is counted as the cache's. With a
random Ishtar layout each game has its own geometry, and the memos of its previews used to
hang from it: the cache counted a seventh of what it kept alive (issue 33). Every game and
option is measured (`test_every_game_and_option_stays_within_the_bound`)."""

from __future__ import annotations

import functools
import gc
import random
import sys
import tracemalloc
import types
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI

from app.config.settings import Settings
from app.play.positions import Position, Positions
from app.play.rules import Engine, Rules
from engine import babylon, ishtar
from engine.babylon.floors import FLOOR_IDS
from engine.ishtar.memos import MEMOS

PLAYERS = 4
RANDOM = {"layout": "random"}


def play_watched(
    positions: Positions,
    game_id: int,
    seed: int,
    moves: int,
    options: dict[str, Any] = RANDOM,
    rules: Engine[Any, Any] = ishtar,
) -> Iterator[Position]:
    """Play a 4-player game (by default Ishtar on a random layout) into the cache as the
    server does, every audience watching (each update's changes, each welcome's view, the
    legal actions)."""
    rng = random.Random(seed)
    state = rules.new_game(PLAYERS, seed, options)
    served = Rules(rules)  # as the registry wraps the engine (app/play/rules.py)
    positions.put(game_id, Position(served, 0, state))
    for version in range(1, moves + 1):
        if rules.is_over(state):
            return
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        before = positions.get(game_id, version - 1)
        position = positions.put(game_id, Position(served, version, state, before))
        for audience in [None, *range(PLAYERS)]:
            if before is not None:
                position.changes_json(audience, before)
            position.view_json(audience)
        position.legal_json(position.current)
        yield position


class Build:
    """`games` watched games of `moves` moves into a cache of `max_bytes`; the last
    `traced` of them (all by default) played while tracemalloc counts (`held_by`)."""

    def __init__(
        self,
        max_bytes: int,
        games: int,
        moves: int,
        options: dict[str, Any] = RANDOM,
        rules: Engine[Any, Any] = ishtar,
        traced: int | None = None,
    ) -> None:
        self.max_bytes, self.games, self.moves = max_bytes, games, moves
        self.options, self.rules = options, rules
        self.traced = games if traced is None else traced

    def play(self, positions: Positions, first: int, last: int) -> None:
        for game in range(first, last):
            for _position in play_watched(
                positions, game, game + 1, self.moves, self.options, self.rules
            ):
                pass


def forget_engine_memos() -> None:
    """Empty every memo of the engines (their `functools` caches, Ishtar's layout memos):
    what the cache's states share with them is then kept alive by the cache alone."""
    for name, module in list(sys.modules.items()):
        if name.startswith("engine.") and isinstance(module, types.ModuleType):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
    MEMOS.clear()


def held_by(build: Build) -> tuple[int, Positions]:
    """The bytes allocated and kept alive only by the cache that `build` fills.

    The games before the last `build.traced` are played first, untraced (tracemalloc makes
    a game five times dearer): by the measure the cache has dropped them, which is checked,
    so all it holds was allocated under tracing. What it frees of them while traced is not
    subtracted (tracemalloc ignores the freeing of a block it never saw allocated)."""
    untraced = build.games - build.traced
    positions = Positions(max_bytes=build.max_bytes)
    build.play(positions, 0, untraced)
    gc.collect()
    tracemalloc.start()
    try:
        build.play(positions, untraced, build.games)
        forget_engine_memos()
        gc.collect()
        with_cache, _peak = tracemalloc.get_traced_memory()
        keep = positions
        estimate = keep.bytes
        games = len(keep)
        held_games = {game for game in range(build.games) if keep.latest(game)}
        del positions, keep
        gc.collect()
        without, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not untraced or min(held_games, default=untraced) > untraced, (
        f"the cache holds {games} games, one of them played untraced or none of the "
        f"{build.traced} traced dropped: it counts too little, or trace more games"
    )
    probe = Positions()
    probe.bytes, probe.max_bytes = estimate, games  # the figures, without the contents
    return with_cache - without, probe


@functools.cache
def fill_engine_caches() -> None:
    """Play 60 watched moves of a game, once a process: what it leaves in the engine's own
    module-level caches stays there (they only grow; the `functools` caches and the layout
    memos, which `forget_engine_memos` empties, are emptied before each measure anyway)."""
    for _position in play_watched(Positions(), 0, 99, 60):
        pass


@pytest.fixture(autouse=True)
def warm_engine() -> None:
    """The engine's own module-level caches filled first: not the position cache's bytes."""
    fill_engine_caches()


GAMES_AND_OPTIONS = [
    pytest.param(ishtar, {"layout": "preset"}, 2 << 20, 9, id="ishtar-preset"),
    pytest.param(ishtar, {"layout": "random"}, 3 << 20, 6, id="ishtar-random"),
    pytest.param(
        ishtar,
        {"layout": "random", "edition": "1"},
        3 << 20,
        6,
        id="ishtar-random-ed1",
    ),
    *(
        pytest.param(babylon, {"floor": floor}, 1 << 20, 10, id=f"babylon-{floor}")
        for floor in FLOOR_IDS
    ),
    pytest.param(
        babylon,
        {"scoreboards": "choose", "teams": True},
        1 << 20,
        10,
        id="babylon-choose-teams",
    ),
]
"""Each game and option with a bound of about three to six of its games (Ishtar on a
random layout holds 4, on the preset 7, Babylon 8), and how many of the last games are
played under tracing: two more than the bound holds (`held_by` checks that every game
held was traced and one traced game dropped)."""

FILLED_WITH = 12
"""Games played into the cache: two to four times what its bound holds."""

SLACK = 1.25
"""How far what the cache holds may be above its count (and so above its bound)."""


@pytest.mark.parametrize(("rules", "options", "bound", "traced"), GAMES_AND_OPTIONS)
def test_every_game_and_option_stays_within_the_bound(
    rules: Engine[Any, Any], options: dict[str, Any], bound: int, traced: int
) -> None:
    """Filled past its bound with watched 4-player games, the cache holds at most `SLACK`
    times its bound, and counts at least what it holds over `SLACK` (issue 33: a random
    Ishtar layout held 7 times its count, the preset 1.7 times)."""
    for _position in play_watched(Positions(), 0, 99, 60, options, rules):
        pass  # this game's module-level caches filled first
    held, figures = held_by(
        Build(bound, FILLED_WITH, moves=50, options=options, rules=rules, traced=traced)
    )
    assert figures.max_bytes < FILLED_WITH, "older games were dropped to stay within it"
    assert figures.bytes <= bound
    assert held <= SLACK * bound, (
        f"the cache holds {held} bytes, over {SLACK} times its bound of {bound}"
    )
    assert figures.bytes >= held / SLACK, (
        f"the cache counts {figures.bytes} bytes but holds {held}: its count must not "
        "under-state what it holds, or the bound would not hold"
    )


def test_what_the_cache_holds_stays_within_its_bound_in_bytes() -> None:
    bound = 2 << 20
    held, figures = held_by(Build(bound, games=12, moves=40, traced=6))
    assert held <= bound, f"the cache holds {held} bytes, over its bound of {bound}"
    assert figures.bytes <= bound
    assert figures.max_bytes < 12, "older games were dropped to stay within the bound"
    assert held <= figures.bytes, (
        f"the cache counts {figures.bytes} bytes but holds {held}: its count must not "
        "under-state what it holds, or the bound would not hold"
    )


@pytest.mark.parametrize(("layout", "most"), [("random", 1.1), ("preset", 1.7)])
def test_its_count_is_an_honest_upper_bound_of_what_it_holds(
    layout: str, most: float
) -> None:
    """Never under what it holds, and not far over: a view entry that did not change is
    shared by consecutive versions and counted once (by the oldest version holding it,
    then by the next when that one goes), and a state made by one move from a held one
    is counted as the step it is (`Weights.STATE_STEP`). Each counted whole in every
    version, these games were counted at 1.15 times what they held on random layouts
    and 1.92 times on the preset; 1.03 and 1.49 now (the preset's geometry, counted
    once, is shared by the engine's own memo too, and is most of the rest)."""
    options = {"layout": layout}
    for _position in play_watched(Positions(), 0, 99, 60, options):
        pass  # this layout's module-level caches filled first
    held, figures = held_by(Build(1 << 40, games=6, moves=80, options=options))
    assert held <= figures.bytes <= most * held


def test_a_watched_four_player_game_weighs_under_600_kib() -> None:
    """It weighed 1.0-1.4 MiB (8 versions, each with every audience's whole view). On the
    preset layout: a random layout's game keeps its own geometry too (about 430 KiB)."""
    held, figures = held_by(Build(1 << 40, games=4, moves=120, options={}))
    assert figures.max_bytes == 4
    assert held / 4 < 600 << 10, f"{held / 4 / 1024:.0f} KiB per watched game"


def test_the_least_recently_played_game_is_dropped_first_and_never_the_current() -> (
    None
):
    positions = Positions(max_bytes=1)  # smaller than any one game
    for _position in play_watched(positions, 1, 1, 3):
        pass
    assert positions.latest(1) is not None, "the game in use stays, whatever its size"
    for _position in play_watched(positions, 2, 2, 3):
        pass
    assert positions.latest(1) is None and positions.latest(2) is not None

    roomy = Positions(max_bytes=1 << 40)
    for game in (1, 2, 3):
        for _position in play_watched(roomy, game, game, 3):
            pass
    one_game = roomy.bytes // 3
    roomy.get(1, 3)  # game 1 is played again: game 2 is now the least recent
    roomy.max_bytes = roomy.bytes - one_game // 2
    roomy.grew(0)
    assert roomy.latest(2) is None
    assert roomy.latest(1) is not None and roomy.latest(3) is not None


def test_only_the_latest_version_keeps_its_whole_views() -> None:
    positions = Positions(max_bytes=1 << 40)
    sent: dict[int, str] = {}
    kept: list[Position] = []
    for position in play_watched(positions, 1, 5, 6):
        sent[position.version] = position.view_json(None)
        kept.append(position)
    latest, before, older = kept[-1], kept[-2], kept[-3]
    assert positions.get(1, older.version) is older
    assert positions.get(1, kept[-4].version) is None, "three versions are held"
    assert latest._legal is not None, "the latest keeps its legal actions' text"
    assert before._legal is None and older._legal is None, "the older ones do not"
    # An older version still answers, from the entries it kept: the same text as sent.
    assert older.view_json(None) == sent[older.version]
    assert before.view_json(None) == sent[before.version]
    held = kept[-Positions.DEPTH :]
    assert all(positions.get(1, p.version) is p for p in held)
    geometry: int = latest.state.geo.bytes
    assert positions.bytes == geometry + sum(p.bytes for p in held), (
        "the versions and, once, the geometry they share"
    )


@pytest.fixture
def room_settings(room_settings: Settings) -> Settings:
    return room_settings.model_copy(update={"position_cache_bytes": 12345678})


async def test_the_server_bounds_its_cache_by_the_setting(
    room_app: FastAPI, http: object
) -> None:
    assert room_app.state.rooms.positions.max_bytes == 12345678
    assert Settings.model_fields["position_cache_bytes"].default == 512 << 20


def test_a_position_keeps_the_text_of_its_legal_moves_not_the_engines_memo() -> None:
    """The engine's memo of a state's legal moves (the list, its previews, the placements:
    tens of KB in a place step) goes as soon as their text is made; the latest version
    keeps the text and answers it again, and an older one, trimmed, rebuilds the same."""
    positions = Positions(max_bytes=1 << 40)
    kept: list[Position] = []
    legal: dict[int, str] = {}
    for position in play_watched(positions, 1, 7, 12):
        kept.append(position)
        legal[position.version] = position.legal_json(position.current)
    latest, older = kept[-1], kept[-2]
    memo = {ishtar.previews.CACHE_KEY, ishtar.previews.JSON_KEY}
    assert (
        latest.legal_json(latest.current) is legal[latest.version]
    )  # kept, not rebuilt
    for position in kept:
        # (the placements may come back: a later state's undo looks at the state it undoes)
        assert not memo & set(position.state.cache), position.version
    assert older.legal_json(older.current) == legal[older.version]
