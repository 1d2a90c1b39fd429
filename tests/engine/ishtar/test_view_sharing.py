"""Memoised views: equal to a from-scratch build, byte for byte, and sharing unchanged parts.

engine.views' contract: a view's top-level values are the same objects for every audience
of a state, and, from one viewed state to a state derived from it, for each key of
``PART_FIELDS`` whose fields did not change.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.ishtar import (
    Action,
    apply,
    decode_state,
    encode_state,
    is_over,
    legal_actions,
    new_game,
    preview,
    view_for,
)
from engine.ishtar.state import LINEAGE, MAX_LINEAGE, State
from engine.ishtar.views import PART_FIELDS
from tests.engine.ishtar.builders import game
from tests.engine.ishtar.reference_views import reference_view

GAMES = (
    (2, 41, None),
    (2, 42, "random"),
    (3, 43, None),
    (3, 44, "random"),
    (4, 45, None),
    (4, 46, "random"),
)


def audiences(state: State) -> list[int | None]:
    return [None, *range(state.players)]


def playout(
    players: int, seed: int, layout: str | None
) -> Iterator[tuple[State, Action]]:
    """(state, action) at every step of a seeded random game, undoing often."""
    rng = random.Random(seed)
    state = new_game(players, seed, {"layout": layout})
    while not is_over(state):
        actions = legal_actions(state)
        undo = [a for a in actions if a.type == "undo"]
        action = undo[0] if undo and rng.random() < 0.3 else rng.choice(actions)
        yield state, action
        state = apply(state, action)
    yield state, Action("end")


def check_view(state: State) -> None:
    """Every audience's view equals the reference, as values and as JSON text."""
    for seat in audiences(state):
        view = view_for(state, seat)
        expected = reference_view(state, seat)
        assert view == expected
        assert json.dumps(view) == json.dumps(expected)


def same_value(a: Any, b: Any) -> bool:
    """Equal as a view shows it: dicts in the same order too."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a.items()) == list(b.items())
    return type(a) is type(b) and bool(a == b)


@pytest.mark.parametrize(("players", "seed", "layout"), GAMES)
def test_views_equal_the_reference_at_every_step_as_the_server_views_them(
    players: int, seed: int, layout: str | None
) -> None:
    """Each state is viewed as it comes, so each view is built from its parent's."""
    for state, _ in playout(players, seed, layout):
        check_view(state)


@pytest.mark.parametrize(("players", "seed", "layout"), GAMES)
def test_orjson_text_is_byte_identical(
    players: int, seed: int, layout: str | None
) -> None:
    orjson = pytest.importorskip("orjson")
    for step, (state, _) in enumerate(playout(players, seed, layout)):
        for seat in audiences(state):
            assert orjson.dumps(view_for(state, seat)) == orjson.dumps(
                reference_view(state, seat)
            ), f"step {step}, seat {seat}"


@pytest.mark.parametrize(("players", "seed", "layout"), GAMES[:3])
def test_views_equal_the_reference_when_only_some_states_are_viewed(
    players: int, seed: int, layout: str | None
) -> None:
    """Lineages reach over states never viewed (a view every third step)."""
    for step, (state, _) in enumerate(playout(players, seed, layout)):
        if step % 3 == 0:
            check_view(state)


@pytest.mark.parametrize(("players", "seed", "layout"), GAMES)
def test_unchanged_parts_are_the_parents_objects(
    players: int, seed: int, layout: str | None
) -> None:
    """From a viewed state to the next (an undo aside: it goes back to its checkpoint), a
    part whose fields are all equal is the parent's object; a shared part is equal."""
    previous: tuple[State, dict[str, Any], Action] | None = None
    for state, action in playout(players, seed, layout):
        view = view_for(state, None)
        if previous is not None and previous[2].type != "undo":
            parent, before, _ = previous
            for key, fields in PART_FIELDS.items():
                unchanged = all(
                    same_value(getattr(parent, f), getattr(state, f)) for f in fields
                )
                if unchanged:
                    assert view[key] is before[key], key
                if view[key] is before[key]:
                    assert view[key] == reference_view(state, None)[key], key
        previous = (state, view, action)


def test_every_audience_shares_every_value_but_the_viewer() -> None:
    state = next(
        s for s, _ in playout(3, 7, None) if s.turn > 6 and s.phase == "special"
    )
    views = [view_for(state, seat) for seat in audiences(state)]
    for view, seat in zip(views, audiences(state)):
        assert view["viewer"] == seat
        assert list(view) == list(reference_view(state, seat))
        for key, value in view.items():
            if key != "viewer":
                assert value is views[0][key], key


def test_each_call_returns_a_new_top_level_dict() -> None:
    state = game()
    first = view_for(state, 0)
    first["viewer"] = 1
    assert view_for(state, 0)["viewer"] == 0
    assert view_for(state, 0) is not view_for(state, 0)


def test_a_choose_step_shares_the_map() -> None:
    parent = game()
    before = view_for(parent, None)
    child = apply(parent, Action("choose", pile=0))
    after = view_for(child, 0)
    for key in ("layout", "cells", "tiles", "spaces", "tokens", "market", "discarded"):
        assert after[key] is before[key], key
    assert after["carpet"] is not before["carpet"]
    assert after["carpet"] != before["carpet"]
    assert after["hand"] is not None and before["hand"] is None


def test_a_placement_collecting_a_gem_changes_the_cells() -> None:
    parent = apply(game(), Action("choose", pile=0))
    before = view_for(parent, None)
    action = next(
        a for a in legal_actions(parent) if any(preview(parent, a)["gems"].values())
    )
    child = apply(parent, action)
    after = view_for(child, None)
    assert after["cells"] is not before["cells"]
    assert after["cells"] != before["cells"]
    assert after["cells"] == reference_view(child, None)["cells"]
    assert after["tiles"] is not before["tiles"]
    assert after["spaces"] != before["spaces"]
    for key in ("layout", "tokens", "market", "discarded"):
        assert after[key] is before[key], key
    # Cells without a gem taken are the parent's entries.
    changed = [
        i for i, (a, b) in enumerate(zip(after["cells"], before["cells"])) if a is not b
    ]
    assert changed and all(before["cells"][i]["gem"] for i in changed)
    assert all(not after["cells"][i]["gem"] for i in changed)


def test_an_undo_to_the_checkpoint_gives_back_its_view() -> None:
    parent = apply(game(), Action("choose", pile=0))
    before = view_for(parent, None)
    placed = apply(parent, legal_actions(parent)[0])
    view_for(placed, None)
    back = apply(placed, Action("undo"))
    assert view_for(back, None)["cells"] is before["cells"]
    check_view(back)


def test_a_decoded_state_shares_nothing_yet_views_the_same() -> None:
    state = next(s for s, _ in playout(4, 9, "random") if s.turn > 10)
    decoded = decode_state(encode_state(state))
    assert LINEAGE not in decoded.cache
    assert view_for(decoded, 1) == view_for(state, 1)
    assert view_for(decoded, None)["cells"] is not view_for(state, None)["cells"]


def test_a_lineage_is_dropped_after_many_evolves_without_a_view() -> None:
    state = game()
    view_for(state, None)
    for _ in range(MAX_LINEAGE):
        state = state.evolve()
    assert LINEAGE in state.cache
    state = state.evolve(turn=state.turn + 1)
    assert LINEAGE not in state.cache
    check_view(state)


def test_changes_through_evolve_are_seen_whatever_the_field() -> None:
    """A view follows any change made with evolve, even one no rule makes."""
    state = next(s for s, _ in playout(3, 11, None) if s.turn > 8 and s.tokens)
    view_for(state, None)
    changes: dict[str, Any] = {
        "gems_on_board": frozenset(),
        "fountains": tuple(reversed(state.fountains)),
        "tokens_left": dict(reversed(list(state.tokens_left.items()))),
        "tokens": state.tokens[1:],
        "assistants": {**state.assistants, next(iter(state.geo.placeable)): 1},
        "flowers": tuple(f + 1 if f > 0 else f for f in state.flowers),
        "skills": tuple({**s, "A": ("red",)} for s in state.skills),
        "market_trees": frozenset(),
        "placed": state.placed[:-1],
    }
    for name, value in changes.items():
        check_view(state.evolve(**{name: value}))
