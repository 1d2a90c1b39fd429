"""``legal_with_previews``: the legal actions with their previews, fast, exactly as the slow way."""

from __future__ import annotations

import json
import random
from typing import Any

import orjson
import pytest

from engine.ishtar import (
    Action,
    apply,
    encode_action,
    forget_legal,
    is_over,
    legal_actions,
    legal_json,
    legal_with_previews,
    new_game,
    preview,
    view_for,
)
from engine.ishtar.previews import MOVE_KEYS
from engine.ishtar.state import State
from tests.engine.ishtar.builders import fresh, game, with_hand
from tests.engine.ishtar.played import load

GAMES = (
    (2, 31, None),
    (2, 32, "random"),
    (3, 33, None),
    (3, 34, "random"),
    (4, 35, None),
    (4, 36, "random"),
)


def slow(state: State) -> list[dict[str, Any]]:
    """The list the way the server built it before: one encode and preview per action."""
    return [
        {"action": encode_action(a), "preview": preview(state, a)}
        for a in legal_actions(state)
    ]


def check_same(state: State) -> None:
    expected = slow(fresh(state))
    got = legal_with_previews(state)
    assert got == expected
    assert json.dumps(got) == json.dumps(expected)
    # The same list as JSON text, joined from per-entry texts in a place step.
    text = json.dumps(expected, separators=(",", ":"), ensure_ascii=False)
    assert legal_json(state) == text
    assert legal_json(fresh(state), _orjson) == text, "with the server's dumps"


def _orjson(value: object) -> str:
    return orjson.dumps(value).decode()


@pytest.mark.parametrize(("players", "seed", "layout"), GAMES)
def test_equals_the_slow_list_at_every_step_of_seeded_games(
    players: int, seed: int, layout: str | None
) -> None:
    rng = random.Random(seed)
    state = new_game(players, seed, {"layout": layout, "edition": "1"})
    seen: set[str] = set()
    while not is_over(state):
        check_same(state)
        actions = legal_actions(state)
        seen.update(a.type for a in actions)
        # Undo often, so that steps are taken back and played again.
        undo = [a for a in actions if a.type == "undo"]
        action = undo[0] if undo and rng.random() < 0.3 else rng.choice(actions)
        state = apply(state, action)
    check_same(state)
    assert legal_with_previews(state) == []
    assert {"choose", "place", "pass", "plant", "end", "undo"} <= seen


def test_the_steps_seen_over_the_games_include_every_kind_of_action() -> None:
    seen: set[str] = set()
    for players, seed, layout in GAMES:
        rng = random.Random(seed)
        state = new_game(players, seed, {"layout": layout, "edition": "1"})
        while not is_over(state):
            actions = legal_actions(state)
            seen.update(a.type for a in actions)
            state = apply(state, rng.choice(actions))
    assert seen >= {
        "choose",
        "place",
        "skill",
        "assistant",
        "pass",
        "bloom",
        "reserve",
        "plant",
        "end",
        "undo",
    }


def test_a_tile_with_no_placement_lists_the_discard() -> None:
    state = load("discard")  # a played position: triangle-06 fits nowhere
    assert legal_with_previews(state) == [
        {"action": {"type": "discard"}, "preview": {}}
    ]
    check_same(state)


def test_placements_over_gems_count_the_gems_they_would_collect() -> None:
    state = apply(game(), Action("choose", pile=0))
    entries = legal_with_previews(state)
    assert entries == slow(fresh(state))
    collected = [e for e in entries if any(e["preview"]["gems"].values())]
    assert collected, "some first placement covers a gem"
    for entry in collected:
        action = Action(
            "place",
            at=tuple(entry["action"]["at"]),  # type: ignore[arg-type]
            rotation=entry["action"]["rotation"],
        )
        assert entry["preview"] == preview(state, action)


def test_memoised_per_state() -> None:
    state = apply(game(), Action("choose", pile=0))
    assert legal_with_previews(state) is legal_with_previews(state)


def test_same_placement_same_gems_shares_its_entry_between_states() -> None:
    """Entries depend on the layout and the gems under them only, so they are shared."""
    first = apply(game(seed=1), Action("choose", pile=0))
    second = apply(game(seed=2), Action("choose", pile=0))
    if first.hand != second.hand:
        second = with_hand(second, first.hand or "")
    a = {json.dumps(e): e for e in legal_with_previews(first)}
    b = {json.dumps(e): e for e in legal_with_previews(second)}
    common = a.keys() & b.keys()
    assert common
    assert all(a[k] is b[k] for k in common)


def test_the_json_text_is_memoised_per_state() -> None:
    state = new_game(2, 5, {"edition": "1"})
    while state.phase != "place":
        state = apply(state, legal_actions(state)[0])
    assert legal_json(state) is legal_json(state)
    assert json.loads(legal_json(state)) == legal_with_previews(state)


def test_a_forgotten_legal_memo_is_rebuilt_the_same_and_the_view_stays() -> None:
    rng = random.Random(5)
    state = new_game(2, 41, {"edition": "1"})
    place_steps = 0
    while not is_over(state) and place_steps < 3:
        view = view_for(state, None)
        text, entries = legal_json(state), legal_with_previews(state)
        if state.phase == "place":
            place_steps += 1
            assert "placements" in state.cache
        forget_legal(state)
        assert not set(MOVE_KEYS) & set(state.cache)
        again = view_for(state, None)
        assert all(again[k] is v for k, v in view.items()), "its memoised view stays"
        assert legal_json(state) == text and legal_with_previews(state) == entries
        state = apply(state, rng.choice(legal_actions(state)))
    assert place_steps == 3
